#include "core/text/NormalizedText.h"

#include "ModelCheckLimits.h"

#include "core/Error.h"
#include "core/text/ReplacePattern.h"
#include "core/text/Utf8.h"

#include <utf8proc.h>

#include <algorithm>
#include <memory>

namespace alignscope::core {

const size_t TextBudget::kMaxGrowth = model_checks::kMaxGrowth;
const size_t TextBudget::kMaxNormalizedCharacters = model_checks::kMaxNormalizedCharacters;
namespace {

using utf8::codePoints;
using utf8::encode;
using utf8::isSpace;

std::string mapped(const std::string& s, int options) {
    utf8proc_uint8_t* out = nullptr;
    const auto len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()), &out,
                                  static_cast<utf8proc_option_t>(options));
    if (len < 0) throw Error(std::string("cannot normalise input: ") + utf8proc_errmsg(len));
    std::unique_ptr<utf8proc_uint8_t, decltype(&free)> owner(out, &free);
    return std::string(reinterpret_cast<char*>(out), static_cast<size_t>(len));
}

}  // namespace

// The next text of one step, with its offsets, refusing to grow past the budget: each piece is
// counted before it is stored.
class NormalizedText::Writer {
public:
    explicit Writer(NormalizedText& owner) : owner_(owner) {}
    void add(std::string_view bytes, size_t begin, size_t end) {
        characters_ += countCharacters(bytes);
        if (characters_ > owner_.maxCharacters_) refuse();
        text_.append(bytes.data(), bytes.size());
        begin_.insert(begin_.end(), bytes.size(), begin);
        end_.insert(end_.end(), bytes.size(), end);
    }
    // A piece of `bytes` bytes is about to be made: refused when even its bytes pass the budget
    // (a character has at least one), so a huge replacement is never built.
    void expect(size_t bytes) const {
        if (bytes > owner_.maxCharacters_ * 4 || characters_ + (bytes + 3) / 4 > owner_.maxCharacters_) refuse();
    }
    void finish() {
        owner_.text_ = std::move(text_);
        owner_.begin_ = std::move(begin_);
        owner_.end_ = std::move(end_);
        owner_.characters_ = characters_;
    }

private:
    [[noreturn]] void refuse() const {
        throw TextExpansionError("expands this line of " + std::to_string(owner_.inputCharacters_) + " characters beyond " +
                                 std::to_string(owner_.maxCharacters_) + " characters while normalising it");
    }
    NormalizedText& owner_;
    std::string text_;
    std::vector<size_t> begin_, end_;
    size_t characters_ = 0;
};

