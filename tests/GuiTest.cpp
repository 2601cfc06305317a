// The desktop app driven through its real widgets, offscreen: typing, stepping, going back,
// clicking a candidate, teacher forcing, beam search, a bad model file.
#include "HostileModels.h"
#include "TinyModel.h"

#include "ui/ActionRegistry.h"
#include "ui/AlignmentFigure.h"
#include "ui/AlignmentView.h"
#include "ui/BeamPanel.h"
#include "ui/AlignmentComparisonFigure.h"
#include "ui/CandidatesView.h"
#include "ui/ComparePanel.h"
#include "ui/DecodingDocument.h"
#include "ui/ExportDialog.h"
#include "ui/FigureExporter.h"
#include "ui/FigureOptions.h"
#include "ui/MainWindow.h"
#include "ui/TimelinePanel.h"
#include "ui/StepExplainedPanel.h"
#include "ui/Lesson.h"
#include "ui/LessonPanel.h"
#include "ui/LessonPlayer.h"

#include "core/alignment/Aligner.h"
#include "core/alignment/LinkExtraction.h"
#include "core/alignment/LinkSet.h"
#include "core/attribution/Attributor.h"
#include "core/training/Trainer.h"
#include "core/training/TrainingTimeline.h"
#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QDialog>
#include <QDockWidget>
#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QSlider>
#include <QTest>
#include <QTimer>
#include <QMouseEvent>
#include <QTextBoundaryFinder>
#include <QTextDocument>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>

#include <map>

#include <fstream>

using namespace alignscope;

namespace {

class Gui : public ::testing::Test {
protected:
    void SetUp() override {
        tests::tinyModel().save(dir.path("tiny.pt"));
        window = std::make_unique<ui::MainWindow>(&document);
        window->resize(1200, 800);
        window->show();
        document.openModel(QString::fromStdString(dir.path("tiny.pt")));
        ASSERT_TRUE(document.waitUntilIdle());
        ASSERT_TRUE(document.hasModel());
    }

    void type(const QString& text) {
        window->sourceEdit()->clear();
        QTest::keyClicks(window->sourceEdit(), text);
        QTest::keyClick(window->sourceEdit(), Qt::Key_Return);
        ASSERT_TRUE(document.waitUntilIdle());
    }

    void trigger(QAction* action) {
        ASSERT_TRUE(action->isEnabled()) << action->text().toStdString();
        action->trigger();
        ASSERT_TRUE(document.waitUntilIdle());
    }

    const ui::AlignmentFigure& figure() const { return window->alignmentView()->figure(); }

    tests::TempDir dir;
    ui::DecodingDocument document;
    std::unique_ptr<ui::MainWindow> window;
};

}  // namespace

TEST_F(Gui, StepAddsOneHeatmapRowEqualToTheEnginesAlphaAndBackRemovesIt) {
    type("the red car is big .");
    EXPECT_TRUE(figure().displayedWeights().empty());
    trigger(window->action("step"));
    ASSERT_EQ(figure().displayedWeights().size(), 1u);

    core::DecodingSession engine(core::Model::load(dir.path("tiny.pt")), "the red car is big .");
    const auto& alpha = engine.step().alpha;
    const auto row = figure().displayedWeights()[0];  // a copy: the figure rebuilds on every step
    ASSERT_EQ(row.size(), alpha.size());
    auto* map = figure().heatmap();
    ASSERT_NE(map, nullptr);
    EXPECT_EQ(map->data()->keySize(), static_cast<int>(alpha.size()));
    EXPECT_EQ(map->data()->valueSize(), 1);
    for (size_t i = 0; i < alpha.size(); ++i) {
        EXPECT_EQ(row[i], static_cast<double>(alpha[i]));
        EXPECT_EQ(map->data()->cell(static_cast<int>(i), 0), static_cast<double>(alpha[i]));
    }
    EXPECT_FALSE(map->interpolate());
    // Drawn, not only stored: each cell of the single row shows its weight's colour (a map of one
    // row once drew nothing at all).
    auto* plot = map->parentPlot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = plot->toPixmap(plot->width(), plot->height(), 1.0).toImage();
    for (size_t i = 0; i < alpha.size(); ++i) {
        const QPoint centre(qRound(map->keyAxis()->coordToPixel(static_cast<double>(i))), qRound(map->valueAxis()->coordToPixel(0)));
        const QColor want = QColor::fromRgb(map->gradient().color(alpha[i], map->dataRange()));
        const QColor got = image.pixelColor(centre);
        EXPECT_LE(std::abs(got.red() - want.red()) + std::abs(got.green() - want.green()) + std::abs(got.blue() - want.blue()), 6)
            << "cell " << i << ": drawn " << got.name().toStdString() << ", alpha " << alpha[i] << " is " << want.name().toStdString();
    }

    trigger(window->action("step"));
    EXPECT_EQ(figure().displayedWeights().size(), 2u);
    trigger(window->action("back"));
    EXPECT_EQ(figure().displayedWeights().size(), 1u);
    EXPECT_EQ(figure().displayedWeights()[0], row);
}

TEST_F(Gui, ViewLinksDrawsTheAlignersLinksOverTheHeatmapAndExportsThem) {
    type("the red car is big .");
    auto* argmax = window->findChild<QAction*>(QStringLiteral("links-argmax"));
    ASSERT_NE(argmax, nullptr) << "View > Links lists the rules";
    trigger(argmax);
    trigger(window->action("run"));
    auto s = document.state();
    ASSERT_TRUE(s->finished);
    EXPECT_EQ(s->linkRule, "argmax");
    // The links `align` reads for the pair shown: its sentence and its translation.
    const auto model = core::Model::load(dir.path("tiny.pt"));
    const auto expected = core::Aligner({model}, {}, {}).align({{s->sourceText, s->translation}}).front();
    ASSERT_TRUE(expected.error.empty()) << expected.error;
    EXPECT_EQ(s->links, expected.links);
    ASSERT_FALSE(s->links.empty());
    // One dot on every cell of a linked pair of words, over pieces or over words.
    int cells = 0;
    const auto alignment = s->alignment();
    for (const auto& [source, target] : s->links)
        for (size_t t = 0; t < alignment.targetWords().size(); ++t)
            for (size_t i = 0; i < s->sourceTokenCount(); ++i)
                cells += alignment.sourceWords()[i] == source && alignment.targetWords()[t] == target;
    EXPECT_EQ(figure().linkCells(), cells);
    window->action("words")->trigger();
    EXPECT_EQ(figure().linkCells(), static_cast<int>(s->links.size()));
    window->action("words")->trigger();
    // Exported with the figure: the Pharaoh file holds the rule's links.
    ui::FigureExporter exporter;
    ui::FigureExporter::Settings pharaoh;
    pharaoh.format = ui::FigureExporter::Format::Pharaoh;
    EXPECT_EQ(exporter.render(*s, ui::FigureOptions{}, pharaoh).toStdString(), expected.pharaoh() + "\n");
    // A rule that joins two directions needs a reverse model this one does not declare: it says so.
    trigger(window->findChild<QAction*>(QStringLiteral("links-agreement-intersection")));
    s = document.state();
    EXPECT_TRUE(s->links.empty());
    EXPECT_NE(s->linksError.find("declares no reverse model"), std::string::npos) << s->linksError;
    EXPECT_NE(window->statusText().indexOf(QStringLiteral("no links")), -1) << window->statusText().toStdString();
}

TEST_F(Gui, TheHeatmapShowsAnAttributionFilledInStepByStepBesideAttentionInStepExplained) {
    type("the red car is big .");
    auto* view = window->viewMenu();
    QAction* occlusion = nullptr;
    for (auto* a : view->findChildren<QAction*>())
        if (a->data().toString() == QStringLiteral("occlusion")) occlusion = a;
    ASSERT_NE(occlusion, nullptr) << "View > Heatmap lists the attribution methods";
    trigger(occlusion);
    window->showStepPanel(true);
    trigger(window->action("step"));
    trigger(window->action("step"));
    ASSERT_TRUE(figure().showsAttribution());
    // The rows are core's attribution of the steps taken, column for column.
    const auto model = core::Model::load(dir.path("tiny.pt"));
    core::DecodingSession engine(model, "the red car is big .");
    engine.step();
    engine.step();
    core::Hypothesis target;
    for (const auto& st : engine.steps()) target.ids.push_back(st.tokenId), target.tokens.push_back(st.token);
    const auto want = core::Attributor::attribute(model, engine.source(), target, model.targetWords(target.ids), "occlusion");
    ASSERT_EQ(figure().displayedWeights().size(), 2u);
    for (size_t t = 0; t < 2; ++t)
        for (size_t i = 0; i < want.scores[t].size(); ++i)
            EXPECT_NEAR(figure().displayedWeights()[t][i], want.scores[t][i], 1e-5) << t << "," << i;
    EXPECT_LT(figure().heatmap()->dataRange().lower, 0) << "signed scores get a scale symmetric about 0";
    EXPECT_EQ(figure().heatmap()->dataRange().lower, -figure().heatmap()->dataRange().upper);
    auto* part = window->stepPanel()->findChild<QLabel*>(QStringLiteral("stepAttribution"));
    ASSERT_NE(part, nullptr);
    EXPECT_TRUE(part->isVisible());
    EXPECT_NE(part->text().indexOf(QStringLiteral("rank correlation")), -1) << part->text().toStdString();
    EXPECT_NE(part->text().indexOf(QStringLiteral("Jensen")), -1);
    // Back keeps the first row; attention again is one action away.
    trigger(window->action("back"));
    ASSERT_EQ(figure().displayedWeights().size(), 1u);
    EXPECT_NEAR(figure().displayedWeights()[0][0], want.scores[0][0], 1e-5);
    window->setHeatmapMethod(QString());
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_FALSE(figure().showsAttribution());
    EXPECT_EQ(figure().displayedWeights()[0][0], static_cast<double>(engine.steps()[0].alpha[0]));
    EXPECT_FALSE(part->isVisible());
}

