#include "core/attribution/GradientAttribution.h"

#include "core/runtime/BlasThreadChooser.h"
#include "core/Error.h"
#include "core/attribution/ForcedPass.h"
#include <torch/csrc/autograd/autograd.h>

#include <algorithm>
#include <cmath>

namespace alignscope::core {

std::string GradientAttribution::name() const { return kind_ == Kind::GradientTimesInput ? "grad-x-input" : "integrated-gradients"; }

std::string GradientAttribution::description() const {
    if (kind_ == Kind::GradientTimesInput)
        return "Gradient × input: how fast the chosen word's log-probability changes as each source "
               "embedding is scaled, at this input only (a first-order, local estimate).";
    return "Integrated gradients: the gradient averaged along the path from an all-zero source to this one, "
           "times the change; the source tokens' scores add up to how much the real source raises the "
           "chosen word's log-probability over the empty one.";
}

void GradientAttribution::quadrature(int points, std::vector<double>& nodes, std::vector<double>& weights) {
    if (points < 2) throw Error("integrated gradients: the points must be 2 to 256, not " + std::to_string(points));
    // Gauss–Lobatto: both ends are nodes, so f(x') and f(x) come out of the batch that integrates
    // (Gauss–Legendre would need two more rows). With n = points - 1, its interior nodes are the
    // roots of P'_n, found by Newton's method from the Chebyshev–Gauss–Lobatto points cos(pi i / n).
    const int n = points - 1;
    const double pi = std::acos(-1.0);
    nodes.assign(points, 0.0);
    weights.assign(points, 0.0);
    for (int i = 0; i < points; ++i) {
        double x = std::cos(pi * i / n), pn = 1.0;
        for (int iteration = 0; iteration < 100; ++iteration) {
            double p0 = 1.0, p1 = x;  // P_{k-1}, P_k
            for (int k = 2; k <= n; ++k) {
                const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            pn = p1;
            const double dx = (x * p1 - p0) / ((n + 1) * p1);
            x -= dx;
            if (std::abs(dx) < 1e-15) break;
        }
        // x runs from 1 down to -1: node i of [0, 1] counted from the end keeps them ascending.
        nodes[points - 1 - i] = (1.0 + x) / 2.0;
        weights[points - 1 - i] = 1.0 / (n * (n + 1.0) * pn * pn);
    }
    nodes.front() = 0.0;
    nodes.back() = 1.0;
}

namespace {

// Rows of one batched pass: for each of `steps`, the scores [S], f(x) and (integrated gradients) f(x').
struct Rows {
    std::vector<std::vector<float>> scores;
    std::vector<float> f, fBaseline;
};

constexpr int kMaxAdaptivePoints = 128;
constexpr double kCompletenessTolerance = 0.05;  // relative; below 1e-3 nats any gap is accepted

bool complete(const std::vector<float>& scores, float f, float fBaseline) {
    double sum = 0;
    for (float v : scores) sum += v;
    const double change = static_cast<double>(f) - fBaseline;
    return std::abs(sum - change) <= std::max(kCompletenessTolerance * std::abs(change), 1e-3);
}

}  // namespace

void GradientAttribution::compute(const AttributionRequest& request, Attribution& out) const {
    const TorchModel& model = request.model.torch();
    if (!model.encodesEmbedded())
        throw Error(name() + " needs the model's embed_source and encode_embedded methods, which '" + model.origin() +
                    "' lacks (occlusion and attention work for every model; `alignscope-cli update-code` adds "
                    "them to AlignScope's own older files)");
    // Gradients are what this method is: on even where the caller decodes in inference mode.
    c10::InferenceMode notInference(false);
    torch::AutoGradMode gradients(true);

    const int64_t S = static_cast<int64_t>(request.source.ids.size());
    const auto src = torch::tensor(request.source.ids, torch::kLong).unsqueeze(0);  // [1,S]
    const auto x = model.embedSource(src).detach();                                 // [1,S,M]
    const bool integrated = kind_ == Kind::IntegratedGradients;
    torch::Tensor baseline = torch::zeros_like(x);  // [1,S,M]
    if (integrated) {
        if (request.points < 2 || request.points > 256)
            throw Error("integrated gradients: the points must be 2 to 256, not " + std::to_string(request.points));
        if (request.baseline == "pad") {
            const int64_t pad = model.sourceVocabulary().paddingId();
            baseline = model.embedSource(torch::full({1, S}, pad, torch::kLong)).detach();
        } else if (request.baseline != "zero") {
            throw Error("integrated gradients: the baseline is 'zero' or 'pad', not '" + request.baseline + "'");
        }
    }
    const auto delta = x - baseline;  // [1,S,M]

    const auto pass = [&](const std::vector<int>& steps, int points) {
        std::vector<double> nodes = {1.0}, w = {1.0};
        if (integrated) quadrature(points, nodes, w);  // nodes[0] = 0: the baseline; nodes[B-1] = 1: the input
        const auto coefficients = torch::tensor(nodes, torch::kDouble).to(torch::kFloat);
        const auto weights = torch::tensor(w, torch::kDouble).to(torch::kFloat);
        const int64_t B = coefficients.size(0);
        // The backward passes run outside the model's methods, which is where the chooser times
        // calls: the whole pass is one call of its own kind, so the count suits the gradients too.
        const auto timed = BlasThreadChooser::shared().call(name(), B * S * static_cast<int64_t>(steps.size()));
        auto inputs = (baseline + coefficients.view({B, 1, 1}) * delta).detach().requires_grad_(true);  // [B,S,M]
        const auto encoded = model.encodeEmbedded(inputs, torch::full({B}, S, torch::kLong));
        const auto forced = ForcedPass::through(model, encoded, request.targetIds, steps);
        Rows rows;
        for (size_t r = 0; r < steps.size(); ++r) {
            const auto& lp = forced.logProbs[steps[r]];  // [B]
            const auto grad = torch::autograd::grad({(weights * lp).sum()}, {inputs}, {},
                                                    /*retain_graph=*/r + 1 < steps.size())[0];  // [B,S,M]
            const auto scores = (grad.sum(0) * delta[0]).sum(-1).contiguous();                  // [S]
            rows.scores.emplace_back(scores.data_ptr<float>(), scores.data_ptr<float>() + S);
            rows.f.push_back(lp[B - 1].item<float>());
            if (integrated) rows.fBaseline.push_back(lp[0].item<float>());
            if (request.progress) request.progress->moved();
        }
        return rows;
    };

    const auto first = pass(request.steps, request.points);
    out.scores = first.scores;
    out.logProbs = first.f;
    if (!integrated) return;
    out.baselineLogProbs = first.fBaseline;
    out.points = request.points;
    out.baseline = request.baseline;
    out.rowPoints.assign(request.steps.size(), request.points);
    // Where the path crosses a sharp turn of the model, a step's scores can miss f(x) − f(x') by
    // more than the quadrature should: that step is integrated again with twice the points.
    for (int points = request.points * 2; request.adaptive && points <= kMaxAdaptivePoints; points *= 2) {
        std::vector<size_t> missing;
        for (size_t r = 0; r < out.scores.size(); ++r)
            if (!complete(out.scores[r], out.logProbs[r], out.baselineLogProbs[r])) missing.push_back(r);
        if (missing.empty()) break;
        std::vector<int> steps;
        for (size_t r : missing) steps.push_back(request.steps[r]);
        const auto again = pass(steps, points);
        for (size_t k = 0; k < missing.size(); ++k) {
            out.scores[missing[k]] = again.scores[k];
            out.rowPoints[missing[k]] = points;
        }
    }
}

}  // namespace alignscope::core
