#include "ui/DecodingSnapshot.h"

#include "core/Vocabulary.h"

namespace alignscope::ui {

core::Alignment DecodingSnapshot::alignment() const {
    std::vector<std::string> tokens;
    std::vector<int> words;
    std::vector<std::vector<float>> rows;
    if (selectedHypothesis >= 0 && selectedHypothesis < static_cast<int>(beam.size())) {
        const auto& h = beam[static_cast<size_t>(selectedHypothesis)];
        for (size_t t = 0; t < h.ids.size(); ++t) {
            tokens.push_back(h.tokens[t]);
            words.push_back(h.ids[t] == core::Vocabulary::kEos ? -1 : static_cast<int>(t));
        }
        rows = h.alpha;
    } else {
        for (size_t t = 0; t < steps.size(); ++t) {
            tokens.push_back(steps[t].token);
            words.push_back(steps[t].tokenId == core::Vocabulary::kEos ? -1 : static_cast<int>(t));
            rows.push_back(steps[t].alpha);
        }
    }
    return core::Alignment(source.tokens, source.words, std::move(tokens), std::move(words), std::move(rows));
}

}  // namespace alignscope::ui
