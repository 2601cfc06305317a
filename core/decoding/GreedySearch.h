#pragma once
#include "core/decoding/SearchStrategy.h"

namespace alignscope::core {

// Takes the most probable token at every step, or the target's next token where a row follows one
// (teacher forcing).
class GreedySearch : public SearchStrategy {
public:
    std::vector<std::vector<Hypothesis>> searchBatch(const Model& model, const SearchBatch& batch,
                                                     const SearchOptions& options) const override;
};

}  // namespace alignscope::core
