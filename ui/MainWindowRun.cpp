// MainWindow's training run: the snapshots on a slider, opened one at a time along one target.
#include "ui/MainWindow.h"

#include "ui/DecodingDocument.h"
#include "ui/ExportDialog.h"
#include "ui/TimelinePanel.h"

#include "core/Error.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>

namespace alignscope::ui {

bool MainWindow::openTimeline(const QString& folderOrIndex, int snapshot) {
    core::TrainingTimeline timeline;
    try {
        timeline = core::TrainingTimeline::open(folderOrIndex.toStdString());
        timeline.checkSnapshots();  // a folder mixing runs is refused whole, as export --timeline does
    } catch (const core::Error& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    closeComparison();  // B was compared with the model the run replaces (its scores with it)
    timelinePanel_->setTimeline(timeline);
    if (snapshot >= 0) timelinePanel_->setCurrent(snapshot);
    timelineReference_.reset();
    timelineLastGood_.clear();
    timelineDock_->show();
    fitBottomDocks();
    presenter_.bringForward(timelineDock_);
    // The typed target, else the last snapshot's translation.
    const QString target = teacherAction_->isChecked() ? sentence_->target().trimmed() : QString();
    timelineTargetAuto_ = false;
    if (target.isEmpty()) forceRunAlongLastTranslation();
    else openSnapshot(timelinePanel_->current(), target, /*run=*/false);
    return true;
}

// Opens one snapshot of the run in one operation: the sentence along `target`, or (run) decoded
// freely to its end.
void MainWindow::openSnapshot(int index, const QString& target, bool run) {
    timelineOpening_ = timelinePanel_->snapshotPath(index);
    showTargetBox(target);
    DecodingRequest request;
    request.modelPath = timelineOpening_;
    request.source = sentence_->source();
    request.target = target;
    request.run = run;
    request.attribution = heatmapMethod_;
    if (QFileInfo(timelineOpening_).absoluteFilePath() == QFileInfo(document_->modelPath()).absoluteFilePath()) {
        if (!timelineReference_) timelineReference_ = document_->model();  // already open: the run's reference
        timelineLastGood_ = timelineOpening_;
        timelineOpening_.clear();
    }
    document_->apply(request);
}

// A run's snapshots are forced along one target: without a typed one, the last snapshot's
// translation. The last snapshot decodes the sentence to its end; its translation becomes the
// target (snapshotChanged), and the snapshot on the slider is opened along it.
void MainWindow::forceRunAlongLastTranslation() {
    timelineNeedsTarget_ = true;
    timelineReturnTo_ = timelinePanel_->current();
    openSnapshot(timelinePanel_->slider()->maximum(), QString(), /*run=*/true);
}

bool MainWindow::runOpen() const { return timelineDock_->isVisible() && !timelinePanel_->timeline().snapshots().empty(); }

void MainWindow::closeTimeline(bool endItsTarget) {
    if (timelineDock_->isHidden() && !timelineReference_ && timelineOpening_.isEmpty()) return;
    timelineDock_->hide();
    timelineReference_.reset();
    timelineLastGood_.clear();
    timelineOpening_.clear();
    timelineNeedsTarget_ = false;
    // A target the run chose (its last snapshot's translation) goes with it; a typed one stays.
    if (endItsTarget && timelineTargetAuto_ && teacherAction_->isChecked()) setTargetText(QString());
    timelineTargetAuto_ = false;
}

void MainWindow::openTimelineDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open training run (a folder written by train --snapshots)"),
                                                          QFileInfo(document_->modelPath()).path());
    if (!dir.isEmpty()) openTimeline(dir);
}

void MainWindow::exportTimelineDialog() {
    if (!snapshot_ || snapshot_->source.tokens.empty()) {
        showError(tr("Type a sentence first: the animation shows it through every snapshot"));
        return;
    }
    ExportDialog dialog(snapshot_, figureOptions_, this);
    dialog.setTimeline(timelinePanel_->timeline(), givenTarget_.toStdString());
    dialog.setFormat(FigureExporter::Format::Gif);
    dialog.setAnimateSnapshots(true);
    if (dialog.exec() == QDialog::Accepted) status_->setText(tr("exported %1").arg(dialog.path()));
}

}  // namespace alignscope::ui
