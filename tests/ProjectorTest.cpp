// A class on a projector: the sizes classrooms have (1024×768, 1280×720), in presenter mode and
// not, the main window, a long sentence and every page of every shipped lesson. The heatmap gets
// the room, every heatmap shows its axes, labels and colour scale inside its panel with no scroll
// offset, and no text is clipped, measured from the widgets' geometry and font metrics (the
// screenshots show the same: `alignscope --lesson L --page K --presenter --screenshot x.png
// --size 1024x768`).
#include "TinyModel.h"

#include "ui/AlignmentComparisonFigure.h"
#include "ui/AlignmentView.h"
#include "ui/CellScrollArea.h"
#include "ui/ComparePanel.h"
#include "ui/DecodingDocument.h"
#include "ui/Lesson.h"
#include "ui/LessonPanel.h"
#include "ui/LessonPlayer.h"
#include "ui/MainWindow.h"
#include "ui/StepExplainedPanel.h"
#include "ui/TimelinePanel.h"

#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>

#include <cmath>
#include <csignal>

using namespace alignscope;

// Test names and messages read "1024x768", not the bytes of a QSize.
void PrintTo(const QSize& size, std::ostream* out) { *out << size.width() << 'x' << size.height(); }

struct Screen {
    QSize size;
    bool presenter;
};
void PrintTo(const Screen& screen, std::ostream* out) {
    PrintTo(screen.size, out);
    *out << (screen.presenter ? " presenter" : " window");
}

namespace {

// How far a text drawn at `degrees` reaches across an axis (perpendicular) and along it.
QSizeF rotatedExtent(const QSize& text, double degrees) {
    const double r = std::abs(degrees) * M_PI / 180.0;
    return {text.width() * std::cos(r) + text.height() * std::sin(r), text.width() * std::sin(r) + text.height() * std::cos(r)};
}

// Every axis title and tick label of a chart that does not fit where QCustomPlot draws it: a tick
// label wider than the margin beside its axis, an axis title longer than its axis, or an axis
// rect reaching past the widget.
QStringList clippedTexts(const QCustomPlot* plot, const QString& name) {
    QStringList out;
    if (!plot || !plot->isVisible()) return out;
    const QRect widget = plot->rect();
    for (auto* element : plot->plotLayout()->elements(true)) {  // nested grids too (a colour scale's)
        if (!element) continue;
        QList<QCPAxis*> axes;
        QRect inner = element->rect(), outer = element->outerRect();
        if (auto* rect = qobject_cast<QCPAxisRect*>(element)) axes = rect->axes();
        else if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
            axes = {scale->axis()};
            inner = scale->axis()->axisRect()->rect();
        }
        if (axes.isEmpty()) continue;
        if (!widget.contains(outer.adjusted(1, 1, -1, -1)))
            out << QStringLiteral("%1: a chart reaches past the widget (%2,%3 %4x%5 in %6x%7)")
                       .arg(name)
                       .arg(outer.x())
                       .arg(outer.y())
                       .arg(outer.width())
                       .arg(outer.height())
                       .arg(widget.width())
                       .arg(widget.height());
        for (auto* axis : axes) {
            if (!axis->visible()) continue;
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            const int along = horizontal ? inner.width() : inner.height();
            const int margin = axis->axisType() == QCPAxis::atBottom ? outer.bottom() - inner.bottom()
                               : axis->axisType() == QCPAxis::atTop  ? inner.top() - outer.top()
                               : axis->axisType() == QCPAxis::atLeft ? inner.left() - outer.left()
                                                                     : outer.right() - inner.right();
            const QFontMetrics labelMetrics(axis->labelFont());
            int across = axis->tickLengthOut() + axis->tickLabelPadding();
            if (axis->tickLabels()) {
                const QFontMetrics tickMetrics(axis->tickLabelFont());
                double widest = 0;
                for (const auto& text : axis->tickVectorLabels()) {
                    if (text.isEmpty()) continue;
                    const QSizeF extent = rotatedExtent(tickMetrics.boundingRect(text).size(), axis->tickLabelRotation());
                    widest = std::max(widest, horizontal ? extent.height() : extent.width());
                }
                across += static_cast<int>(std::ceil(widest));
            }
            if (!axis->label().isEmpty()) {
                int longest = 0;
                for (const auto& line : axis->label().split('\n')) longest = std::max(longest, labelMetrics.horizontalAdvance(line));
                // A title centred on its axis and longer than it runs past both ends.
                if (longest > along + 4 && !(horizontal && longest <= widget.width()))
                    out << QStringLiteral("%1: axis title '%2' is %3 px on an axis of %4 px")
                               .arg(name, axis->label())
                               .arg(longest)
                               .arg(along);
                across += axis->labelPadding() + labelMetrics.height() * static_cast<int>(axis->label().count('\n') + 1);
            }
            if (across > margin + 2)
                out << QStringLiteral("%1: the %2 axis's labels need %3 px beside it, have %4")
                           .arg(name, horizontal ? QStringLiteral("x") : QStringLiteral("y"))
                           .arg(across)
                           .arg(margin);
        }
    }
    return out;
}

