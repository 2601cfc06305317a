#pragma once
#include <vector>

namespace alignscope::core {

// How far one step's attribution agrees with its attention row (both [S] over the same source
// tokens): Spearman's rank correlation, whether both peak on the same token, and the
// Jensen–Shannon divergence between attention and the attribution's magnitudes made a distribution.
struct AttributionAgreement {
    double spearman = 0;       // -1..1 (ties get their average rank)
    bool sameTop = false;      // argmax of attention == argmax of the attribution (signed)
    double jensenShannon = 0;  // 0..1 (base-2 logarithms)

    static AttributionAgreement between(const std::vector<float>& attention, const std::vector<float>& attribution);
};

}  // namespace alignscope::core
