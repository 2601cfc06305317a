#include "ui/ComparisonController.h"

#include "ui/ComparePanel.h"
#include "ui/DecodingDocument.h"

#include "core/Error.h"
#include "core/alignment/AlignmentComparison.h"
#include "core/alignment/LinkSet.h"
#include "core/evaluation/ModelScorecard.h"
#include "core/text/Tokenizer.h"
#include "core/training/Corpus.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QThread>
#include <QTimer>

#include <vector>

namespace alignscope::ui {

ComparisonController::ComparisonController(ComparePanel* panel, QObject* parent) : QObject(parent), panel_(panel) {}

ComparisonController::~ComparisonController() { stopScoring(); }

QString ComparisonController::modelPath() const { return document_ && document_->hasModel() ? document_->modelPath() : QString(); }

bool ComparisonController::busy() const { return (document_ && document_->busy()) || scoring_; }

void ComparisonController::open(const QString& path) {
    if (!document_) {
        document_ = new DecodingDocument(this);
        connect(document_, &DecodingDocument::stateChanged, this, [this](core::DecodingStatePtr) { render(); });
        // A state arrives while its operation still counts as running: draw again once B is idle.
        connect(document_, &DecodingDocument::busyChanged, this, [this](bool busy) {
            if (!busy) render();
        });
        connect(document_, &DecodingDocument::modelChanged, this, [this](const QString&, const QString&) {
            opening_ = false;
            error_.clear();
            comparedValid_ = false;  // decode the sentence with the new model
            emit modelOpened();
            if (a_) follow(a_, givenTarget_, mergeWords_);
        });
        connect(document_, &DecodingDocument::errorOccurred, this, [this](const QString& message) {
            error_ = opening_ ? tr("Model B could not be opened: %1").arg(message)
                              : tr("Model B (%1) cannot take this: %2").arg(document_->modelName(), message);
            opening_ = false;
            emit status(error_.section('\n', 0, 0));
            render();
        });
    }
    stopScoring();
    error_.clear();
    comparedValid_ = false;
    opening_ = true;
    panel_->showMessage(tr("Opening %1…").arg(path));
    document_->openModel(path);
}

void ComparisonController::close() {
    if (!document_) return;
    stopScoring();
    disconnect(document_, nullptr, this, nullptr);  // nothing of the old document arrives after this
    document_->cancel();
    document_->deleteLater();
    document_ = nullptr;
    emit titleChanged(tr("Compare models"));  // the View menu names no model that has gone
    panel_->showMessage(tr("Open a second model with File → Compare with…"));
    panel_->setScoresMessage(QString());
}

void ComparisonController::follow(core::DecodingStatePtr a, const QString& givenTarget, bool mergeWords) {
    a_ = std::move(a);
    givenTarget_ = givenTarget;
    mergeWords_ = mergeWords;
    if (!document_) return;
    if (document_->hasModel() && a_) {
        const QString source = QString::fromStdString(a_->sourceText);
        const QString target = a_->teacherForced ? givenTarget : QString();
        if (!comparedValid_ || source != comparedSource_ || target != comparedTarget_) {
            comparedValid_ = true;
            comparedSource_ = source;
            comparedTarget_ = target;
            error_.clear();
            document_->setSource(source);
            document_->setTarget(target);
            if (!core::Tokenizer::isBlank(source.toStdString())) document_->runToEnd();
        }
    }
    render();
}

void ComparisonController::render() {
    if (!document_ || opening_) return;  // the panel says which model is opening
    if (!error_.isEmpty()) {
        panel_->showMessage(error_);
        return;
    }
    const auto b = document_->state();
    emit titleChanged(document_->hasModel() && a_
                          ? tr("Compare models: A = %1, B = %2").arg(QString::fromStdString(a_->modelName), document_->modelName())
                          : tr("Compare models"));
    if (!document_->hasModel() || !a_ || document_->busy() || b->sourceText != a_->sourceText) {
        panel_->showMessage(tr("Model B is decoding the sentence…"));
        return;
    }
    if (a_->source.tokens.empty()) {
        panel_->showMessage(tr("Type a sentence: both models decode it."));
        return;
    }
    const auto targetOf = [this](const core::DecodingState& s) { return s.teacherForced ? comparedTarget_.toStdString() : s.translation; };
    try {
        panel_->render(core::AlignmentComparison::compare(a_->sourceText, {a_->modelName, targetOf(*a_), {}, {}}, a_->alignment(),
                                                          {b->modelName, targetOf(*b), {}, {}}, b->alignment(), mergeWords_));
    } catch (const core::Error& e) {
        panel_->showMessage(QString::fromStdString(e.what()));
    }
}

void ComparisonController::score(std::shared_ptr<const core::Model> a, const QString& testPath, const QString& goldPath) {
    if (!document_ || !document_->hasModel() || !a) return;
    stopScoring();  // a newer request replaces a running one
    struct Outcome {
        std::vector<core::ModelScorecard> cards;
        QString error;
    };
    auto outcome = std::make_shared<Outcome>();
    const auto models = std::vector<std::shared_ptr<const core::Model>>{std::move(a), document_->model()};
    panel_->setScoresMessage(tr("Scoring both models on %1…").arg(testPath));
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
            panel_->setScoresError(outcome->error);
            emit status(outcome->error.section('\n', 0, 0));
        } else {
            panel_->setScores(QFileInfo(testPath).fileName(), outcome->cards);
        }
    });
    scoring_->setParent(this);
    scoring_->start();
}

void ComparisonController::forgetScores() {
    stopScoring();
    if (panel_) panel_->setScoresMessage(QString());
}

void ComparisonController::stopScoring() {
    if (!scoring_) return;
    ++scoringGeneration_;  // its results, if any still arrive, are dropped
    scoringCancelled_->store(true);
    scoring_->wait();  // ModelScorecard polls the flag between sentences
    scoring_ = nullptr;
    if (panel_) panel_->setScoresMessage(QString());
}

bool ComparisonController::waitUntilIdle(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    if (document_ && !document_->waitUntilIdle(timeoutMs)) return false;
    while (scoring_ && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
    QCoreApplication::processEvents();
    return !busy();
}

}  // namespace alignscope::ui