// A label whose wrapped text is taller than the label (the rest is cut off) or wider than what
// shows it.
bool labelClipped(const QLabel* label) {
    if (!label || !label->isVisible() || label->text().isEmpty()) return false;
    const bool wraps = label->wordWrap();
    if (wraps && label->hasHeightForWidth() && label->heightForWidth(label->width()) > label->height() + 1) return true;
    return !wraps && label->sizeHint().width() > label->width() + 1;
}

// A heatmap's panel as a teacher sees it: the chart fills the panel with no scroll offset, and its
// axes, axis titles, tick labels and colour scales with their titles lie inside it.
QStringList heatmapOutOfView(const ui::CellScrollArea* area, const QString& name) {
    QStringList out;
    if (!area || !area->isVisible()) return out;
    const QCustomPlot* plot = area->plot();
    if (plot->geometry() != area->viewport()->rect())
        out << QStringLiteral("%1: the chart is not its panel's size at no offset (%2,%3 %4x%5 in %6x%7)")
                   .arg(name)
                   .arg(plot->x())
                   .arg(plot->y())
                   .arg(plot->width())
                   .arg(plot->height())
                   .arg(area->viewport()->width())
                   .arg(area->viewport()->height());
    return out + clippedTexts(plot, name);
}

// The whole matrix in view up to 40 x 40 tokens on the stage, in cells of at least 12 px (8 in
// the window's panel): a heatmap scrolls only where smaller cells would be needed, and the rows
// a page names are in view.
void expectWholeMatrix(const ui::MainWindow* window, bool presenter) {
    const auto* view = window->alignmentView();
    if (!view->isVisible()) return;
    const auto& figure = view->figure();
    const int rows = static_cast<int>(figure.displayedWeights().size());
    const int columns = static_cast<int>(figure.columnLabels().size());
    if (rows == 0 || columns == 0) return;
    const QRect area = figure.heatmapArea();
    const int smallest = presenter ? 12 : 8;
    const QSize cells = figure.cells();
    if (view->fitting().height() < cells.height())
        EXPECT_LT(area.height(), cells.height() * (smallest + 1)) << "rows scroll where " << smallest << " px cells would fit them all";
    if (view->fitting().width() < cells.width())
        EXPECT_LT(area.width(), cells.width() * (smallest + 1)) << "columns scroll where " << smallest << " px cells would fit them all";
    EXPECT_GE(area.height() / std::max(1, view->fitting().height()), smallest) << "rows smaller than " << smallest << " px";
    EXPECT_GE(area.width() / std::max(1, view->fitting().width()), smallest) << "columns smaller than " << smallest << " px";
    if (presenter && rows <= 40 && columns <= 40)
        EXPECT_FALSE(view->scrolls()) << rows << " x " << columns << " tokens on the stage: the whole matrix";
    for (int row : figure.markedRows())
        EXPECT_TRUE(row >= view->first().y() && row < view->first().y() + view->fitting().height())
            << "the page's row " << row + 1 << " is out of view";
}

