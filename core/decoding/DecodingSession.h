#pragma once
#include "core/decoding/Hypothesis.h"
#include "core/model/Model.h"
#include "core/decoding/SearchStrategy.h"
#include "core/decoding/StepRecord.h"
#include "core/text/TokenizedSentence.h"

#include <memory>
#include <string>
#include <vector>

namespace alignscope::core {

class Alignment;

// Options of a step-by-step decoding session.
struct SessionOptions {
    int topK = 10;                         // candidates reported per step
    int maxLength = 0;                     // cap on target tokens; 0: the model's declared max_length, else 2 * source length + 10
    bool keepLogProbs = false;             // StepRecord::logProbs filled (V floats a step: for tracing, not the app)
    DecodingProgress* progress = nullptr;  // when set: encoding (0) or the step being computed, for a watchdog
};

// One source sentence, encoded once, decoded one step at a time. Every step keeps the state it
// started from, so back() is exact and stepping again is bit-identical.
// Threading: a session is not thread-safe; use it from one thread at a time (the model it holds
// may be shared by other sessions on other threads).
class DecodingSession {
public:
    // Throws Error for invalid input (bad UTF-8, too long).
    DecodingSession(Model model, const std::string& source, SessionOptions options = {});
    ~DecodingSession();
    DecodingSession(DecodingSession&&) noexcept;
    DecodingSession& operator=(DecodingSession&&) noexcept;

    const Model& model() const;
    const SessionOptions& options() const;
    const TokenizedSentence& source() const;
    const std::string& sourceText() const;            // the text as given (token offsets point into it)
    int64_t sourceLength() const;                     // S, including </s>
    int64_t encoderStateSize() const;                 // E
    const std::vector<float>& encoderStates() const;  // [S][E] row-major: h_i for each source position
    const std::vector<float>& initialState() const;   // [D] s_0
    const std::vector<StepRecord>& steps() const;
    int maxLength() const;
    // True once </s> was emitted or the length cap reached (following a target: once its tokens
    // and </s> are all forced); step() and force() then throw.
    bool finished() const;

    const StepRecord& step();                  // the most probable token, or the followed target's next one
    const StepRecord& force(int64_t tokenId);  // emits `tokenId` (what-if; stops following); throws Error for a bad id
    bool back();                               // undoes the last step; false when there is none
    void runToEnd();                           // steps until finished()
    void reset();                              // back to step 0, encoding kept (a followed target stays)

    // Teacher forcing, one step at a time: from step 0, step() forces the tokens of `target` and
    // then </s> (where the model has one); back() and reset() keep following it. Takes `steps`
    // steps at once (-1: to the end). Throws Error for a target the model cannot take (nothing changes).
    void followTarget(const std::string& target, int steps);
    void stopFollowing();                             // the steps stay; step() decodes freely again
    const TokenizedSentence* followedTarget() const;  // null when decoding freely
    // Teacher forcing of the whole target at once: followTarget(target, -1).
    void alignTo(const std::string& target);

    // Searches from scratch over this session's encoding (width 1: greedy).
    std::vector<Hypothesis> search(const SearchOptions& options) const;
    std::vector<Hypothesis> search(const SearchStrategy& strategy, const SearchOptions& options) const;

    std::vector<int64_t> targetIds() const;  // [T]
    std::string translation() const;         // readable text of the steps so far
    Alignment alignment() const;             // the steps' alpha rows with tokens

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
    const StepRecord& advance(int64_t forcedId, const std::string* forcedText);
};

}  // namespace alignscope::core
