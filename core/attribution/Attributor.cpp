#include "core/attribution/Attributor.h"

#include "core/Error.h"
#include "core/attribution/AttentionAttribution.h"
#include "core/attribution/GradientAttribution.h"
#include "core/attribution/OcclusionAttribution.h"
#include "core/attribution/ProductAttribution.h"

#include <algorithm>
#include <mutex>

namespace alignscope::core {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<std::shared_ptr<const AttributionMethod>> methods;
};

Registry& registry() {
    static Registry* r = [] {
        auto* created = new Registry;  // never destroyed: methods may be looked up during exit
        const auto attention = std::make_shared<AttentionAttribution>();
        const auto occlusion = std::make_shared<OcclusionAttribution>();
        created->methods = {attention, std::make_shared<GradientAttribution>(GradientAttribution::Kind::GradientTimesInput),
                            std::make_shared<GradientAttribution>(GradientAttribution::Kind::IntegratedGradients), occlusion,
                            std::make_shared<ProductAttribution>(attention, occlusion)};
        return created;
    }();
    return *r;
}

}  // namespace

std::vector<std::string> Attributor::methods() {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    std::vector<std::string> names;
    for (const auto& m : r.methods) names.push_back(m->name());
    return names;
}

const AttributionMethod& Attributor::method(const std::string& name) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    for (const auto& m : r.methods)
        if (m->name() == name) return *m;
    std::string known;
    for (const auto& m : r.methods) known += (known.empty() ? "" : ", ") + m->name();
    throw Error("unknown attribution method '" + name + "' (methods: " + known + ")");
}

void Attributor::registerMethod(std::shared_ptr<const AttributionMethod> method) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    for (auto& m : r.methods)
        if (m->name() == method->name()) {
            m = std::move(method);
            return;
        }
    r.methods.push_back(std::move(method));
}

Attribution Attributor::attribute(const Model& model, const TokenizedSentence& source, const Hypothesis& target,
                                  const std::vector<int>& targetWords, const std::string& name, const Options& options) {
    const AttributionMethod& m = method(name);
    const int T = static_cast<int>(target.ids.size());
    // A session's source of a model that attends its own padding ends with that column (id -1):
    // not a token the model reads, so not one to attribute to.
    TokenizedSentence tokens = source;
    if (Model::endsWithPaddingColumn(tokens.tokens)) {
        tokens.tokens.pop_back();
        tokens.ids.pop_back();
        tokens.unknown.pop_back();
        tokens.words.pop_back();
        tokens.offsets.pop_back();
    }
    AttributionRequest request{model,          tokens,           target.ids,       options.steps,
                               options.points, options.baseline, options.adaptive, options.progress};
    if (request.steps.empty())
        for (int t = 0; t < T; ++t) request.steps.push_back(t);
    std::sort(request.steps.begin(), request.steps.end());
    request.steps.erase(std::unique(request.steps.begin(), request.steps.end()), request.steps.end());
    for (int t : request.steps)
        if (t < 0 || t >= T)
            throw Error("attribution: step " + std::to_string(t + 1) + " is outside the target's " + std::to_string(T) + " tokens");

    Attribution out;
    out.method = m.name();
    out.signedScores = m.signedScores();
    out.sourceTokens = tokens.tokens;
    out.sourceWords = tokens.words;
    out.targetTokens = target.tokens;
    out.targetWords = targetWords;
    out.steps = request.steps;
    if (T > 0 && !request.steps.empty()) m.compute(request, out);
    return out;
}

}  // namespace alignscope::core