TEST_F(Gui, ATrainingRunsSnapshotsAreASliderOverOneForcedSentence) {
    tests::TempDir run;
    tests::trainReversalRun(run, 40, 3);
    type("c a e");
    ASSERT_TRUE(window->openTimeline(QString::fromStdString(run.root())));
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_TRUE(window->timelineDock()->isVisible());
    auto* panel = window->timelinePanel();
    EXPECT_EQ(panel->slider()->maximum(), 2) << "three snapshots";
    EXPECT_EQ(panel->current(), 2) << "opens on the last";
    EXPECT_EQ(document.modelPath(), panel->snapshotPath(2));
    // The last snapshot's translation is the target every snapshot is forced along.
    ASSERT_TRUE(document.state()->teacherForced);
    const auto rowsLast = figure().displayedWeights();
    ASSERT_FALSE(rowsLast.empty());
    EXPECT_EQ(panel->lossPlot()->graph(0)->dataCount(), 40) << "the loss of every update";
    panel->choose(0);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.modelPath(), panel->snapshotPath(0));
    const auto rowsFirst = figure().displayedWeights();
    ASSERT_EQ(rowsFirst.size(), rowsLast.size()) << "the same target: rows line up";
    EXPECT_NE(rowsFirst, rowsLast) << "an early snapshot aligns differently";

    // The run as an animation of this sentence from File > Export... (the dock's Export animation...
    // opens it so): one frame per snapshot, as a GIF or numbered PNG frames.
    const auto exportRun = [&](ui::FigureExporter::Format format, const std::string& name) {
        ui::ExportDialog dialog(document.state(), {}, window.get());
        dialog.setTimeline(panel->timeline(), document.state()->translation);
        dialog.setFormat(format);
        dialog.setAnimateSnapshots(true);
        dialog.setPath(QString::fromStdString(run.path(name)));
        return dialog.exportNow();
    };
    ASSERT_TRUE(exportRun(ui::FigureExporter::Format::Gif, "run.gif").isEmpty());
    EXPECT_EQ(QImageReader(QString::fromStdString(run.path("run.gif"))).imageCount(), 3);
    ASSERT_TRUE(exportRun(ui::FigureExporter::Format::Frames, "frames.png").isEmpty());
    EXPECT_TRUE(std::filesystem::exists(run.path("frames-snapshot03.png")));

    // A folder that mixes two runs: a snapshot of other vocabularies is refused, the last good one stays.
    std::filesystem::copy_file(dir.path("tiny.pt"), panel->snapshotPath(1).toStdString(),
                               std::filesystem::copy_options::overwrite_existing);
    panel->choose(1);
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_NE(window->statusText().indexOf(QStringLiteral("reads other vocabularies")), -1) << window->statusText().toStdString();
    EXPECT_EQ(document.modelPath(), panel->snapshotPath(0));
    const auto refused = exportRun(ui::FigureExporter::Format::Gif, "mixed.gif");
    EXPECT_NE(refused.indexOf(QStringLiteral("reads other vocabularies")), -1) << refused.toStdString();
    EXPECT_FALSE(std::filesystem::exists(run.path("mixed.gif")));
    // A folder without a run: a message, and the open model stays.
    tests::TempDir empty;
    const QString before = document.modelPath();
    EXPECT_FALSE(window->openTimeline(QString::fromStdString(empty.root())));
    EXPECT_NE(window->statusText().indexOf(QStringLiteral("holds no training run")), -1) << window->statusText().toStdString();
    EXPECT_EQ(document.modelPath(), before);
}

TEST_F(Gui, CompareDecodesTheSentenceWithBothModelsAndKeepsModelAOnErrors) {
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("twin.pt"));
    type("the red car");
    trigger(window->action("run"));
    window->openComparison(QString::fromStdString(dir.path("twin.pt")));
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_TRUE(window->compareDock()->isVisible());
    auto* panel = window->comparePanel();
    ASSERT_TRUE(panel->comparison().has_value()) << panel->summaryText().toStdString();
    const auto& c = *panel->comparison();
    EXPECT_FALSE(c.wordLevel()) << "one tokenizer: token by token";
    EXPECT_EQ(c.a().rows.size(), document.state()->alignment().targetTokens().size());
    EXPECT_EQ(c.agreeingRows(), c.a().rows.size()) << "the same model twice";
    EXPECT_EQ(c.largestAbsoluteDifference(), 0.0);
    EXPECT_EQ(c.a().weights, document.state()->alignment().weights());
    ASSERT_EQ(panel->figure().heatmapCount(), 3);

    // Hovering a cell of B frames the same cell in all three and names the three values.
    const ui::AlignmentComparisonFigure::Cell cell{1, 2};
    QMouseEvent move(QEvent::MouseMove, panel->figure().centreOf(1, cell), panel->plot()->mapToGlobal(panel->figure().centreOf(1, cell)),
                     Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(panel->plot(), &move);
    EXPECT_EQ(panel->figure().highlighted().row, 1);
    EXPECT_EQ(panel->figure().highlighted().column, 2);
    const auto text = panel->figure().describe(cell).toStdString();
    EXPECT_NE(text.find("A "), std::string::npos) << text;
    EXPECT_NE(text.find("A − B 0.000"), std::string::npos) << text;

    // Teacher forcing: both models follow the given target.
    window->setTargetText(QStringLiteral("la voiture rouge"));  // forced to the end at once
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_TRUE(panel->comparison().has_value()) << panel->summaryText().toStdString();
    EXPECT_EQ(panel->comparison()->b().rows, (std::vector<std::string>{"la", "voiture", "rouge", "</s>"}));
    EXPECT_EQ(panel->comparison()->agreeingRows(), 4u);

    // View → Words applies to the compare dock too: the same tokens, merged to the words of the text.
    window->action("words")->trigger();
    ASSERT_TRUE(panel->comparison().has_value());
    EXPECT_TRUE(panel->comparison()->wordLevel());
    EXPECT_TRUE(panel->comparison()->sameTokens());
    EXPECT_EQ(panel->comparison()->columns(), (std::vector<std::string>{"the", "red", "car"}));
    EXPECT_NE(panel->summaryText().indexOf(QStringLiteral("View → Words")), -1) << panel->summaryText().toStdString();
    window->action("words")->trigger();
    EXPECT_FALSE(panel->comparison()->wordLevel());

    // Scores on a test set, and a gold file that does not fit: a message naming it.
    std::ofstream(dir.path("test.tsv")) << "the red car\tla voiture rouge\nthe car\tla voiture\n";
    std::ofstream(dir.path("gold.txt")) << "0-0 1-2 2-1\n0-0 1-1\n";
    window->compareOnTestSet(QString::fromStdString(dir.path("test.tsv")), QString::fromStdString(dir.path("gold.txt")));
    ASSERT_TRUE(window->waitUntilIdle());
    const auto scores = panel->scoresText().toStdString();
    EXPECT_NE(scores.find("BLEU"), std::string::npos) << scores;
    EXPECT_NE(scores.find("AER"), std::string::npos) << scores;
    EXPECT_TRUE(panel->scoresError().isEmpty());
    std::ofstream(dir.path("short.txt")) << "0-0\n";
    window->compareOnTestSet(QString::fromStdString(dir.path("test.tsv")), QString::fromStdString(dir.path("short.txt")));
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_NE(panel->scoresError().indexOf(QStringLiteral("short.txt")), -1) << panel->scoresError().toStdString();

    // A second model that cannot be opened: a message in the dock, model A as it was.
    const QString before = document.modelPath();
    const auto rowsBefore = figure().displayedWeights();
    window->openComparison(QString::fromStdString(dir.path("missing.pt")));
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_FALSE(panel->comparison().has_value());
    EXPECT_NE(panel->summaryText().indexOf(QStringLiteral("missing.pt")), -1) << panel->summaryText().toStdString();
    EXPECT_EQ(document.modelPath(), before);
    EXPECT_EQ(figure().displayedWeights(), rowsBefore);
    window->closeComparison();
    EXPECT_FALSE(window->compareDock()->isVisible());
    EXPECT_EQ(window->comparisonDocument(), nullptr);
}

TEST_F(Gui, ABlankSentenceHasNothingToDecode) {
    type("the red car");
    EXPECT_TRUE(window->action("step")->isEnabled());
    type("   ");
    EXPECT_FALSE(window->action("step")->isEnabled());
    EXPECT_FALSE(window->action("run")->isEnabled());
    EXPECT_FALSE(window->action("beam-search")->isEnabled());
    EXPECT_TRUE(document.state()->source.tokens.empty());
    EXPECT_TRUE(document.state()->steps.empty());
}

TEST_F(Gui, AnInvisibleOnlySentenceIsBlank) {
    type("the red car");
    window->sourceEdit()->setText(QString::fromUtf8("\u200b\u00a0\u2060"));  // keyClicks types ASCII only
    QTest::keyClick(window->sourceEdit(), Qt::Key_Return);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_FALSE(window->action("step")->isEnabled());
    EXPECT_TRUE(document.state()->steps.empty());
}

// Model code that never returns: the operation is abandoned at the time limit, the window is told
// which step, and the document goes on with the same model on a fresh thread.
TEST(DocumentWatch, AnOperationPastTheTimeLimitIsAbandonedAndTheModelStaysOpen) {
    tests::TempDir dir;
    const auto path = QString::fromStdString(tests::writeHostileModel(dir.path("loops.pt"), tests::Misbehaviour::LoopsOnLongSources));
    ui::DecodingDocument document;
    document.setTimeLimit(1500);
    QSignalSpy errors(&document, &ui::DecodingDocument::errorOccurred);
    document.openModel(path);
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_EQ(errors.count(), 0);
    document.setSource("a b c d");  // 5 tokens with </s>: encode loops
    ASSERT_TRUE(document.waitUntilIdle(10000));
    ASSERT_EQ(errors.count(), 1);
    const auto message = errors.at(0).at(0).toString();
    EXPECT_TRUE(message.startsWith("'" + path + "' did not finish encoding the sentence within 1.5 s")) << message.toStdString();
    EXPECT_FALSE(document.busy());
    document.setSource("a b");
    document.step();
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.size(), 1u);
    EXPECT_EQ(errors.count(), 1);
}

