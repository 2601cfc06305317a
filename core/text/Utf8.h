#pragma once
// Core-internal: the code points of UTF-8 text, for the tokenizer and its normalisers.
#include <utf8proc.h>

#include <string>
#include <vector>

namespace alignscope::core::utf8 {

struct CodePoint {
    utf8proc_int32_t cp;
    size_t at, size;  // its bytes in the text
};

// `s` must be valid UTF-8 (checked before); decoding stops at the first invalid byte.
inline std::vector<CodePoint> codePoints(const std::string& s) {
    std::vector<CodePoint> out;
    auto p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    size_t at = 0;
    while (at < s.size()) {
        utf8proc_int32_t cp = 0;
        const auto n = utf8proc_iterate(p + at, static_cast<utf8proc_ssize_t>(s.size() - at), &cp);
        if (n <= 0) break;
        out.push_back({cp, at, static_cast<size_t>(n)});
        at += static_cast<size_t>(n);
    }
    return out;
}

inline std::string encode(utf8proc_int32_t cp) {
    utf8proc_uint8_t buf[4];
    const auto n = utf8proc_encode_char(cp, buf);
    return std::string(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

inline bool isSpace(utf8proc_int32_t cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r' || cp == '\v' || cp == '\f') return true;
    const auto cat = utf8proc_category(cp);
    return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

// The byte offset of the first invalid UTF-8 sequence, or -1 when `text` is valid.
inline long invalidOffset(const std::string& text) {
    auto p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
    utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(text.size());
    long offset = 0;
    while (left > 0) {
        utf8proc_int32_t cp = 0;
        const auto n = utf8proc_iterate(p, left, &cp);
        if (n <= 0 || cp < 0) return offset;
        p += n;
        left -= n;
        offset += n;
    }
    return -1;
}

}  // namespace alignscope::core::utf8
