#pragma once
#include "core/attribution/Attribution.h"
#include "core/decoding/DecodingProgress.h"
#include "core/model/Model.h"
#include "core/text/TokenizedSentence.h"

#include <cstdint>
#include <string>
#include <vector>

namespace alignscope::core {

// What a method is asked: the source as the model saw it, the target the decoder chose (free
// decoding) or was given (teacher forcing), and which steps to attribute.
struct AttributionRequest {
    Model model;
    TokenizedSentence source;              // [S] ids as Model::tokenizeSource gives them
    std::vector<int64_t> targetIds;        // [T] y_1..y_T (ending in </s> when finished)
    std::vector<int> steps;                // [R] 0-based positions in targetIds, ascending
    int points = 16;                       // integrated gradients: interpolation points
    std::string baseline = "zero";         // integrated gradients: "zero" (embedding 0) or "pad" (the pad token's)
    bool adaptive = true;                  // integrated gradients: more points for a step that misses completeness
    DecodingProgress* progress = nullptr;  // moved() after each piece of work (a row's gradient, a batch
                                           // of erased sources): a watchdog's sign of life on long pairs
};

// One way of attributing a chosen token to the source tokens, registered by name with Attributor.
class AttributionMethod {
public:
    virtual ~AttributionMethod() = default;
    virtual std::string name() const = 0;
    // What it measures, one or two sentences for panels and --help.
    virtual std::string description() const = 0;
    virtual bool signedScores() const = 0;
    // Needs the optional embed_source / encode_embedded methods (gradients w.r.t. the embeddings).
    virtual bool needsEmbeddings() const { return false; }
    // Fills out.scores [R][S], out.logProbs [R] (and out.baselineLogProbs) for request.steps.
    virtual void compute(const AttributionRequest& request, Attribution& out) const = 0;
};

}  // namespace alignscope::core
