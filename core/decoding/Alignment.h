#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// What a decoding leaves: alpha rows over the source tokens, one per target token, with the words
// the tokens came from, so that core/alignment can give hard links over the user's words.
class Alignment {
public:
    Alignment() = default;
    Alignment(std::vector<std::string> sourceTokens, std::vector<int> sourceWords, std::vector<std::string> targetTokens,
              std::vector<int> targetWords, std::vector<std::vector<float>> weights);

    const std::vector<std::string>& sourceTokens() const { return sourceTokens_; }  // [S]
    const std::vector<std::string>& targetTokens() const { return targetTokens_; }  // [T]
    const std::vector<int>& sourceWords() const { return sourceWords_; }            // [S], -1: </s>
    const std::vector<int>& targetWords() const { return targetWords_; }            // [T], -1: </s>
    const std::vector<std::vector<float>>& weights() const { return weights_; }     // [T][S]

    // Tokens, words and alpha (the links are alignment/'s job: SoftAlignment::attentionJson).
    nlohmann::json toJson() const;

private:
    std::vector<std::string> sourceTokens_, targetTokens_;
    std::vector<int> sourceWords_, targetWords_;
    std::vector<std::vector<float>> weights_;
};

}  // namespace alignscope::core
