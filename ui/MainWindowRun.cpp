// MainWindow's training run: the snapshots on a slider, opened one at a time along one target.
#include "ui/MainWindow.h"

#include "ui/DecodingDocument.h"
#include "ui/ExportDialog.h"
#include "ui/TimelinePanel.h"
#include "ui/TrainingRunController.h"

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
    timelineDock_->show();
    fitBottomDocks();
    presenter_.bringForward(timelineDock_);
    // The typed target, else the last snapshot's translation.
    run_->open(timeline, snapshot, action("teacher-forcing")->isChecked() ? sentence_->target().trimmed() : QString());
    return true;
}

bool MainWindow::runOpen() const { return timelineDock_->isVisible() && !timelinePanel_->timeline().snapshots().empty(); }

void MainWindow::closeTimeline(bool endItsTarget) {
    if (timelineDock_->isHidden() && !run_->active()) return;
    timelineDock_->hide();
    const bool itsTarget = run_->targetIsTheRuns();
    run_->close();
    // A target the run chose (its last snapshot's translation) goes with it; a typed one stays.
    if (endItsTarget && itsTarget && action("teacher-forcing")->isChecked()) setTargetText(QString());
}

void MainWindow::openTimelineDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open training run (a folder written by train --snapshots)"),
                                                          QFileInfo(document_->modelPath()).path());
    if (!dir.isEmpty()) openTimeline(dir);
}

void MainWindow::exportTimelineDialog() {
    if (!state_ || state_->source.tokens.empty()) {
        showError(tr("Type a sentence first: the animation shows it through every snapshot"));
        return;
    }
    ExportDialog dialog(state_, figureOptions_, this);
    dialog.setTimeline(timelinePanel_->timeline(), givenTarget_.toStdString());
    dialog.setFormat(FigureExporter::Format::Gif);
    dialog.setAnimateSnapshots(true);
    if (dialog.exec() == QDialog::Accepted) status_->setText(tr("exported %1").arg(dialog.path()));
}

}  // namespace alignscope::ui
