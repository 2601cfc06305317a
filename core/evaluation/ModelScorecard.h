#pragma once
#include "core/alignment/LinkSet.h"
#include "core/model/Model.h"
#include "core/text/SentencePair.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// One model scored on a test set, for the compare view and `alignscope-cli compare`: corpus BLEU
// of its translations (Evaluator: greedy, or beam), and, given gold word links parallel to the
// pairs, the AER of its attention forced along each pair's target (argmax links over words, as
// `align` writes them). Two models with different tokenizers meet here on words.
struct ModelScorecard {
    std::string model;                          // Model::name()
    std::string search;                         // "greedy", "beam 5"
    double bleu = 0;                            // 0..100, tokens of the model's target tokenizer
    size_t segments = 0;                        // distinct sources translated
    bool hasAer = false;                        // gold links were given
    double aer = 0, precision = 0, recall = 0;  // 0..100
    size_t alignedPairs = 0;                    // pairs scored against gold

    // `gold`: empty, or one LinkSet per pair (LinkSet::readFile). Errors name the model's file and
    // `testName`, then `goldName` and its line for a link outside its pair's words, or the pair's
    // line for a pair the model cannot take. `cancelled`, when set, is polled between sentences.
    static ModelScorecard score(const Model& model, const std::vector<SentencePair>& pairs, const std::string& testName,
                                const std::vector<LinkSet>& gold = {}, const std::string& goldName = "", int beamWidth = 1,
                                const std::function<bool()>& cancelled = nullptr);
    nlohmann::json toJson() const;
};

}  // namespace alignscope::core
