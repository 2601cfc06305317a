#pragma once
#include "core/alignment/LinkExtraction.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace alignscope::core {

class Alignment;
struct Attribution;

// One direction's soft matrix of a pair (attention alphas or an attribution's scores) with its
// word maps, read the one way every link rule, ensemble, comparison and export reads it: a model's
// own padding column stays in the matrix but is no source word, and </s> tokens (word -1) pool into
// a column that links nothing (LinkExtraction::extract).
class SoftAlignment {
public:
    using Matrix = std::vector<std::vector<float>>;

    SoftAlignment() = default;
    static SoftAlignment fromAttention(const Alignment& alignment);
    static SoftAlignment fromAttribution(const Attribution& attribution);
    // The words of a matrix's source columns: `words` without the last entry where `tokens` end in
    // a model's own padding column (Model::kPaddingColumn). The one place that rule is applied.
    static std::vector<int> sourceWordsOf(const std::vector<std::string>& tokens, const std::vector<int>& words);

    const Matrix& matrix() const { return matrix_; }                      // [T][S'], S' = S or S + 1 (padding)
    const std::vector<int>& sourceWords() const { return sourceWords_; }  // [S] real source tokens only
    const std::vector<int>& targetWords() const { return targetWords_; }  // [T]
    // [target words][source words], LinkExtraction::mergeToWords.
    Matrix wordMatrix() const;
    LinkExtraction::Links links(LinkExtraction::Rule rule, float threshold = 0.3f) const;

    // "0-0 1-2 2-1": links as Pharaoh writes them, source index first.
    static std::string pharaoh(const LinkExtraction::Links& links);
    // Attention's own reading: each target word's argmax source word (pieces merged, </s> and the
    // padding column never linked), as Pharaoh; and the alignment's JSON with those links.
    static std::string attentionPharaoh(const Alignment& alignment);
    static nlohmann::json attentionJson(const Alignment& alignment);

private:
    Matrix matrix_;
    std::vector<int> sourceWords_, targetWords_;
};

}  // namespace alignscope::core
