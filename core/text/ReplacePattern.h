#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace alignscope::core {

// A "replace" normaliser's pattern and content (docs/model-format.md, "Tokenizers"), compiled once
// when the tokenizer description is read. Patterns come from model files, so they run on RE2: time
// linear in the text, no recursion, and a memory budget per pattern; what RE2 cannot run in linear
// time (backreferences, lookaround) is refused here, at load, not at the first sentence. Patterns
// see characters (UTF-8). The content's `$1`..`$99`, `$&` (or `$0`) and `$$` are read here too.
// Immutable and thread-safe.
class ReplacePattern {
public:
    static constexpr int64_t kMaxMemory = 2 << 20;  // RE2's budget for one compiled pattern, bytes

    // Throws Error naming the pattern: not a valid pattern, one RE2 does not take, over the memory
    // budget, or content that names a group the pattern does not have.
    ReplacePattern(const std::string& pattern, const std::string& content);
    ~ReplacePattern();
    ReplacePattern(const ReplacePattern&) = delete;
    ReplacePattern& operator=(const ReplacePattern&) = delete;

    const std::string& pattern() const { return pattern_; }

    // One match: the whole match first, then each group (empty when it did not take part).
    using Groups = std::vector<std::string_view>;
    // The first match in `text` that starts at or after byte `from` (the whole text is given, so
    // `^` and `\b` see what comes before); false when there is none.
    bool find(std::string_view text, size_t from, Groups& groups) const;
    // Bytes the content makes of a match, computed before anything is written (so a content that
    // expands can be refused before it fills memory), and the content itself.
    size_t replacementSize(const Groups& groups) const;
    void appendReplacement(const Groups& groups, std::string& out) const;

private:
    struct Part {
        std::string text;  // literal text, or
        int group = -1;    // a group's match (0: the whole match)
    };
    std::string pattern_;
    std::unique_ptr<re2::RE2> re_;
    std::vector<Part> content_;
};

}  // namespace alignscope::core
