#pragma once
#include <string>
#include <vector>

namespace alignscope::core {

// Corpus BLEU (Papineni et al. 2002): up to 4-gram precisions clipped by the maximum count over
// all references, geometric mean, brevity penalty against the reference length closest to each
// hypothesis (ties: the shorter). Works on token lists; no smoothing.
class Bleu {
public:
    using Tokens = std::vector<std::string>;

    // sacrebleu's default tokenisation ("13a", after mteval-v13a.pl) of a detokenised sentence:
    // ASCII punctuation and symbols split off, '.' and ',' split unless between digits, '-' after a
    // digit split; case kept unless `lowercase` (as Python's str.lower()). For BLEU comparable
    // across tokenizers (a piece model against a word model) and with published figures.
    static Tokens tokenize13a(const std::string& text, bool lowercase = false);

    // Adds one segment: a hypothesis and one or more references.
    void add(const Tokens& hypothesis, const std::vector<Tokens>& references);

    double score() const;  // 0..100
    double brevityPenalty() const;
    double precision(int n) const;  // n in 1..4, 0..1
    size_t segments() const { return segments_; }
    size_t hypothesisLength() const { return hypLength_; }
    size_t referenceLength() const { return refLength_; }

private:
    size_t matches_[4] = {0, 0, 0, 0};
    size_t totals_[4] = {0, 0, 0, 0};
    size_t hypLength_ = 0;
    size_t refLength_ = 0;
    size_t segments_ = 0;
};

}  // namespace alignscope::core