// View > Links' reverse model runs under the same watch: one whose code loops is set aside with
// its name, View > Links goes back to none, and the next step decodes.
TEST(DocumentWatch, AReverseModelThatLoopsIsAbandonedAndLinksGoBackToNone) {
    tests::TempDir dir;
    const auto reverse = tests::writeHostileModel(dir.path("loops-back.pt"), tests::Misbehaviour::LoopsOnLongSources);
    const auto path = QString::fromStdString(
        tests::writeHostileModel(dir.path("forward.pt"), tests::Misbehaviour::None, R"({"reverse_model": "loops-back.pt"})"));
    ui::DecodingDocument document;
    document.setTimeLimit(1500);
    QSignalSpy errors(&document, &ui::DecodingDocument::errorOccurred);
    QSignalSpy dropped(&document, &ui::DecodingDocument::linkRuleDropped);
    document.openModel(path);
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_EQ(errors.count(), 0) << errors.value(0).value(0).toString().toStdString();
    document.setLinkRule("agreement-intersection");
    document.setSource("a b");
    document.runToEnd();  // "a a a a a" and </s>: the reverse model's source is long enough to loop
    ASSERT_TRUE(document.waitUntilIdle(20000));
    ASSERT_EQ(errors.count(), 1);
    const auto message = errors.at(0).at(0).toString().toStdString();
    EXPECT_NE(message.find("did not finish aligning the pair for View > Links with the reverse model '" + reverse + "' within 1.5 s"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("View > Links is set back to None"), std::string::npos) << message;
    EXPECT_EQ(dropped.count(), 1);
    EXPECT_FALSE(document.busy());
    document.setSource("a b");
    document.runToEnd();
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(errors.count(), 1);
    EXPECT_EQ(document.state()->steps.size(), 6u);
    EXPECT_TRUE(document.state()->linkRule.empty());
}

// The limit counts silence, as the CLI's --time-limit does: an operation longer than the limit in
// all, whose steps each finish well within it, runs to its end. Calibrated on this machine: one
// step's time first (a few tenths of a second: the watch looks every 250 ms), then a limit of two
// steps for a run of six.
TEST(DocumentWatch, AnOperationThatKeepsSteppingRunsPastTheLimitToItsEnd) {
    tests::TempDir dir;
    const auto path = QString::fromStdString(tests::writeHostileModel(dir.path("slow.pt"), tests::Misbehaviour::SlowSteps));
    ui::DecodingDocument document;
    QSignalSpy errors(&document, &ui::DecodingDocument::errorOccurred);
    document.openModel(path);
    document.setSource("a b c d");  // 5 tokens with </s>: slow steps
    ASSERT_TRUE(document.waitUntilIdle());
    QElapsedTimer clock;
    clock.start();
    document.step();
    ASSERT_TRUE(document.waitUntilIdle());
    const qint64 oneStep = clock.elapsed();
    ASSERT_GE(oneStep, 100) << "the model's steps must be slow enough for the watch to look within one";
    document.reset();
    ASSERT_TRUE(document.waitUntilIdle());
    document.setTimeLimit(static_cast<int>(oneStep * 2));
    clock.restart();
    document.runToEnd();
    ASSERT_TRUE(document.waitUntilIdle(60000));
    EXPECT_EQ(errors.count(), 0) << errors.value(0).value(0).toString().toStdString();
    EXPECT_EQ(document.state()->steps.size(), 6u) << "five 'a' and </s>";
    EXPECT_GT(clock.elapsed(), oneStep * 2) << "the run took longer in all than the limit";
}

TEST(DocumentWatch, CancelAnswersWhenTheModelDoesNot) {
    tests::TempDir dir;
    const auto path = QString::fromStdString(tests::writeHostileModel(dir.path("loops.pt"), tests::Misbehaviour::LoopsFromStep2));
    ui::DecodingDocument document;
    QSignalSpy errors(&document, &ui::DecodingDocument::errorOccurred);
    document.openModel(path);
    document.setSource("a b");
    document.step();
    ASSERT_TRUE(document.waitUntilIdle());
    document.runToEnd();  // step 2 loops
    QTest::qWait(300);
    EXPECT_TRUE(document.busy());
    document.cancel();
    ASSERT_TRUE(document.waitUntilIdle(ui::DecodingDocument::kCancelGraceMs + 3000));
    ASSERT_EQ(errors.count(), 1);
    EXPECT_TRUE(errors.at(0).at(0).toString().contains("did not stop step 2 when cancelled"))
        << errors.at(0).at(0).toString().toStdString();
}

// Step explained's charts are labelled with the sentence on show, never an earlier one: after a
// new sentence at step 0, and at every step after.
TEST_F(Gui, StepExplainedChartsAreLabelledWithTheCurrentSentenceOnly) {
    window->showStepPanel(true);
    type("the red car is big");
    trigger(window->action("step"));
    trigger(window->action("step"));
    type("a cat");  // step 0: no bars, and none of the old sentence's words
    for (int chart = 0; chart < 3; ++chart) EXPECT_TRUE(window->stepPanel()->chartLabels(chart).isEmpty()) << chart;
    QStringList tokens;
    for (const auto& t : document.state()->source.tokens) tokens << ui::FigureOptions::tokenLabel(t);
    for (int t = 0; t < 3; ++t) {
        trigger(window->action("step"));
        EXPECT_EQ(window->stepPanel()->chartLabels(1), tokens) << "step " << t + 1;
        const auto energies = window->stepPanel()->chartLabels(0);
        if (!energies.isEmpty()) EXPECT_EQ(energies, tokens) << "step " << t + 1;
    }
}

// The main loop from the keyboard alone, with the focus owner checked after each key.
TEST_F(Gui, TheMainLoopWorksFromTheKeyboardAlone) {
    window->activateWindow();
    window->sourceEdit()->setFocus();
    QTest::keyClicks(window->sourceEdit(), "the red car is big");
    QTest::keyClick(window->sourceEdit(), Qt::Key_Return);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(QApplication::focusWidget(), window->alignmentView()) << "Enter hands the keys to the heatmap";
    QTest::keyClick(window->alignmentView(), Qt::Key_Right);
    QTest::keyClick(window->alignmentView(), Qt::Key_Right);
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_EQ(document.state()->steps.size(), 2u);
    QTest::keyClick(window->alignmentView(), Qt::Key_Left);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.size(), 1u);
    // 2: the second candidate replaces the last token
    const auto second = document.state()->steps.back().candidates.at(1).id;
    QTest::keyClick(window->alignmentView(), Qt::Key_2);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.back().tokenId, second);
    // Tab reaches the candidates, the first of them in view in a panel too short for all of them;
    // Down and Enter pick the third
    window->resizeDocks({window->candidatesDock()}, {90}, Qt::Vertical);
    QApplication::processEvents();
    QTest::keyClick(window->alignmentView(), Qt::Key_Tab);
    EXPECT_EQ(QApplication::focusWidget(), window->candidatesView());
    QApplication::processEvents();
    auto* candidatesArea = qobject_cast<QScrollArea*>(window->candidatesView()->parentWidget()->parentWidget());
    ASSERT_NE(candidatesArea, nullptr);
    ASSERT_GT(candidatesArea->verticalScrollBar()->maximum(), 0) << "the panel shows every candidate: nothing to check";
    EXPECT_EQ(candidatesArea->verticalScrollBar()->value(), 0) << "Tab scrolled the first candidate out of view";
    // No beam yet: the empty hypotheses list is no Tab stop (it has no row to mark)
    QTest::keyClick(window->candidatesView(), Qt::Key_Tab);
    EXPECT_NE(QApplication::focusWidget(), window->beamList()) << "Tab stopped on the empty hypotheses list";
    QApplication::processEvents();
    EXPECT_EQ(candidatesArea->verticalScrollBar()->value(), 0) << "Tab out of the candidates scrolled the first out of view";
    window->candidatesView()->setFocus();
    QApplication::processEvents();
    const auto third = document.state()->steps.back().candidates.at(2).id;
    QTest::keyClick(window->candidatesView(), Qt::Key_Down);
    QTest::keyClick(window->candidatesView(), Qt::Key_Down);
    QTest::keyClick(window->candidatesView(), Qt::Key_Return);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.back().tokenId, third);
    // Ctrl+B: the hypotheses take the focus; Down picks the next one, the width stays
    window->setBeamWidth(3);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_B, Qt::ControlModifier);
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_EQ(QApplication::focusWidget(), window->beamList());
    EXPECT_EQ(document.state()->selectedHypothesis, 0);
    QTest::keyClick(window->beamList(), Qt::Key_Down);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->selectedHypothesis, 1);
    EXPECT_EQ(window->beamWidthBox()->value(), 3);
    // Tab goes round to Source: no stop without a focus mark in between
    QTest::keyClick(window->beamList(), Qt::Key_Tab);
    EXPECT_EQ(QApplication::focusWidget(), window->sourceEdit());
    // Ctrl+T: the focus goes to Target; Enter aligns and hands the keys back to the heatmap
    QTest::keyClick(window->sourceEdit(), Qt::Key_T, Qt::ControlModifier);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(QApplication::focusWidget(), window->targetEdit());
    EXPECT_FALSE(window->action("step")->isEnabled()) << "no target yet: Step waits for one";
    QTest::keyClicks(window->targetEdit(), "la voiture");
    QTest::keyClick(window->targetEdit(), Qt::Key_Return);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(QApplication::focusWidget(), window->alignmentView());
    EXPECT_TRUE(document.state()->teacherForced);
    QTest::keyClick(window->alignmentView(), Qt::Key_Left);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.size(), 2u);  // la voiture </s>, one back
    // Ctrl+E opens export (closed again at once)
    QTimer::singleShot(300, [] {
        if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) dialog->reject();
    });
    QTest::keyClick(window->alignmentView(), Qt::Key_E, Qt::ControlModifier);
}

// Presenter mode: the translation at least 1.5 times its normal size (the lesson's caption band
// 1.4, where every line counts), the charts' labels larger too, the whole screen; the toolbars
// give way to the stage (every command keeps its key) and come back whole after it.
TEST_F(Gui, PresenterModeEnlargesEveryTextAndKeepsTheActionsVisible) {
    const double translation = window->translationLabel()->font().pointSizeF();
    const double lesson = window->lessonPanel()->textLabel()->font().pointSizeF();
    const double figure = window->alignmentView()->options().fontSize;
    const double candidates = window->candidatesView()->font().pointSizeF();
    window->setPresenterMode(true);
    QApplication::processEvents();
    QApplication::processEvents();
    EXPECT_GE(window->translationLabel()->font().pointSizeF(), 1.5 * translation);
    EXPECT_GE(window->lessonPanel()->textLabel()->font().pointSizeF(), 1.4 * lesson);
    EXPECT_GE(window->alignmentView()->options().fontSize, 1.5 * figure);
    EXPECT_GE(window->candidatesView()->font().pointSizeF(), 1.5 * candidates);
    EXPECT_EQ(window->geometry(), window->screen()->geometry());
    for (auto* bar : window->toolBars()) EXPECT_FALSE(bar->isVisible()) << bar->windowTitle().toStdString() << " on the stage";
    for (const char* id : {"step", "back", "run", "reset", "beam-search", "teacher-forcing", "export", "open", "next-page", "keys"})
        EXPECT_FALSE(window->action(id)->shortcuts().isEmpty()) << id << " has no key on the stage";
    window->setPresenterMode(false);
    QApplication::processEvents();
    EXPECT_DOUBLE_EQ(window->translationLabel()->font().pointSizeF(), translation);
    for (auto* bar : window->toolBars())
        for (auto* action : bar->actions())
            if (auto* button = bar->widgetForAction(action))
                EXPECT_TRUE(button->isVisible() && bar->rect().contains(button->geometry())) << action->text().toStdString();
}

TEST_F(Gui, NarrowWindowsKeepEveryToolbarActionVisible) {
    window->resize(800, 600);
    QApplication::processEvents();
    for (auto* bar : window->toolBars())
        for (auto* action : bar->actions())
            if (auto* button = bar->widgetForAction(action))
                EXPECT_TRUE(button->isVisible() && bar->rect().contains(button->geometry())) << action->text().toStdString();
}

TEST_F(Gui, TheViewMenuListsEveryPanel) {
    QStringList entries;
    for (auto* a : window->viewMenu()->actions()) entries << QString(a->text()).remove(QLatin1Char('&'));  // mnemonics aside
    for (auto* dock : window->findChildren<QDockWidget*>())
        EXPECT_TRUE(entries.contains(dock->windowTitle())) << dock->windowTitle().toStdString();
    for (auto* bar : window->toolBars()) EXPECT_TRUE(entries.contains(bar->windowTitle())) << bar->windowTitle().toStdString();
}

