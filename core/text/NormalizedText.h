#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// Text on its way through a tokenizer's normalisers, remembering for every byte where in the
// user's original text the character it came from lies, so each token can carry its character
// offsets however the text was rewritten (as Hugging Face tokenizers' NormalizedString does).
class NormalizedText {
public:
    explicit NormalizedText(const std::string& original);  // valid UTF-8, checked by the caller

    const std::string& text() const { return text_; }
    // [begin, end) byte offsets in the original text of the character written at byte `i` of text().
    size_t originalBegin(size_t i) const { return begin_[i]; }
    size_t originalEnd(size_t i) const { return end_[i]; }

    // One normaliser step of the tokenizer description (docs/model-format.md, "Tokenizers"):
    // {"type": "nfkc"|"nfc"|"nfd"|"casefold"|"lowercase"|"strip_accents"|"strip"|"replace", ...}.
    // Throws Error for an unknown type or a bad pattern.
    void apply(const nlohmann::json& step);
    // Checks a step without text to apply it to (so a model file is refused at load, not at the first sentence).
    static void validate(const nlohmann::json& step);

    // utf8proc normalisation (`options`: utf8proc_option_t) one starter-led segment at a time, so
    // every output byte maps back to the segment it came from.
    void normalizeUnicode(int options);
    void lowercase();       // per character, as Python's str.lower()
    void stripAccents();    // drops combining marks (category Mn)
    void strip();           // leading and trailing whitespace
    void replace(const std::string& pattern, const std::string& content);  // ECMAScript regex, every match

private:
    struct Piece {
        std::string bytes;
        size_t begin, end;  // original span
    };
    void rebuild(const std::vector<Piece>& pieces);

    std::string text_;
    std::vector<size_t> begin_, end_;  // [text_.size()]
};

}  // namespace alignscope::core
