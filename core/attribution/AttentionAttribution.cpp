#include "core/attribution/AttentionAttribution.h"

#include "core/attribution/ForcedPass.h"

namespace alignscope::core {

std::string AttentionAttribution::description() const {
    return "Attention: the weights alpha_t the decoder gave each source position when it chose this word "
           "(what it read, not necessarily what the choice depended on).";
}

void AttentionAttribution::compute(const AttributionRequest& request, Attribution& out) const {
    const TorchModel& model = request.model.torch();
    c10::InferenceMode guard;
    const int64_t S = static_cast<int64_t>(request.source.ids.size());
    const auto encoded = model.encode(torch::tensor(request.source.ids, torch::kLong).unsqueeze(0), torch::tensor({S}, torch::kLong));
    const int64_t last = request.steps.empty() ? 0 : request.steps.back() + 1;
    const auto pass = ForcedPass::run(model, encoded, request.targetIds, last, &request.steps);
    for (int step : request.steps) {
        const auto alpha = pass.alphas[step][0].slice(0, 0, S).contiguous();
        out.scores.emplace_back(alpha.data_ptr<float>(), alpha.data_ptr<float>() + S);
        out.logProbs.push_back(pass.logProbs[step][0].item<float>());
    }
}

}  // namespace alignscope::core
