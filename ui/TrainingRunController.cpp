#include "ui/TrainingRunController.h"

#include "ui/TimelinePanel.h"

#include "core/model/Model.h"

#include <QFileInfo>
#include <QSlider>

namespace alignscope::ui {

TrainingRunController::TrainingRunController(DecodingDocument* document, TimelinePanel* panel, BaseRequest base, QObject* parent)
    : QObject(parent), document_(document), panel_(panel), base_(std::move(base)) {
    connect(panel_, &TimelinePanel::snapshotChosen, this, [this](const QString& path) {
        opening_ = path;
        document_->openModel(path, /*keepTarget=*/true);  // every snapshot along the one target
    });
    connect(document_, &DecodingDocument::modelChanged, this, [this](const QString&, const QString& path) { modelArrived(path); });
    connect(document_, &DecodingDocument::stateChanged, this, &TrainingRunController::snapshotArrived);
}

void TrainingRunController::open(const core::TrainingTimeline& timeline, int snapshot, const QString& target) {
    panel_->setTimeline(timeline);
    if (snapshot >= 0) panel_->setCurrent(snapshot);
    reference_.reset();
    lastGood_.clear();
    targetIsTheRuns_ = false;
    findingTarget_ = false;  // a run opened before may still have been finding its target
    if (target.isEmpty()) forceAlongLastTranslation();
    else openSnapshot(panel_->current(), target, /*run=*/false);
}

void TrainingRunController::close() {
    reference_.reset();
    lastGood_.clear();
    opening_.clear();
    findingTarget_ = false;
    targetIsTheRuns_ = false;
}

bool TrainingRunController::active() const { return reference_ || !opening_.isEmpty(); }

void TrainingRunController::forceAlongLastTranslation() {
    findingTarget_ = true;
    returnTo_ = panel_->current();
    openSnapshot(panel_->slider()->maximum(), QString(), /*run=*/true);
}

// One snapshot in one operation: the sentence along `target`, or (run) decoded freely to its end.
void TrainingRunController::openSnapshot(int index, const QString& target, bool run) {
    opening_ = panel_->snapshotPath(index);
    emit targetShown(target);
    DecodingRequest request = base_();
    request.modelPath = opening_;
    request.target = target;
    request.run = run;
    if (QFileInfo(opening_).absoluteFilePath() == QFileInfo(document_->modelPath()).absoluteFilePath()) {
        if (!reference_) reference_ = document_->model();  // already open: the run's reference
        lastGood_ = opening_;
        opening_.clear();
    }
    document_->apply(request);
}

// The snapshots of one run read one vocabulary: a folder that mixes runs is refused snapshot by
// snapshot, and the last good one comes back (models opened otherwise are not snapshots).
void TrainingRunController::modelArrived(const QString& path) {
    if (path != opening_ || !document_->model()) return;
    opening_.clear();
    if (!reference_) {
        reference_ = document_->model();
    } else if (!core::TrainingTimeline::sameVocabularies(*document_->model(), *reference_)) {
        emit refused(tr("'%1' reads other vocabularies than '%2': the snapshots of one run share one (does the folder mix two runs?)")
                         .arg(path, QString::fromStdString(reference_->origin())));
        // Back to the last good snapshot, slider and all (choosing it opens it again).
        const int count = static_cast<int>(panel_->timeline().snapshots().size());
        for (int k = 0; k < count; ++k)
            if (panel_->snapshotPath(k) == lastGood_ && k != panel_->current()) panel_->choose(k);
        return;
    }
    lastGood_ = path;
}

// Without a typed target: once the last snapshot has translated the sentence, that translation is
// the target every snapshot is forced along.
void TrainingRunController::snapshotArrived(const core::DecodingStatePtr& s) {
    if (!findingTarget_ || !s || !s->finished || s->translation.empty()) return;
    findingTarget_ = false;
    emit targetFound(QString::fromStdString(s->translation));
    targetIsTheRuns_ = true;                         // the run's own target: it ends with the run
    if (returnTo_ != panel_->slider()->maximum()) {  // back to the snapshot on the slider
        opening_ = panel_->snapshotPath(returnTo_);
        document_->openModel(opening_, /*keepTarget=*/true);
    }
}

}  // namespace alignscope::ui
