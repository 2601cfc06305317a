#pragma once
#include "ui/DecodingSnapshot.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace alignscope::ui {

// The document the windows render: a model and one source sentence being decoded.
//
// Threading: every operation returns at once and runs on the document's own decoding thread, in
// the order called; the result arrives on the UI thread as a new immutable snapshot through
// snapshotChanged(). Views only read snapshots. Call the document from the UI thread only.
class DecodingDocument : public QObject {
    Q_OBJECT
public:
    explicit DecodingDocument(QObject* parent = nullptr);
    ~DecodingDocument() override;

    void openModel(const QString& path);     // on failure: errorOccurred, the old model stays
    void setSource(const QString& text);     // new sentence: encoded once, steps cleared
    void setTarget(const QString& text);     // teacher forcing along `text`; empty: free decoding
    void step();
    void back();
    void runToEnd();
    void reset();
    void force(int64_t tokenId);             // what-if: emit this token and go on from it
    void replaceLast(int64_t tokenId);       // undo the last step and force `tokenId` there instead
    void runBeam(int width);                 // beam search over the sentence; keeps every hypothesis
    void selectHypothesis(int index);        // show a beam hypothesis (-1: the steps)
    void cancel();                           // stops a running beam search or run-to-end

    SnapshotPtr snapshot() const { return snapshot_; }  // never null
    bool hasModel() const { return !modelPath_.isEmpty(); }
    QString modelPath() const { return modelPath_; }
    QString modelName() const { return modelName_; }
    bool busy() const { return pending_ > 0; }
    // Runs the event loop until every posted operation has delivered its snapshot.
    bool waitUntilIdle(int timeoutMs = 60000);

signals:
    void snapshotChanged(alignscope::ui::SnapshotPtr snapshot);
    void modelChanged(const QString& name, const QString& path);
    void errorOccurred(const QString& message);
    void busyChanged(bool busy);

private:
    struct Worker;  // lives on the decoding thread
    void post(std::function<void(Worker&)> job);

    QThread thread_;
    QObject* context_ = nullptr;     // decoding-thread object that runs the jobs
    std::unique_ptr<Worker> worker_;
    SnapshotPtr snapshot_;
    QString modelPath_, modelName_;
    std::atomic<int> pending_{0};
    std::atomic<int> cancelGeneration_{0};
};

}  // namespace alignscope::ui
