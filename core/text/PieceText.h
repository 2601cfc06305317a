#pragma once
#include <string>
#include <vector>

namespace alignscope::core {

// How sub-word pieces read as text. SentencePiece marks a word's start with "▁" (U+2581) and, with
// byte fallback, spells a character it has no piece for as one "<0xE2>" piece per UTF-8 byte. The
// tokenizer's decoder and the word-level views' labels both read pieces through here.
class PieceText {
public:
    static const std::string& wordStart();  // "▁"
    static bool startsWord(const std::string& piece);
    static int fallbackByte(const std::string& piece);  // the byte a "<0xNN>" piece stands for, else -1
    // Pieces as text: "▁" as a space, byte pieces as their bytes; bytes that do not form UTF-8 (half
    // a character) as U+FFFD. Other tokens (words, characters) are joined as they are.
    static std::string join(const std::vector<std::string>& pieces);
};

}  // namespace alignscope::core
