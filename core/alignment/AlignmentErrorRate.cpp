#include "core/alignment/AlignmentErrorRate.h"

namespace alignscope::core {

void AlignmentErrorRate::add(const LinkSet& gold, const std::set<LinkSet::Link>& hypothesis) {
    ++sentences_;
    a_ += static_cast<int64_t>(hypothesis.size());
    s_ += static_cast<int64_t>(gold.sure.size());
    p_ += static_cast<int64_t>(gold.sure.size() + gold.possible.size());
    for (const auto& l : hypothesis) {
        const bool sure = gold.sure.count(l) > 0;
        if (sure) ++aS_;
        if (sure || gold.possible.count(l) > 0) ++aP_;
    }
}

AlignmentErrorRate& AlignmentErrorRate::operator+=(const AlignmentErrorRate& other) {
    sentences_ += other.sentences_;
    a_ += other.a_, s_ += other.s_, p_ += other.p_, aS_ += other.aS_, aP_ += other.aP_;
    return *this;
}

double AlignmentErrorRate::aer() const { return a_ + s_ == 0 ? 0.0 : 1.0 - static_cast<double>(aS_ + aP_) / static_cast<double>(a_ + s_); }

double AlignmentErrorRate::precision() const { return a_ == 0 ? 1.0 : static_cast<double>(aP_) / a_; }

double AlignmentErrorRate::recall() const { return s_ == 0 ? 1.0 : static_cast<double>(aS_) / s_; }

}  // namespace alignscope::core
