#include "core/decoding/BeamSearch.h"

#include "core/decoding/Beam.h"
#include "core/decoding/EncodedSource.h"
#include "core/Error.h"

namespace alignscope::core {

std::vector<Hypothesis> BeamSearch::search(const EncodedSource& source, const SearchOptions& options) const {
    torch::InferenceMode guard;
    const auto& model = source.model();
    EncoderOutput enc = source.output();  // rows follow the beam's open prefixes
    // source.length(): alpha's columns, a model's own padding column included.
    Beam beam(model.targetVocabulary(), options.beamWidth, options.lengthPenalty, source.length(),
              options.lengthLimit(source.length(), model.maxLength()));
    auto state = enc.state;                                                        // [n,D]
    auto y = torch::full({1}, model.targetVocabulary().startId(), torch::kLong);  // [n]
    for (int t = 0; !beam.done(); ++t) {
        if (options.cancelled && options.cancelled()) throw Error("decoding was cancelled");
        if (options.progress) options.progress->reached(t + 1);
        auto d = model.torch().step(y, state, enc, t + 1);
        const auto next = beam.advance(d.logProbs, d.alpha);
        if (beam.done()) break;
        state = d.state.index_select(0, torch::tensor(next.rows, torch::kLong));
        enc = source.output().select(torch::zeros({static_cast<int64_t>(next.rows.size())}, torch::kLong));
        y = torch::tensor(next.tokens, torch::kLong);
    }
    return beam.result();
}

}  // namespace alignscope::core
