#include "core/training/TrainingBatch.h"

#include "core/Error.h"
#include "core/text/Vocabulary.h"

#include <torch/torch.h>

#include <algorithm>

namespace alignscope::core {

TrainingBatch TrainingBatch::make(const std::vector<std::vector<int64_t>>& sources, const std::vector<std::vector<int64_t>>& targets,
                                  const std::vector<const GuidedAlignment::TokenLinks*>& guides) {
    if (sources.size() != targets.size() || (!guides.empty() && guides.size() != sources.size()))
        throw Error("internal error: a batch needs one target (and one guide, if any) per source");
    const auto B = static_cast<int64_t>(sources.size());
    size_t S = 0, T = 0;
    for (int64_t i = 0; i < B; ++i) {
        S = std::max(S, sources[static_cast<size_t>(i)].size());
        T = std::max(T, targets[static_cast<size_t>(i)].size() + 1);
    }
    TrainingBatch b;
    b.src = torch::zeros({B, static_cast<int64_t>(S)}, torch::kLong);
    b.srcLen = torch::zeros({B}, torch::kLong);
    b.tgtIn = torch::zeros({B, static_cast<int64_t>(T)}, torch::kLong);
    b.tgtOut = torch::zeros({B, static_cast<int64_t>(T)}, torch::kLong);
    auto src = b.src.accessor<int64_t, 2>();
    auto len = b.srcLen.accessor<int64_t, 1>();
    auto tin = b.tgtIn.accessor<int64_t, 2>();
    auto tout = b.tgtOut.accessor<int64_t, 2>();
    for (int64_t i = 0; i < B; ++i) {
        const auto& s = sources[static_cast<size_t>(i)];
        const auto& t = targets[static_cast<size_t>(i)];
        for (size_t j = 0; j < s.size(); ++j) src[i][static_cast<int64_t>(j)] = s[j];
        len[i] = static_cast<int64_t>(s.size());
        tin[i][0] = Vocabulary::kBos;
        for (size_t j = 0; j < t.size(); ++j) {
            tin[i][static_cast<int64_t>(j + 1)] = t[j];
            tout[i][static_cast<int64_t>(j)] = t[j];
        }
        tout[i][static_cast<int64_t>(t.size())] = Vocabulary::kEos;
        b.targetTokens += static_cast<int64_t>(t.size() + 1);
    }
    if (guides.empty()) return b;
    b.guidance = torch::zeros({B, static_cast<int64_t>(T), static_cast<int64_t>(S)}, torch::kFloat);
    auto g = b.guidance.accessor<float, 3>();
    for (int64_t i = 0; i < B; ++i) {
        const auto* links = guides[static_cast<size_t>(i)];
        if (!links) continue;
        std::vector<int> linksOfStep(T, 0);
        for (const auto& [t, s] : *links) {
            if (t < 0 || s < 0 || static_cast<size_t>(t) >= T || static_cast<size_t>(s) >= S)
                throw Error("internal error: a token link outside its batch row");
            ++linksOfStep[static_cast<size_t>(t)];
        }
        for (const auto& [t, s] : *links) g[i][t][s] = 1.0f / static_cast<float>(linksOfStep[static_cast<size_t>(t)]);
        b.guidedSteps += static_cast<int64_t>(std::count_if(linksOfStep.begin(), linksOfStep.end(), [](int n) { return n > 0; }));
    }
    return b;
}

TrainingBatch::Losses TrainingBatch::train(torch::jit::Module& model, torch::optim::Optimizer& optimizer,
                                           const std::vector<torch::Tensor>& parameters, double dropout, double labelSmoothing,
                                           double clipNorm, double guidedWeight) const {
    const bool guided = guidance.defined();
    auto out =
        guided ? model.get_method("guided_loss")({src, srcLen, tgtIn, tgtOut, dropout, labelSmoothing, guidance, guidedWeight}).toTuple()
               : model.get_method("loss")({src, srcLen, tgtIn, tgtOut, dropout, labelSmoothing}).toTuple();
    const auto& el = out->elements();
    const auto n = el[2].toTensor();
    // Zeroed, not dropped: dropping them (so backward writes fresh buffers) measured the same
    // (240 against 237 ms per en-fr update, back to back) and reallocates 34 MB every update.
    optimizer.zero_grad();
    (el[0].toTensor() / n).backward();
    if (clipNorm > 0) torch::nn::utils::clip_grad_norm_(parameters, clipNorm);
    optimizer.step();
    return {el[1].toTensor().item<double>() / n.item<double>(), guided ? el[3].toTensor().item<double>() : 0.0};
}

}  // namespace alignscope::core