TEST_F(Gui, RecentModelsOfOneNameAreToldApartByFolder) {
    QSettings().remove("recentModels");
    std::filesystem::create_directories(dir.path("other"));
    tests::tinyModel().save(dir.path("other/tiny.pt"));
    document.openModel(QString::fromStdString(dir.path("other/tiny.pt")));
    ASSERT_TRUE(document.waitUntilIdle());
    document.openModel(QString::fromStdString(dir.path("other/../tiny.pt")));  // the first file, named another way
    ASSERT_TRUE(document.waitUntilIdle());
    QStringList names;
    for (auto* a : window->recentMenu()->actions()) names << a->text();
    EXPECT_EQ(names.count(QStringLiteral("tiny.pt")), 0) << names.join(" | ").toStdString();
    EXPECT_EQ(names.filter(QStringLiteral("tiny.pt — ")).size(), 2) << names.join(" | ").toStdString();
}

// The registry is the window's one list of commands: every menu and toolbar entry that does
// something is one of its actions, and no two actions share a key (Qt would fire neither).
TEST_F(Gui, EveryMenuAndToolbarCommandIsARegisteredActionAndNoKeyIsShared) {
    QSet<QAction*> registered;
    QMap<QString, QString> owners;  // key -> action id
    for (const auto& id : window->actions().ids()) {
        auto* a = window->action(id);
        registered.insert(a);
        for (const auto& key : a->shortcuts()) {
            const QString text = key.toString();
            EXPECT_FALSE(owners.contains(text))
                << text.toStdString() << " is both " << owners.value(text).toStdString() << " and " << id.toStdString();
            owners.insert(text, id);
        }
    }
    EXPECT_THROW(window->action(QStringLiteral("no-such-action")), std::out_of_range);
    QList<QAction*> shown;
    for (auto* bar : window->toolBars()) shown += bar->actions();
    for (auto* top : window->menuBar()->actions())
        for (auto* a : top->menu()->actions()) shown << a;
    int checked = 0;
    for (auto* a : shown) {
        // Separators, submenus (Heatmap, Links, Open recent), the dock toggles and the lesson list are menus' own.
        if (a->isSeparator() || a->menu() || a->objectName().isEmpty() || !a->objectName().startsWith(QStringLiteral("action-"))) continue;
        EXPECT_TRUE(registered.contains(a)) << a->text().toStdString();
        ++checked;
    }
    EXPECT_GE(checked, 25);
    for (const char* id : {"step", "back", "run", "reset", "beam-search", "teacher-forcing", "export", "presenter", "quit"})
        EXPECT_TRUE(shown.contains(window->action(id))) << id << " is in no menu or toolbar";
}

TEST_F(Gui, ClickingACandidateForcesItAndBackUndoesIt) {
    type("the red car");
    trigger(window->action("step"));
    auto* view = window->candidatesView();
    ASSERT_GE(view->candidates().size(), 3u);
    const auto wanted = view->candidates()[2];
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->barRect(2).center());
    ASSERT_TRUE(document.waitUntilIdle());
    const auto snap = document.state();
    ASSERT_EQ(snap->steps.size(), 1u);
    EXPECT_EQ(snap->steps[0].tokenId, wanted.id);
    EXPECT_TRUE(snap->steps[0].forced);
    EXPECT_EQ(figure().rowLabels().at(0), QString::fromStdString(wanted.token));
    trigger(window->action("step"));  // decoding goes on from the forced token
    EXPECT_EQ(document.state()->steps.size(), 2u);
    EXPECT_EQ(document.state()->steps[1].previousState, document.state()->steps[0].state);
    trigger(window->action("back"));
    trigger(window->action("back"));
    EXPECT_TRUE(document.state()->steps.empty());
}

TEST_F(Gui, BadModelFileLeavesTheOldModelLoaded) {
    type("the red car");
    trigger(window->action("step"));
    std::ofstream(dir.path("bad.pt")) << "not a model at all";
    QSignalSpy errors(&document, &ui::DecodingDocument::errorOccurred);
    document.openModel(QString::fromStdString(dir.path("bad.pt")));
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_EQ(errors.count(), 1);
    EXPECT_TRUE(errors.at(0).at(0).toString().contains(QStringLiteral("not a TorchScript model file")));
    EXPECT_EQ(document.modelPath(), QString::fromStdString(dir.path("tiny.pt")));
    EXPECT_EQ(document.state()->steps.size(), 1u) << "the session stays as it was";
    trigger(window->action("step"));
    EXPECT_EQ(document.state()->steps.size(), 2u);
}

TEST_F(Gui, TeacherForcingShowsOneRowPerTargetToken) {
    type("the red car");
    window->setTargetText(QStringLiteral("la voiture rouge"));
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_EQ(figure().rowLabels().size(), 4u);  // la voiture rouge </s>
    EXPECT_EQ(figure().rowLabels()[1], QStringLiteral("voiture"));
    EXPECT_EQ(figure().displayedWeights().size(), 4u);
    EXPECT_FALSE(window->action("step")->isEnabled());  // the whole target is forced
}

// Teacher forcing is walked like decoding: Back, Reset and Step follow the target one token at a
// time, with candidates and Step explained at every step; switching it off keeps the steps.
TEST_F(Gui, TeacherForcingStepsOneForcedTokenAtATime) {
    type("the red car");
    window->setTargetText(QStringLiteral("la voiture rouge"));
    ASSERT_TRUE(document.waitUntilIdle());
    window->showStepPanel(true);
    trigger(window->action("back"));
    EXPECT_EQ(document.state()->steps.size(), 3u);
    EXPECT_FALSE(window->candidatesView()->candidates().empty());
    trigger(window->action("reset"));
    EXPECT_EQ(document.state()->steps.size(), 0u);
    EXPECT_TRUE(document.state()->teacherForced);
    EXPECT_EQ(document.state()->forcedSteps, 4);
    const QStringList expected = {"la", "voiture", "rouge", "</s>"};
    for (int t = 0; t < 4; ++t) {
        trigger(window->action("step"));
        const auto& steps = document.state()->steps;
        ASSERT_EQ(steps.size(), static_cast<size_t>(t + 1));
        EXPECT_EQ(QString::fromStdString(steps.back().token), expected[t]);
        EXPECT_TRUE(steps.back().forced);
        EXPECT_FALSE(window->candidatesView()->candidates().empty()) << "step " << t + 1;
        EXPECT_TRUE(window->stepPanel()->text(6).contains(QStringLiteral("Forced:"))) << "step " << t + 1;
    }
    EXPECT_FALSE(window->action("step")->isEnabled());
    trigger(window->action("back"));
    trigger(window->action("back"));
    window->setTargetText(QString());  // off: the two forced steps stay, decoding goes on freely
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.size(), 2u);
    EXPECT_FALSE(document.state()->teacherForced);
    EXPECT_TRUE(window->action("step")->isEnabled());
}

TEST_F(Gui, BeamSearchListsHypothesesAndShowsTheChosenOnesAlignment) {
    type("the red car is big .");
    window->setBeamWidth(3);
    trigger(window->action("beam-search"));
    const auto snap = document.state();
    ASSERT_FALSE(snap->beam.empty());
    ASSERT_EQ(window->beamList()->count(), static_cast<int>(snap->beam.size()));
    const int pick = window->beamList()->count() - 1;
    window->beamList()->setCurrentRow(pick);
    ASSERT_TRUE(document.waitUntilIdle());
    const auto& h = document.state()->beam[static_cast<size_t>(pick)];
    ASSERT_EQ(figure().displayedWeights().size(), h.alpha.size());
    for (size_t t = 0; t < h.alpha.size(); ++t)
        for (size_t i = 0; i < h.alpha[t].size(); ++i) EXPECT_EQ(figure().displayedWeights()[t][i], static_cast<double>(h.alpha[t][i]));
}

// The panels beside the heatmap show the shown hypothesis's own last step, not the steps
// decoded before the search; its candidates cannot be clicked (a click would change the steps).
TEST_F(Gui, ShownBeamHypothesisFillsThePanelsWithItsOwnSteps) {
    window->stepDock()->show();
    type("the red car is big .");
    trigger(window->action("step"));
    window->setBeamWidth(3);
    trigger(window->action("beam-search"));
    const int pick = window->beamList()->count() - 1;
    window->beamList()->setCurrentRow(pick);
    ASSERT_TRUE(document.waitUntilIdle());
    const auto snap = document.state();
    const auto& h = snap->beam[static_cast<size_t>(pick)];
    ASSERT_EQ(snap->hypothesisSteps.size(), h.ids.size());
    for (size_t t = 0; t < h.ids.size(); ++t) {
        EXPECT_EQ(snap->hypothesisSteps[t].tokenId, h.ids[t]);
        for (size_t i = 0; i < h.alpha[t].size(); ++i)
            EXPECT_NEAR(snap->hypothesisSteps[t].alpha[i], h.alpha[t][i], 1e-5) << "the search's own alpha, step " << t;
    }
    const auto& last = snap->hypothesisSteps.back();
    EXPECT_EQ(snap->currentStep(), &last);
    ASSERT_EQ(window->candidatesView()->candidates().size(), last.candidates.size());
    EXPECT_EQ(window->candidatesView()->candidates()[0].id, last.candidates[0].id);
    const auto before = snap->steps.size();
    QTest::mouseClick(window->candidatesView(), Qt::LeftButton, Qt::NoModifier, window->candidatesView()->barRect(1).center());
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(document.state()->steps.size(), before) << "a click on a shown hypothesis's candidates does nothing";
    ASSERT_EQ(window->stepPanel()->shownAlpha().size(), last.alpha.size());
    for (size_t i = 0; i < last.alpha.size(); ++i) EXPECT_EQ(window->stepPanel()->shownAlpha()[i], static_cast<double>(last.alpha[i]));
    EXPECT_TRUE(window->stepPanel()->text(6).contains(QStringLiteral("Beam search kept"))) << window->stepPanel()->text(6).toStdString();

    trigger(window->action("step"));  // back to the steps
    EXPECT_EQ(document.state()->selectedHypothesis, -1);
    EXPECT_EQ(document.state()->currentStep(), &document.state()->steps.back());
    EXPECT_EQ(window->candidatesView()->candidates()[0].id, document.state()->steps.back().candidates[0].id);
}

