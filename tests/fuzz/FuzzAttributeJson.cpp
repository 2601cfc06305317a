// libFuzzer target: the JSON a model file carries in its string attributes (metadata, specials,
// tokenizer descriptions), read as the loader reads them: parsed within AttributeJson's limits,
// then taken as special ids and as a tokenizer description, whose tokenizer runs on a short line.
// What is accepted must be within the limits; nothing may crash, hang or allocate without bound.
#include "core/Error.h"
#include "core/model/AttributeJson.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using alignscope::core::AttributeJson;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    nlohmann::json json;
    try {
        json = AttributeJson::parse(text, AttributeJson::kMaxTokenizerBytes);
    } catch (const alignscope::core::Error&) {
        return 0;
    }
    if (AttributeJson::depth(json.dump(), AttributeJson::kMaxDepth + 1) > AttributeJson::kMaxDepth) std::abort();
    try {
        alignscope::core::SpecialIds::fromJson(json);
    } catch (const alignscope::core::Error&) {
    }
    try {
        const auto tokenizer = alignscope::core::Tokenizer::fromJson(json);
        tokenizer.tokenize("The fifth of March, 1998: l'homme \xef\xb7\xba a aaaa!");
    } catch (const alignscope::core::Error&) {
    }
    return 0;
}
