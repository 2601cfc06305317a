#include "core/decoding/BeamSearch.h"

#include "core/decoding/Beam.h"
#include "core/model/Model.h"
#include "core/decoding/SearchBatch.h"
#include "core/Error.h"

#include <numeric>

namespace alignscope::core {

// One Beam per sentence, their open prefixes stacked into one decoder batch, sentence after
// sentence; a finished sentence leaves it.
std::vector<std::vector<Hypothesis>> BeamSearch::searchBatch(const Model& model, const SearchBatch& batch,
                                                             const SearchOptions& options) const {
    torch::InferenceMode guard;
    const auto& vocab = model.targetVocabulary();
    std::vector<Beam> beams;
    for (size_t row = 0; row < batch.size(); ++row)
        beams.emplace_back(vocab, options.beamWidth, options.lengthPenalty, batch.sourceLengths[row], batch.limits[row]);
    std::vector<size_t> owners(batch.size());  // decoder row -> its sentence
    std::iota(owners.begin(), owners.end(), 0);
    EncoderOutput enc = batch.encoded;                                                          // rows follow `owners`
    auto state = enc.state;                                                                     // [n,D]
    auto y = torch::full({static_cast<int64_t>(batch.size())}, vocab.startId(), torch::kLong);  // [n]
    for (int t = 0; !owners.empty(); ++t) {
        if (options.cancelled && options.cancelled()) throw Error("decoding was cancelled");
        if (options.progress) options.progress->reached(t + 1);
        auto d = model.torch().step(y, state, enc, t + 1);
        std::vector<int64_t> keep, tokens;  // decoder rows carried on, and their tokens
        std::vector<size_t> nextOwners;
        for (size_t first = 0; first < owners.size();) {
            const size_t owner = owners[first];
            auto& beam = beams[owner];
            const auto n = static_cast<int64_t>(beam.alive().size());
            const auto start = static_cast<int64_t>(first);
            const auto next = beam.advance(d.logProbs.slice(0, start, start + n), d.alpha.slice(0, start, start + n));
            for (size_t k = 0; k < next.rows.size(); ++k) {
                keep.push_back(start + next.rows[k]);
                tokens.push_back(next.tokens[k]);
                nextOwners.push_back(owner);
            }
            first += static_cast<size_t>(n);
        }
        owners = std::move(nextOwners);
        if (owners.empty()) break;
        const auto index = torch::tensor(keep, torch::kLong);
        state = d.state.index_select(0, index);
        enc = enc.select(index);
        y = torch::tensor(tokens, torch::kLong);
    }
    std::vector<std::vector<Hypothesis>> found;
    for (auto& beam : beams) found.push_back(beam.result());
    return found;
}

}  // namespace alignscope::core
