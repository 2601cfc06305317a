#include "core/Tokenizer.h"

#include "core/Error.h"

#include <utf8proc.h>

#include <memory>

namespace alignscope::core {
namespace {

std::string encodeCodepoint(utf8proc_int32_t cp) {
    utf8proc_uint8_t buf[4];
    const auto n = utf8proc_encode_char(cp, buf);
    return std::string(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

bool isSpace(utf8proc_int32_t cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r' || cp == '\v' || cp == '\f') return true;
    const auto cat = utf8proc_category(cp);
    return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

bool isControl(utf8proc_int32_t cp) {
    const auto cat = utf8proc_category(cp);
    return cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF;
}

bool isPunctuation(utf8proc_int32_t cp) {
    const auto cat = utf8proc_category(cp);
    return (cat >= UTF8PROC_CATEGORY_PC && cat <= UTF8PROC_CATEGORY_PO) ||
           (cat >= UTF8PROC_CATEGORY_SM && cat <= UTF8PROC_CATEGORY_SO);
}

bool isWordChar(utf8proc_int32_t cp) {
    return !isSpace(cp) && !isPunctuation(cp) && !isControl(cp);
}

std::vector<utf8proc_int32_t> decode(const std::string& s) {
    std::vector<utf8proc_int32_t> out;
    auto p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(s.size());
    while (left > 0) {
        utf8proc_int32_t cp = 0;
        const auto n = utf8proc_iterate(p, left, &cp);
        if (n <= 0) break;  // validated before, cannot happen
        out.push_back(cp);
        p += n;
        left -= n;
    }
    return out;
}

}  // namespace

long Tokenizer::invalidUtf8Offset(const std::string& text) {
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

std::vector<Token> Tokenizer::tokenize(const std::string& text) const {
    const long bad = invalidUtf8Offset(text);
    if (bad >= 0) throw Error("input is not valid UTF-8 (bad byte at offset " + std::to_string(bad) + ")");
    if (text.find('\0') != std::string::npos) throw Error("input contains a NUL character");

    int options = UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
    if (settings_.lowercase) options |= UTF8PROC_CASEFOLD;
    utf8proc_uint8_t* mapped = nullptr;
    const auto len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.c_str()), 0, &mapped,
                                  static_cast<utf8proc_option_t>(options | UTF8PROC_NULLTERM));
    if (len < 0) throw Error(std::string("cannot normalise input: ") + utf8proc_errmsg(len));
    std::unique_ptr<utf8proc_uint8_t, decltype(&free)> owner(mapped, &free);
    auto cps = decode(std::string(reinterpret_cast<char*>(mapped), static_cast<size_t>(len)));

    std::vector<Token> tokens;
    std::string current;
    int word = 0;
    bool inWord = false;  // whether the current whitespace word has produced anything yet
    auto flush = [&] {
        if (!current.empty()) tokens.push_back({current, word});
        current.clear();
    };
    for (size_t i = 0; i < cps.size(); ++i) {
        auto cp = cps[i];
        if (cp == 0x2019 || cp == 0x02BC) cp = '\'';  // typographic apostrophes
        if (isSpace(cp)) {
            flush();
            if (inWord) ++word;
            inWord = false;
            continue;
        }
        if (isControl(cp)) continue;
        inWord = true;
        if (!settings_.splitPunctuation || isWordChar(cp)) {
            current += encodeCodepoint(cp);
            continue;
        }
        const bool between = !current.empty() && i + 1 < cps.size() && isWordChar(cps[i + 1]);
        if (between && cp == '\'') {
            current += '\'';
            if (settings_.splitElision) flush();
            continue;
        }
        if (between && cp == '-') {
            current += '-';
            continue;
        }
        flush();
        tokens.push_back({encodeCodepoint(cp), word});
    }
    flush();
    return tokens;
}

namespace {

// For each token, whether detokenize writes it without a space before it (always the first).
std::vector<bool> writtenWithoutSpace(const std::vector<std::string>& tokens) {
    static const std::vector<std::string> noSpaceBefore = {".", ",", ")", "]", "}", "%", "…"};
    std::vector<bool> glued;
    bool glueNext = true;
    for (const auto& t : tokens) {
        bool glue = glueNext;
        for (const auto& p : noSpaceBefore)
            if (t == p) glue = true;
        glued.push_back(glue);
        glueNext = t == "(" || t == "[" || (t.size() > 1 && t.back() == '\'');
    }
    return glued;
}

}  // namespace

std::string Tokenizer::detokenize(const std::vector<std::string>& tokens) {
    const auto glued = writtenWithoutSpace(tokens);
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (!glued[i]) out += ' ';
        out += tokens[i];
    }
    return out;
}

std::vector<int> Tokenizer::detokenizedWords(const std::vector<std::string>& tokens) {
    const auto glued = writtenWithoutSpace(tokens);
    std::vector<int> words;
    int word = -1;
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i == 0 || !glued[i]) ++word;
        words.push_back(word);
    }
    return words;
}

nlohmann::json Tokenizer::toJson() const {
    return {{"kind", "word"},
            {"normalization", "NFKC"},
            {"lowercase", settings_.lowercase},
            {"split_punctuation", settings_.splitPunctuation},
            {"split_elision", settings_.splitElision}};
}

Tokenizer Tokenizer::fromJson(const nlohmann::json& json) {
    if (!json.is_object()) throw Error("tokenizer settings must be a JSON object");
    if (json.value("kind", "word") != "word")
        throw Error("unsupported tokenizer kind '" + json.value("kind", "") + "' (this build knows 'word')");
    Settings s;
    s.lowercase = json.value("lowercase", s.lowercase);
    s.splitPunctuation = json.value("split_punctuation", s.splitPunctuation);
    s.splitElision = json.value("split_elision", s.splitElision);
    return Tokenizer(s);
}

}  // namespace alignscope::core
