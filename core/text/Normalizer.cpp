#include "core/text/Normalizer.h"

#include "core/Error.h"
#include "core/text/NormalizedText.h"
#include "core/text/ReplacePattern.h"

#include <utf8proc.h>

#include <iterator>
#include <utility>

namespace alignscope::core {

Normalizer::Normalizer(const nlohmann::json& step) {
    if (!step.is_object() || !step.contains("type") || !step["type"].is_string())
        throw Error("a normaliser must be an object with a \"type\"");
    const auto type = step["type"].get<std::string>();
    static const std::pair<const char*, Type> known[] = {{"nfkc", Type::Nfkc},
                                                         {"nfc", Type::Nfc},
                                                         {"nfd", Type::Nfd},
                                                         {"nfkd", Type::Nfkd},
                                                         {"casefold", Type::Casefold},
                                                         {"lowercase", Type::Lowercase},
                                                         {"strip_accents", Type::StripAccents},
                                                         {"strip", Type::Strip},
                                                         {"replace", Type::Replace}};
    const auto it = std::find_if(std::begin(known), std::end(known), [&](const auto& k) { return type == k.first; });
    if (it == std::end(known))
        throw Error("unknown normaliser '" + type + "' (nfkc, nfc, nfd, nfkd, casefold, lowercase, strip_accents, strip or replace)");
    type_ = it->second;
    if (type_ == Type::Replace) {
        if (!step.contains("pattern") || !step["pattern"].is_string() || !step.contains("content") || !step["content"].is_string())
            throw Error("a \"replace\" normaliser needs string \"pattern\" and \"content\"");
        if (step["pattern"].get_ref<const std::string&>().empty()) throw Error("a \"replace\" normaliser's \"pattern\" must not be empty");
        replace_ = std::make_shared<const ReplacePattern>(step["pattern"].get<std::string>(), step["content"].get<std::string>());
    }
}

void Normalizer::apply(NormalizedText& text) const {
    switch (type_) {
    case Type::Nfkc:
        text.normalizeUnicode(UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
        break;
    case Type::Nfc:
        text.normalizeUnicode(UTF8PROC_COMPOSE);
        break;
    case Type::Nfd:
        text.normalizeUnicode(UTF8PROC_DECOMPOSE);
        break;
    case Type::Nfkd:
        text.normalizeUnicode(UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT);
        break;
    case Type::Casefold:
        text.normalizeUnicode(UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
        break;
    case Type::Lowercase:
        text.lowercase();
        break;
    case Type::StripAccents:
        text.stripAccents();
        break;
    case Type::Strip:
        text.strip();
        break;
    case Type::Replace:
        text.replace(*replace_);
        break;
    }
}

}  // namespace alignscope::core
