#include "core/attribution/ForcedPass.h"

namespace alignscope::core {

ForcedPass ForcedPass::run(const TorchModel& model, const EncoderOutput& encoded, const std::vector<int64_t>& targetIds,
                           int64_t steps) {
    ForcedPass pass;
    const int64_t B = encoded.enc.size(0);
    auto yPrev = torch::full({B}, model.targetVocabulary().startId(), torch::kLong);
    auto state = encoded.state;
    for (int64_t t = 0; t < steps; ++t) {
        auto d = model.step(yPrev, state, encoded, t + 1);
        pass.logProbs.push_back(d.logProbs.select(1, targetIds[t]));
        pass.alphas.push_back(d.alpha);
        state = d.state;
        yPrev = torch::full({B}, targetIds[t], torch::kLong);
    }
    return pass;
}

}  // namespace alignscope::core
