#pragma once
#include <QAbstractScrollArea>
#include <QPoint>
#include <QSize>

class QCustomPlot;

namespace alignscope::ui {

// A heatmap's panel: the chart always fills it, its cells as large as the panel allows. When even
// the smallest readable cell leaves some out, the scroll bars (and the wheel, Shift+wheel, Up/Down,
// Shift+Left/Right) move a window over the cells while the axes, their labels and the colour
// scale stay where they are, like a spreadsheet's frozen header row and column. The figure in it
// says how many cells fit (setCells) and draws the window it is told (windowMoved).
class CellScrollArea : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit CellScrollArea(QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    // The figure's cells (columns, rows) and how many of them fit; the window keeps its place
    // where it can. Emits windowMoved when its first cell changes.
    void setCells(QSize total, QSize fitting);
    QPoint first() const;  // the window's first column and row
    QSize fitting() const { return fitting_; }
    bool scrolls() const { return fitting_.width() < total_.width() || fitting_.height() < total_.height(); }
    void ensureRowVisible(int row);  // the window moves (least) so that this row is in it

signals:
    void windowMoved();  // first() changed: show the new window
    void resized();      // the panel changed size: lay the figure out anew and call setCells

protected:
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QCustomPlot* plot_;
    QSize total_, fitting_;
    bool settingCells_ = false;
};

}  // namespace alignscope::ui
