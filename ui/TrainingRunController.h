#pragma once
#include "ui/DecodingDocument.h"

#include "core/training/TrainingTimeline.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace alignscope::core {
class Model;
}

namespace alignscope::ui {

class TimelinePanel;

// A training run open in the window (File > Open training run): its snapshots opened one at a
// time in the document, all forced along one target so their rows line up. The target is the one
// typed or, without one, the run's own: the last snapshot's translation of the sentence. A
// snapshot that reads other vocabularies than the run's first is refused, and the last good one
// comes back. The panel renders the run; the window shows its dock and the target box.
class TrainingRunController : public QObject {
    Q_OBJECT
public:
    // What every snapshot's request starts from: the window's sentence and heatmap.
    using BaseRequest = std::function<DecodingRequest()>;
    TrainingRunController(DecodingDocument* document, TimelinePanel* panel, BaseRequest base, QObject* parent = nullptr);

    // The run at `snapshot` (0-based; -1 the last), along `target` (empty: the run's own).
    void open(const core::TrainingTimeline& timeline, int snapshot, const QString& target);
    void close();         // forgets the run (the window hides its dock)
    bool active() const;  // a run is open, or a snapshot of one still opening
    bool targetIsTheRuns() const { return targetIsTheRuns_; }
    bool findingTarget() const { return findingTarget_; }
    void targetTyped() { targetIsTheRuns_ = false; }  // a target given now is the user's
    // The last snapshot decodes the sentence to its end; its translation becomes the target
    // (targetFound) and the snapshot on the slider is opened along it.
    void forceAlongLastTranslation();

signals:
    void targetShown(const QString& target);  // the Target box shows it (the request decodes it)
    void targetFound(const QString& target);  // the run's own target: decode along it
    void refused(const QString& message);     // a snapshot that does not belong to the run

private:
    void openSnapshot(int index, const QString& target, bool run);
    void modelArrived(const QString& path);
    void snapshotArrived(const core::DecodingStatePtr& snapshot);

    DecodingDocument* document_;
    TimelinePanel* panel_;
    BaseRequest base_;
    std::shared_ptr<const core::Model> reference_;  // the run's first snapshot opened: others must share its vocabularies
    QString lastGood_;                              // the last snapshot that did
    QString opening_;                               // the snapshot being opened (checked when it arrives)
    bool findingTarget_ = false;                    // the last snapshot's translation becomes the forced target
    bool targetIsTheRuns_ = false;                  // the forced target is the run's (its last snapshot's translation)
    int returnTo_ = 0;                              // the snapshot on the slider while the last one finds the target
};

}  // namespace alignscope::ui
