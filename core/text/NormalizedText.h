#pragma once
#include "core/Error.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace alignscope::core {

class ReplacePattern;

// A tokenizer would make a line longer than it may be (a normaliser of a model file that expands
// text). The message says what ("the tokenizer expands this line of 25 characters beyond 200
// characters ..."); detail() is the same without its subject, so a caller that knows the file can
// name it instead ("the source tokenizer of 'f.pt' expands ...").
class TextExpansionError : public Error {
public:
    explicit TextExpansionError(const std::string& detail, const std::string& subject = "the tokenizer")
        : Error(subject + " " + detail), detail_(detail) {}
    const std::string& detail() const { return detail_; }

private:
    std::string detail_;
};

// Limits on a line's text at every stage of a tokenizer (a description comes from a model file,
// and its normalisers may expand text): a line has at most Tokenizer::kMaxLineCharacters characters
// before normalisation and again after it; while normalising, each step writes at most kMaxGrowth
// times the line's characters (at least kMaxGrowth * kMaxGrowth) and never more than
// kMaxNormalizedCharacters, counted as it writes.
struct TextBudget {
    static const size_t kMaxGrowth;  // these two: python/alignscope/model_checks.json
    static const size_t kMaxNormalizedCharacters;
    // The characters a normalising step (or SentencePiece's pieces) may make of a line of `characters`.
    static size_t forLine(size_t characters) { return std::min(kMaxNormalizedCharacters, kMaxGrowth * std::max(characters, kMaxGrowth)); }
};

// Text on its way through a tokenizer's normalisers, remembering for every byte where in the
// user's original text the character it came from lies, so each token can carry its character
// offsets however the text was rewritten (as Hugging Face tokenizers' NormalizedString does).
// Every step writes at most `maxCharacters` characters, counted while it writes: a normaliser from
// a model file that expands text (a replacement repeated a thousand times, NFKC of U+FDFA) throws
// TextExpansionError before it fills memory.
class NormalizedText {
public:
    // `original`: valid UTF-8, checked by the caller.
    explicit NormalizedText(const std::string& original, size_t maxCharacters = std::numeric_limits<size_t>::max());

    const std::string& text() const { return text_; }
    size_t characters() const { return characters_; }
    // [begin, end) byte offsets in the original text of the character written at byte `i` of text().
    size_t originalBegin(size_t i) const { return begin_[i]; }
    size_t originalEnd(size_t i) const { return end_[i]; }

    // utf8proc normalisation (`options`: utf8proc_option_t) one starter-led segment at a time, so
    // every output byte maps back to the segment it came from.
    void normalizeUnicode(int options);
    void lowercase();                             // per character, as Python's str.lower()
    void stripAccents();                          // drops combining marks (category Mn)
    void strip();                                 // leading and trailing whitespace
    void replace(const ReplacePattern& pattern);  // every match, left to right

    // Characters (code points) of valid UTF-8 text.
    static size_t countCharacters(std::string_view text);

private:
    class Writer;

    std::string text_;
    std::vector<size_t> begin_, end_;  // [text_.size()]
    size_t characters_ = 0;
    size_t inputCharacters_ = 0;
    size_t maxCharacters_;
};

}  // namespace alignscope::core
