#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// One token as the model sees it, with where it came from in the user's text.
struct Token {
    std::string text;  // normalised token text
    int word = 0;      // index of the whitespace-delimited word it belongs to; -1 for a space token
    size_t begin = 0;  // [begin, end): byte offsets of the characters it came from in the input
    size_t end = 0;
};

// Text -> tokens, built from a description as Hugging Face tokenizers builds one (normalisers ->
// pre-tokenizer -> model -> decoder): the kinds are "word" (AlignScope's own), "whitespace"
// (pre-tokenized text), "char" and "sentencepiece"; normalisers reproduce other toolkits'
// preprocessing (d2l, the PyTorch tutorial's normalizeString, Keras). The JSON is stored in the
// model file (docs/model-format.md, "Tokenizers"). Immutable and thread-safe; copies share state.
class Tokenizer {
public:
    enum class Kind { Word, Whitespace, Char, SentencePiece };
    // The word kind's switches (v1 files' keys).
    struct Settings {
        bool lowercase = true;         // case-fold every token
        bool splitPunctuation = true;  // punctuation becomes tokens of its own
        bool splitElision = false;     // French elision: "l'homme" -> "l'" "homme"
    };

    // Characters of a line for every tokenizer, before and after normalisation; NormalizedText.h's
    // TextBudget bounds each normalising step, so tokenize throws Error.
    static constexpr size_t kMaxLineCharacters = 10000;

    Tokenizer();  // the word kind with default settings
    explicit Tokenizer(Settings settings);

    Kind kind() const;
    const Settings& settings() const;  // meaningful for the word kind
    std::string describe() const;      // one line for reports, e.g. "word, NFKC, lower-cased"

    // Throws Error naming the byte offset when `text` is not valid UTF-8, for a NUL character, or for a line too long (above).
    std::vector<Token> tokenize(const std::string& text) const;
    // Joins tokens into readable text with this tokenizer's decoder.
    std::string detokenize(const std::vector<std::string>& tokens) const;
    // [T] for each token, the word of detokenize(tokens) it is written in (-1 for a space token),
    // so links can be given over the words a reader sees.
    std::vector<int> detokenizedWords(const std::vector<std::string>& tokens) const;

    // Returns the byte offset of the first invalid UTF-8 sequence, or -1 when `text` is valid.
    static long invalidUtf8Offset(const std::string& text);
    // True when `text` shows nothing: only Unicode spaces, control and format characters (zero-width
    // spaces and joiners, direction marks) and other default-ignorable code points. Such a line is
    // blank, as a line of spaces is. False for invalid UTF-8, which the tokenizer reports instead.
    static bool isBlank(const std::string& text);

    nlohmann::json toJson() const;
    // Throws Error naming the first problem of the description.
    static Tokenizer fromJson(const nlohmann::json& json);
    // The sentencepiece kind over a serialised .model file (SentencePieceModel::train's result).
    static Tokenizer sentencePiece(const std::string& serializedModel);
    // A SentencePiece tokenizer's pieces in id order (its vocabulary: specials, bytes, pieces);
    // empty for the other kinds, whose vocabulary comes from counting a corpus.
    std::vector<std::string> pieces() const;

private:
    struct Impl;
    std::shared_ptr<const Impl> d_;
};

}  // namespace alignscope::core
