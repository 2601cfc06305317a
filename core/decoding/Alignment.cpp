#include "core/decoding/Alignment.h"

#include "core/Error.h"

namespace alignscope::core {

Alignment::Alignment(std::vector<std::string> sourceTokens, std::vector<int> sourceWords, std::vector<std::string> targetTokens,
                     std::vector<int> targetWords, std::vector<std::vector<float>> weights)
    : sourceTokens_(std::move(sourceTokens)),
      targetTokens_(std::move(targetTokens)),
      sourceWords_(std::move(sourceWords)),
      targetWords_(std::move(targetWords)),
      weights_(std::move(weights)) {
    if (sourceWords_.size() != sourceTokens_.size() || targetWords_.size() != targetTokens_.size() ||
        weights_.size() != targetTokens_.size())
        throw Error("alignment: token, word and row counts disagree");
    for (const auto& row : weights_)
        if (row.size() != sourceTokens_.size()) throw Error("alignment: a row's length differs from the source's");
}

nlohmann::json Alignment::toJson() const {
    return {{"source_tokens", sourceTokens_},
            {"target_tokens", targetTokens_},
            {"source_words", sourceWords_},
            {"target_words", targetWords_},
            {"alpha", weights_}};
}

}  // namespace alignscope::core
