#pragma once
#include <memory>
#include <nlohmann/json.hpp>

namespace alignscope::core {

class NormalizedText;
class ReplacePattern;

// One normaliser step of a tokenizer description (docs/model-format.md, "Tokenizers"):
// {"type": "nfkc"|"nfc"|"nfd"|"nfkd"|"casefold"|"lowercase"|"strip_accents"|"strip"|"replace", ...},
// checked and compiled once when the description is read, so a model file is refused at load and
// a pattern is not compiled again for every line. Immutable; copies share the compiled pattern.
class Normalizer {
public:
    // Throws Error for an unknown type, a missing or mistyped key, or a pattern that cannot be used.
    explicit Normalizer(const nlohmann::json& step);

    void apply(NormalizedText& text) const;  // throws TextExpansionError past the text's budget

private:
    enum class Type { Nfkc, Nfc, Nfd, Nfkd, Casefold, Lowercase, StripAccents, Strip, Replace };
    Type type_ = Type::Nfkc;
    std::shared_ptr<const ReplacePattern> replace_;
};

}  // namespace alignscope::core
