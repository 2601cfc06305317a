#pragma once
#include "core/decoding/DecodingProgress.h"
#include "core/model/Model.h"
#include "core/text/SentencePair.h"

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// What an evaluation runs.
struct EvaluationOptions {
    int beamWidth = 5;                                    // beam search run after greedy; 1: greedy only
    float lengthPenalty = 1.0f;                           // beams rank by logProb / length^lengthPenalty
    int maxLength = 0;                                    // cap on target tokens; 0: 2 * source length + 10
    size_t maxSentences = 0;                              // evaluate the first N distinct sources only (0: all)
    bool skipUnusablePairs = false;                       // leave out pairs the model cannot take (too long); else stop at the first
    std::vector<int> bucketBounds = {5, 10, 15, 20, 30};  // upper ends of the source-length buckets; one open bucket follows
    int workers = 1;                                      // batches decoded at once (BatchDecoder's workers)
    int batch = 0;                                        // sentences decoded together; 0: BatchDecoder::defaultBatch of each search
    // What BLEU compares: "model", the model's target tokens (its own tokenizer's words or pieces),
    // or "13a", sacrebleu's default tokenisation of the detokenised translation and of the raw
    // reference (Bleu::tokenize13a), cased unless `lowercase`: comparable across tokenizers.
    std::string tokenize = "model";
    bool lowercase = false;                // "13a" only: compare lower-cased text (sacrebleu -lc)
    DecodingProgress* progress = nullptr;  // when set: every decoder step reports here (evaluate --time-limit)
};

// Corpus BLEU and what it is made of, for one set of segments.
struct BleuSummary {
    size_t segments = 0;                  // distinct source sentences
    double bleu = 0;                      // 0..100
    double brevityPenalty = 0;            // 0..1
    double precisions[4] = {0, 0, 0, 0};  // clipped 1- to 4-gram precisions, 0..1
    size_t hypothesisLength = 0;          // tokens, </s> not counted
    size_t referenceLength = 0;           // closest reference length, summed over segments
};

// Sentences whose source length (tokens, </s> not counted) lies in [minLength, maxLength].
struct LengthBucket {
    std::string label;   // "1-5", "31+"
    int minLength = 0;   // inclusive
    int maxLength = -1;  // inclusive; -1: no upper end
};

// One search setting over the whole test set.
struct SearchEvaluation {
    std::string name;                     // "greedy", "beam 5"
    int beamWidth = 1;                    // 1: greedy
    BleuSummary corpus;                   // all segments
    std::vector<BleuSummary> buckets;     // [buckets] parallel to EvaluationResult::buckets
    std::vector<std::string> hypotheses;  // [sentences] detokenised best translation of each source
    double seconds = 0;                   // wall time of encoding and search
    double sentencesPerSecond = 0;        // distinct sources per second
};

struct EvaluationResult {
    std::string modelName;                   // Model::name()
    std::string modelFile;                   // where it was loaded from
    std::string testName;                    // e.g. the test file
    size_t pairs = 0;                        // test pairs given
    size_t pairsUsed = 0;                    // pairs whose source was evaluated (maxSentences may leave some out)
    std::vector<std::string> skipped;        // "test.tsv:12: reason" of pairs left out (skipUnusablePairs)
    std::vector<std::string> sources;        // [sentences] distinct sources, first-appearance order
    std::vector<int> sourceLengths;          // [sentences] tokens, </s> not counted
    std::vector<size_t> referenceCounts;     // [sentences] references of each source
    std::vector<LengthBucket> buckets;       // source-length buckets
    std::vector<size_t> bucketSentences;     // [buckets] sentences in each bucket
    std::vector<SearchEvaluation> searches;  // greedy first, then beam
    std::string tokenization;                // how hypotheses and references were tokenised for BLEU

    // Scores and settings (not the sources or hypotheses).
    nlohmann::json toJson() const;
};

// Where an evaluation is, for a progress line.
struct EvaluationProgress {
    std::string search;  // "greedy", "beam 5"
    size_t done = 0;     // sources translated with this search
    size_t total = 0;    // sources to translate with this search
};

// Translates a test set with greedy and beam search and scores it with corpus BLEU. References are
// grouped by source sentence as the model sees it (its tokens), so a source with several
// translations (as in Tatoeba) is one segment with several references, translated once per search.
// Hypotheses and references are compared as tokens of the model's target tokenizer.
class Evaluator {
public:
    // Throws Error for a beam width < 1 or bucket bounds that are not positive and increasing.
    explicit Evaluator(Model model, EvaluationOptions options = {});

    const EvaluationOptions& options() const { return options_; }
    // The buckets the options describe: "1-5", "6-10", ..., "31+" ("7" when a bucket is one length;
    // the first also holds empty sources).
    std::vector<LengthBucket> buckets() const;

    // Throws Error when no pair is given or a source cannot be tokenised (naming its line).
    EvaluationResult evaluate(const std::vector<SentencePair>& pairs, const std::string& testName = "",
                              const std::function<void(const EvaluationProgress&)>& progress = nullptr) const;

private:
    Model model_;
    EvaluationOptions options_;
};

}  // namespace alignscope::core
