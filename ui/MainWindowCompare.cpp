// MainWindow's side of comparing two models: the compare dock and its actions; model B, its
// decoding and the test-set scores are the ComparisonController's.
#include "ui/MainWindow.h"

#include "ui/ComparePanel.h"
#include "ui/ComparisonController.h"
#include "ui/DecodingDocument.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>

#include <algorithm>

namespace alignscope::ui {

DecodingDocument* MainWindow::comparisonDocument() const { return comparison_->document(); }

void MainWindow::openComparison(const QString& path) {
    closeTimeline();  // model A is one model again, not a run's snapshots (and the run's target ends)
    action("stop-compare")->setEnabled(true);
    if (!compareDock_->isVisible()) {
        compareDock_->show();
        // Three heatmaps want room: half the window's height, taken from the main figure, or in
        // presenter mode the front tab of the column (remembered when presenter mode starts later,
        // as a lesson opened with --presenter does).
        presenter_.bringForward(compareDock_);
        if (!presenter_.active()) resizeDocks({compareDock_}, {std::max(320, height() / 2)}, Qt::Vertical);
    }
    comparison_->open(path);  // B follows A's last state once its model arrives
}

void MainWindow::closeComparison() {
    if (!comparison_->active()) return;
    comparison_->close();
    compareDock_->hide();
    action("compare-test")->setEnabled(false);
    action("stop-compare")->setEnabled(false);
}

void MainWindow::compareOnTestSet(const QString& testPath, const QString& goldPath) {
    if (!comparison_->active() || comparison_->modelPath().isEmpty() || !document_->model()) {
        showError(tr("Open a second model first (File → Compare with…)"));
        return;
    }
    comparison_->score(document_->model(), testPath, goldPath);
}

void MainWindow::openComparisonDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with model"), QFileInfo(document_->modelPath()).path(),
                                                      tr("Models (*.pt);;All files (*)"));
    if (!path.isEmpty()) openComparison(path);
}

void MainWindow::openComparisonTestDialog() {
    const QString test = QFileDialog::getOpenFileName(this, tr("Test pairs (source<TAB>target per line)"), QString(),
                                                      tr("Text (*.tsv *.txt);;All files (*)"));
    if (test.isEmpty()) return;
    const QString gold = QFileDialog::getOpenFileName(this, tr("Gold word links for AER (optional: Cancel for BLEU only)"),
                                                      QFileInfo(test).path(), tr("Links (*.txt *.links);;All files (*)"));
    compareOnTestSet(test, gold);
}

}  // namespace alignscope::ui
