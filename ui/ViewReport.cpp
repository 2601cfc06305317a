#include "ui/ViewReport.h"

#include "ui/AlignmentComparisonFigure.h"
#include "ui/AlignmentView.h"
#include "ui/ComparePanel.h"
#include "ui/LessonPanel.h"
#include "ui/MainWindow.h"
#include "ui/UiLanguage.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolBar>

#include <algorithm>

namespace alignscope::ui {
namespace {

using json = nlohmann::json;

// A widget's rectangle in the window, where any of it is on screen.
bool onScreen(const QWidget* widget) { return widget && widget->isVisible() && !widget->visibleRegion().isEmpty(); }

json panel(const QString& name, const QWidget* widget, const QWidget* window) {
    const QPoint at = widget->mapTo(window, QPoint(0, 0));
    return {{"name", name.toStdString()}, {"x", at.x()}, {"y", at.y()}, {"width", widget->width()}, {"height", widget->height()}};
}

// How many of `count` cells from `first` a window of `fitting` shows.
int inView(int first, int fitting, int count) { return std::clamp(std::min(count, first + fitting) - std::max(0, first), 0, count); }

// `area`: the heatmap's cells in pixels, showing `shown` (columns, rows) cells.
json heatmap(const std::string& name, int rows, int columns, int rowsInView, int columnsInView, const QRect& area, QSize shown) {
    const double width = shown.width() > 0 ? static_cast<double>(area.width()) / shown.width() : 0;
    const double height = shown.height() > 0 ? static_cast<double>(area.height()) / shown.height() : 0;
    return {{"name", name},
            {"rows", rows},
            {"columns", columns},
            {"rows_in_view", rowsInView},
            {"columns_in_view", columnsInView},
            {"cell_px", {std::round(width * 10) / 10, std::round(height * 10) / 10}}};
}

}  // namespace

json ViewReport::of(const MainWindow& window) {
    json heatmaps = json::array(), panels = json::array();
    const AlignmentView* view = window.alignmentView();
    if (onScreen(view)) {
        const auto& figure = view->figure();
        const int rows = static_cast<int>(figure.displayedWeights().size());
        const int columns = static_cast<int>(figure.columnLabels().size());
        const int rowsShown = inView(view->first().y(), view->fitting().height(), rows);
        const int columnsShown = inView(view->first().x(), view->fitting().width(), columns);
        json attention = heatmap(figure.showsAttribution() ? "attribution" : "attention", rows, columns, rowsShown, columnsShown,
                                 figure.heatmapArea(), view->fitting());
        // The rows and columns the page names (1-based), and how many of them are in view.
        json marked = json::array(), markedColumns = json::array();
        int markedInView = 0;
        for (int r : figure.markedRows()) {
            marked.push_back(r + 1);
            markedInView += r >= view->first().y() && r < view->first().y() + view->fitting().height();
        }
        for (int c : figure.markedColumns()) markedColumns.push_back(c + 1);
        attention["marked_rows"] = marked;
        attention["marked_rows_in_view"] = markedInView;
        attention["marked_columns"] = markedColumns;
        heatmaps.push_back(attention);
        if (figure.showsEncoderStates())
            heatmaps.push_back(heatmap("encoder states", figure.encoderRows(), columns, figure.encoderRows(), columnsShown,
                                       figure.encoderArea(), {view->fitting().width(), figure.encoderRows()}));
        panels.push_back(panel(QStringLiteral("heatmap"), view, &window));
    }
    const ComparePanel* compare = window.comparePanel();
    if (window.compareDock()->isVisible() && compare->comparison() && onScreen(compare->plotArea())) {
        const auto& figure = compare->figure();
        const auto* area = compare->plotArea();
        const QSize cells = figure.cells();
        const char* names[] = {"compare A", "compare B", "compare A - B"};
        for (int k = 0; k < figure.heatmapCount() && k < 3; ++k)
            heatmaps.push_back(
                heatmap(names[k], cells.height(), cells.width(), inView(area->first().y(), area->fitting().height(), cells.height()),
                        inView(area->first().x(), area->fitting().width(), cells.width()), figure.heatmapRect(k)->rect(), area->fitting()));
    }
    if (onScreen(window.menuWidget())) panels.push_back(panel(QStringLiteral("menu bar"), window.menuWidget(), &window));
    for (auto* bar : window.toolBars())
        if (onScreen(bar)) panels.push_back(panel(bar->windowTitle(), bar, &window));
    if (onScreen(window.sourceEdit())) panels.push_back(panel(QStringLiteral("source"), window.sourceEdit(), &window));
    if (onScreen(window.tokensLabel())) panels.push_back(panel(QStringLiteral("tokens"), window.tokensLabel(), &window));
    if (onScreen(window.targetEdit())) panels.push_back(panel(QStringLiteral("target"), window.targetEdit(), &window));
    if (onScreen(window.translationLabel())) panels.push_back(panel(QStringLiteral("translation"), window.translationLabel(), &window));
    for (auto* dock : window.findChildren<QDockWidget*>()) {
        if (!onScreen(dock)) continue;
        json p = panel(dock->objectName().remove(QStringLiteral("Dock")), dock, &window);
        p["title"] = dock->windowTitle().toStdString();
        if (dock == window.beamDock()) p["empty"] = window.beamList()->count() == 0;
        // The page's text whole in its panel (on the stage: its caption band), or needing a scroll.
        if (dock == window.lessonDock()) p["text_fits"] = window.lessonPanel()->textArea()->verticalScrollBar()->maximum() == 0;
        panels.push_back(p);
    }
    return {{"size", {window.width(), window.height()}},
            {"language", UiLanguage::current().toStdString()},
            {"heatmaps", heatmaps},
            {"panels", panels}};
}

}  // namespace alignscope::ui