TEST_F(Gui, LongSentenceScrollsAWindowOfReadableColumnsWithItsAxesInPlace) {
    QString text;
    for (int i = 0; i < 100; ++i) text += (i % 3 ? QStringLiteral("house ") : QStringLiteral("small "));
    type(text);
    trigger(window->action("step"));
    // The plot fills its panel; a window of columns of the smallest cell (8 px in the window) moves
    // over the 101, the axes stay; their labels shrink, then thin out so that none overlaps another.
    auto* view = window->alignmentView();
    EXPECT_EQ(view->plot()->size(), view->viewport()->size());
    EXPECT_TRUE(view->scrolls());
    EXPECT_LT(view->fitting().width(), 101);
    auto* x = view->plot()->axisRect()->axis(QCPAxis::atBottom);
    const double cell = static_cast<double>(x->axisRect()->width()) / view->fitting().width();
    EXPECT_GE(cell, ui::FigureOptions().smallestCell) << "columns no smaller than the smallest cell";
    EXPECT_LT(x->axisRect()->width(), 101 * (ui::FigureOptions().smallestCell + 1))
        << "it scrolls only where smaller cells would be needed";
    auto ticker = x->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    const auto labelled = ticker->ticks().keys();
    ASSERT_GT(labelled.size(), 1);
    for (int k = 1; k < labelled.size(); ++k)
        EXPECT_GE((labelled[k] - labelled[k - 1]) * cell + 0.5, QFontMetrics(x->tickLabelFont()).height())
            << "labels overlap at " << labelled[k];
    EXPECT_EQ(x->tickLabelRotation(), -90);
    EXPECT_EQ(figure().columnLabels().size(), 101u);
    const int last = view->horizontalScrollBar()->maximum();
    ASSERT_GT(last, 0);
    view->horizontalScrollBar()->setValue(last);
    EXPECT_DOUBLE_EQ(x->range().lower, last - 0.5) << "the window starts at column " << last + 1;
    EXPECT_DOUBLE_EQ(x->range().upper, 100.5) << "and ends at the last";
}

TEST_F(Gui, ViewWordsMergesPiecesIntoTheWordsOfTheText) {
    tests::tinyPieceModel().save(dir.path("pieces.pt"));
    document.openModel(QString::fromStdString(dir.path("pieces.pt")));
    ASSERT_TRUE(document.waitUntilIdle());
    type("the big house is red");
    trigger(window->action("run"));
    const auto alignment = document.state()->alignment();
    ASSERT_GT(alignment.sourceTokens().size(), 6u) << "pieces: more tokens than words";
    EXPECT_FALSE(figure().showsWords());
    window->action("words")->trigger();
    ASSERT_TRUE(figure().showsWords());
    // The </s> column kept (View → Keep the </s> column, the default): a column of its own.
    EXPECT_EQ(figure().columnLabels(), (std::vector<QString>{"the", "big", "house", "is", "red", "</s>"}));
    auto sourceWords = alignment.sourceWords();
    const auto merged = core::LinkExtraction::mergeToWords(alignment.weights(), sourceWords, alignment.targetWords());
    const auto rows = core::LinkExtraction::wordLabels(alignment.targetTokens(), alignment.targetWords(), merged.size());
    ASSERT_EQ(figure().rowLabels().size(), rows.size());
    for (size_t t = 0; t < rows.size(); ++t) EXPECT_EQ(figure().rowLabels()[t].toStdString(), rows[t]);
    ASSERT_EQ(figure().displayedWeights().size(), merged.size());
    for (size_t t = 0; t < merged.size(); ++t)
        for (size_t i = 0; i < merged[t].size(); ++i) EXPECT_NEAR(figure().displayedWeights()[t][i], merged[t][i], 1e-6) << t << "," << i;
    for (const auto& row : figure().displayedWeights()) {
        double sum = 0;
        for (double v : row) sum += v;
        EXPECT_NEAR(sum, 1.0, 1e-5) << "a word's rows averaged, </s> kept: each row sums to one";
    }
    window->action("words")->trigger();
    EXPECT_FALSE(figure().showsWords());
    EXPECT_EQ(figure().columnLabels().size(), alignment.sourceTokens().size());
}

TEST_F(Gui, EndColumnCanBeHiddenOrRenormalisedWithoutChangingTheData) {
    type("the red car");
    trigger(window->action("step"));
    const auto full = document.state()->steps[0].alpha;
    auto options = window->alignmentView()->options();
    options.endColumn = ui::FigureOptions::EndColumn::Renormalize;
    window->alignmentView()->setOptions(options);
    const auto& row = figure().displayedWeights()[0];
    ASSERT_EQ(row.size(), full.size() - 1);
    double sum = 0;
    for (double v : row) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-9);
    EXPECT_EQ(document.state()->steps[0].alpha, full) << "display only";
}

TEST_F(Gui, StepExplainedPanelShowsTheEnginesNumbers) {
    EXPECT_FALSE(window->stepDock()->isVisible()) << "off by default";
    window->stepDock()->show();
    type("the red car is big .");
    trigger(window->action("step"));
    trigger(window->action("step"));
    core::DecodingSession engine(core::Model::load(dir.path("tiny.pt")), "the red car is big .");
    engine.step();
    const auto& second = engine.step();
    const auto* panel = window->stepPanel();
    const auto& energies = second.extras.at("energies");
    ASSERT_EQ(panel->shownEnergies().size(), energies.size());
    for (size_t i = 0; i < energies.size(); ++i) EXPECT_EQ(panel->shownEnergies()[i], static_cast<double>(energies[i]));
    ASSERT_EQ(panel->shownAlpha().size(), second.alpha.size());
    for (size_t i = 0; i < second.alpha.size(); ++i) EXPECT_EQ(panel->shownAlpha()[i], static_cast<double>(second.alpha[i]));
    EXPECT_TRUE(panel->text(2).contains(QStringLiteral("tanh"))) << panel->text(2).toStdString();
    EXPECT_TRUE(panel->text(5).contains(QStringLiteral("GRU")));
    EXPECT_TRUE(panel->text(6).contains(QString::fromStdString(second.token)));
}

TEST(GuiNoAttention, StepExplainedPanelSaysWhatTheModelDoesNotHave) {
    tests::TempDir dir;
    tests::tinyModel(tests::tinySpec(core::ModelSpec::Cell::LSTM, core::ModelSpec::Attention::None)).save(dir.path("plain.pt"));
    ui::DecodingDocument document;
    ui::StepExplainedPanel panel;
    QObject::connect(&document, &ui::DecodingDocument::stateChanged, &panel, &ui::StepExplainedPanel::render);
    document.openModel(QString::fromStdString(dir.path("plain.pt")));
    document.setSource(QStringLiteral("the red car"));
    document.step();
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_TRUE(panel.shownEnergies().empty());
    EXPECT_TRUE(panel.text(2).contains(QStringLiteral("no attention"))) << panel.text(2).toStdString();
    EXPECT_TRUE(panel.text(5).contains(QStringLiteral("LSTM")));
}

// Every shipped lesson, played page by page on the bundled models: each page reaches its state
// without an error, and the Step explained numbers are the engine's for that step.
TEST(Lessons, EveryShippedLessonPlaysThrough) {
    const auto lessons = ui::Lesson::shippedLessons();
    ASSERT_GE(lessons.size(), 4);
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.resize(1300, 850);
    window.show();
    QSignalSpy errors(&document, &ui::DecodingDocument::errorOccurred);
    for (const auto& path : lessons) {
        const auto lesson = ui::Lesson::load(path);
        window.startLesson(path);
        for (int page = 0; page < lesson.pages.size(); ++page) {
            SCOPED_TRACE(path.toStdString() + " page " + std::to_string(page + 1));
            window.lessonPlayer()->goTo(page);
            ASSERT_TRUE(document.waitUntilIdle());
            ASSERT_EQ(errors.count(), 0) << errors.at(0).at(0).toString().toStdString();
            const auto& p = lesson.pages[page];
            EXPECT_EQ(window.lessonPanel()->pageText(), p.html);
            EXPECT_EQ(window.lessonPanel()->pageImage().isNull(), p.image.isEmpty());
            const auto snap = document.state();
            // A training-run page shows one snapshot of the run.
            const std::string modelPath = p.timeline.isEmpty()
                                              ? ui::LessonPlayer::resolveModel(p.model).toStdString()
                                              : window.timelinePanel()->snapshotPath(window.timelinePanel()->current()).toStdString();
            if (!p.timeline.isEmpty()) {
                EXPECT_EQ(window.timelinePanel()->current(), p.snapshot > 0 ? p.snapshot - 1 : window.timelinePanel()->slider()->maximum());
                EXPECT_EQ(document.modelPath().toStdString(), modelPath);
            }
            auto model = core::Model::load(modelPath);
            core::DecodingSession engine(model, p.source.toStdString());
            ASSERT_EQ(snap->source.tokens, engine.source().tokens);
            if (!p.target.isEmpty()) {
                engine.followTarget(p.target.toStdString(), p.steps > 0 ? p.steps : -1);  // a page may stop part way
            } else if (p.run) {
                engine.runToEnd();
            } else {
                for (int i = 0; i < p.steps; ++i) engine.step();
            }
            ASSERT_EQ(snap->steps.size(), engine.steps().size());
            for (size_t t = 0; t < engine.steps().size(); ++t) EXPECT_EQ(snap->steps[t].alpha, engine.steps()[t].alpha);
            if (p.beam > 0) EXPECT_FALSE(snap->beam.empty());
            // A page's heatmap: attention, or the attribution it names, one row per step.
            EXPECT_EQ(window.heatmapMethod(), p.heatmap);
            EXPECT_EQ(window.alignmentView()->figure().showsAttribution(), !p.heatmap.isEmpty() && !engine.steps().empty());
            if (!p.heatmap.isEmpty()) EXPECT_EQ(snap->attribution.size(), engine.steps().size());
            if (p.explain && !engine.steps().empty()) {
                const auto& alpha = engine.steps().back().alpha;
                ASSERT_EQ(window.stepPanel()->shownAlpha().size(), alpha.size());
                for (size_t i = 0; i < alpha.size(); ++i) EXPECT_EQ(window.stepPanel()->shownAlpha()[i], static_cast<double>(alpha[i]));
            }
        }
    }
}

TEST(Lessons, MalformedLessonFilesAreRefusedWithFileAndPage) {
    tests::TempDir dir;
    std::ofstream(dir.path("bad.json")) << R"({"title": "x", "pages": [{"text": "a", "source": "b"}, {"text": "c"}]})";
    try {
        ui::Lesson::load(QString::fromStdString(dir.path("bad.json")));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("page 2, \"source\": missing (it is required)"), std::string::npos) << e.what();
    }
    std::ofstream(dir.path("broken.json")) << "{ not json";
    EXPECT_THROW(ui::Lesson::load(QString::fromStdString(dir.path("broken.json"))), core::Error);
    std::ofstream(dir.path("noimage.json")) << R"({"title": "x", "pages": [{"text": "a", "source": "b", "image": "figs/missing.png"}]})";
    try {
        ui::Lesson::load(QString::fromStdString(dir.path("noimage.json")));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("page 1, \"image\": 'figs/missing.png' does not exist beside the lesson"), std::string::npos)
            << e.what();
    }
}

