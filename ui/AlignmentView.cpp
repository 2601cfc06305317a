#include "ui/AlignmentView.h"

#include <qcustomplot.h>

#include <QCursor>
#include <QMouseEvent>
#include <QToolTip>

namespace alignscope::ui {

AlignmentView::AlignmentView(QWidget* parent)
    : QScrollArea(parent), plot_(new QCustomPlot), figure_(std::make_unique<AlignmentFigure>(plot_)) {
    setWidget(plot_);
    setWidgetResizable(false);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    plot_->setObjectName(QStringLiteral("alignmentPlot"));
    setFocusPolicy(Qt::StrongFocus);
    setObjectName(QStringLiteral("alignmentView"));
    updateFrame();
}

void AlignmentView::setOptions(const FigureOptions& options) {
    options_ = options;
    if (snapshot_) render(snapshot_);
}

void AlignmentView::render(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    fitPlot();
    figure_->show(*snapshot_, options_);
    plot_->replot(QCustomPlot::rpImmediateRefresh);
    // A tooltip on show describes the old matrix: describe the cell under the still mouse anew.
    if (QToolTip::isVisible() && plot_->underMouse()) {
        const QPoint global = QCursor::pos();
        if (const auto text = figure_->describeAt(plot_->mapFromGlobal(global))) QToolTip::showText(global, *text, plot_);
        else QToolTip::hideText();
    }
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

void AlignmentView::setHighlighted(bool on) {
    highlighted_ = on;
    updateFrame();
}

void AlignmentView::focusInEvent(QFocusEvent* event) {
    QScrollArea::focusInEvent(event);
    updateFrame();
}

void AlignmentView::focusOutEvent(QFocusEvent* event) {
    QScrollArea::focusOutEvent(event);
    updateFrame();
}

void AlignmentView::fitPlot() {
    if (!snapshot_) return;
    const QSize need = AlignmentFigure::preferredSize(*snapshot_, options_);
    const QSize have = viewport()->size();
    plot_->resize(std::max(need.width(), have.width()), std::max(need.height(), have.height()));
}

void AlignmentView::resizeEvent(QResizeEvent* event) {
    QScrollArea::resizeEvent(event);
    fitPlot();
}

bool AlignmentView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::MouseMove) {
        auto* e = static_cast<QMouseEvent*>(event);
        if (const auto text = figure_->describeAt(e->position())) QToolTip::showText(e->globalPosition().toPoint(), *text, plot_);
        else QToolTip::hideText();
    }
    return QScrollArea::eventFilter(watched, event);
}

}  // namespace alignscope::ui
