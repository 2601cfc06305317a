#pragma once
#include "core/decoding/Alignment.h"
#include "core/decoding/DecodingProgress.h"
#include "core/decoding/Hypothesis.h"
#include "core/decoding/StepRecord.h"
#include "core/model/Model.h"
#include "core/text/TokenizedSentence.h"

#include <functional>
#include <memory>
#include <utility>

#include <string>
#include <vector>

namespace alignscope::core {

class DecodingSession;

// An immutable picture of a decoding session at one moment, made on the decoding thread and
// handed to every front end (the app's views on the UI thread, exports, pages): none of them
// touches the session itself. No Qt: the page and batch exports build it without a window.
struct DecodingState {
    std::string modelName;                                       // shown in titles
    std::string sourceLanguage;                                  // ISO 639 codes the model declares ("en", "de"); "" where it
    std::string targetLanguage;                                  // declares none: axes then say "source" and "target" alone
    std::vector<std::pair<std::string, std::string>> modelCard;  // the model's facts (ModelCard)
    std::string sourceText;                                      // the sentence as typed (the tokens' offsets point into it)
    int64_t eosId = -1;                                          // the model's target eos (-1: it has none)
    bool alphaIsUniform = false;                                 // the model has no attention (alpha is a placeholder)
    bool bidirectional = true;                                   // encoder states are [forward; backward] halves
    std::string cell = "gru";                                    // decoder cell, from the model's metadata ("gru", "lstm")
    std::string attention = "additive";       // attention kind, from the metadata ("additive", "mlp", "dot", "general", "none")
    bool attentionAfterCell = false;          // Luong's order: the cell runs first and alpha_t comes from s_t
    bool inputFeeding = false;                // the cell's input includes the previous attentional output
    bool conditionalDecoder = false;          // alpha_t comes from s'_t, the state after a first cell read y_{t-1}
    bool ownReadout = true;                   // AlignScope's readout over [s_t; c_t; emb(y_{t-1})]
    bool targetPieces = false;                // the target side is sub-word pieces ("▁" starts a word)
    TokenizedSentence source;                 // [S] tokens, ending in </s>
    int64_t encoderSize = 0;                  // E
    int64_t stateSize = 0;                    // D
    std::vector<float> encoderStates;         // [S][E] row-major
    std::vector<float> initialState;          // [D] s_0
    std::vector<StepRecord> steps;            // what step-by-step decoding produced so far
    bool finished = false;                    // </s> emitted or the length cap reached
    bool teacherForced = false;               // steps follow a target the user gave
    int forcedSteps = 0;                      // teacher forcing: steps to the end of that target, </s> included
    std::vector<Hypothesis> beam;             // beam-search results, best first (empty: none run)
    std::vector<std::string> beamTexts;       // each hypothesis as text, detokenised as the translation is
    int selectedHypothesis = -1;              // which beam hypothesis is shown (-1: the steps)
    std::vector<StepRecord> hypothesisSteps;  // the selected hypothesis replayed step by step
    std::string translation;                  // readable text of what is shown
    std::vector<int> targetWords;             // [T] word of each shown target token (-1: </s>): the
                                              // user's target's words, else the translation's
    // Attribution of the shown target's tokens to the source (View > Heatmap), computed on the
    // decoding thread as the steps come: rows [T][S] over the source tokens, empty while none is
    // asked for or where the method cannot run (attributionError says why).
    std::string attributionMethod;                // registered name (Attributor), "" for none
    std::string attributionDescription;           // what it measures, for Step explained
    bool attributionSigned = false;               // scores may be negative (a diverging colour map)
    std::vector<std::vector<float>> attribution;  // [T][S]
    double attributionExtent = 0;                 // prefix(): the whole target's largest |score| (0: from the rows)
    std::string attributionError;
    // Word links of the shown pair under View > Links (Aligner, on the decoding thread) once
    // the target is complete: (source word, target word), as `align` prints them for this pair.
    std::string linkRule;  // the rule ("argmax", "agreement-intersection", ...); "" for none
    std::vector<std::pair<int, int>> links;
    std::string linksError;  // why the rule could not be read (no declared reverse model, say)

    // Everything a session shows, with the beam results, which one is selected (-1: the steps)
    // and that one's steps (forced through the model token by token, for the panels' details).
    static DecodingState capture(const DecodingSession& session, bool teacherForced, std::vector<Hypothesis> beam = {}, int selected = -1,
                                 std::vector<StepRecord> hypothesisSteps = {});

    // Fills the attribution fields for the shown target with `method` (empty: none). `known` holds
    // rows already computed for the first known.size() tokens of this target (the document's
    // cache); the rest are computed here. A method that cannot run sets attributionError.
    void attribute(const Model& model, const std::string& method, std::vector<std::vector<float>> known = {},
                   DecodingProgress* progress = nullptr);
    // Fills the link fields once the shown target is complete: `rule`'s word links (empty: none)
    // read by core::Aligner, as `align` reads them, from `method`'s matrix (empty: attention) along
    // `target`, the shown target as text (empty: no links). A rule joining two directions reads the
    // reverse models at `reversePaths`, else the one the model declares, each loaded by
    // `loadReverse`. A rule that cannot be read sets linksError.
    void link(const Model& model, const std::string& target, const std::string& rule, const std::string& method,
              const std::vector<std::string>& reversePaths, const std::function<Model(const std::string&)>& loadReverse,
              DecodingProgress* progress = nullptr);
    // The shown target as a hypothesis (ids and tokens): the selected beam hypothesis, else the steps.
    Hypothesis shownTarget() const;

    // This state as it stood after `steps` shown steps (1..): the frames of an animation. Rows,
    // steps, the hypothesis and attribution rows are cut there; finished only at the end.
    DecodingState prefix(size_t steps) const;

    // The alignment shown: the selected beam hypothesis, else the steps.
    Alignment alignment() const;
    // The tokens of the source, without a model's own <padding> column.
    size_t sourceTokenCount() const { return source.size() - (Model::endsWithPaddingColumn(source.tokens) ? 1 : 0); }
    // The steps whose details are shown: the selected hypothesis's, else the session's.
    const std::vector<StepRecord>& shownSteps() const { return selectedHypothesis >= 0 ? hypothesisSteps : steps; }
    // The step whose details (candidates, context, states) are shown; nullptr before the first.
    const StepRecord* currentStep() const { return shownSteps().empty() ? nullptr : &shownSteps().back(); }
};

using DecodingStatePtr = std::shared_ptr<const DecodingState>;

}  // namespace alignscope::core
