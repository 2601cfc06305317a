#include "core/attribution/Attribution.h"

namespace alignscope::core {

std::vector<std::vector<float>> Attribution::matrix() const {
    std::vector<std::vector<float>> m(targetTokens.size(), std::vector<float>(sourceTokens.size(), 0.0f));
    for (size_t r = 0; r < steps.size(); ++r)
        if (steps[r] >= 0 && static_cast<size_t>(steps[r]) < m.size()) m[steps[r]] = scores[r];
    return m;
}

nlohmann::json Attribution::toJson() const {
    nlohmann::json j = {{"method", method},
                        {"signed", signedScores},
                        {"source_tokens", sourceTokens},
                        {"source_words", sourceWords},
                        {"target_tokens", targetTokens},
                        {"target_words", targetWords},
                        {"steps", steps},
                        {"scores", scores},
                        {"log_probs", logProbs}};
    if (!baselineLogProbs.empty()) {
        j["baseline_log_probs"] = baselineLogProbs;
        j["points"] = points;
        j["row_points"] = rowPoints;
        j["baseline"] = baseline;
    }
    return j;
}

}  // namespace alignscope::core
