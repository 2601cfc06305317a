#include "core/model/ReverseModel.h"

#include "core/Error.h"
#include "core/model/Model.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include <filesystem>
#include <utility>

namespace alignscope::core {

void ReverseModel::check(const Model& forward, const Model& reverse) {
    const auto refuse = [&](const std::string& what) {
        throw Error("'" + reverse.origin() + "' is not the reverse model of '" + forward.origin() + "': " + what +
                    " (a reverse model reads the forward model's target side and writes its source side)");
    };
    std::error_code ec;
    if (reverse.origin() == forward.origin() || std::filesystem::equivalent(reverse.origin(), forward.origin(), ec))
        refuse("it is the same file");
    if (reverse.sourceVocabulary().tokens() != forward.targetVocabulary().tokens() ||
        reverse.sourceTokenizer().toJson() != forward.targetTokenizer().toJson())
        refuse("its source vocabulary or tokenizer is not the forward model's target one");
    if (reverse.targetVocabulary().tokens() != forward.sourceVocabulary().tokens() ||
        reverse.targetTokenizer().toJson() != forward.sourceTokenizer().toJson())
        refuse("its target vocabulary or tokenizer is not the forward model's source one");
    const auto language = [](const Model& m, const char* key) {
        const auto it = m.metadata().find(key);
        return it != m.metadata().end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    for (const auto& [mine, theirs] : {std::pair{"source_language", "target_language"}, std::pair{"target_language", "source_language"}}) {
        const auto a = language(forward, mine), b = language(reverse, theirs);
        if (!a.empty() && !b.empty() && a != b)
            refuse(std::string("its ") + theirs + " is '" + b + "', the forward model's " + mine + " '" + a + "'");
    }
}

}  // namespace alignscope::core
