#include "core/attribution/ForcedPass.h"

namespace alignscope::core {

ForcedPass ForcedPass::run(const TorchModel& model, const EncoderOutput& encoded, const std::vector<int64_t>& targetIds, int64_t steps,
                           const std::vector<int>* needed) {
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

ForcedPass ForcedPass::through(const TorchModel& model, const EncoderOutput& encoded, const std::vector<int64_t>& targetIds,
                               const std::vector<int>& needed) {
    return run(model, encoded, targetIds, needed.empty() ? 0 : needed.back() + 1, &needed);
}

ForcedPass ForcedPass::ofSource(const TorchModel& model, const std::vector<int64_t>& sourceIds, const std::vector<int64_t>& targetIds,
                                const std::vector<int>& needed) {
    const auto S = static_cast<int64_t>(sourceIds.size());
    const auto encoded = model.encode(torch::tensor(sourceIds, torch::kLong).unsqueeze(0), torch::tensor({S}, torch::kLong));
    return through(model, encoded, targetIds, needed);
}

}  // namespace alignscope::core
