#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// A soft alignment: alpha rows over the source tokens, one per target token, with the words the
// tokens came from, so hard links can be given over the user's whitespace words.
class Alignment {
public:
    Alignment() = default;
    Alignment(std::vector<std::string> sourceTokens, std::vector<int> sourceWords,
              std::vector<std::string> targetTokens, std::vector<int> targetWords,
              std::vector<std::vector<float>> weights);

    const std::vector<std::string>& sourceTokens() const { return sourceTokens_; }  // [S]
    const std::vector<std::string>& targetTokens() const { return targetTokens_; }  // [T]
    const std::vector<int>& sourceWords() const { return sourceWords_; }            // [S], -1: </s>
    const std::vector<int>& targetWords() const { return targetWords_; }            // [T], -1: </s>
    const std::vector<std::vector<float>>& weights() const { return weights_; }     // [T][S]

    // Word links (source word, target word): for each target token, the source token its alpha
    // peaks on; pieces of one word merge into one link; links to or from </s> are dropped.
    std::vector<std::pair<int, int>> hardLinks() const;
    std::string pharaoh() const;  // "0-0 1-2 2-1", source index first
    nlohmann::json toJson() const;

private:
    std::vector<std::string> sourceTokens_, targetTokens_;
    std::vector<int> sourceWords_, targetWords_;
    std::vector<std::vector<float>> weights_;
};

}  // namespace alignscope::core
