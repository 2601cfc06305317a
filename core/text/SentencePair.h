#pragma once
#include <string>

namespace alignscope::core {

// One line of a parallel corpus.
struct SentencePair {
    std::string source;  // raw source text
    std::string target;  // raw target text
    long line = 0;       // 1-based line number in its file
};

}  // namespace alignscope::core
