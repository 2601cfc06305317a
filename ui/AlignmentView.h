#pragma once
#include "ui/AlignmentFigure.h"
#include "ui/CellScrollArea.h"
#include "core/inspection/DecodingState.h"
#include "ui/FigureOptions.h"

#include <memory>

class QCustomPlot;

namespace alignscope::ui {

// The heatmap and encoder-states figure, fitted to its panel (CellScrollArea): cells as large as
// the panel allows, a window over them with the axes in place when even the smallest readable
// cell cannot show them all; hovering a cell shows its value. Renders the snapshots it is given;
// owns nothing of the document.
class AlignmentView : public CellScrollArea {
    Q_OBJECT
public:
    explicit AlignmentView(QWidget* parent = nullptr);

    void setOptions(const FigureOptions& options);
    const FigureOptions& options() const { return options_; }
    void render(core::DecodingStatePtr state);

    const AlignmentFigure& figure() const { return *figure_; }
    void setHighlighted(bool on);  // a lesson points at this panel
    // The heatmap's rows before the encoder panel: where the panel cannot show every row with the
    // encoder states under them, the states give way (presenter mode, unless a page names them).
    void setRowsFirst(bool on);
    bool rowsFirst() const { return rowsFirst_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void refit();
    void updateFrame();
    bool highlighted_ = false;
    bool rowsFirst_ = false;

    std::unique_ptr<AlignmentFigure> figure_;
    FigureOptions options_;
    core::DecodingStatePtr state_;
    int rowsShown_ = 0;  // the rows of the last render: a new row (a step) is brought into view
};

}  // namespace alignscope::ui