// The stage: no menu bar, toolbars or input rows; no panel left empty; the page's text whole in
// its caption band.
void expectStage(const ui::MainWindow* window) {
    EXPECT_FALSE(window->menuBar()->isVisible()) << "a menu bar on the stage";
    for (auto* bar : window->toolBars()) EXPECT_FALSE(bar->isVisible()) << bar->windowTitle().toStdString() << " on the stage";
    EXPECT_FALSE(window->sourceEdit()->isVisible()) << "the Source row on the stage";
    EXPECT_FALSE(window->tokensLabel()->isVisible()) << "the Tokens row on the stage";
    EXPECT_FALSE(window->beamDock()->isVisible() && window->beamList()->count() == 0) << "an empty Beam hypotheses list on the stage";
    if (window->lessonDock()->isVisible()) {
        const auto* area = window->lessonPanel()->textArea();
        EXPECT_EQ(area->verticalScrollBar()->maximum(), 0) << "the page's text needs scrolling in its band (split the page)";
    }
}

class Projector : public ::testing::TestWithParam<Screen> {
protected:
    void SetUp() override {
        QSettings().remove(QStringLiteral("window"));  // no geometry of another test's window
        window = std::make_unique<ui::MainWindow>(&document);
        window->show();
        window->resize(size());
        if (GetParam().presenter) window->setPresenterMode(true, /*fillScreen=*/false);  // the projector's size, not the offscreen screen's
        settle();
    }
    QSize size() const { return GetParam().size; }

    void settle() {
        ASSERT_TRUE(window->waitUntilIdle());
        for (int k = 0; k < 3; ++k) QApplication::processEvents();
    }

