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
    const auto pass = ForcedPass::ofSource(model, request.source.ids, request.targetIds, request.steps);
    for (int step : request.steps) {
        const auto alpha = pass.alphas[step][0].slice(0, 0, S).contiguous();
        out.scores.emplace_back(alpha.data_ptr<float>(), alpha.data_ptr<float>() + S);
        out.logProbs.push_back(pass.logProbs[step][0].item<float>());
    }
}

}  // namespace alignscope::core
