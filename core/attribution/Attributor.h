#pragma once
#include "core/attribution/Attribution.h"
#include "core/attribution/AttributionMethod.h"
#include "core/decoding/Hypothesis.h"
#include "core/model/Model.h"

#include <memory>
#include <string>
#include <vector>

namespace alignscope::core {

// The one entry for attributions (after Inseq's model.attribute): methods are registered by name
// ("attention", "grad-x-input", "integrated-gradients", "occlusion", and "attention-x-occlusion",
// where the two agree, built in); every method
// returns one Attribution.
class Attributor {
public:
    static std::vector<std::string> methods();  // registered names, in registration order
    // Throws Error naming the registered methods for an unknown name.
    static const AttributionMethod& method(const std::string& name);
    static void registerMethod(std::shared_ptr<const AttributionMethod> method);

    struct Options {
        std::vector<int> steps;         // 0-based target positions (empty: every position)
        int points = 16;                // integrated gradients
        std::string baseline = "zero";  // integrated gradients: "zero" or "pad"
        // Integrated gradients: a step whose scores miss f(x) − f(x') by more than 5 % is integrated
        // again with twice the points, up to 128 (false: `points` only, as benchmarks want).
        bool adaptive = true;
        // Beaten as the work goes (AttributionRequest::progress): a --time-limit or the app's watch
        // counts silence, and one long pair's rows can take longer than the limit.
        DecodingProgress* progress = nullptr;
    };
    // Attributes target.ids (the chosen or given tokens) to source. `targetWords` [T] as
    // Model::targetWords gives them. Throws Error for an unknown method, a model without the
    // methods a gradient method needs, steps outside the target, or a failing model.
    static Attribution attribute(const Model& model, const TokenizedSentence& source, const Hypothesis& target,
                                 const std::vector<int>& targetWords, const std::string& method, const Options& options);
    static Attribution attribute(const Model& model, const TokenizedSentence& source, const Hypothesis& target,
                                 const std::vector<int>& targetWords, const std::string& method) {
        return attribute(model, source, target, targetWords, method, Options{});
    }
};

}  // namespace alignscope::core
