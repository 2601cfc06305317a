#include "ui/AlignmentView.h"

#include <qcustomplot.h>

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
