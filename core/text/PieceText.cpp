#include "core/text/PieceText.h"

#include "core/text/Utf8.h"

namespace alignscope::core {

const std::string& PieceText::wordStart() {
    static const std::string mark = "\xE2\x96\x81";  // U+2581
    return mark;
}

bool PieceText::startsWord(const std::string& piece) { return piece.compare(0, wordStart().size(), wordStart()) == 0; }

int PieceText::fallbackByte(const std::string& piece) {
    if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return -1;
    int value = 0;
    for (size_t k = 3; k < 5; ++k) {
        const char c = piece[k];
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        value = value * 16 + d;
    }
    return value;
}

std::string PieceText::join(const std::vector<std::string>& pieces) {
    std::string text;
    for (const auto& p : pieces) {
        if (const int byte = fallbackByte(p); byte >= 0) {
            text += static_cast<char>(byte);
            continue;
        }
        std::string piece = p;
        for (size_t at = piece.find(wordStart()); at != std::string::npos; at = piece.find(wordStart(), at + 1))
            piece.replace(at, wordStart().size(), " ");
        text += piece;
    }
    if (utf8::invalidOffset(text) < 0) return text;
    std::string valid;
    size_t at = 0;
    while (at < text.size()) {
        utf8proc_int32_t cp;
        const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + at),
                                        static_cast<utf8proc_ssize_t>(text.size() - at), &cp);
        if (n <= 0) {
            valid += "\xEF\xBF\xBD";
            ++at;
        } else {
            valid.append(text, at, static_cast<size_t>(n));
            at += static_cast<size_t>(n);
        }
    }
    return valid;
}

const std::string& PieceText::joinMark() {
    static const std::string mark = "\xE2\x81\x80";  // U+2040
    return mark;
}

std::vector<std::string> PieceText::labels(const std::vector<std::string>& tokens) {
    std::vector<std::string> out(tokens);
    for (size_t i = 0; i < tokens.size();) {
        const int lead = fallbackByte(tokens[i]);
        // The bytes a lead byte announces (UTF-8's own rule); 0 for a continuation or invalid lead.
        const size_t n = lead < 0                ? 0
                         : lead < 0x80           ? 1
                         : (lead & 0xE0) == 0xC0 ? 2
                         : (lead & 0xF0) == 0xE0 ? 3
                         : (lead & 0xF8) == 0xF0 ? 4
                                                 : 0;
        if (n == 0 || i + n > tokens.size()) {
            ++i;
            continue;
        }
        std::string bytes(1, static_cast<char>(lead));
        for (size_t k = 1; k < n; ++k) {
            const int b = fallbackByte(tokens[i + k]);
            if (b < 0 || (b & 0xC0) != 0x80) break;
            bytes += static_cast<char>(b);
        }
        utf8proc_int32_t cp = -1;
        const auto used = bytes.size() == n ? utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(bytes.data()),
                                                               static_cast<utf8proc_ssize_t>(n), &cp)
                                            : -1;
        // A control character or a space keeps its byte piece: as a label it would be invisible.
        const auto category = cp < 0 ? UTF8PROC_CATEGORY_CN : utf8proc_category(cp);
        if (used != static_cast<utf8proc_ssize_t>(n) || cp < 0 || category == UTF8PROC_CATEGORY_CC || category == UTF8PROC_CATEGORY_CN ||
            utf8::isSpace(cp)) {
            ++i;
            continue;
        }
        out[i] = bytes;
        for (size_t k = 1; k < n; ++k) out[i + k] = joinMark();
        i += n;
    }
    return out;
}

}  // namespace alignscope::core
