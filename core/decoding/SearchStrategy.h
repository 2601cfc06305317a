#pragma once
#include "core/decoding/DecodingProgress.h"
#include "core/decoding/Hypothesis.h"

#include <functional>
#include <memory>
#include <vector>

namespace alignscope::core {

class EncodedSource;
class Model;
struct SearchBatch;

// How a search runs; every field is optional.
struct SearchOptions {
    int beamWidth = 1;                     // 1: greedy
    int maxLength = 0;                     // cap on target tokens; 0: the model's declared max_length, else 2 * source length + 10
    float lengthPenalty = 1.0f;            // beams rank by logProb / length^lengthPenalty
    std::function<bool()> cancelled;       // polled before each step; true stops with Error("cancelled")
    DecodingProgress* progress = nullptr;  // when set: the step being computed, for a watchdog
    // false (as CTranslate2's return_scores): the caller reads tokens only, so BatchDecoder's greedy
    // search skips each step's normalisation over the vocabulary where the model allows it, and its
    // hypotheses' logProb and score are 0. Other searches compute them anyway.
    bool returnScores = true;

    // `declared`: the model's own max_length (0: none).
    int lengthLimit(int64_t sourceLength, int64_t declared) const {
        if (maxLength > 0) return maxLength;
        return declared > 0 ? static_cast<int>(declared) : static_cast<int>(2 * sourceLength + 10);
    }
};

// Greedy and beam search behind one interface (as in CTranslate2, one loop for one sentence or
// many): given encoded sources, return each one's hypotheses best first.
class SearchStrategy {
public:
    virtual ~SearchStrategy() = default;
    // Every row of `batch` stepped together; finished rows leave the decoder batch. [B] lists.
    virtual std::vector<std::vector<Hypothesis>> searchBatch(const Model& model, const SearchBatch& batch,
                                                             const SearchOptions& options) const = 0;
    // One sentence: a batch of one.
    std::vector<Hypothesis> search(const EncodedSource& source, const SearchOptions& options) const;

    // GreedySearch for width 1, BeamSearch otherwise. Throws Error for width < 1.
    static std::unique_ptr<SearchStrategy> create(int beamWidth);
};

}  // namespace alignscope::core