    // What a teacher needs to see, checked on the window as it is.
    // `everyRow`: a lesson page talks about the rows it decoded, so all of them are in view.
    void expectReadable(const std::string& where, bool everyRow = false) {
        SCOPED_TRACE(where);
        // PROJECTOR_SHOTS=folder: each checked state as a PNG, to look at as a teacher would.
        if (const QString shots = qEnvironmentVariable("PROJECTOR_SHOTS"); !shots.isEmpty()) {
            const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
            const QString name =
                QStringLiteral("%1-%2-%3.png")
                    .arg(QString::fromStdString(info->name()).section('/', 0, 0), QString::fromStdString(info->name()).section('/', 1),
                         QString::fromStdString(where).replace(' ', '_'));
            window->grab().save(QDir(shots).filePath(name));
        }
        const QSize size = window->size();
        ASSERT_EQ(size, this->size()) << "the window keeps the projector's size";
        // The heatmap's plot area: the part of the window the alignment figure is drawn in (in
        // presenter mode a comparison takes its place, and the compare panel gets the room).
        auto* compare = window->comparePanel();
        const bool comparing = window->compareDock()->isVisible();
        const bool inPlace = (GetParam().presenter || window->lessonPlayer()->running()) && comparing;
        EXPECT_NE(window->alignmentView()->isVisible(), inPlace) << "the heatmap, or in presenter mode the comparison in its place";
        if (GetParam().presenter) {
            const QSize heatmap = inPlace ? compare->size() : window->alignmentView()->size();
            EXPECT_GE(heatmap.width(), 0.45 * size.width()) << heatmap.width() << " of " << size.width();
            EXPECT_GE(heatmap.height(), 0.4 * size.height()) << heatmap.height() << " of " << size.height();
        }
        for (const auto& text : heatmapOutOfView(window->alignmentView(), QStringLiteral("heatmap"))) ADD_FAILURE() << text.toStdString();
        expectWholeMatrix(window.get(), GetParam().presenter);
        if (GetParam().presenter) expectStage(window.get());
        // The rows before the encoder states: where not every row fits, the states give way (unless
        // the page names them), and the page's last row, where it stops, is in view.
        if (everyRow && window->alignmentView()->isVisible()) {
            const auto* view = window->alignmentView();
            const int rows = view->figure().cells().height();
            if (view->fitting().height() < rows) {
                EXPECT_TRUE(!view->figure().showsEncoderStates() ||
                            window->lessonPlayer()->lesson().pages[window->lessonPlayer()->page()].highlight ==
                                ui::ViewState::Panel::Encoder)
                    << "the encoder states take the room of " << rows - view->fitting().height() << " of the page's " << rows << " rows";
                EXPECT_GE(view->first().y() + view->fitting().height(), rows) << "the page's last row is out of view";
            }
        }
        if (comparing && compare->comparison()) {
            for (const auto& text : heatmapOutOfView(compare->plotArea(), QStringLiteral("compare"))) ADD_FAILURE() << text.toStdString();
            for (int k = 0; k < compare->figure().heatmapCount(); ++k)
                EXPECT_GE(compare->figure().heatmapRect(k)->height(), compare->height() / 3)
                    << "compare heatmap " << k << " in a panel " << compare->height() << " px high";
        }
        for (int chart = 0; chart < 3; ++chart)
            for (const auto& text : clippedTexts(window->stepPanel()->chart(chart), QStringLiteral("Step explained chart %1").arg(chart)))
                ADD_FAILURE() << text.toStdString();
        for (const auto& text : clippedTexts(window->timelinePanel()->lossPlot(), QStringLiteral("loss curve")))
            ADD_FAILURE() << text.toStdString();
        if (const QCustomPlot* loss = window->timelinePanel()->lossPlot(); loss->isVisible())
            EXPECT_EQ(loss->visibleRegion().boundingRect(), loss->rect()) << "the loss curve, axes and all, is in view without scrolling";
        // The lesson text: whole, inside a panel that scrolls when it is longer than the panel.
        auto* lesson = window->lessonPanel();
        if (window->lessonDock()->isVisible()) {
            EXPECT_GE(window->lessonDock()->width(), 280) << "the lesson column is wide enough to read";
            for (auto* label : lesson->textArea()->widget()->findChildren<QLabel*>()) {
                if (!label->isVisible()) continue;
                EXPECT_FALSE(labelClipped(label)) << "lesson text cut: " << label->text().left(60).toStdString();
                EXPECT_LE(label->geometry().right(), lesson->textArea()->viewport()->width()) << "lesson text wider than its panel";
            }
        }
        EXPECT_FALSE(labelClipped(window->translationLabel()))
            << "translation cut: " << window->translationLabel()->heightForWidth(window->translationLabel()->width()) << " px of text in "
            << window->translationLabel()->height();
    }

    ui::DecodingDocument document;
    std::unique_ptr<ui::MainWindow> window;
};

}  // namespace

TEST_P(Projector, TheMainWindowGivesTheHeatmapTheRoom) {
    document.openModel(QString::fromStdString(core::Runtime::defaultModelPath()));
    window->setSourceText(QStringLiteral("Tom said that he would wait for us in front of the station until eight o'clock."));
    document.runToEnd();
    settle();
    expectReadable("main window");
    // The wrapped rows above the heatmap get the height their lines need (the tokens' second line
    // was cut in half at 1024x768).
    for (const QLabel* row : {window->tokensLabel()})
        if (row->isVisible()) EXPECT_GE(row->height(), row->heightForWidth(row->width())) << "the Tokens row is cut";
}

TEST_P(Projector, EveryLessonPageIsReadable) {
    for (const auto& path : ui::Lesson::shippedLessons()) {
        const auto lesson = ui::Lesson::load(path);
        window->startLesson(path);
        for (int page = 0; page < lesson.pages.size(); ++page) {
            window->lessonPlayer()->goTo(page);
            settle();
            expectReadable(QFileInfo(path).fileName().toStdString() + " page " + std::to_string(page + 1), /*everyRow=*/true);
        }
    }
}

