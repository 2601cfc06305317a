#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace alignscope::core {

// One finished (or length-capped) translation from a search.
struct Hypothesis {
    std::vector<int64_t> ids;               // [T] target ids, ending in </s> when finished
    std::vector<std::string> tokens;        // [T] their texts
    std::vector<std::vector<float>> alpha;  // [T][S] attention rows, one per emitted token
    float logProb = 0;                      // sum of the tokens' log-probabilities
    float score = 0;                        // what the search ranked by (length-normalised for beams)
    bool finished = false;                  // ended with </s> rather than the length cap
};

}  // namespace alignscope::core
