#include "core/alignment/AerComparison.h"

#include <algorithm>
#include <random>

namespace alignscope::core {

void AerComparison::add(const LinkSet& gold, const std::set<LinkSet::Link>& first, const std::set<LinkSet::Link>& second) {
    AlignmentErrorRate x, y;
    x.add(gold, first);
    y.add(gold, second);
    counts_.emplace_back(x, y);
}

AerComparison::Result AerComparison::bootstrap(int resamples, uint64_t seed) const {
    const auto aers = [&](const auto& pick) {  // both aligners' AER over the pairs pick(0..n-1)
        AlignmentErrorRate x, y;
        for (size_t k = 0; k < counts_.size(); ++k) {
            const auto& [f, s] = counts_[pick(k)];
            x += f;
            y += s;
        }
        return std::pair{x.aer(), y.aer()};
    };
    Result r;
    const auto [first, second] = aers([](size_t k) { return k; });
    r.first = first, r.second = second, r.difference = first - second;
    if (counts_.empty() || resamples <= 0) return r;
    std::mt19937_64 generator(seed);
    std::uniform_int_distribution<size_t> pair(0, counts_.size() - 1);
    std::vector<double> differences;
    differences.reserve(static_cast<size_t>(resamples));
    int better = 0;
    for (int i = 0; i < resamples; ++i) {
        const auto [f, s] = aers([&](size_t) { return pair(generator); });
        differences.push_back(f - s);
        if (f < s) ++better;
    }
    std::sort(differences.begin(), differences.end());
    const auto at = [&](double q) { return differences[static_cast<size_t>(q * (differences.size() - 1) + 0.5)]; };
    r.low = at(0.025), r.high = at(0.975);
    r.firstBetter = static_cast<double>(better) / resamples;
    r.resamples = resamples;
    return r;
}

}  // namespace alignscope::core
