#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace alignscope::core {

// JSON a model file carries in a string attribute (metadata, tokenizer descriptions, specials),
// parsed within limits, since the file is untrusted: metadata nested 100,000 deep took `inspect`
// to 2-4 GB and std::bad_alloc. The nesting is measured on the text before a value is built.
// Torch-free, so a fuzz target can run it (tests/fuzz/FuzzAttributeJson.cpp).
class AttributeJson {
public:
    // The limits come from python/alignscope/model_checks.json (ModelCheckLimits.h, generated).
    static const size_t kMaxDepth;
    static const size_t kMaxBytes;           // metadata, specials
    static const size_t kMaxTokenizerBytes;  // a tokenizer holds a SentencePiece model

    // Throws Error saying what is wrong ("is not valid JSON", "nests deeper than 64 levels",
    // "is 2 MiB; at most 1 MiB"), without the attribute's name, which the caller adds.
    static nlohmann::json parse(const std::string& text, size_t maxBytes = kMaxBytes);
    // The deepest nesting of objects and arrays in `text` (strings skipped), stopping past `limit`.
    static size_t depth(const std::string& text, size_t limit = kMaxDepth);
};

}  // namespace alignscope::core