TEST(Lessons, PageImageIsFoundBesideTheLessonAndShownInThePanel) {
    tests::TempDir dir;
    QImage picture(120, 80, QImage::Format_RGB32);
    picture.fill(Qt::red);
    std::filesystem::create_directories(dir.path("figs"));
    ASSERT_TRUE(picture.save(QString::fromStdString(dir.path("figs/plot.png"))));
    std::ofstream(dir.path("lesson.json")) << R"({"title": "x", "pages": [{"text": "a", "source": "the car", "image": "figs/plot.png"},
                                      {"text": "b", "source": "the car"}]})";
    const auto lesson = ui::Lesson::load(QString::fromStdString(dir.path("lesson.json")));
    EXPECT_EQ(lesson.pages[0].image, QString::fromStdString(dir.path("figs/plot.png")));
    tests::tinyModel().save(dir.path("tiny.pt"));
    ui::DecodingDocument document;
    document.openModel(QString::fromStdString(dir.path("tiny.pt")));
    ASSERT_TRUE(document.waitUntilIdle());
    ui::MainWindow window(&document);
    window.show();
    window.startLesson(QString::fromStdString(dir.path("lesson.json")));
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_EQ(window.lessonPanel()->pageImage().size(), QSize(120, 80));
    const auto labels = window.lessonPanel()->findChildren<QLabel*>();
    const bool shown = std::any_of(labels.begin(), labels.end(), [](QLabel* l) {
        return l->isVisible() && !l->pixmap().isNull() && l->pixmap().toImage().pixelColor(5, 5) == QColor(Qt::red);
    });
    EXPECT_TRUE(shown) << "the picture is on screen in the lesson panel";
    ASSERT_TRUE(window.action("picture")->isEnabled()) << "the page has a picture";
    QTest::keyClick(&window, Qt::Key_I, Qt::ControlModifier);  // from the keyboard, as in front of a class
    const auto dialogs = window.findChildren<QDialog*>();
    ASSERT_EQ(dialogs.size(), 1);
    const auto big = dialogs.front()->findChildren<QLabel*>();
    ASSERT_EQ(big.size(), 1);
    EXPECT_EQ(big.front()->pixmap().size(), QSize(120, 80)) << "full size";
    dialogs.front()->close();
    window.lessonPlayer()->goTo(1);
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_TRUE(window.lessonPanel()->pageImage().isNull());
    EXPECT_FALSE(window.action("picture")->isEnabled());
}

// Issue 38: a class on a projector, and state that never outlives the view it belongs to.

TEST(GuiScreen, TheWindowOpensWithinTheScreen) {
    QSettings().remove(QStringLiteral("window"));  // first start: no saved geometry
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    const QRect room = window.screen()->availableGeometry();
    EXPECT_LE(window.width(), room.width()) << "the offscreen screen is " << room.width() << "x" << room.height();
    EXPECT_LE(window.height() + 30, room.height()) << "a title bar's room left";
    EXPECT_TRUE(room.contains(window.geometry()));
}

TEST_F(Gui, PresenterModeIsAStageAndComesBackAsItWas) {
    window->showStepPanel(true);
    QApplication::processEvents();
    const QRect geometry = window->geometry();
    std::map<QDockWidget*, std::pair<Qt::DockWidgetArea, bool>> docks;
    for (auto* d : window->findChildren<QDockWidget*>()) docks[d] = {window->dockWidgetArea(d), d->isHidden()};
    ASSERT_EQ(window->dockWidgetArea(window->stepDock()), Qt::LeftDockWidgetArea);
    window->setPresenterMode(true);
    QApplication::processEvents();
    QApplication::processEvents();
    EXPECT_EQ(window->geometry(), window->screen()->geometry());
    // The lesson is the caption band across the top; the compare view goes under it all, the whole
    // width (three heatmaps side by side); the other panels share one column, one above the other.
    for (auto* d : window->findChildren<QDockWidget*>())
        EXPECT_EQ(window->dockWidgetArea(d), d == window->compareDock()  ? Qt::BottomDockWidgetArea
                                             : d == window->lessonDock() ? Qt::TopDockWidgetArea
                                                                         : Qt::RightDockWidgetArea)
            << d->windowTitle().toStdString();
    EXPECT_TRUE(window->tabifiedDockWidgets(window->candidatesDock()).isEmpty()) << "no panel hides behind a tab";
    EXPECT_TRUE(window->stepDock()->isVisible() && window->candidatesDock()->isVisible());
    EXPECT_FALSE(window->beamDock()->isVisible()) << "no beam yet: no empty list on the stage";
    EXPECT_FALSE(window->menuBar()->isVisible());
    EXPECT_FALSE(window->sourceEdit()->isVisible());
    EXPECT_LE(window->stepDock()->width(), 0.4 * window->width());
    // Esc leaves the stage; F1 lists the keys (a dialog: closed by the test's timer).
    QTest::keyClick(window.get(), Qt::Key_Escape);
    QApplication::processEvents();
    EXPECT_FALSE(window->presenterMode()) << "Esc leaves presenter mode";
    EXPECT_TRUE(window->menuBar()->isVisible());
    EXPECT_TRUE(window->sourceEdit()->isVisible());
    window->setPresenterMode(true);
    QApplication::processEvents();
    window->setPresenterMode(false);
    QApplication::processEvents();
    EXPECT_FALSE(window->isFullScreen());
    EXPECT_EQ(window->geometry(), geometry) << "the window's own size and place again";
    for (const auto& [d, before] : docks) {
        EXPECT_EQ(window->dockWidgetArea(d), before.first) << d->windowTitle().toStdString();
        EXPECT_EQ(d->isHidden(), before.second) << d->windowTitle().toStdString();
    }
}

TEST_F(Gui, PresenterModeScalesDockTitlesAndTheLossCurve) {
    const double dock = window->stepDock()->font().pointSizeF();
    const double loss = window->timelinePanel()->lossPlot()->xAxis->tickLabelFont().pointSizeF();
    const double lossTitle = window->timelinePanel()->lossPlot()->yAxis->labelFont().pointSizeF();
    window->setPresenterMode(true, false);
    EXPECT_GE(window->stepDock()->font().pointSizeF(), 1.5 * dock);
    EXPECT_GE(window->timelinePanel()->lossPlot()->xAxis->tickLabelFont().pointSizeF(), 1.5 * loss);
    EXPECT_GE(window->timelinePanel()->lossPlot()->yAxis->labelFont().pointSizeF(), 1.5 * lossTitle);
    window->setPresenterMode(false);
    EXPECT_DOUBLE_EQ(window->timelinePanel()->lossPlot()->xAxis->tickLabelFont().pointSizeF(), loss);
}

// A heatmap of one row, drawn at the size it asks for (the view's least, every exported figure's):
// the colour scale's title is as long as the scale, never cut.
TEST_F(Gui, TheColourScaleTitleFitsAHeatmapOfOneRow) {
    type("the red car");
    trigger(window->action("step"));
    const auto snapshot = document.state();
    for (const bool encoder : {true, false}) {
        ui::FigureOptions options;
        options.showEncoderStates = encoder;
        options.fontSize = static_cast<int>(ui::FigureOptions().fontSize * 1.6);  // presenter mode's labels
        QCustomPlot plot;
        ui::AlignmentFigure figure(&plot);
        plot.resize(ui::AlignmentFigure::preferredSize(*snapshot, options));
        figure.show(*snapshot, options);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QCPColorScale* scale = nullptr;  // the attention scale: the first (the encoder panel's comes after it)
        for (auto* element : plot.plotLayout()->elements(true))
            if (auto* s = qobject_cast<QCPColorScale*>(element); s && !scale) scale = s;
        ASSERT_NE(scale, nullptr);
        const int title = QFontMetrics(scale->axis()->labelFont()).horizontalAdvance(scale->axis()->label());
        EXPECT_GE(scale->axis()->axisRect()->height(), title)
            << scale->axis()->label().toStdString() << (encoder ? " with" : " without") << " the encoder panel";
    }
}

TEST_F(Gui, ANewModelEndsTeacherForcingAndRunsFreely) {
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("other.pt"));
    type("the red car");
    window->setTargetText(QStringLiteral("la voiture rouge"));
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_TRUE(document.state()->teacherForced);
    window->openModel(QString::fromStdString(dir.path("other.pt")));
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_FALSE(document.state()->teacherForced);
    EXPECT_TRUE(document.state()->steps.empty()) << "step 0 of the sentence";
    EXPECT_FALSE(window->action("teacher-forcing")->isChecked());
    EXPECT_FALSE(window->targetEdit()->isVisible());
    trigger(window->action("run"));
    core::DecodingSession engine(core::Model::load(dir.path("other.pt")), "the red car");
    engine.runToEnd();
    EXPECT_FALSE(document.state()->teacherForced);
    EXPECT_EQ(document.state()->translation, engine.translation());
}

TEST_F(Gui, NoLabelOutlivesWhatItDescribes) {
    // The compare dock's title (and the View menu's entry) names no model after Stop comparing.
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("twin.pt"));
    type("the red car");
    window->openComparison(QString::fromStdString(dir.path("twin.pt")));
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_NE(window->compareDock()->windowTitle().indexOf(QStringLiteral("B = ")), -1);
    window->closeComparison();
    EXPECT_EQ(window->compareDock()->windowTitle(), QStringLiteral("Compare models"));
    EXPECT_EQ(window->compareDock()->toggleViewAction()->text(), QStringLiteral("Com&pare models"));
    // Forced rows stay forced in the axis title once teacher forcing is off.
    window->setTargetText(QStringLiteral("la voiture"));
    ASSERT_TRUE(document.waitUntilIdle());
    window->setTargetText(QString());
    ASSERT_TRUE(document.waitUntilIdle());
    const auto rows = figure().rowLabels().size();
    auto* y = window->alignmentView()->plot()->axisRect()->axis(QCPAxis::atLeft);
    EXPECT_EQ(y->label(), QStringLiteral("target (%1 of %1 forced)").arg(rows));
    // Step explained at step 0 keeps no scale of the sentence before.
    window->showStepPanel(true);
    type("the red car is big .");
    trigger(window->action("step"));
    trigger(window->action("reset"));
    QApplication::processEvents();
    for (int chart = 0; chart < 3; ++chart) {
        auto* plot = window->stepPanel()->chart(chart);
        EXPECT_FALSE(plot->yAxis->tickLabels()) << "chart " << chart;
        EXPECT_EQ(plot->yAxis->range(), QCPRange(0, 1)) << "chart " << chart;
    }
}

