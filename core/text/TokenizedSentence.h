#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// A sentence as a model sees it. Source sentences end in "</s>" (a column of the alignment);
// target sentences do not.
struct TokenizedSentence {
    std::vector<std::string> tokens;                 // [S] token texts ("<unk>" is not substituted: the user's text stays)
    std::vector<int64_t> ids;                        // [S] vocabulary ids
    std::vector<bool> unknown;                       // [S] true where the vocabulary lacks the token
    std::vector<int> words;                          // [S] whitespace word of the input; -1 for "</s>"
    std::vector<std::pair<size_t, size_t>> offsets;  // [S] [begin, end) bytes of the input text each came from

    size_t size() const { return ids.size(); }
};

}  // namespace alignscope::core
