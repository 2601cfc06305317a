// A class on a projector: presenter mode at the sizes classrooms have (1024×768, 1280×720), the
// main window and every page of every shipped lesson. The heatmap gets the room and no text is
// clipped, measured from the widgets' geometry and font metrics (the screenshots show the same:
// `alignscope --lesson L --page K --presenter --screenshot x.png --size 1024x768`).
#include "TinyModel.h"

#include "ui/AlignmentView.h"
#include "ui/DecodingDocument.h"
#include "ui/Lesson.h"
#include "ui/LessonPanel.h"
#include "ui/LessonPlayer.h"
#include "ui/MainWindow.h"
#include "ui/StepExplainedPanel.h"
#include "ui/TimelinePanel.h"

#include "core/Runtime.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>

#include <cmath>

using namespace alignscope;

// Test names and messages read "1024x768", not the bytes of a QSize.
void PrintTo(const QSize& size, std::ostream* out) { *out << size.width() << 'x' << size.height(); }

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
    for (int k = 0; k < plot->plotLayout()->elementCount(); ++k) {
        auto* element = plot->plotLayout()->elementAt(k);
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
                       .arg(name).arg(outer.x()).arg(outer.y()).arg(outer.width()).arg(outer.height()).arg(widget.width()).arg(widget.height());
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
                    out << QStringLiteral("%1: axis title '%2' is %3 px on an axis of %4 px").arg(name, axis->label()).arg(longest).arg(along);
                across += axis->labelPadding() + labelMetrics.height() * static_cast<int>(axis->label().count('\n') + 1);
            }
            if (across > margin + 2)
                out << QStringLiteral("%1: the %2 axis's labels need %3 px beside it, have %4")
                           .arg(name, horizontal ? QStringLiteral("x") : QStringLiteral("y")).arg(across).arg(margin);
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

class Projector : public ::testing::TestWithParam<QSize> {
protected:
    void SetUp() override {
        QSettings().remove(QStringLiteral("window"));  // no geometry of another test's window
        window = std::make_unique<ui::MainWindow>(&document);
        window->show();
        window->resize(GetParam());
        window->setPresenterMode(true, /*fillScreen=*/false);  // the projector's size, not the offscreen screen's
        settle();
    }

    void settle() {
        ASSERT_TRUE(window->waitUntilIdle());
        for (int k = 0; k < 3; ++k) QApplication::processEvents();
    }

    // What a teacher needs to see, checked on the window as it is.
    void expectReadable(const std::string& where) {
        SCOPED_TRACE(where);
        const QSize size = window->size();
        ASSERT_EQ(size, GetParam()) << "presenter mode keeps the projector's size";
        // The heatmap's plot area: the part of the window the alignment figure is drawn in.
        const QSize heatmap = window->alignmentView()->viewport()->size();
        EXPECT_GE(heatmap.width(), 0.45 * size.width()) << heatmap.width() << " of " << size.width();
        EXPECT_GE(heatmap.height(), 0.45 * size.height()) << heatmap.height() << " of " << size.height();
        for (const auto& text : clippedTexts(window->alignmentView()->plot(), QStringLiteral("heatmap"))) ADD_FAILURE() << text.toStdString();
        for (int chart = 0; chart < 3; ++chart)
            for (const auto& text : clippedTexts(window->stepPanel()->chart(chart), QStringLiteral("Step explained chart %1").arg(chart)))
                ADD_FAILURE() << text.toStdString();
        for (const auto& text : clippedTexts(window->timelinePanel()->lossPlot(), QStringLiteral("loss curve"))) ADD_FAILURE() << text.toStdString();
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
        EXPECT_FALSE(labelClipped(window->translationLabel())) << "translation cut";
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
}

TEST_P(Projector, EveryLessonPageIsReadable) {
    for (const auto& path : ui::Lesson::shippedLessons()) {
        const auto lesson = ui::Lesson::load(path);
        window->startLesson(path);
        for (int page = 0; page < lesson.pages.size(); ++page) {
            window->lessonPlayer()->goTo(page);
            settle();
            expectReadable(QFileInfo(path).fileName().toStdString() + " page " + std::to_string(page + 1));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Classroom, Projector, ::testing::Values(QSize(1024, 768), QSize(1280, 720)),
                         [](const auto& info) { return std::to_string(info.param.width()) + "x" + std::to_string(info.param.height()); });
