#pragma once
#include "core/alignment/AlignmentComparison.h"
#include "ui/FigureOptions.h"

#include <QPointF>
#include <QSize>
#include <QString>

#include <optional>

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;

namespace alignscope::ui {

// Draws two models' alignments of one sentence side by side, and their difference A − B
// (diverging colours, grey on rows where the targets differ), on linked axes: one source axis,
// the same cell size, and a hovered cell framed in all three heatmaps at once.
class AlignmentComparisonFigure {
public:
    explicit AlignmentComparisonFigure(QCustomPlot* plot);  // does not own the plot

    void show(const core::AlignmentComparison& comparison, const FigureOptions& options);
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

private:
    QCustomPlot* plot_;
    core::AlignmentComparison comparison_;
    std::vector<QCPAxisRect*> rects_;   // A, B, A − B
    std::vector<QCPItemRect*> frames_;  // the hovered cell in each
    Cell highlighted_;
};

}  // namespace alignscope::ui
