#pragma once
#include "core/decoding/SearchStrategy.h"

namespace alignscope::core {

// Takes the most probable token at every step.
class GreedySearch : public SearchStrategy {
public:
    std::vector<Hypothesis> search(const EncodedSource& source, const SearchOptions& options) const override;
};

}  // namespace alignscope::core
