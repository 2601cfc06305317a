// libFuzzer target: a tokenizer description (JSON, as a model file stores it) and a line of text,
// separated by the first NUL byte: the description is parsed, the line tokenised, its offsets checked
// against the line and the tokens detokenised; a line is also tested for blankness.
#include "core/Error.h"
#include "core/text/Tokenizer.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto split = input.find('\0');
    const std::string description = split == std::string::npos ? "{}" : input.substr(0, split);
    const std::string line = split == std::string::npos ? input : input.substr(split + 1);
    alignscope::core::Tokenizer::isBlank(line);
    const auto json = nlohmann::json::parse(description, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return 0;
    try {
        const auto tokenizer = alignscope::core::Tokenizer::fromJson(json);
        const auto tokens = tokenizer.tokenize(line);
        std::vector<std::string> texts;
        for (const auto& t : tokens) {
            // Every token's offsets point inside the line (views underline them there).
            if (t.begin > t.end || t.end > line.size()) std::abort();
            texts.push_back(t.text);
        }
        tokenizer.detokenize(texts);
        tokenizer.detokenizedWords(texts);
    } catch (const alignscope::core::Error&) {
    }
    return 0;
}