// The compare view on the stage: labels at the stage's size where three whole matrices fit so,
// the same cell in A, B and A - B, and titles (long model names) that do not run into each other.
TEST_P(Projector, AComparisonHasEqualCellsTitlesApartAndTheStagesLabelsWhereTheyFit) {
    const QString models = QFileInfo(QString::fromStdString(core::Runtime::defaultModelPath())).path();
    document.openModel(models + QStringLiteral("/en-fr-subword-bahdanau.pt"));
    window->setSourceText(QStringLiteral("The red car."));
    document.runToEnd();
    window->openComparison(models + QStringLiteral("/en-fr-subword-bahdanau-guided.pt"));
    settle();
    settle();
    expectReadable("a comparison");
    const auto& figure = window->comparePanel()->figure();
    ASSERT_EQ(figure.heatmapCount(), 3);
    for (int k = 1; k < 3; ++k)
        EXPECT_NEAR(figure.heatmapRect(k)->width(), figure.heatmapRect(0)->width(), 2) << "heatmap " << k << "'s cells differ from A's";
    for (int k = 0; k < 3; ++k)
        for (int j = k + 1; j < 3; ++j)
            EXPECT_FALSE(figure.titleRect(k).intersects(figure.titleRect(j))) << "titles " << k << " and " << j << " meet";
    if (GetParam().presenter)
        EXPECT_GT(figure.labelFont().pointSize(), ui::FigureOptions().fontSize)
            << "a 5-token comparison on the stage in the window's labels";
}

// Every page's text whole in the stage's caption band in each language a shipped lesson has
// (German runs about a third longer than English): pages are shared, so a text is written to fit.
TEST_P(Projector, EveryLessonPageFitsTheStageInEveryLanguage) {
    if (!GetParam().presenter) GTEST_SKIP() << "the caption band is presenter mode's";
    // The default locale back as it was however the test ends (a failed ASSERT returns early).
    struct DefaultLocale {
        QLocale before;
        ~DefaultLocale() { QLocale::setDefault(before); }
    } restore;
    for (const QString language : {QStringLiteral("de"), QStringLiteral("fr"), QStringLiteral("ko")}) {
        QLocale::setDefault(QLocale(language));  // the interface's language, as the system locale gives it
        for (const auto& path : ui::Lesson::shippedLessons()) {
            window->startLesson(path);
            ASSERT_EQ(window->lessonPlayer()->lesson().language, language) << path.toStdString();
            for (int page = 0; page < window->lessonPlayer()->lesson().pages.size(); ++page) {
                window->lessonPlayer()->goTo(page);
                settle();
                const std::string where =
                    language.toStdString() + " " + QFileInfo(path).fileName().toStdString() + " page " + std::to_string(page + 1);
                SCOPED_TRACE(where);
                if (const QString shots = qEnvironmentVariable("PROJECTOR_SHOTS"); !shots.isEmpty())
                    window->grab().save(QDir(shots).filePath(QStringLiteral("lang-%1x%2-%3.png")
                                                                 .arg(size().width())
                                                                 .arg(size().height())
                                                                 .arg(QString::fromStdString(where).replace(' ', '_'))));
                expectStage(window.get());
            }
        }
    }
}