size_t NormalizedText::countCharacters(std::string_view text) {
    return static_cast<size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

NormalizedText::NormalizedText(const std::string& original, size_t maxCharacters) : text_(original), maxCharacters_(maxCharacters) {
    begin_.resize(text_.size());
    end_.resize(text_.size());
    for (const auto& c : codePoints(text_))
        for (size_t k = 0; k < c.size; ++k) {
            begin_[c.at + k] = c.at;
            end_[c.at + k] = c.at + c.size;
        }
    characters_ = inputCharacters_ = countCharacters(text_);
}

void NormalizedText::normalizeUnicode(int options) {
    // A segment is a starter (combining class 0) and the marks after it, and a starter that
    // composes with the segment before it (Hangul jamo: L + V + T is one syllable; a few Indic
    // vowel parts): composition and reordering stay inside one, so normalising segment by segment
    // gives the whole text's result. The budget is checked after each segment: NFKC makes up to
    // 18 characters of one (U+FDFA).
    const auto cps = codePoints(text_);
    const int flags = options | UTF8PROC_STABLE;
    const auto length = [](const std::string& s) { return codePoints(s).size(); };
    Writer out(*this);
    for (size_t i = 0; i < cps.size();) {
        size_t j = i + 1;
        std::string done;  // the segment so far, normalised, while a starter may join it
        for (; j < cps.size(); ++j) {
            if (utf8proc_get_property(cps[j].cp)->combining_class != 0) continue;
            // Every starter that composes with what precedes it (NFC_Quick_Check Maybe) is at
            // U+09BE or above: Latin, Greek and Cyrillic text never tries a join
            if (cps[j].cp < 0x0900) break;
            const auto next = text_.substr(cps[j].at, cps[j].size);
            const size_t from = cps[i].at, to = cps[j - 1].at + cps[j - 1].size;
            if (done.empty()) done = mapped(text_.substr(from, to - from), flags);
            const auto joined = mapped(text_.substr(from, cps[j].at + cps[j].size - from), flags);
            if (length(joined) >= length(done) + length(mapped(next, flags))) break;
            done = joined;
        }
        const size_t from = cps[i].at, to = cps[j - 1].at + cps[j - 1].size;
        out.add(mapped(text_.substr(from, to - from), flags), begin_[from], end_[to - 1]);
        i = j;
    }
    out.finish();
}

void NormalizedText::lowercase() {
    Writer out(*this);
    for (const auto& c : codePoints(text_)) out.add(encode(utf8proc_tolower(c.cp)), begin_[c.at], end_[c.at + c.size - 1]);
    out.finish();
}

void NormalizedText::stripAccents() {
    Writer out(*this);
    for (const auto& c : codePoints(text_))
        if (utf8proc_category(c.cp) != UTF8PROC_CATEGORY_MN)
            out.add(std::string_view(text_).substr(c.at, c.size), begin_[c.at], end_[c.at + c.size - 1]);
    out.finish();
}

void NormalizedText::strip() {
    const auto cps = codePoints(text_);
    size_t first = 0, last = cps.size();
    while (first < last && isSpace(cps[first].cp)) ++first;
    while (last > first && isSpace(cps[last - 1].cp)) --last;
    Writer out(*this);
    for (size_t i = first; i < last; ++i)
        out.add(std::string_view(text_).substr(cps[i].at, cps[i].size), begin_[cps[i].at], end_[cps[i].at + cps[i].size - 1]);
    out.finish();
}

void NormalizedText::replace(const ReplacePattern& pattern) {
    const std::string_view text(text_);
    Writer out(*this);
    ReplacePattern::Groups groups;
    std::string replacement;
    size_t done = 0;  // bytes of text_ written or replaced
    size_t from = 0;  // where the next match may start
    while (from <= text.size() && pattern.find(text, from, groups)) {
        const size_t at = static_cast<size_t>(groups[0].data() - text.data()), len = groups[0].size();
        for (size_t i = done; i < at; ++i) out.add(text.substr(i, 1), begin_[i], end_[i]);
        // The replacement belongs to the characters it replaced (or, for an empty match, to the next one).
        size_t b = 0, e = 0;
        if (len > 0) {
            b = begin_[at];
            e = end_[at + len - 1];
        } else if (at < text.size()) {
            b = e = begin_[at];
        } else if (!text.empty()) {
            b = e = end_.back();
        }
        out.expect(pattern.replacementSize(groups));
        replacement.clear();
        pattern.appendReplacement(groups, replacement);
        out.add(replacement, b, e);
        done = at + len;
        if (len > 0) {
            from = done;
        } else {  // an empty match: the next one starts after the next character, which is kept
            if (at >= text.size()) break;
            const size_t next = at + std::max<size_t>(1, static_cast<size_t>(utf8proc_utf8class[static_cast<uint8_t>(text[at])]));
            for (size_t i = at; i < next && i < text.size(); ++i) out.add(text.substr(i, 1), begin_[i], end_[i]);
            done = from = std::min(next, text.size());
        }
    }
    for (size_t i = done; i < text.size(); ++i) out.add(text.substr(i, 1), begin_[i], end_[i]);
    out.finish();
    // Patterns see characters and contents are JSON strings, so the text stays UTF-8; checked all
    // the same, since a tokenizer cannot read anything else.
    if (utf8::invalidOffset(text_) >= 0) throw Error("normaliser pattern '" + pattern.pattern() + "' left text that is not UTF-8");
}

}  // namespace alignscope::core
