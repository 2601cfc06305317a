#pragma once
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// Hard word links from a soft token-level matrix (attention or an attribution), and the
// symmetrisation of two directions (Och & Ney 2003; Koehn et al. 2003's grow-diag-final-and).
// Links are (source word, target word), sorted; tokens whose word is -1 (</s>) give none.
class LinkExtraction {
public:
    using Links = std::vector<std::pair<int, int>>;
    enum class Rule {
        Argmax,  // each target word links the source word its merged row peaks on
        // Argmax over the source words only: a row that peaks on </s> links its best word instead
        // of none. Why: a model may use </s> as a sink, the peak of a third of its words' rows, and the gold
        // aligns those words (docs/alignment.md, "</s> as an attention sink").
        ArgmaxSkipEos,
        Threshold,  // every source word holding >= threshold of the merged row's positive mass
        // The one matrix read both ways: each target word's peak (Argmax) and each source word's
        // peak over the target words, joined by grow-diag-final-and. Why: a column's peak catches
        // the source word that a row, one word early, gave to its neighbour, and the join keeps
        // what both readings see (docs/alignment.md, "Reading one matrix both ways").
        ArgmaxBothWays,
        // SimAlign's itermax (Jalili Sabet et al. 2020) over the same word matrix: the links that
        // are both their row's and their column's peak, then a second round among rows or columns
        // still unlinked (cells in a linked row or column damped to half), mutual peaks again.
        IterMax,
    };
    enum class Symmetrization { Intersection, Union, GrowDiagFinalAnd };

    // matrix [T][S'] with S' >= S = sourceWords.size(): columns past S (a model's own padding) are
    // never linked and do not count in a row's mass. Rules read the word matrix (a source word's
    // columns summed, a target word's rows averaged): one decision per target word; the tokens of
    // no word (</s>) pool into one column that links nothing but can win a row.
    static Links extract(const std::vector<std::vector<float>>& matrix, const std::vector<int>& sourceWords,
                         const std::vector<int>& targetWords, Rule rule, float threshold = 0.3f);
    // `forward` and `backward` both source-first (flip the reverse model's links before).
    static Links symmetrize(const Links& forward, const Links& backward, Symmetrization how);

    // Links both directions agree on (Liang et al. 2006's alignment by agreement, applied to the
    // two soft matrices): each row's positive part rescaled to sum to 1, then forward [T][S] and
    // backward [S][T] (word matrices, mergeToWords) multiplied cell by cell. Forward links are each
    // target word's peak of that product, backward ones each source word's; `how` joins them.
    // Why: a link one direction is unsure of but the other is sure of survives, where hard links
    // read off each direction alone lose it (docs/alignment.md). Throws Error when the two
    // matrices do not cover the same words.
    static Links agree(const std::vector<std::vector<float>>& forward, const std::vector<std::vector<float>>& backward, Symmetrization how);

    // An ensemble's word matrix: each member's rows as shares (positive part summing to 1, as in
    // agree), averaged cell by cell. Why: models that split a line differently (words, sub-words)
    // err in different places, and their shares are on one scale where raw scores are not
    // (docs/alignment.md, "Ensembles"). Throws Error naming the first member whose shape differs.
    static std::vector<std::vector<float>> average(const std::vector<std::vector<std::vector<float>>>& members);

    // Word-level matrix [target words][source words] (</s> dropped): a source word's columns
    // summed, a target word's rows averaged — the merge every word-level view uses.
    static std::vector<std::vector<float>> mergeToWords(const std::vector<std::vector<float>>& matrix, const std::vector<int>& sourceWords,
                                                        const std::vector<int>& targetWords);

    // The labels of mergeToWords' rows (or columns): for each of `count` words, its tokens joined as
    // text (PieceText: "▁" dropped, byte pieces decoded), so each label is what the word's own
    // tokens spell; "?" for a word without tokens.
    static std::vector<std::string> wordLabels(const std::vector<std::string>& tokens, const std::vector<int>& words, size_t count);

    // "argmax", "argmax-skip-eos", "threshold", "argmax-both-ways", "itermax", "intersection", "union", "grow-diag-final-and", and the last
    // three prefixed "agreement-" (agree() before joining; Error for others).
    static Rule ruleNamed(const std::string& name);
    static Symmetrization symmetrizationNamed(const std::string& name);
    static bool isSymmetrization(const std::string& name);
    static bool isAgreement(const std::string& name);  // "agreement-..."

private:
    // Rule::IterMax over a word matrix [T][S] (</s> dropped, rows averaged).
    static Links iterMax(const std::vector<std::vector<double>>& matrix);
};

}  // namespace alignscope::core
