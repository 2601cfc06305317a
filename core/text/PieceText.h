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

    // The labels a figure, an export's axis or the page shows for `tokens`: each token as it is,
    // except a run of byte pieces that spells one printable character ("<0xC3>" "<0x9F>"), which
    // reads as that character ("ß") on its first piece and joinMark() on the rest, so a reader
    // sees one letter over its byte rows or columns. Incomplete or invalid runs stay byte pieces.
    // The one rule; page_data.py's piece_labels is its Python copy (docs/architecture.md).
    static std::vector<std::string> labels(const std::vector<std::string>& tokens);
    static const std::string& joinMark();  // "⁀" (U+2040 character tie): "this byte belongs to the letter before"
};

}  // namespace alignscope::core
