#pragma once
#include "core/decoding/Hypothesis.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace alignscope::core {

class Vocabulary;

// One sentence's beam: its open prefixes and finished hypotheses, moved on one step at a time from
// the model's log-probabilities for the open prefixes. BeamSearch drives one beam; BatchDecoder
// drives one per sentence of a batch, all prefixes in one decoder call, with the same results.
class Beam {
public:
    // columns: this sentence's alpha columns (S); limit: the most target tokens.
    Beam(const Vocabulary& vocabulary, int width, float lengthPenalty, int64_t columns, int limit);

    const std::vector<Hypothesis>& alive() const { return alive_; }
    // True once nothing is left to step: no open prefix, the length limit reached, or `width`
    // hypotheses finished that no open prefix can beat.
    bool done() const { return done_; }

    // Which prefixes stay open after a step: for each, the row of the step's batch it extends (so
    // the caller selects its decoder state) and the token it adds.
    struct Extension {
        std::vector<int64_t> rows;    // [n'] into the rows given to advance
        std::vector<int64_t> tokens;  // [n']
    };
    // logProbs [n,V] and alpha [n,S'] (S' >= columns; padding beyond) for the n = alive().size()
    // open prefixes, in their order.
    Extension advance(const torch::Tensor& logProbs, const torch::Tensor& alpha);

    // Best first, at most `width`; the open prefixes when none finished (length cap).
    std::vector<Hypothesis> result();

private:
    float normalised(const Hypothesis& h) const;

    const Vocabulary& vocabulary_;
    int width_;
    float lengthPenalty_;
    int64_t columns_;
    int limit_;
    int steps_ = 0;
    bool done_ = false;
    std::vector<Hypothesis> alive_, finished_;
};

}  // namespace alignscope::core
