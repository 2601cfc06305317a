#pragma once
#include "core/inspection/DecodingState.h"

#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace alignscope::core {
class Model;
}

namespace alignscope::ui {

// A whole decoding state, applied in one operation (DecodingDocument::apply): one state arrives
// for it, never the half-way states between (a lesson page, End lesson).
struct DecodingRequest {
    QString modelPath;  // the model to decode with; empty or the open one: keep it
    QString source;
    QString target;       // non-empty: teacher forcing along it
    int steps = -1;       // steps taken; -1: none free, or the whole target when forced
    bool run = false;     // free decoding to </s> (steps ignored)
    int beam = 0;         // > 0: beam search of this width, its best hypothesis shown
    QString attribution;  // the heatmap's attribution method; empty: attention
};

// The document the windows render: a model and one source sentence being decoded.
//
// Threading: every operation returns at once and runs on the document's own decoding thread, in
// the order called; the result arrives on the UI thread as a new immutable state through
// stateChanged(). Views only read states. Call the document from the UI thread only.
//
// Model code can loop for ever, and LibTorch cannot interrupt it. An operation that runs past the
// time limit, or ignores Cancel for kCancelGraceMs, is abandoned: its thread is left to run (it
// holds nothing the window needs), a fresh decoding thread takes over with the same model and no
// sentence, and errorOccurred names the model and the step it stopped in. The window never waits.
class DecodingDocument : public QObject {
    Q_OBJECT
public:
    explicit DecodingDocument(QObject* parent = nullptr);
    ~DecodingDocument() override;

    // On failure: errorOccurred, the old model stays. A new model decodes the sentence freely from
    // step 0 (a target belongs to the model it was given for); a training run's snapshots keep it
    // (keepTarget), so every snapshot's rows line up.
    void openModel(const QString& path, bool keepTarget = false);
    void apply(const DecodingRequest& request);  // errors as openModel's; one state
    void setSource(const QString& text);         // new sentence: encoded once, steps cleared
    void setTarget(const QString& text);         // teacher forcing along `text`; empty: free decoding
    void step();
    void back();
    void runToEnd();
    void reset();
    void force(int64_t tokenId);        // what-if: emit this token and go on from it
    void replaceLast(int64_t tokenId);  // undo the last step and force `tokenId` there instead
    void runBeam(int width);            // beam search over the sentence; keeps every hypothesis
    void selectHypothesis(int index);   // show a beam hypothesis (-1: the steps)
    void cancel();                      // stops a running beam search or run-to-end
    // Attribution shown in place of attention (View > Heatmap): a name core::Attributor knows, or
    // empty for attention. Each new step's row is computed with the step.
    void setAttributionMethod(const QString& name);
    // Word links drawn over the heatmap and exported with it (View > Links): a core::Aligner rule
    // name ("argmax", "itermax", "agreement-intersection", ...), read with the heatmap's method once
    // the target is complete, or empty for none. A rule that joins two directions uses the reverse
    // model the model declares.
    void setLinkRule(const QString& rule);
    static constexpr int kCancelGraceMs = 2000;  // after Cancel, how long a model call may go on
    static constexpr int kDefaultTimeLimitMs = 30000;
    void setTimeLimit(int ms) { timeLimitMs_ = ms; }  // how long an operation may go without progress
    // True once any document abandoned a stuck thread: the process must then end with _exit, not
    // by running static destructors under a thread still inside LibTorch.
    static bool hasAbandonedWork();

    core::DecodingStatePtr state() const { return state_; }  // never null
    bool hasModel() const { return !modelPath_.isEmpty(); }
    QString modelPath() const { return modelPath_; }
    QString modelName() const { return modelName_; }
    // The open model, for work beside the document (a test-set score): const and thread-safe.
    std::shared_ptr<const core::Model> model() const { return model_; }
    bool busy() const { return pending_ > 0; }
    // Runs the event loop until every posted operation has delivered its state.
    bool waitUntilIdle(int timeoutMs = 60000);

signals:
    void stateChanged(alignscope::core::DecodingStatePtr state);
    void modelChanged(const QString& name, const QString& path);
    void errorOccurred(const QString& message);
    void busyChanged(bool busy);
    // View > Links went back to none: its reverse model did not answer within the time limit.
    void linkRuleDropped();

private:
    struct Worker;  // lives on the decoding thread
    struct Shared;  // between the UI and one decoding thread; outlives both if the thread is stuck
    void post(std::function<void(Worker&)> job);
    // Parts of operations, run on the decoding thread.
    void load(Worker& w, const QString& path);
    static void rebuild(Worker& w);
    static void search(Worker& w, int width, const std::shared_ptr<Shared>& shared, int generation);
    void startThread(std::shared_ptr<const core::Model> model);
    void checkStuck();  // on watch_, while busy
    void abandon(const QString& why);

    // Owned, except after abandon(): a stuck thread (and its worker) is never destroyed.
    QThread* thread_ = nullptr;
    QObject* context_ = nullptr;  // decoding-thread object that runs the jobs
    Worker* worker_ = nullptr;
    std::shared_ptr<Shared> shared_;
    int generation_ = 0;                        // of the decoding thread; results of abandoned ones are dropped
    std::shared_ptr<const core::Model> model_;  // the model the worker holds, to hand to a new one
    core::DecodingStatePtr state_;
    QString modelPath_, modelName_;
    std::atomic<int> pending_{0};
    QTimer watch_;
    int timeLimitMs_ = kDefaultTimeLimitMs;
    std::string linkRule_;    // View > Links, for a worker started anew
    uint64_t lastBeats_ = 0;  // the decoding's progress beats when checkStuck last looked
    qint64 lastBeatMs_ = 0;   // when they last changed
    qint64 cancelAtMs_ = 0;   // when Cancel was asked during the running operation
};

}  // namespace alignscope::ui
