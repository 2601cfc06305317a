// MainWindow's comparison of two models: model B's document beside A's, the compare dock, and
// both models' scores on a test set (off the UI thread).
#include "ui/MainWindow.h"

#include "ui/ComparePanel.h"
#include "ui/DecodingDocument.h"

#include "core/Error.h"
#include "core/alignment/AlignmentComparison.h"
#include "core/alignment/LinkSet.h"
#include "core/evaluation/ModelScorecard.h"
#include "core/text/Tokenizer.h"
#include "core/training/Corpus.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QThread>

#include <algorithm>

namespace alignscope::ui {

void MainWindow::openComparison(const QString& path) {
    if (!comparison_) {
        comparison_ = new DecodingDocument(this);
        connect(comparison_, &DecodingDocument::stateChanged, this, [this](core::DecodingStatePtr) { renderComparison(); });
        // A snapshot arrives while its operation still counts as running: draw again once B is idle.
        connect(comparison_, &DecodingDocument::busyChanged, this, [this](bool busy) {
            if (!busy) renderComparison();
        });
        connect(comparison_, &DecodingDocument::modelChanged, this, [this](const QString&, const QString&) {
            action("compare-test")->setEnabled(true);
            openingComparison_ = false;
            comparisonError_.clear();
            comparedValid_ = false;  // decode the sentence with the new model
            syncComparison();
        });
        connect(comparison_, &DecodingDocument::errorOccurred, this, [this](const QString& message) {
            comparisonError_ = openingComparison_ ? tr("Model B could not be opened: %1").arg(message)
                                                  : tr("Model B (%1) cannot take this: %2").arg(comparison_->modelName(), message);
            openingComparison_ = false;
            status_->setText(comparisonError_.section('\n', 0, 0));
            renderComparison();
        });
    }
    closeTimeline();  // model A is one model again, not a run's snapshots (and the run's target ends)
    stopScoring();
    comparisonError_.clear();
    comparedValid_ = false;
    openingComparison_ = true;
    action("stop-compare")->setEnabled(true);
    if (!compareDock_->isVisible()) {
        compareDock_->show();
        // Three heatmaps want room: half the window's height, taken from the main figure, or in
        // presenter mode the front tab of the column (remembered when presenter mode starts later,
        // as a lesson opened with --presenter does).
        presenter_.bringForward(compareDock_);
        if (!presenter_.active()) resizeDocks({compareDock_}, {std::max(320, height() / 2)}, Qt::Vertical);
    }
    comparePanel_->showMessage(tr("Opening %1…").arg(path));
    comparison_->openModel(path);
}

void MainWindow::closeComparison() {
    if (!comparison_) return;
    stopScoring();
    disconnect(comparison_, nullptr, this, nullptr);  // nothing of the old document arrives after this
    comparison_->cancel();
    comparison_->deleteLater();
    comparison_ = nullptr;
    compareDock_->hide();
    compareDock_->setWindowTitle(tr("Compare models"));  // the View menu names no model that has gone
    action("compare-test")->setEnabled(false);
    action("stop-compare")->setEnabled(false);
    comparePanel_->showMessage(tr("Open a second model with File → Compare with…"));
    comparePanel_->setScoresMessage(QString());
}

void MainWindow::syncComparison() {
    if (!comparison_ || !comparison_->hasModel() || !state_) return;
    const QString source = QString::fromStdString(state_->sourceText);
    const QString target = state_->teacherForced ? givenTarget_ : QString();
    if (comparedValid_ && source == comparedSource_ && target == comparedTarget_) return;
    comparedValid_ = true;
    comparedSource_ = source;
    comparedTarget_ = target;
    comparisonError_.clear();
    comparison_->setSource(source);
    comparison_->setTarget(target);
    if (!core::Tokenizer::isBlank(source.toStdString())) comparison_->runToEnd();
}

void MainWindow::renderComparison() {
    if (!comparison_) return;
    if (!comparisonError_.isEmpty()) {
        comparePanel_->showMessage(comparisonError_);
        return;
    }
    const auto b = comparison_->state();
    compareDock_->setWindowTitle(comparison_->hasModel()
                                     ? tr("Compare models: A = %1, B = %2").arg(document_->modelName(), comparison_->modelName())
                                     : tr("Compare models"));
    if (!comparison_->hasModel() || !state_ || comparison_->busy() || b->sourceText != state_->sourceText) {
        comparePanel_->showMessage(tr("Model B is decoding the sentence…"));
        return;
    }
    if (state_->source.tokens.empty()) {
        comparePanel_->showMessage(tr("Type a sentence: both models decode it."));
        return;
    }
    const auto targetOf = [this](const core::DecodingState& s) { return s.teacherForced ? comparedTarget_.toStdString() : s.translation; };
    try {
        comparePanel_->render(core::AlignmentComparison::compare(state_->sourceText, {state_->modelName, targetOf(*state_), {}, {}},
                                                                 state_->alignment(), {b->modelName, targetOf(*b), {}, {}}, b->alignment(),
                                                                 figureOptions_.mergeWords));
    } catch (const core::Error& e) {
        comparePanel_->showMessage(QString::fromStdString(e.what()));
    }
}

void MainWindow::compareOnTestSet(const QString& testPath, const QString& goldPath) {
    if (!comparison_ || !comparison_->hasModel() || !document_->model()) {
        showError(tr("Open a second model first (File → Compare with…)"));
        return;
    }
    stopScoring();  // a newer request replaces a running one
    struct Outcome {
        std::vector<core::ModelScorecard> cards;
        QString error;
    };
    auto outcome = std::make_shared<Outcome>();
    const auto models = std::vector<std::shared_ptr<const core::Model>>{document_->model(), comparison_->model()};
    comparePanel_->setScoresMessage(tr("Scoring both models on %1…").arg(testPath));
    const auto test = testPath.toStdString(), gold = goldPath.toStdString();
    auto cancelled = scoringCancelled_ = std::make_shared<std::atomic<bool>>(false);
    const int generation = ++scoringGeneration_;
    scoring_ = QThread::create([outcome, models, test, gold, cancelled] {
        try {
            const auto corpus = core::Corpus::read(test, core::Corpus::OnBadLine::Reject);
            std::vector<core::LinkSet> links;
            if (!gold.empty()) links = core::LinkSet::readFile(gold);
            for (const auto& m : models)
                outcome->cards.push_back(
                    core::ModelScorecard::score(*m, corpus.pairs(), test, links, gold, 1, [cancelled] { return cancelled->load(); }));
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
    });
    connect(scoring_, &QThread::finished, this, [this, outcome, testPath, generation, thread = scoring_] {
        thread->deleteLater();
        if (generation != scoringGeneration_) return;  // stopped: B changed, or a newer request replaced it
        scoring_ = nullptr;
        if (!outcome->error.isEmpty()) {
            comparePanel_->setScoresError(outcome->error);
            status_->setText(outcome->error.section('\n', 0, 0));
        } else {
            comparePanel_->setScores(QFileInfo(testPath).fileName(), outcome->cards);
        }
    });
    scoring_->setParent(this);
    scoring_->start();
}

void MainWindow::stopScoring() {
    if (!scoring_) return;
    ++scoringGeneration_;  // its results, if any still arrive, are dropped
    scoringCancelled_->store(true);
    scoring_->wait();  // ModelScorecard polls the flag between sentences
    scoring_ = nullptr;
    comparePanel_->setScoresMessage(QString());
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
