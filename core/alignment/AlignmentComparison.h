#pragma once
#include "core/decoding/Alignment.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// Two models' alignments of one source sentence on one pair of axes, and their difference where
// the targets agree (the compare view, `alignscope-cli compare`). Models that read the source in
// the same tokens are compared token by token unless words are asked for (View → Words, `--words`);
// otherwise both are merged to the words of the text (LinkExtraction::mergeToWords: a source
// word's columns summed, a target word's rows averaged), so models with different tokenizers meet
// on one axis.
class AlignmentComparison {
public:
    struct Side {
        std::string name;                         // the model's name, for titles
        std::string target;                       // its target text (translation or forced target)
        std::vector<std::string> rows;            // [T] target tokens, or words
        std::vector<std::vector<float>> weights;  // [T][C] alpha over the shared columns
    };

    // Each side: a model's name, its alignment of `sourceText` and the target text it aligned (its
    // translation, or the forced target). Merged rows are labelled with each word's tokens joined.
    // `words`: merge to words even where both read the source in the same tokens.
    static AlignmentComparison compare(const std::string& sourceText, Side a, const Alignment& alignmentA, Side b,
                                       const Alignment& alignmentB, bool words = false);

    bool wordLevel() const { return wordLevel_; }
    bool sameTokens() const { return sameTokens_; }                       // both models read the source in the same tokens
    const std::vector<std::string>& columns() const { return columns_; }  // [C] source tokens, or words
    const Side& a() const { return a_; }
    const Side& b() const { return b_; }
    // [R][C] alpha_A − alpha_B on the rows where both targets hold the same token (word, compared
    // without case) at the same position; NaN on the other rows. R = the longer target.
    const std::vector<std::vector<float>>& difference() const { return difference_; }
    const std::vector<bool>& rowAgrees() const { return rowAgrees_; }  // [R]
    size_t agreeingRows() const;
    double meanAbsoluteDifference() const;  // over the agreeing rows' cells (0 when none agree)
    double largestAbsoluteDifference() const;

    nlohmann::json toJson() const;

private:
    bool wordLevel_ = false;
    bool sameTokens_ = true;
    std::vector<std::string> columns_;
    Side a_, b_;
    std::vector<std::vector<float>> difference_;
    std::vector<bool> rowAgrees_;
};

}  // namespace alignscope::core
