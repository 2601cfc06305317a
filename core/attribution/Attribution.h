#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// What an attribution method says about target tokens a decoder chose: how much each source token
// moved the chosen token's log-probability (or, for "attention", the attention weights). One
// serialisable object for every method, as Inseq returns one.
struct Attribution {
    std::string method;                      // registered name (Attributor::methods())
    bool signedScores = false;               // scores may be negative (gradient methods, occlusion)
    std::vector<std::string> sourceTokens;   // [S] as the model saw them, </s> included
    std::vector<int> sourceWords;            // [S] whitespace word of the source; -1 for </s>
    std::vector<std::string> targetTokens;   // [T] the whole target, attributed or not
    std::vector<int> targetWords;            // [T] word of the target text; -1 for </s>
    std::vector<int> steps;                  // [R] target positions attributed (0-based), one per row
    std::vector<std::vector<float>> scores;  // [R][S]
    std::vector<float> logProbs;             // [R] f(x) = log p(y_t | y_<t, x)
    std::vector<float> baselineLogProbs;     // [R] f(baseline): integrated gradients only, else empty
    int points = 0;                          // integrated gradients: interpolation points asked for
    std::vector<int> rowPoints;              // [R] integrated gradients: points each row took (adaptive)
    std::string baseline;                    // integrated gradients: "zero" or "pad"

    // Scores as a full [T][S] matrix, rows not attributed left at 0 (exports and heatmaps).
    std::vector<std::vector<float>> matrix() const;
    nlohmann::json toJson() const;
};

}  // namespace alignscope::core
