#include "core/decoding/GreedySearch.h"

#include "core/decoding/BeamSearch.h"
#include "core/decoding/EncodedSource.h"
#include "core/decoding/SearchBatch.h"
#include "core/model/Model.h"
#include "core/Error.h"

#include <numeric>

namespace alignscope::core {

std::unique_ptr<SearchStrategy> SearchStrategy::create(int beamWidth) {
    if (beamWidth < 1) throw Error("beam width must be at least 1");
    if (beamWidth == 1) return std::make_unique<GreedySearch>();
    return std::make_unique<BeamSearch>();
}

std::vector<Hypothesis> SearchStrategy::search(const EncodedSource& source, const SearchOptions& options) const {
    const auto& model = source.model();
    SearchBatch batch{source.output(), {source.length()}, {options.lengthLimit(source.length(), model.maxLength())}, {nullptr}};
    return searchBatch(model, batch, options).front();
}

std::vector<std::vector<Hypothesis>> GreedySearch::searchBatch(const Model& model, const SearchBatch& batch,
                                                               const SearchOptions& options) const {
    torch::InferenceMode guard;
    const auto& torchModel = model.torch();
    const auto& vocab = model.targetVocabulary();
    const auto B = static_cast<int64_t>(batch.size());
    EncoderOutput enc = batch.encoded;  // rows follow `alive`
    auto state = enc.state;             // [n,D]
    std::vector<Hypothesis> hyps(batch.size());
    std::vector<size_t> alive(batch.size());  // decoder row -> batch row
    std::iota(alive.begin(), alive.end(), 0);
    auto y = torch::full({B}, vocab.startId(), torch::kLong);  // [n]
    const auto following = [&](size_t row) { return row < batch.targets.size() && batch.targets[row] != nullptr; };
    bool anyFollowing = false;
    for (size_t row = 0; row < batch.size(); ++row) anyFollowing = anyFollowing || following(row);
    for (int t = 0; !alive.empty(); ++t) {
        if (options.cancelled && options.cancelled()) throw Error("decoding was cancelled");
        if (options.progress) options.progress->reached(t + 1);
        auto d = anyFollowing ? torchModel.step(y, state, enc, t + 1) : torchModel.stepBest(y, state, enc, options.returnScores, t + 1);
        // The rows' tokens first (the most likely, or the target's), then their log-probabilities in one gather.
        std::vector<int64_t> tokens = anyFollowing ? std::vector<int64_t>(alive.size()) : d.best;
        const auto cursor = static_cast<size_t>(t);
        for (size_t k = 0; anyFollowing && k < alive.size(); ++k) {
            const auto* target = following(alive[k]) ? batch.targets[alive[k]] : nullptr;
            tokens[k] = !target                   ? d.logProbs[static_cast<int64_t>(k)].argmax().item<int64_t>()
                        : cursor < target->size() ? target->ids[cursor]
                                                  : vocab.eos();
        }
        torch::Tensor chosen;  // [n,1]; undefined where the caller reads tokens only (returnScores false)
        if (anyFollowing || options.returnScores)
            chosen = d.logProbs.gather(1, torch::tensor(tokens, torch::kLong).unsqueeze(1)).contiguous();
        const float* chosenLogProbs = chosen.defined() ? chosen.data_ptr<float>() : nullptr;
        auto alpha = d.alpha.contiguous();  // [n,S]
        std::vector<size_t> next;
        std::vector<int64_t> keep, nextTokens;
        for (size_t k = 0; k < alive.size(); ++k) {
            const size_t row = alive[k];
            const auto* target = following(row) ? batch.targets[row] : nullptr;
            const int64_t token = tokens[k];
            auto& h = hyps[row];
            h.ids.push_back(token);
            h.tokens.push_back(target && cursor < target->size() ? target->tokens[cursor] : vocab.token(token));
            if (chosenLogProbs) h.logProb += chosenLogProbs[k];
            const float* a = alpha.data_ptr<float>() + static_cast<int64_t>(k) * alpha.size(1);
            h.alpha.emplace_back(a, a + batch.sourceLengths[row]);
            // A model without eos runs to the length limit.
            const bool ended = (token == vocab.eos() && vocab.eos() >= 0) || static_cast<int>(h.ids.size()) >= batch.limits[row];
            if (ended) {
                h.finished = token == vocab.eos();
                continue;
            }
            next.push_back(row);
            keep.push_back(static_cast<int64_t>(k));
            nextTokens.push_back(token);
        }
        if (next.empty()) break;
        // Finished rows leave the batch: the next step computes the live ones only.
        if (next.size() != alive.size()) {
            const auto index = torch::tensor(keep, torch::kLong);
            enc = enc.select(index);
            state = d.state.index_select(0, index);
        } else {
            state = d.state;
        }
        alive = std::move(next);
        y = torch::tensor(nextTokens, torch::kLong);
    }
    std::vector<std::vector<Hypothesis>> found;
    for (auto& h : hyps) {
        h.score = h.logProb;
        found.push_back({std::move(h)});
    }
    return found;
}

}  // namespace alignscope::core
