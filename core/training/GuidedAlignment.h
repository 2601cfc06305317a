#pragma once
#include "core/text/Tokenizer.h"
#include "core/text/SentencePair.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

class Corpus;

// Guided alignment (Chen et al. 2016; Liu et al. 2016, "supervised attention"; Garg et al. 2019):
// the attention of each target token trained toward given word links. The links are a Pharaoh
// file, line k for line k of the corpus, over the whitespace-separated words of each side (the
// unit of `aer` and of gold sets; `python3 -m alignscope guide` computes them). A target token of
// word w is guided uniformly toward the tokens of the source words linked to w, the target </s>
// toward the source </s>; tokens of unlinked words are not guided. python/alignscope/guided.py is
// the Python trainer's side of the same rule.
class GuidedAlignment {
public:
    // (target token, source token), tokens counted without specials: a side's token count is the
    // position of its </s>.
    using TokenLinks = std::vector<std::pair<int, int>>;

    // Reads a Pharaoh file (`i-j`; `ipj` and `i?j` taken as links too). Throws Error naming the
    // file and line of a line that is not links, or the file when it cannot be read.
    static GuidedAlignment read(const std::string& path, double weight);

    // Throws Error naming the file and line when the links do not go line by line with `corpus`:
    // a corpus line with a pair past the links' last line, or links past the corpus's last line.
    void checkLinesOf(const Corpus& corpus) const;

    // The token links of one pair from its tokens (Token::word: the whitespace word each lies in),
    // or none where the tokens cannot be matched to the words of the text or a link names a word
    // the pair lacks: that pair trains unguided.
    std::optional<TokenLinks> tokenLinks(const SentencePair& pair, const std::vector<Token>& source,
                                         const std::vector<Token>& target) const;

    const std::string& path() const { return path_; }
    double weight() const { return weight_; }
    // What a guided model's metadata records (as the Python trainer writes it):
    // {"links": file name, "links_sha256": ..., "weight": w}.
    nlohmann::json record() const;

private:
    using WordLinks = std::vector<std::pair<int, int>>;  // (source word, target word)
    std::string path_;
    std::string sha256_;
    double weight_ = 1.0;
    std::vector<WordLinks> lines_;  // [line - 1]
};

}  // namespace alignscope::core
