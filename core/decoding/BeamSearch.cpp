#include "core/decoding/BeamSearch.h"

#include "core/decoding/EncodedSource.h"
#include "core/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace alignscope::core {

std::vector<Hypothesis> BeamSearch::search(const EncodedSource& source, const SearchOptions& options) const {
    torch::InferenceMode guard;
    const int width = std::max(1, options.beamWidth);
    const auto& model = source.model();
    const auto& vocab = model.targetVocabulary();
    const int64_t V = vocab.size();
    auto normalised = [&](const Hypothesis& h) {
        return options.lengthPenalty == 0.0f
                   ? h.logProb
                   : h.logProb / std::pow(static_cast<float>(h.ids.size()), options.lengthPenalty);
    };

    std::vector<Hypothesis> alive(1);  // the empty prefix
    std::vector<Hypothesis> finished;
    EncoderOutput enc = source.output();         // rows follow `alive`
    auto state = enc.state;                      // [n,D]
    auto y = torch::full({1}, vocab.startId(), torch::kLong);  // [n]
    const int limit = options.lengthLimit(source.length(), model.maxLength());
    for (int t = 0; t < limit && !alive.empty(); ++t) {
        if (options.cancelled && options.cancelled()) throw Error("decoding was cancelled");
        if (options.progress) options.progress->step = t + 1;
        auto d = model.torch().step(y, state, enc, t + 1);
        std::vector<float> prefix;
        for (const auto& h : alive) prefix.push_back(h.logProb);
        auto total = d.logProbs + torch::tensor(prefix).unsqueeze(1);  // [n,V]
        const int64_t k = std::min<int64_t>(2 * width, total.numel());
        auto [values, indices] = total.reshape({-1}).topk(k);
        auto alpha = d.alpha.contiguous();  // [n,S]
        const int64_t S = alpha.size(1);
        std::vector<Hypothesis> next;
        std::vector<int64_t> rows, tokens;
        for (int64_t j = 0; j < k && static_cast<int>(next.size()) < width; ++j) {
            const int64_t flat = indices[j].item<int64_t>();
            const int64_t row = flat / V, token = flat % V;
            Hypothesis h = alive[static_cast<size_t>(row)];
            h.ids.push_back(token);
            h.tokens.push_back(vocab.token(token));
            h.logProb = values[j].item<float>();
            const float* a = alpha.data_ptr<float>() + row * S;
            h.alpha.emplace_back(a, a + S);
            if (token == vocab.eos()) {
                // Only an end among the `width` best candidates finishes a hypothesis; ends ranked
                // lower would fill the finished list with unlikely short outputs and stop early.
                if (j >= width) continue;
                h.finished = true;
                h.score = normalised(h);
                finished.push_back(std::move(h));
            } else {
                next.push_back(std::move(h));
                rows.push_back(row);
                tokens.push_back(token);
            }
        }
        alive = std::move(next);
        if (alive.empty()) break;
        // Stop once `width` hypotheses have finished and no open prefix scores as well as the
        // worst of them (exact without a length penalty, where extending only lowers a score).
        if (static_cast<int>(finished.size()) >= width) {
            std::stable_sort(finished.begin(), finished.end(),
                             [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
            finished.resize(static_cast<size_t>(width));
            float bestOpen = -std::numeric_limits<float>::infinity();
            for (const auto& h : alive) bestOpen = std::max(bestOpen, normalised(h));
            if (bestOpen < finished.back().score) break;
        }
        auto index = torch::tensor(rows, torch::kLong);
        state = d.state.index_select(0, index);
        enc = source.output().select(torch::zeros({static_cast<int64_t>(rows.size())}, torch::kLong));
        y = torch::tensor(tokens, torch::kLong);
    }
    if (finished.empty()) {  // length cap reached: report the open prefixes
        for (auto& h : alive) {
            h.score = normalised(h);
            finished.push_back(std::move(h));
        }
    }
    std::stable_sort(finished.begin(), finished.end(),
                     [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (static_cast<int>(finished.size()) > width) finished.resize(static_cast<size_t>(width));
    return finished;
}

}  // namespace alignscope::core
