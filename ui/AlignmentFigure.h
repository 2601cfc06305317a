#pragma once
#include "core/inspection/DecodingState.h"
#include "ui/FigureOptions.h"

#include <QCoreApplication>
#include <QFont>
#include <QPoint>
#include <QPointF>
#include <QRect>
#include <QSize>
#include <QString>

#include <optional>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCPAxisRect;
class QCPAxis;

namespace alignscope::ui {

// Draws an alignment figure into a QCustomPlot: the alpha heatmap (source tokens across, target
// tokens down, one cell per weight, never interpolated) with its colour scale, and below it, on
// the same source axis, each source token's encoder state as a column of cells, with the context
// vector c_t and the decoder state s_t beside them. The app's view and every exported file draw
// through this one class, so they look the same.
class AlignmentFigure {
    Q_DECLARE_TR_FUNCTIONS(AlignmentFigure)

public:
    explicit AlignmentFigure(QCustomPlot* plot);  // does not own the plot

    // Rebuilds the whole figure; the state is only read during the call. The caller replots
    // (or renders with toPixmap/toPainter).
    void show(const core::DecodingState& state, const FigureOptions& options);

    // In a panel (AlignmentView): lays the figure out at the plot's size and says how many cells
    // (columns, rows) fit at the smallest readable cell; source labels turn upright where a column
    // is too narrow for them. Then showWindow shows those cells from `first`, axes in place.
    QSize fit();
    QSize cells() const;
    // The rows and columns FigureOptions::markedRows/markedColumns resolve to (0-based).
    const std::vector<int>& markedRows() const { return markedRows_; }
    const std::vector<int>& markedColumns() const {
        return markedColumns_;
    }  // the heatmap's columns and rows in all (rows: those reserved too)
    // After fit: the heatmap got less height than three readable rows (or its rows, if fewer): the
    // panel below took it, and the view then leaves the encoder panel out.
    bool cramped() const;
    bool showsEncoderStates() const { return encoderRect_ != nullptr; }
    // Where the heatmap's cells and the encoder states' are drawn, in the plot's pixels (empty
    // when not shown), and the encoder states' rows (the state's dimensions).
    QRect heatmapArea() const;
    QRect encoderArea() const;
    int encoderRows() const { return encoderRows_; }
    void showWindow(QPoint first, QSize count);

    // Size at which no label overlaps another (token columns wide enough for their labels).
    static QSize preferredSize(const core::DecodingState& state, const FigureOptions& options);

    // The cell under a widget position: text for a tooltip ("car -> voiture: alpha = 0.8123").
    std::optional<QString> describeAt(const QPointF& pos) const;

    // What the heatmap shows, [row][column], after the end-column option: for tests and export
    // (attention, or the state's attribution when one is asked for).
    const std::vector<std::vector<double>>& displayedWeights() const { return weights_; }
    const std::vector<QString>& columnLabels() const { return columns_; }
    const std::vector<QString>& rowLabels() const { return rows_; }
    QCPColorMap* heatmap() const { return heatmap_; }
    bool showsAttribution() const { return attribution_; }
    bool showsWords() const { return merged_; }   // View > Words: pieces merged into words
    int linkCells() const { return linkCells_; }  // cells marked as linked (View > Links)

private:
    void drawLinks(const core::DecodingState& state, const core::Alignment& alignment, int shownTokens);
    void drawMarks(int columns, int rows);
    QCPItemRect* heatmapRectangle(double left, double top, double right, double bottom);
    // One axis's tick labels for cells `cell` pixels long: shrunk (to fit `fontCell`, at most
    // `cell`), then thinned where a line is longer than a cell (FigureOptions::smallestCell).
    void fitTickLabels(QCPAxis* axis, const std::vector<QString>& labels, const std::vector<int>& marked, double cell,
                       double fontCell = 1e9);

    QCustomPlot* plot_;
    QCPColorMap* heatmap_ = nullptr;
    QCPAxisRect* heatRect_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPAxisRect* encoderRect_ = nullptr;
    std::vector<std::vector<double>> weights_;  // [T][S']
    std::vector<QString> columns_, rows_;
    std::vector<std::vector<float>> encoder_;  // [S'][E] for hover
    bool merged_ = false;                      // columns and rows are words (FigureOptions::mergeWords)
    bool attribution_ = false;                 // the heatmap shows the state's attribution, not alpha
    QString attributionLabel_;
    QFont font_;
    int rowsTotal_ = 0;  // the heatmap's rows, with those reserved
    int smallestCell_ = 8;
    int linkDot_ = 0;
    int encoderRows_ = 0;
    std::vector<int> markedRows_, markedColumns_;
    int linkCells_ = 0;
};

}  // namespace alignscope::ui
