#pragma once
#include "core/attribution/AttributionMethod.h"

namespace alignscope::core {

// Gradients of the chosen token's log-probability with respect to the source embeddings, summed
// over each token's embedding dimensions:
//  - gradient × input: grad f(x) · x (one backward pass per step);
//  - integrated gradients (Sundararajan et al. 2017): (x − x') · ∫₀¹ grad f(x' + a(x − x')) da, the
//    integral by Gauss–Lobatto quadrature over `points` nodes (both ends included) run as one batch, so the scores of a
//    step sum to f(x) − f(x') (completeness) up to the quadrature's error; a step that misses it by
//    more than 5 % is integrated again with twice the points, up to 128 (request.adaptive).
// Needs the model's optional embed_source / encode_embedded methods.
class GradientAttribution : public AttributionMethod {
public:
    enum class Kind { GradientTimesInput, IntegratedGradients };
    explicit GradientAttribution(Kind kind) : kind_(kind) {}

    std::string name() const override;
    std::string description() const override;
    bool signedScores() const override { return true; }
    bool needsEmbeddings() const override { return true; }
    void compute(const AttributionRequest& request, Attribution& out) const override;

    // Gauss–Lobatto nodes (ascending, the first 0 and the last 1) and weights on [0, 1], which sum to
    // 1; points ≥ 2, exact for polynomials up to degree 2·points − 3.
    static void quadrature(int points, std::vector<double>& nodes, std::vector<double>& weights);

private:
    Kind kind_;
};

}  // namespace alignscope::core
