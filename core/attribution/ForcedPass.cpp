#include "core/attribution/ForcedPass.h"

namespace alignscope::core {

ForcedPass ForcedPass::run(const TorchModel& model, const EncoderOutput& encoded, const std::vector<int64_t>& targetIds,
                           int64_t steps, const std::vector<int>* needed) {
    ForcedPass pass;
    const int64_t B = encoded.enc.size(0);
    auto yPrev = torch::full({B}, model.targetVocabulary().startId(), torch::kLong);
    auto state = encoded.state;
    size_t next = 0;  // into *needed
    for (int64_t t = 0; t < steps; ++t) {
        while (needed && next < needed->size() && (*needed)[next] < t) ++next;
        if (needed && model.advances() && (next == needed->size() || (*needed)[next] != t)) {
            state = model.advance(yPrev, state, encoded, t + 1);
            pass.logProbs.emplace_back();
            pass.alphas.emplace_back();
            yPrev = torch::full({B}, targetIds[t], torch::kLong);
            continue;
        }
        auto d = model.step(yPrev, state, encoded, t + 1);
        pass.logProbs.push_back(d.logProbs.select(1, targetIds[t]));
        pass.alphas.push_back(d.alpha);
        state = d.state;
        yPrev = torch::full({B}, targetIds[t], torch::kLong);
    }
    return pass;
}

}  // namespace alignscope::core
