#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// The word links of one sentence pair, source word first (0-based), as Pharaoh writes them:
// "i-j" sure, "ipj" or "i?j" possible (Och & Ney 2003). A link given both ways counts as sure.
struct LinkSet {
    using Link = std::pair<int, int>;  // (source word, target word)
    std::set<Link> sure;
    std::set<Link> possible;  // the possible-only links (P \ S)

    // Throws Error "'3-x' is not a link (...)" or "... is not 1-based" for the caller to prefix
    // with file and line. `oneBased`: indices count from 1 and are shifted to 0.
    static LinkSet parse(const std::string& line, bool oneBased = false);
    static constexpr uint64_t kMaxFileBytes = uint64_t{1} << 30;  // a links file (gold, hypotheses)
    // One LinkSet per line of a file. Throws Error naming the file (and line) when it cannot be
    // read or a line is not links.
    static std::vector<LinkSet> readFile(const std::string& path, bool oneBased = false);
    std::string pharaoh() const;  // sure as i-j, possible as ipj, in (source, target) order
    size_t size() const { return sure.size() + possible.size(); }
    // The words link indices count in `text`: runs between Unicode spaces (U+00A0 and U+202F, which
    // French puts before "?", included), as the tokenizers number words. Invalid UTF-8 counts bytes.
    static size_t wordCount(const std::string& text);
    // Those words themselves, in order.
    static std::vector<std::string> words(const std::string& text);
    // The largest source and target indices used (-1 when none).
    int maxSource() const;
    int maxTarget() const;
};

}  // namespace alignscope::core