// A run's snapshots are forced along one target: cleared, the target is the last snapshot's
// translation again, on the snapshot the slider shows (never a blank heatmap).
TEST_F(Gui, ClearingARunsTargetForcesItAlongTheLastSnapshotsTranslation) {
    tests::TempDir run;
    tests::trainReversalRun(run, 30, 3);
    type("c a e");
    window->setTargetText(QStringLiteral("e a c"));
    ASSERT_TRUE(document.waitUntilIdle());
    ASSERT_TRUE(window->openTimeline(QString::fromStdString(run.root()), 0));
    ASSERT_TRUE(window->waitUntilIdle());
    auto* panel = window->timelinePanel();
    ASSERT_EQ(panel->current(), 0);
    window->targetEdit()->clear();
    QTest::keyClick(window->targetEdit(), Qt::Key_Return);
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(window->waitUntilIdle());
    core::DecodingSession last(core::Model::load(panel->snapshotPath(2).toStdString()), "c a e");
    last.runToEnd();
    ASSERT_FALSE(last.translation().empty());
    EXPECT_EQ(window->targetEdit()->text().toStdString(), last.translation());
    EXPECT_TRUE(window->action("teacher-forcing")->isChecked());
    EXPECT_EQ(document.modelPath(), panel->snapshotPath(0)) << "the snapshot on the slider";
    EXPECT_TRUE(document.state()->teacherForced);
    EXPECT_FALSE(figure().displayedWeights().empty());
    EXPECT_TRUE(window->action("export")->isEnabled());
}

TEST_F(Gui, OpeningATrainingRunEndsAComparison) {
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("twin.pt"));
    tests::TempDir run;
    tests::trainReversalRun(run, 20, 2);
    type("c a e");
    window->openComparison(QString::fromStdString(dir.path("twin.pt")));
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_TRUE(window->openTimeline(QString::fromStdString(run.root())));
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_EQ(window->comparisonDocument(), nullptr);
    EXPECT_FALSE(window->compareDock()->isVisible());
    EXPECT_TRUE(window->comparePanel()->scoresText().isEmpty());
}

TEST_F(Gui, OpeningAComparisonEndsATrainingRunAndItsTarget) {
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("twin.pt"));
    tests::TempDir run;
    tests::trainReversalRun(run, 20, 2);
    type("c a e");
    ASSERT_TRUE(window->openTimeline(QString::fromStdString(run.root())));
    for (int k = 0; k < 2; ++k) ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_TRUE(document.state()->teacherForced) << "along the last snapshot's translation";
    window->openComparison(QString::fromStdString(dir.path("twin.pt")));
    for (int k = 0; k < 2; ++k) ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_FALSE(window->timelineDock()->isVisible());
    EXPECT_FALSE(window->action("teacher-forcing")->isChecked());
    EXPECT_FALSE(document.state()->teacherForced);
    ASSERT_NE(window->comparisonDocument(), nullptr);
}

TEST_F(Gui, EndLessonRestoresTheViewStepAndAll) {
    std::ofstream(dir.path("lesson.json")) << R"({"title": "x", "pages": [{"text": "a", "source": "the car", "run": true,
        "explain": "softmax", "highlight": "explain"}]})";
    type("the red car is big .");
    trigger(window->action("step"));
    trigger(window->action("step"));
    trigger(window->action("step"));
    const auto before = document.state();
    window->startLesson(QString::fromStdString(dir.path("lesson.json")));
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_EQ(document.state()->sourceText, "the car");
    // The page's panel is framed, not each of its parts (a frame rule once reached every label).
    QApplication::processEvents();
    const QColor orange(0xff, 0x7f, 0x0e);
    const QImage panel = window->stepPanel()->grab().toImage();
    EXPECT_EQ(panel.pixelColor(1, panel.height() / 2), orange) << "the named panel is not framed";
    auto* part = window->stepPanel()->findChild<QWidget*>(QStringLiteral("stepPart1"));
    ASSERT_NE(part, nullptr);
    const QImage partImage = part->grab().toImage();
    EXPECT_NE(partImage.pixelColor(1, partImage.height() / 2), orange) << "each part of Step explained framed too";
    window->lessonPlayer()->stop();
    ASSERT_TRUE(window->waitUntilIdle());
    const auto after = document.state();
    EXPECT_EQ(after->sourceText, before->sourceText);
    ASSERT_EQ(after->steps.size(), 3u) << "the step the teacher was at";
    for (size_t t = 0; t < 3; ++t) EXPECT_EQ(after->steps[t].alpha, before->steps[t].alpha);
    EXPECT_FALSE(window->stepDock()->isVisible());

    // Teacher forcing, two tokens into the target: back at those two, still forced.
    type("the red car");
    window->setTargetText(QStringLiteral("la voiture rouge"));
    ASSERT_TRUE(document.waitUntilIdle());
    trigger(window->action("reset"));
    trigger(window->action("step"));
    trigger(window->action("step"));
    window->startLesson(QString::fromStdString(dir.path("lesson.json")));
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_FALSE(window->action("teacher-forcing")->isChecked()) << "the page decodes freely";
    window->lessonPlayer()->stop();
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_TRUE(document.state()->teacherForced);
    EXPECT_EQ(document.state()->steps.size(), 2u);
    EXPECT_EQ(window->targetEdit()->text(), QStringLiteral("la voiture rouge"));
    EXPECT_TRUE(window->action("teacher-forcing")->isChecked());
}

// Lesson 2's pages name the part of Step explained they talk about: it is scrolled into view.
TEST(Lessons, StepExplainedFollowsThePage) {
    const QString path = ui::Lesson::shippedLessons().filter(QStringLiteral("02-attention-by-hand")).value(0);
    ASSERT_FALSE(path.isEmpty());
    const auto lesson = ui::Lesson::load(path);
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.resize(1024, 768);
    window.show();
    window.startLesson(path);
    for (int page = 0; page < lesson.pages.size(); ++page) {
        const auto& part = lesson.pages[page].explainPart;
        if (part.isEmpty()) continue;
        SCOPED_TRACE("page " + std::to_string(page + 1) + ": " + part.toStdString());
        window.lessonPlayer()->goTo(page);
        ASSERT_TRUE(window.waitUntilIdle());
        for (int k = 0; k < 3; ++k) QApplication::processEvents();
        auto* area = window.stepPanel()->scrollArea();
        auto* widget = window.stepPanel()->partWidget(part);
        ASSERT_NE(widget, nullptr);
        const int top = widget->mapTo(area->viewport(), QPoint(0, 0)).y();
        const bool atEnd = area->verticalScrollBar()->value() == area->verticalScrollBar()->maximum();
        EXPECT_GE(top, 0) << "the part's start is in view";
        EXPECT_TRUE(top <= 20 || atEnd) << "the part is at the top (" << top << " px down)";
    }
    EXPECT_NE(lesson.pages[2].explainPart, QString()) << "the softmax page names its part";
}

// In the window a long page scrolls a screenful before the page turns (a clicker's keys); on the
// stage, where a page's text fits its band, Page Down turns it at once.
TEST(Lessons, PageDownScrollsALongPageBeforeTurningIt) {
    tests::TempDir dir;
    tests::tinyModel().save(dir.path("tiny.pt"));
    QString text;
    for (int k = 0; k < 60; ++k) text += QStringLiteral("A sentence of the lesson, long enough to fill the panel. ");
    std::ofstream(dir.path("lesson.json")) << R"({"title": "x", "pages": [{"text": ")" << text.toStdString()
                                           << R"(", "source": "the car"}, {"text": "b", "source": "the car"}]})";
    ui::DecodingDocument document;
    document.openModel(QString::fromStdString(dir.path("tiny.pt")));
    ASSERT_TRUE(document.waitUntilIdle());
    ui::MainWindow window(&document);
    window.resize(1024, 768);
    window.show();
    window.startLesson(QString::fromStdString(dir.path("lesson.json")));
    ASSERT_TRUE(window.waitUntilIdle());
    QApplication::processEvents();
    auto* bar = window.lessonPanel()->textArea()->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0) << "the text is longer than the panel";
    QTest::keyClick(&window, Qt::Key_PageDown);
    EXPECT_EQ(window.lessonPlayer()->page(), 0);
    EXPECT_GT(bar->value(), 0);
    for (int k = 0; k < 50 && window.lessonPlayer()->page() == 0; ++k) QTest::keyClick(&window, Qt::Key_PageDown);
    EXPECT_EQ(window.lessonPlayer()->page(), 1) << "at the end of the text the page turns";
    EXPECT_EQ(bar->value(), 0);
    window.lessonPlayer()->goTo(0);
    window.setPresenterMode(true, false);
    ASSERT_TRUE(window.waitUntilIdle());
    QApplication::processEvents();
    QTest::keyClick(&window, Qt::Key_PageDown);
    EXPECT_EQ(window.lessonPlayer()->page(), 1) << "on the stage one Page Down turns the page";
    window.setPresenterMode(false);
}

// The bundled sub-word model: pieces, a vocabulary larger than the candidates' top 10.
class GuiSubword : public ::testing::Test {
protected:
    void SetUp() override {
        window = std::make_unique<ui::MainWindow>(&document);
        window->resize(1200, 800);
        window->show();
        document.openModel(QString::fromStdString(core::Runtime::defaultModelPath()));
        ASSERT_TRUE(document.waitUntilIdle());
    }
    ui::DecodingDocument document;
    std::unique_ptr<ui::MainWindow> window;
};

