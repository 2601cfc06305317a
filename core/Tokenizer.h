#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// One token as the model sees it, with the whitespace word of the (normalised) input it came from,
// so alignments can be reported over the user's words even when a word splits into pieces.
struct Token {
    std::string text;  // normalised token text
    int word = 0;      // index of the whitespace-delimited word it belongs to
};

// Word-level tokeniser: Unicode NFKC normalisation (which also turns the corpus's no-break spaces
// into plain spaces), optional case folding, punctuation split into tokens of its own.
// Stateless and thread-safe.
class Tokenizer {
public:
    struct Settings {
        bool lowercase = true;         // case-fold every token
        bool splitPunctuation = true;  // punctuation becomes tokens of its own
        bool splitElision = false;     // French elision: "l'homme" -> "l'" "homme"
    };

    Tokenizer() = default;
    explicit Tokenizer(Settings settings) : settings_(settings) {}

    const Settings& settings() const { return settings_; }

    // Throws Error naming the byte offset when `text` is not valid UTF-8.
    std::vector<Token> tokenize(const std::string& text) const;
    // Joins tokens into readable text (no space before closing punctuation or after an elision).
    static std::string detokenize(const std::vector<std::string>& tokens);
    // [T] for each token, the whitespace-separated word of detokenize(tokens) it is written in
    // ("qu'" "il" -> one word; "rapide" "." -> one word), so links can be given over those words.
    static std::vector<int> detokenizedWords(const std::vector<std::string>& tokens);

    // Returns the byte offset of the first invalid UTF-8 sequence, or -1 when `text` is valid.
    static long invalidUtf8Offset(const std::string& text);

    nlohmann::json toJson() const;
    static Tokenizer fromJson(const nlohmann::json& json);

private:
    Settings settings_;
};

}  // namespace alignscope::core
