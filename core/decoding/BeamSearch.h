#pragma once
#include "core/decoding/SearchStrategy.h"

namespace alignscope::core {

// Keeps the `beamWidth` best prefixes, stepping them together as one batch; returns up to
// beamWidth hypotheses, each with its own alpha rows. Width 1 yields exactly the greedy result.
class BeamSearch : public SearchStrategy {
public:
    std::vector<std::vector<Hypothesis>> searchBatch(const Model& model, const SearchBatch& batch,
                                                     const SearchOptions& options) const override;
};

}  // namespace alignscope::core
