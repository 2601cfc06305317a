#include "core/text/NormalizedText.h"

#include "core/Error.h"
#include "core/text/Utf8.h"

#include <utf8proc.h>

#include <algorithm>
#include <memory>
#include <regex>

namespace alignscope::core {
namespace {

using utf8::codePoints;
using utf8::encode;
using utf8::isSpace;

std::string mapped(const std::string& s, int options) {
    utf8proc_uint8_t* out = nullptr;
    const auto len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()),
                                  &out, static_cast<utf8proc_option_t>(options));
    if (len < 0) throw Error(std::string("cannot normalise input: ") + utf8proc_errmsg(len));
    std::unique_ptr<utf8proc_uint8_t, decltype(&free)> owner(out, &free);
    return std::string(reinterpret_cast<char*>(out), static_cast<size_t>(len));
}

std::regex compiled(const std::string& pattern) {
    try {
        return std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw Error("normaliser pattern '" + pattern + "' is not a valid regular expression: " + e.what());
    }
}

}  // namespace

NormalizedText::NormalizedText(const std::string& original) : text_(original) {
    begin_.resize(text_.size());
    end_.resize(text_.size());
    for (const auto& c : codePoints(text_))
        for (size_t k = 0; k < c.size; ++k) {
            begin_[c.at + k] = c.at;
            end_[c.at + k] = c.at + c.size;
        }
}

void NormalizedText::rebuild(const std::vector<Piece>& pieces) {
    std::string text;
    std::vector<size_t> begin, end;
    for (const auto& p : pieces) {
        text += p.bytes;
        begin.insert(begin.end(), p.bytes.size(), p.begin);
        end.insert(end.end(), p.bytes.size(), p.end);
    }
    text_ = std::move(text);
    begin_ = std::move(begin);
    end_ = std::move(end);
}

void NormalizedText::normalizeUnicode(int options) {
    // A segment is a starter (combining class 0) and the marks after it: composition and
    // reordering stay inside one, so normalising segment by segment gives the whole text's result.
    const auto cps = codePoints(text_);
    std::vector<Piece> pieces;
    for (size_t i = 0; i < cps.size();) {
        size_t j = i + 1;
        while (j < cps.size() && utf8proc_get_property(cps[j].cp)->combining_class != 0) ++j;
        const size_t from = cps[i].at, to = cps[j - 1].at + cps[j - 1].size;
        pieces.push_back({mapped(text_.substr(from, to - from), options | UTF8PROC_STABLE), begin_[from], end_[to - 1]});
        i = j;
    }
    rebuild(pieces);
}

void NormalizedText::lowercase() {
    std::vector<Piece> pieces;
    for (const auto& c : codePoints(text_))
        pieces.push_back({encode(utf8proc_tolower(c.cp)), begin_[c.at], end_[c.at + c.size - 1]});
    rebuild(pieces);
}

void NormalizedText::stripAccents() {
    std::vector<Piece> pieces;
    for (const auto& c : codePoints(text_))
        if (utf8proc_category(c.cp) != UTF8PROC_CATEGORY_MN)
            pieces.push_back({text_.substr(c.at, c.size), begin_[c.at], end_[c.at + c.size - 1]});
    rebuild(pieces);
}

void NormalizedText::strip() {
    const auto cps = codePoints(text_);
    size_t first = 0, last = cps.size();
    while (first < last && isSpace(cps[first].cp)) ++first;
    while (last > first && isSpace(cps[last - 1].cp)) --last;
    std::vector<Piece> pieces;
    for (size_t i = first; i < last; ++i)
        pieces.push_back({text_.substr(cps[i].at, cps[i].size), begin_[cps[i].at], end_[cps[i].at + cps[i].size - 1]});
    rebuild(pieces);
}

void NormalizedText::replace(const std::string& pattern, const std::string& content) {
    const auto re = compiled(pattern);
    std::vector<Piece> pieces;
    size_t done = 0;
    auto keep = [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) pieces.push_back({std::string(1, text_[i]), begin_[i], end_[i]});
    };
    for (auto it = std::sregex_iterator(text_.begin(), text_.end(), re); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const size_t at = static_cast<size_t>(m.position(0)), len = static_cast<size_t>(m.length(0));
        keep(done, at);
        // The replacement belongs to the characters it replaced (or, for an empty match, to the next one).
        size_t b = 0, e = 0;
        if (len > 0) {
            b = begin_[at];
            e = end_[at + len - 1];
        } else if (at < text_.size()) {
            b = e = begin_[at];
        } else if (!text_.empty()) {
            b = e = end_.back();
        }
        pieces.push_back({m.format(content), b, e});
        done = at + len;
    }
    keep(done, text_.size());
    rebuild(pieces);
    // Patterns see bytes: one that cuts a character in two would leave text no tokenizer can read.
    if (utf8::invalidOffset(text_) >= 0)
        throw Error("normaliser pattern '" + pattern + "' splits a multi-byte character (patterns see UTF-8 bytes: use ASCII classes)");
}

void NormalizedText::validate(const nlohmann::json& step) {
    if (!step.is_object() || !step.contains("type") || !step["type"].is_string())
        throw Error("a normaliser must be an object with a \"type\"");
    const auto type = step["type"].get<std::string>();
    static const char* known[] = {"nfkc", "nfc", "nfd", "nfkd", "casefold", "lowercase", "strip_accents", "strip", "replace"};
    if (std::find(std::begin(known), std::end(known), type) == std::end(known))
        throw Error("unknown normaliser '" + type +
                    "' (nfkc, nfc, nfd, nfkd, casefold, lowercase, strip_accents, strip or replace)");
    if (type == "replace") {
        if (!step.contains("pattern") || !step["pattern"].is_string() || !step.contains("content") || !step["content"].is_string())
            throw Error("a \"replace\" normaliser needs string \"pattern\" and \"content\"");
        compiled(step["pattern"].get<std::string>());
    }
}

void NormalizedText::apply(const nlohmann::json& step) {
    validate(step);
    const auto type = step["type"].get<std::string>();
    if (type == "nfkc") normalizeUnicode(UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
    else if (type == "nfc") normalizeUnicode(UTF8PROC_COMPOSE);
    else if (type == "nfd") normalizeUnicode(UTF8PROC_DECOMPOSE);
    else if (type == "nfkd") normalizeUnicode(UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT);
    else if (type == "casefold") normalizeUnicode(UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
    else if (type == "lowercase") lowercase();
    else if (type == "strip_accents") stripAccents();
    else if (type == "strip") strip();
    else replace(step["pattern"].get<std::string>(), step["content"].get<std::string>());
}

}  // namespace alignscope::core
