#pragma once
#include "core/alignment/AlignmentComparison.h"
#include "ui/FigureOptions.h"

#include <QCoreApplication>
#include <QFont>
#include <QPoint>
#include <QPointF>
#include <QSize>
#include <QString>

#include <optional>

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;
class QCPTextElement;

namespace alignscope::ui {

// Draws two models' alignments of one sentence side by side, and their difference A − B
// (diverging colours, grey on rows where the targets differ), on linked axes: one source axis,
// the same cell size, and a hovered cell framed in all three heatmaps at once.
class AlignmentComparisonFigure {
    Q_DECLARE_TR_FUNCTIONS(AlignmentComparisonFigure)

public:
    explicit AlignmentComparisonFigure(QCustomPlot* plot);  // does not own the plot

    // The heatmaps in a row where the plot is wide, else A and B over A − B: whichever draws the
    // larger cells at the plot's size when shown.
    void show(const core::AlignmentComparison& comparison, const FigureOptions& options);
    // In a panel (ComparePanel), as AlignmentFigure's: how many cells (columns, rows) fit in every
    // heatmap at the smallest readable cell, and the window of cells all three show.
    QSize fit();
    QSize cells() const;
    void showWindow(QPoint first, QSize count);
    bool stacked() const { return stacked_; }  // A and B above A − B
    QCPAxisRect* heatmapRect(int index) const { return rects_.at(static_cast<size_t>(index)); }
    static QSize preferredSize(const core::AlignmentComparison& comparison, const FigureOptions& options);

    struct Cell {
        int row = -1, column = -1;
    };
    // The cell under a widget position, in whichever of the three heatmaps it lies.
    std::optional<Cell> cellAt(const QPointF& pos) const;
    // "car → voiture: A 0.81 · B 0.62 · A − B +0.19" for that cell.
    QString describe(const Cell& cell) const;
    // Frames `cell` in all three heatmaps (row -1: none). The caller replots.
    void highlight(const Cell& cell);

    // Where a cell's centre is drawn in heatmap `index` (0 A, 1 B, 2 A − B), in widget pixels.
    QPointF centreOf(int index, const Cell& cell) const;
    Cell highlighted() const { return highlighted_; }
    int heatmapCount() const { return static_cast<int>(rects_.size()); }  // 3 once shown
    QFont labelFont() const { return font_; }                             // the tick labels' font, as shown last
    QRect titleRect(int index) const;                                     // over heatmap `index`, as laid out

private:
    QCustomPlot* plot_;
    core::AlignmentComparison comparison_;
    std::vector<QCPAxisRect*> rects_;                          // A, B, A − B
    std::vector<QCPItemRect*> frames_;                         // the hovered cell in each
    std::vector<std::pair<QCPTextElement*, QString>> titles_;  // over each, with its whole text
    Cell highlighted_;
    QFont font_;
    int smallestCell_ = 8;
    bool stacked_ = false;
};

}  // namespace alignscope::ui
