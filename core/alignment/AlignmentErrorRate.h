#pragma once
#include "core/alignment/LinkSet.h"

#include <cstdint>

namespace alignscope::core {

// Alignment error rate over a test set (Och & Ney 2003), counts summed over sentences:
// AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|), precision = |A∩P| / |A|, recall = |A∩S| / |S|,
// with P ⊇ S (a sure link is also possible). Hypothesis links are all one kind.
class AlignmentErrorRate {
public:
    void add(const LinkSet& gold, const std::set<LinkSet::Link>& hypothesis);
    AlignmentErrorRate& operator+=(const AlignmentErrorRate& other);  // the counts of both sets of pairs

    double aer() const;        // 0..1; 0 when both A and S are empty
    double precision() const;  // 0..1; 1 when A is empty
    double recall() const;     // 0..1; 1 when S is empty
    int64_t sentences() const { return sentences_; }
    int64_t hypothesisLinks() const { return a_; }   // |A|
    int64_t sureLinks() const { return s_; }         // |S|
    int64_t possibleLinks() const { return p_; }     // |P|, sure included
    int64_t sureMatched() const { return aS_; }      // |A∩S|
    int64_t possibleMatched() const { return aP_; }  // |A∩P|

private:
    int64_t sentences_ = 0, a_ = 0, s_ = 0, p_ = 0, aS_ = 0, aP_ = 0;
};

}  // namespace alignscope::core
