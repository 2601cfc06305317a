#pragma once
#include "ui/AlignmentFigure.h"
#include "ui/DecodingSnapshot.h"
#include "ui/FigureOptions.h"

#include <QScrollArea>

#include <memory>

class QCustomPlot;

namespace alignscope::ui {

// The heatmap and encoder-states figure in a scroll area: the plot is never narrower than its
// labels need (long sentences scroll instead of overlapping); hovering a cell shows its value.
// Renders the snapshots it is given; owns nothing of the document.
class AlignmentView : public QScrollArea {
    Q_OBJECT
public:
    explicit AlignmentView(QWidget* parent = nullptr);

    void setOptions(const FigureOptions& options);
    const FigureOptions& options() const { return options_; }
    void render(SnapshotPtr snapshot);

    const AlignmentFigure& figure() const { return *figure_; }
    QCustomPlot* plot() const { return plot_; }
    void setHighlighted(bool on);  // a lesson points at this panel

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void fitPlot();
    void updateFrame();
    bool highlighted_ = false;

    QCustomPlot* plot_;
    std::unique_ptr<AlignmentFigure> figure_;
    FigureOptions options_;
    SnapshotPtr snapshot_;
};

}  // namespace alignscope::ui
