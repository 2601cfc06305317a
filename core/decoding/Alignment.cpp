#include "core/decoding/Alignment.h"

#include "core/Error.h"
#include "core/alignment/LinkExtraction.h"
#include "core/model/Model.h"


namespace alignscope::core {

Alignment::Alignment(std::vector<std::string> sourceTokens, std::vector<int> sourceWords,
                     std::vector<std::string> targetTokens, std::vector<int> targetWords,
                     std::vector<std::vector<float>> weights)
    : sourceTokens_(std::move(sourceTokens)), targetTokens_(std::move(targetTokens)),
      sourceWords_(std::move(sourceWords)), targetWords_(std::move(targetWords)), weights_(std::move(weights)) {
    if (sourceWords_.size() != sourceTokens_.size() || targetWords_.size() != targetTokens_.size() ||
        weights_.size() != targetTokens_.size())
        throw Error("alignment: token, word and row counts disagree");
    for (const auto& row : weights_)
        if (row.size() != sourceTokens_.size()) throw Error("alignment: a row's length differs from the source's");
}

std::vector<std::pair<int, int>> Alignment::hardLinks() const {
    // A model's own <padding> column is not a source word: the argmax is over the others.
    std::vector<int> words = sourceWords_;
    if (Model::endsWithPaddingColumn(sourceTokens_)) words.pop_back();
    return LinkExtraction::extract(weights_, words, targetWords_, LinkExtraction::Rule::Argmax);
}

std::string Alignment::pharaoh() const {
    std::string out;
    for (const auto& [s, t] : hardLinks()) {
        if (!out.empty()) out += ' ';
        out += std::to_string(s) + "-" + std::to_string(t);
    }
    return out;
}

nlohmann::json Alignment::toJson() const {
    return {{"source_tokens", sourceTokens_},
            {"target_tokens", targetTokens_},
            {"source_words", sourceWords_},
            {"target_words", targetWords_},
            {"alpha", weights_},
            {"links", pharaoh()}};
}

}  // namespace alignscope::core