TEST_F(GuiSubword, BeamHypothesesAreTextThatFitsTheListAndStaysDistinct) {
    window->setSourceText(QStringLiteral("All you have to do is to wait for her reply."));
    ASSERT_TRUE(document.waitUntilIdle());
    window->setBeamWidth(5);
    window->action("beam-search")->trigger();
    ASSERT_TRUE(document.waitUntilIdle());
    const auto s = document.state();
    ASSERT_GE(s->beam.size(), 2u);
    auto* list = window->beamList();
    ASSERT_EQ(list->count(), static_cast<int>(s->beam.size()));
    EXPECT_EQ(list->horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
    const auto model = core::Model::load(core::Runtime::defaultModelPath());
    QStringList shownTexts;
    for (int k = 0; k < list->count(); ++k) {
        const QString text = QString::fromStdString(model.detokenize(s->beam[static_cast<size_t>(k)].ids));
        const QString item = list->item(k)->text();
        EXPECT_EQ(list->item(k)->toolTip(), text) << "the full text as a tooltip";
        EXPECT_EQ(item.indexOf(QChar(0x2581)), -1) << "no piece marks: " << item.toStdString();
        // Shortened to the list's width by BeamPanel, keeping where it differs from the best.
        EXPECT_LE(list->fontMetrics().horizontalAdvance(item), list->viewport()->width()) << item.toStdString();
        shownTexts << item.section(QStringLiteral("  "), 1);
    }
    for (int a = 0; a < shownTexts.size(); ++a)
        for (int b = a + 1; b < shownTexts.size(); ++b) EXPECT_NE(shownTexts[a], shownTexts[b]) << "hypotheses " << a << " and " << b;
}

TEST_F(GuiSubword, AForcedTokenOutsideTheTopTenIsListedAndMarked) {
    window->setSourceText(QStringLiteral("The red car."));
    ASSERT_TRUE(document.waitUntilIdle());
    window->setTargetText(QStringLiteral("Zzyzx"));
    ASSERT_TRUE(document.waitUntilIdle());
    window->action("reset")->trigger();
    ASSERT_TRUE(document.waitUntilIdle());
    window->action("step")->trigger();
    ASSERT_TRUE(document.waitUntilIdle());
    const auto* step = document.state()->currentStep();
    ASSERT_NE(step, nullptr);
    ASSERT_TRUE(std::none_of(step->candidates.begin(), step->candidates.end(), [&](const auto& c) { return c.id == step->tokenId; }))
        << "the forced piece is outside the top " << step->candidates.size();
    const auto& shown = window->candidatesView()->candidates();
    ASSERT_EQ(shown.size(), step->candidates.size() + 1);
    EXPECT_EQ(shown.back().id, step->tokenId);
    EXPECT_FLOAT_EQ(shown.back().probability, static_cast<float>(std::exp(step->logProb)));
    EXPECT_TRUE(window->candidatesView()->lastOutsideTop());
}

TEST_F(GuiSubword, ExportsSayWhatTheyHold) {
    window->setSourceText(QStringLiteral("The red car is very fast."));
    ASSERT_TRUE(document.waitUntilIdle());
    window->action("run")->trigger();
    ASSERT_TRUE(document.waitUntilIdle());
    // The token line never breaks inside a token ("</s>" once broke after its slash).
    QTextDocument line;
    line.setHtml(window->tokensLabel()->text());
    const QString plain = line.toPlainText();
    const int end = static_cast<int>(plain.indexOf(QStringLiteral("</")));
    ASSERT_GE(end, 0) << plain.toStdString();
    QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, plain);
    for (int at = end + 1; at < plain.indexOf(QLatin1Char('>'), end); ++at) {
        breaks.setPosition(at);
        EXPECT_FALSE(breaks.isAtBoundary()) << "a line may break at " << at << " in " << plain.toStdString();
    }
    // An animation defaults to a screen's 96 dpi and is named for what it animates.
    QSettings().remove(QStringLiteral("export"));
    ui::ExportDialog dialog(document.state(), {}, window.get());
    dialog.setFormat(ui::FigureExporter::Format::Png);
    EXPECT_EQ(dialog.dpi(), ui::ExportDialog::kFigureDpi);
    dialog.setFormat(ui::FigureExporter::Format::Gif);
    EXPECT_EQ(dialog.dpi(), 96);
    EXPECT_NE(dialog.formatText(ui::FigureExporter::Format::Gif).indexOf(QStringLiteral("steps")), -1);
    tests::TempDir run;
    tests::trainReversalRun(run, 10, 2);
    dialog.setTimeline(core::TrainingTimeline::open(run.root()), "");
    dialog.setAnimateSnapshots(true);
    EXPECT_NE(dialog.formatText(ui::FigureExporter::Format::Gif).indexOf(QStringLiteral("snapshots")), -1);
    EXPECT_NE(dialog.formatText(ui::FigureExporter::Format::Frames).indexOf(QStringLiteral("snapshot01")), -1);
    // A web page may carry the open model (a live page): offered for the web page only, and what is
    // missing for it is said in the dialog (here the Python package; tests/web/test_live_page.py
    // checks the page itself).
    ui::ExportDialog webDialog(document.state(), {}, window.get());
    auto* live = webDialog.findChild<QCheckBox*>(QStringLiteral("exportLive"));
    ASSERT_NE(live, nullptr);
    EXPECT_TRUE(live->isHidden());
    webDialog.setLiveModel(QString::fromStdString(core::Runtime::defaultModelPath()));
    webDialog.setFormat(ui::FigureExporter::Format::Png);
    EXPECT_FALSE(live->isHidden());
    EXPECT_FALSE(live->isEnabled());
    webDialog.setFormat(ui::FigureExporter::Format::Html);
    EXPECT_TRUE(live->isEnabled());
    live->setChecked(true);
    tests::TempDir web;
    webDialog.setPath(QString::fromStdString(web.path("page.html")));
    qputenv("ALIGNSCOPE_PYTHON_PACKAGE", QByteArray::fromStdString(web.path("no-package")));
    const QString said = webDialog.exportNow();
    qunsetenv("ALIGNSCOPE_PYTHON_PACKAGE");
    EXPECT_NE(said.indexOf(QStringLiteral("alignscope Python package")), -1) << said.toStdString();
    EXPECT_NE(said.indexOf(QStringLiteral("no-package")), -1) << said.toStdString();
    // Through the Export button the live page is made off the GUI thread (it takes 20-50 s): the
    // dialog says it is busy, its buttons and fields wait, Cancel is refused, the event loop runs
    // (a timer fires meanwhile) and the exporter's answer is shown when it comes. An interpreter
    // that starts a second late and a runtime folder that is not there make it slow and refused.
    const std::string slowPython = web.path("slow-python");
    {
        std::ofstream script(slowPython);
        script << "#!/bin/sh\nsleep 1\nexec /usr/bin/python3 \"$@\"\n";
    }
    std::filesystem::permissions(slowPython, std::filesystem::perms::owner_all);
    qputenv("ALIGNSCOPE_PYTHON", QByteArray::fromStdString(slowPython));
    qputenv("ALIGNSCOPE_ORT_WEB", QByteArray::fromStdString(web.path("no-runtime")));
    webDialog.show();
    QString result = QStringLiteral("(none)");
    QEventLoop loop;
    QObject::connect(&webDialog, &ui::ExportDialog::exportFinished, &loop, [&](const QString& m) {
        result = m;
        loop.quit();
    });
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, &loop, [&] { ++ticks; });
    ticker.start(20);
    auto* exportButton = webDialog.findChild<QPushButton*>(QStringLiteral("exportButton"));
    ASSERT_NE(exportButton, nullptr);
    exportButton->click();
    EXPECT_TRUE(webDialog.exporting());
    EXPECT_FALSE(exportButton->isEnabled());
    EXPECT_FALSE(live->isEnabled());
    EXPECT_TRUE(webDialog.findChild<QProgressBar*>(QStringLiteral("exportBusy"))->isVisible());
    webDialog.reject();
    EXPECT_TRUE(webDialog.isVisible()) << "Cancel is refused while the live page is made";
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    ticker.stop();
    qunsetenv("ALIGNSCOPE_PYTHON");
    qunsetenv("ALIGNSCOPE_ORT_WEB");
    EXPECT_GE(ticks, 25) << "the event loop stood still while the live page was made";
    EXPECT_FALSE(webDialog.exporting());
    EXPECT_NE(result.indexOf(QStringLiteral("ONNX Runtime Web")), -1) << result.toStdString();
    EXPECT_NE(result.indexOf(QStringLiteral("no-runtime")), -1) << result.toStdString();
    EXPECT_EQ(webDialog.findChild<QLabel*>(QStringLiteral("exportError"))->text(), result);
    EXPECT_TRUE(exportButton->isEnabled() && live->isEnabled());
    EXPECT_FALSE(webDialog.findChild<QProgressBar*>(QStringLiteral("exportBusy"))->isVisible());
    EXPECT_TRUE(webDialog.isVisible()) << "a refused export leaves the dialog open, its message shown";
    EXPECT_TRUE(std::filesystem::is_regular_file(web.path("page.html"))) << "the page itself is written first";
    webDialog.hide();
    // CSV from View > Words: the word matrix, as the screen shows it.
    window->action("words")->trigger();
    ui::FigureOptions words;
    words.mergeWords = true;
    tests::TempDir out;
    ui::FigureExporter::Settings csv;
    csv.format = ui::FigureExporter::Format::Csv;
    ui::FigureExporter().write(*document.state(), words, csv, QString::fromStdString(out.path("words.csv")));
    std::ifstream file(out.path("words.csv"));
    std::string header;
    while (std::getline(file, header) && header.rfind('#', 0) == 0) {
    }
    const auto& fig = window->alignmentView()->figure();
    ASSERT_TRUE(fig.showsWords());
    QStringList want{QStringLiteral("target\\source")};
    for (const auto& c : fig.columnLabels()) want << c;
    EXPECT_EQ(QString::fromStdString(header), want.join(',')) << "the columns are the words on screen";
    std::vector<std::string> body;
    for (std::string row; std::getline(file, row);) body.push_back(row);
    EXPECT_EQ(body.size(), fig.rowLabels().size());
}

int main(int argc, char** argv) {
    // Offscreen, except where a real X server is asked for (tests/gui/real_screen.sh: RealScreen.*).
    if (qgetenv("QT_QPA_PLATFORM") != "xcb") qputenv("QT_QPA_PLATFORM", "offscreen");
    // QSettings go to a scratch place of this process's own: ctest runs tests in parallel
    // processes, and one test's recent-models list must not show another's.
    QTemporaryDir settingsHome;
    qputenv("XDG_CONFIG_HOME", settingsHome.path().toUtf8());
    QApplication app(argc, argv);
    // One BLAS thread fixed, so every thread computes the same bits (the app chooses 1 or 2 by timing,
    // core/runtime/BlasThreadChooser.h, which may differ in the last bits; `alignscope --threads 1` fixes it too).
    core::Runtime::setThreads(1);
    ::testing::InitGoogleTest(&argc, argv);
    const int result = RUN_ALL_TESTS();
    // DocumentWatch leaves threads inside looping model code: end without static destructors, as the app does.
    if (ui::DecodingDocument::hasAbandonedWork()) std::_Exit(result);
    return result;
}

// Issue 46: two hypotheses that differ in the middle ("européenne"/"européen") looked the same
// when elided in the middle; too narrow a panel now drops the words all hypotheses share.
TEST(BeamPanel, HypothesesThatDifferInTheMiddleStayDifferentWhenShortened) {
    const std::vector<std::string> texts = {"L'accord sur la coopération européenne a été signé en août 1992.",
                                            "L'accord sur la coopération européen a été signé en août 1992.",
                                            "L'accord sur la coopération européenne fut signé en août 1992."};
    const QFontMetrics metrics(QApplication::font());
    const int narrow = metrics.horizontalAdvance(QStringLiteral("x")) * 30;
    const auto first = ui::BeamPanel::shownText(texts, 0, metrics, narrow), second = ui::BeamPanel::shownText(texts, 1, metrics, narrow);
    EXPECT_NE(first, second);
    EXPECT_TRUE(first.contains(QStringLiteral("européenne"))) << first.toStdString();
    EXPECT_TRUE(second.contains(QStringLiteral("européen "))) << second.toStdString();
    EXPECT_TRUE(first.startsWith(QChar(0x2026))) << "the shared start is what goes: " << first.toStdString();
    EXPECT_LE(metrics.horizontalAdvance(first), narrow);
    const int wide = metrics.horizontalAdvance(QString::fromStdString(texts[0])) + 10;
    EXPECT_EQ(ui::BeamPanel::shownText(texts, 0, metrics, wide), QString::fromStdString(texts[0])) << "whole where it fits";
}
