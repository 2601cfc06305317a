#include "core/attribution/ProductAttribution.h"

#include <algorithm>
#include <utility>

namespace alignscope::core {

ProductAttribution::ProductAttribution(std::shared_ptr<const AttributionMethod> first, std::shared_ptr<const AttributionMethod> second)
    : first_(std::move(first)), second_(std::move(second)) {}

std::string ProductAttribution::name() const { return first_->name() + "-x-" + second_->name(); }

std::string ProductAttribution::description() const {
    return "Agreement of " + first_->name() + " and " + second_->name() +
           ": their positive scores multiplied source token by source token, each row rescaled to sum to 1. "
           "An aligner (docs/alignment.md), not a measure of its own.";
}

bool ProductAttribution::needsEmbeddings() const { return first_->needsEmbeddings() || second_->needsEmbeddings(); }

void ProductAttribution::compute(const AttributionRequest& request, Attribution& out) const {
    Attribution a = out, b = out;  // the same tokens and steps; each method fills its own scores
    first_->compute(request, a);
    second_->compute(request, b);
    out.logProbs = a.logProbs;
    out.scores.resize(a.scores.size());
    for (size_t r = 0; r < a.scores.size(); ++r) {
        const auto& x = a.scores[r];
        const auto& y = b.scores[r];
        auto& row = out.scores[r];
        row.assign(x.size(), 0.0f);
        double sum = 0;
        for (size_t s = 0; s < x.size(); ++s) sum += row[s] = std::max(x[s], 0.0f) * std::max(y[s], 0.0f);
        if (sum <= 0) {  // nothing in common: the first method's own view
            for (size_t s = 0; s < x.size(); ++s) sum += row[s] = std::max(x[s], 0.0f);
        }
        if (sum > 0)
            for (auto& v : row) v = static_cast<float>(v / sum);
    }
}

}  // namespace alignscope::core
