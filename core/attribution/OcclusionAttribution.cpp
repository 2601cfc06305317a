#include "core/attribution/OcclusionAttribution.h"

#include "core/Error.h"
#include "core/attribution/ForcedPass.h"

#include <algorithm>

namespace alignscope::core {

namespace {
constexpr int64_t kRowsPerBatch = 64;  // shortened sources encoded together
}

std::string OcclusionAttribution::description() const {
    return "Occlusion: the source read again with one token left out; the score is how much the chosen "
           "word's log-probability falls without it (negative: the word became likelier).";
}

void OcclusionAttribution::compute(const AttributionRequest& request, Attribution& out) const {
    const TorchModel& model = request.model.torch();
    c10::InferenceMode guard;
    const auto& ids = request.source.ids;
    const int64_t S = static_cast<int64_t>(ids.size());
    if (S < 2) throw Error("occlusion needs a source of at least two tokens (one is erased at a time)");
    const auto reference = ForcedPass::ofSource(model, ids, request.targetIds, request.steps);

    // [S][R]: log p with token i erased. Every shortened source has S − 1 tokens: no padding, so
    // models that attend their own padding see what they would see alone.
    std::vector<std::vector<float>> without(S);
    for (int64_t first = 0; first < S; first += kRowsPerBatch) {
        const int64_t rows = std::min(kRowsPerBatch, S - first);
        auto batch = torch::empty({rows, S - 1}, torch::kLong);
        auto acc = batch.accessor<int64_t, 2>();
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t j = 0, k = 0; j < S; ++j)
                if (j != first + r) acc[r][k++] = ids[j];
        const auto encoded = model.encode(batch, torch::full({rows}, S - 1, torch::kLong));
        const auto pass = ForcedPass::through(model, encoded, request.targetIds, request.steps);
        for (int step : request.steps) {
            const auto lp = pass.logProbs[step].contiguous();
            for (int64_t r = 0; r < rows; ++r) without[first + r].push_back(lp[r].item<float>());
        }
        if (request.progress) request.progress->moved();
    }
    for (size_t r = 0; r < request.steps.size(); ++r) {
        const float f = reference.logProbs[request.steps[r]][0].item<float>();
        std::vector<float> row(S);
        for (int64_t i = 0; i < S; ++i) row[i] = f - without[i][r];
        out.scores.push_back(std::move(row));
        out.logProbs.push_back(f);
    }
}

}  // namespace alignscope::core