// 25 tokens: more than fit at the smallest readable cell on a projector in presenter mode. The
// axes stay where they are while the window of cells moves (wheel and keys).
TEST_P(Projector, ALongSentenceKeepsItsAxesInViewWhileItScrolls) {
    document.openModel(QString::fromStdString(core::Runtime::defaultModelPath()));
    window->setSourceText(
        QStringLiteral("The old man told her that the children of the village had walked all the way to the sea and back before dinner."));
    document.runToEnd();
    settle();
    ASSERT_GE(document.state()->source.tokens.size(), 25u);
    expectReadable("25 tokens");
    auto* view = window->alignmentView();
    if (!view->scrolls()) return;  // all of it fits: nothing to scroll
    const QPoint before = view->first();
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Home);
    QTest::keyClick(view, Qt::Key_Down);
    QTest::keyClick(view, Qt::Key_Right, Qt::ShiftModifier);
    QWheelEvent wheel(QPointF(10, 10), view->plot()->mapToGlobal(QPointF(10, 10)), {}, QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->plot(), &wheel);
    QApplication::processEvents();
    EXPECT_NE(view->first(), before) << "keys and the wheel move the window of cells";
    expectReadable("25 tokens, scrolled");
}

TEST_P(Projector, TheWordsViewsRowsSumAsTheEndColumnSettingSays) {
    document.openModel(QString::fromStdString(core::Runtime::defaultModelPath()));
    window->setSourceText(QStringLiteral("She has forgiven him for everything."));
    document.runToEnd();
    settle();
    if (!window->action("words")->isChecked()) window->action("words")->trigger();
    settle();
    auto* view = window->alignmentView();
    ASSERT_TRUE(view->figure().showsWords());
    EXPECT_EQ(view->figure().columnLabels().back(), QStringLiteral("</s>")) << "the end column kept, and named";
    for (const auto& row : view->figure().displayedWeights()) {
        double sum = 0;
        for (double v : row) sum += v;
        EXPECT_NEAR(sum, 1.0, 1e-4) << "with the </s> column every row sums to one";
    }
    expectReadable("words");
    window->action("words")->trigger();
}

INSTANTIATE_TEST_SUITE_P(Classroom, Projector,
                         ::testing::Values(Screen{QSize(1024, 768), true}, Screen{QSize(1280, 720), true}, Screen{QSize(1024, 768), false},
                                           Screen{QSize(1280, 720), false}),
                         [](const auto& info) {
                             return std::to_string(info.param.size.width()) + "x" + std::to_string(info.param.size.height()) +
                                    (info.param.presenter ? "Presenter" : "Window");
                         });

// Quit in presenter mode on a projector, then start normally on a smaller screen: the window
// opens inside that screen with the normal layout, not presenter mode's column or size.
TEST(ProjectorRestart, QuittingInPresenterModeSavesTheNormalWindow) {
    QSettings().remove(QStringLiteral("window"));
    {
        ui::DecodingDocument document;
        ui::MainWindow window(&document);
        window.show();
        window.resize(1280, 720);
        const QRect before = window.geometry();
        window.setPresenterMode(true, /*fillScreen=*/false);
        window.showStepPanel(true);
        window.highlightPanel(ui::ViewState::Panel::Beam);  // a page that brings a tab forward
        QApplication::processEvents();
        ASSERT_EQ(window.dockWidgetArea(window.lessonDock()), Qt::TopDockWidgetArea) << "presenter mode's caption band";
        window.resize(1600, 1000);  // a projector larger than the screen the next start opens on
        window.close();
        EXPECT_EQ(QSettings().value(QStringLiteral("window/rect")).toRect(), before) << "the window's own rectangle, not presenter mode's";
    }
    ui::DecodingDocument document;
    // The next start: the same rectangle saved as a larger screen's, then fitted to this one.
    QSettings().setValue(QStringLiteral("window/rect"), QRect(0, 0, 1280, 720));
    ui::MainWindow window(&document);
    window.show();
    QApplication::processEvents();
    const QRect room = window.screen()->availableGeometry();
    ASSERT_LT(room.width(), 1280) << "the offscreen screen is the smaller one";
    EXPECT_TRUE(room.contains(window.geometry()))
        << window.geometry().width() << "x" << window.geometry().height() << " in " << room.width() << "x" << room.height();
    EXPECT_LE(window.height() + 40, room.height()) << "a title bar's room left";
    EXPECT_FALSE(window.presenterMode());
    EXPECT_TRUE(window.tabifiedDockWidgets(window.candidatesDock()).isEmpty()) << "no tabbed column";
    EXPECT_TRUE(window.lessonDock()->isHidden()) << "no empty lesson dock";
    EXPECT_TRUE(window.compareDock()->isHidden());
    EXPECT_FALSE(window.beamDock()->isHidden()) << "the beam panel as in the normal layout";
    EXPECT_FALSE(window.candidatesDock()->visibleRegion().isEmpty()) << "the candidates in view, not behind a tab";
}

