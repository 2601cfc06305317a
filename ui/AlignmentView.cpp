#include "ui/AlignmentView.h"

#include <qcustomplot.h>

#include <QCursor>
#include <QMouseEvent>
#include <QToolTip>

namespace alignscope::ui {

AlignmentView::AlignmentView(QWidget* parent) : CellScrollArea(parent), figure_(std::make_unique<AlignmentFigure>(plot())) {
    plot()->setMouseTracking(true);
    plot()->installEventFilter(this);
    plot()->setObjectName(QStringLiteral("alignmentPlot"));
    setFocusPolicy(Qt::StrongFocus);
    setObjectName(QStringLiteral("alignmentView"));
    connect(this, &CellScrollArea::windowMoved, this, [this] {
        figure_->showWindow(first(), fitting());
        plot()->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(this, &CellScrollArea::resized, this, [this] {
        if (state_) refit();
    });
    updateFrame();
}

void AlignmentView::setOptions(const FigureOptions& options) {
    options_ = options;
    if (state_) render(state_);
}

void AlignmentView::render(core::DecodingStatePtr state) {
    state_ = std::move(state);
    refit();
    // A tooltip on show describes the old matrix: describe the cell under the still mouse anew.
    if (QToolTip::isVisible() && plot()->underMouse()) {
        const QPoint global = QCursor::pos();
        if (const auto text = figure_->describeAt(plot()->mapFromGlobal(global))) QToolTip::showText(global, *text, plot());
        else QToolTip::hideText();
    }
}

void AlignmentView::refit() {
    figure_->show(*state_, options_);
    QSize fits = figure_->fit();
    // A panel too low for both: the heatmap keeps its rows and colour scale, the encoder panel goes.
    // With the rows first it also goes when, without it, more of the rows would be in view.
    const bool cramped = figure_->cramped();
    if (figure_->showsEncoderStates() && (cramped || (rowsFirst_ && fits.height() < figure_->cells().height()))) {
        const QSize with = fits;
        FigureOptions without = options_;
        without.showEncoderStates = false;
        figure_->show(*state_, without);
        fits = figure_->fit();
        if (!cramped && fits.height() <= with.height()) {  // no row gained: keep the states
            figure_->show(*state_, options_);
            fits = figure_->fit();
        }
    }
    // A new row (a step) comes into view, and a window that showed the last row keeps showing it
    // when the panel shrinks; otherwise the window stays where the user put it.
    const bool followed = rowsShown_ == 0 || first().y() + fitting().height() >= rowsShown_;
    setCells(figure_->cells(), fits);
    const int rows = static_cast<int>(figure_->displayedWeights().size());
    if ((rows != rowsShown_ || followed) && rows > 0) ensureRowVisible(rows - 1);
    // The rows a lesson page names stay in view, before the newest where the window cannot hold both.
    for (int row : figure_->markedRows())
        if (row < rows) ensureRowVisible(row);
    rowsShown_ = rows;
    figure_->showWindow(first(), fitting());
    plot()->replot(QCustomPlot::rpImmediateRefresh);
}

// One frame shows both marks: a lesson's highlight (orange; dashed while the view also has the
// focus) and the focus (the highlight colour while the arrows step from here). Transparent
// otherwise, of the same width, so nothing moves.
void AlignmentView::updateFrame() {
    const QString border = highlighted_ ? (hasFocus() ? QStringLiteral("3px dashed #ff7f0e") : QStringLiteral("3px solid #ff7f0e"))
                           : hasFocus() ? QStringLiteral("3px solid palette(highlight)")
                                        : QStringLiteral("3px solid transparent");
    setStyleSheet(QStringLiteral("#alignmentView { border: %1; }").arg(border));
}

void AlignmentView::setRowsFirst(bool on) {
    if (rowsFirst_ == on) return;
    rowsFirst_ = on;
    if (state_) refit();
}

void AlignmentView::setHighlighted(bool on) {
    highlighted_ = on;
    updateFrame();
}

void AlignmentView::focusInEvent(QFocusEvent* event) {
    CellScrollArea::focusInEvent(event);
    updateFrame();
}

void AlignmentView::focusOutEvent(QFocusEvent* event) {
    CellScrollArea::focusOutEvent(event);
    updateFrame();
}

bool AlignmentView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot() && event->type() == QEvent::MouseMove) {
        auto* e = static_cast<QMouseEvent*>(event);
        if (const auto text = figure_->describeAt(e->position())) QToolTip::showText(e->globalPosition().toPoint(), *text, plot());
        else QToolTip::hideText();
    }
    return CellScrollArea::eventFilter(watched, event);
}

}  // namespace alignscope::ui
