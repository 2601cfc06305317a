#pragma once
#include "core/alignment/AlignmentErrorRate.h"
#include "core/alignment/LinkSet.h"

#include <cstdint>
#include <set>
#include <vector>

namespace alignscope::core {

// Two aligners' AER on one gold set, and whether the difference is more than the choice of
// sentence pairs: a paired bootstrap over the pairs (Koehn 2004's test for BLEU, applied to AER's
// counts). Why: on 120 gold pairs a difference of half a point comes and goes with which pairs
// are in the set (docs/alignment.md), and a single AER cannot say so.
class AerComparison {
public:
    void add(const LinkSet& gold, const std::set<LinkSet::Link>& first, const std::set<LinkSet::Link>& second);

    struct Result {
        double first = 0, second = 0;  // AER of each, 0..1, on all pairs
        double difference = 0;         // first − second (negative: the first is better)
        double low = 0, high = 0;      // the middle 95 % of the resampled differences
        double firstBetter = 0;        // share of resamples where the first's AER is lower, 0..1
        int resamples = 0;
    };
    // `resamples` sets of pairs drawn with replacement, as many as there are pairs, from a
    // generator seeded with `seed` (the same result for the same seed).
    Result bootstrap(int resamples = 10000, uint64_t seed = 1) const;
    size_t pairs() const { return counts_.size(); }

private:
    std::vector<std::pair<AlignmentErrorRate, AlignmentErrorRate>> counts_;  // per pair: each aligner's counts
};

}  // namespace alignscope::core