// The class's projector as it is: a real X server with a window manager (tests/gui/real_screen.sh
// runs this under Xvfb + openbox at 1024x768 and 1280x720; offscreen it skips). A 40-word sentence
// first, then presenter mode from its key, then every shipped lesson from the Lessons menu, paged
// with Page Down only; then quit in presenter mode and start again.
TEST(RealScreen, EveryLessonOnTheStageThenANormalRestart) {
    if (QGuiApplication::platformName() != QLatin1String("xcb")) GTEST_SKIP() << "needs an X server (tests/gui/real_screen.sh)";
    QSettings().remove(QStringLiteral("window"));
    const QRect screen = QGuiApplication::primaryScreen()->geometry();
    const auto settle = [](ui::MainWindow& window) {
        ASSERT_TRUE(window.waitUntilIdle());
        for (int k = 0; k < 5; ++k) {
            QApplication::processEvents();
            QTest::qWait(20);
        }
    };
    {
        ui::DecodingDocument document;
        ui::MainWindow window(&document);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.setSourceText(QStringLiteral(
            "The committee said on Tuesday that the new bridge across the river would open to traffic next spring, two years later "
            "than planned, because the builders had found old foundations that nobody had expected under the water."));
        window.sourceEdit()->setFocus();
        QTest::keyClick(window.sourceEdit(), Qt::Key_Return);
        settle(window);
        QTest::keyClick(window.alignmentView(), Qt::Key_F5);
        settle(window);
        QTest::keyClick(window.alignmentView(), Qt::Key_F11);
        settle(window);
        // the window manager's full screen: a busy one (CI under load) takes its time
        EXPECT_TRUE(QTest::qWaitFor([&] { return window.geometry() == screen; }, 5000));
        settle(window);
        EXPECT_TRUE(window.presenterMode());
        EXPECT_EQ(window.geometry(), screen) << "the stage takes the whole screen";
        EXPECT_TRUE(window.isFullScreen()) << "full screen, not a normal window of the screen's size";
        {
            SCOPED_TRACE("the 40-word sentence");
            expectWholeMatrix(&window, true);
            expectStage(&window);
            const auto* view = window.alignmentView();
            const int rows = static_cast<int>(view->figure().displayedWeights().size());
            EXPECT_GE(view->first().y() + view->fitting().height(), rows) << "the newest row is in view";
        }
        QMenu* lessons = nullptr;
        for (auto* menu : window.menuBar()->findChildren<QMenu*>())
            if (menu->title().remove(QLatin1Char('&')) == QLatin1String("Lessons")) lessons = menu;
        ASSERT_NE(lessons, nullptr);
        const auto shipped = ui::Lesson::shippedLessons();
        for (int k = 0; k < static_cast<int>(shipped.size()); ++k) {
            const auto& path = shipped[k];
            const auto lesson = ui::Lesson::load(path);
            lessons->actions().at(k)->trigger();  // the menu's entries, in the shipped lessons' order (LessonsMenu)
            for (int page = 0; page < lesson.pages.size(); ++page) {
                settle(window);
                const std::string where = QFileInfo(path).fileName().toStdString() + " page " + std::to_string(page + 1);
                SCOPED_TRACE(where);
                ASSERT_EQ(window.lessonPlayer()->page(), page) << "Page Down turns the page";
                EXPECT_EQ(window.geometry(), screen);
                expectWholeMatrix(&window, true);
                expectStage(&window);
                // The panel the page names is on the stage at a usable size.
                const auto named = lesson.pages[page].highlight;
                QWidget* panel = named == ui::ViewState::Panel::Candidates ? static_cast<QWidget*>(window.candidatesDock())
                                 : named == ui::ViewState::Panel::Beam     ? static_cast<QWidget*>(window.beamDock())
                                 : named == ui::ViewState::Panel::Explain  ? static_cast<QWidget*>(window.stepDock())
                                                                           : nullptr;
                if (panel) {
                    EXPECT_TRUE(panel->isVisible() && !panel->visibleRegion().isEmpty()) << "the page's panel is not on the stage";
                    EXPECT_GE(panel->width(), 250);
                    EXPECT_GE(panel->height(), 150);
                }
                if (named == ui::ViewState::Panel::Encoder && window.alignmentView()->isVisible())
                    EXPECT_TRUE(window.alignmentView()->figure().showsEncoderStates()) << "the page names the encoder states";
                if (const QString shots = qEnvironmentVariable("PROJECTOR_SHOTS"); !shots.isEmpty())
                    window.grab().save(QDir(shots).filePath(QStringLiteral("real-%1x%2-%3.png")
                                                                .arg(screen.width())
                                                                .arg(screen.height())
                                                                .arg(QString::fromStdString(where).replace(' ', '_'))));
                QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window, Qt::Key_PageDown);
            }
            window.lessonPlayer()->stop();
            settle(window);
        }
        window.close();
    }
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(200);
    EXPECT_FALSE(window.presenterMode());
    EXPECT_TRUE(window.menuBar()->isVisible());
    const QRect frame = window.frameGeometry();
    EXPECT_TRUE(screen.contains(frame)) << "the next start is a normal window inside the screen: " << frame.x() << "," << frame.y() << " "
                                        << frame.width() << "x" << frame.height() << " (saved "
                                        << QSettings().value(QStringLiteral("window/rect")).toRect().height() << " high)";
}

