#include "core/model/AttributeJson.h"

#include "ModelCheckLimits.h"

#include "core/platform/BoundedFile.h"
#include "core/Error.h"

#include <algorithm>

namespace alignscope::core {

const size_t AttributeJson::kMaxDepth = model_checks::kMaxJsonDepth;
const size_t AttributeJson::kMaxBytes = model_checks::kMaxJsonBytes;
const size_t AttributeJson::kMaxTokenizerBytes = model_checks::kMaxTokenizerBytes;
size_t AttributeJson::depth(const std::string& text, size_t limit) {
    size_t depth = 0, deepest = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit) return deepest;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

nlohmann::json AttributeJson::parse(const std::string& text, size_t maxBytes) {
    if (text.size() > maxBytes)
        throw Error("is " + BoundedFile::sizeText(text.size()) + "; at most " + BoundedFile::sizeText(maxBytes) + " are read");
    if (depth(text) > kMaxDepth) throw Error("nests objects or lists deeper than " + std::to_string(kMaxDepth) + " levels");
    auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) throw Error("is not valid JSON");
    return json;
}

}  // namespace alignscope::core
