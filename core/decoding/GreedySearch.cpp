#include "core/decoding/GreedySearch.h"

#include "core/decoding/BeamSearch.h"
#include "core/decoding/EncodedSource.h"
#include "core/Error.h"

namespace alignscope::core {

std::unique_ptr<SearchStrategy> SearchStrategy::create(int beamWidth) {
    if (beamWidth < 1) throw Error("beam width must be at least 1");
    if (beamWidth == 1) return std::make_unique<GreedySearch>();
    return std::make_unique<BeamSearch>();
}

std::vector<Hypothesis> GreedySearch::search(const EncodedSource& source, const SearchOptions& options) const {
    torch::InferenceMode guard;
    const auto& model = source.model();
    const auto& enc = source.output();
    Hypothesis h;
    auto state = enc.state;
    const auto& vocab = model.targetVocabulary();
    auto y = torch::full({1}, vocab.startId(), torch::kLong);
    const int limit = options.lengthLimit(source.length(), model.maxLength());
    for (int t = 0; t < limit; ++t) {
        if (options.cancelled && options.cancelled()) throw Error("decoding was cancelled");
        if (options.progress) options.progress->reached(t + 1);
        auto d = model.torch().step(y, state, enc, t + 1);
        const auto best = d.logProbs[0].argmax().item<int64_t>();
        h.logProb += d.logProbs[0][best].item<float>();
        auto alpha = d.alpha[0].contiguous();
        h.alpha.emplace_back(alpha.data_ptr<float>(), alpha.data_ptr<float>() + alpha.numel());
        h.ids.push_back(best);
        h.tokens.push_back(vocab.token(best));
        if (best == vocab.eos()) {  // never, for a model without eos: it runs to the length limit
            h.finished = true;
            break;
        }
        y = torch::full({1}, best, torch::kLong);
        state = d.state;
    }
    h.score = h.logProb;
    return {h};
}

}  // namespace alignscope::core