// A busy window manager (a projector's laptop under load, CI): F11 while it does not answer for a
// second. The stage used to set the screen's size at once, which reached the window manager before
// the full-screen request and cancelled it: a normal window of the screen's size, its bottom rows
// under the screen's edge. tests/gui/real_screen.sh gives the window manager's process id.
TEST(RealScreen, TheStageIsFullScreenWhenTheWindowManagerAnswersLate) {
    if (QGuiApplication::platformName() != QLatin1String("xcb")) GTEST_SKIP() << "needs an X server (tests/gui/real_screen.sh)";
    const int wm = qEnvironmentVariableIntValue("ALIGNSCOPE_TEST_WM_PID");
    if (wm <= 0) GTEST_SKIP() << "needs the window manager's process id (tests/gui/real_screen.sh)";
    QSettings().remove(QStringLiteral("window"));
    const QRect screen = QGuiApplication::primaryScreen()->geometry();
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    ASSERT_EQ(::kill(wm, SIGSTOP), 0);
    QTest::keyClick(&window, Qt::Key_F11);
    QTest::qWait(1000);
    ASSERT_EQ(::kill(wm, SIGCONT), 0);
    EXPECT_TRUE(QTest::qWaitFor([&] { return window.geometry() == screen && window.isFullScreen(); }, 5000))
        << window.geometry().x() << "," << window.geometry().y() << " " << window.geometry().width() << "x" << window.geometry().height()
        << (window.isFullScreen() ? " full screen" : " not full screen");
    EXPECT_TRUE(window.presenterMode());
    QTest::keyClick(&window, Qt::Key_Escape);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !window.isFullScreen(); }, 5000)) << "Esc leaves the stage";
    EXPECT_TRUE(screen.contains(window.frameGeometry())) << "a normal window inside the screen again";
}
