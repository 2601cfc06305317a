#include "ui/CellScrollArea.h"

#include <qcustomplot.h>

#include <QKeyEvent>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>

namespace alignscope::ui {

CellScrollArea::CellScrollArea(QWidget* parent) : QAbstractScrollArea(parent), plot_(new QCustomPlot) {
    auto* layout = new QVBoxLayout(viewport());
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    // QCustomPlot takes every wheel event: the panel scrolls on it instead.
    plot_->installEventFilter(this);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    for (auto* bar : {horizontalScrollBar(), verticalScrollBar()}) bar->setRange(0, 0);
}

void CellScrollArea::setCells(QSize total, QSize fitting) {
    total_ = total;
    fitting_ = fitting.boundedTo(total).expandedTo(QSize(1, 1));
    const QPoint before = first();
    settingCells_ = true;
    for (auto [bar, all, shown] : {std::tuple{horizontalScrollBar(), total.width(), fitting_.width()},
                                   std::tuple{verticalScrollBar(), total.height(), fitting_.height()}}) {
        bar->setRange(0, std::max(0, all - shown));
        bar->setPageStep(std::max(1, shown));
        bar->setSingleStep(1);
    }
    settingCells_ = false;
    if (first() != before) emit windowMoved();
}

QPoint CellScrollArea::first() const { return {horizontalScrollBar()->value(), verticalScrollBar()->value()}; }

void CellScrollArea::ensureRowVisible(int row) {
    auto* bar = verticalScrollBar();
    if (row < bar->value()) bar->setValue(row);
    else if (row >= bar->value() + fitting_.height()) bar->setValue(row - fitting_.height() + 1);
}

void CellScrollArea::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    emit resized();
}

void CellScrollArea::scrollContentsBy(int, int) {
    if (!settingCells_) emit windowMoved();
}

// Up/Down a row, Shift+Left/Right a column, Home/End the first/last rows (Left and Right alone step
// the decoder, Page Up/Down turn a lesson's page).
void CellScrollArea::keyPressEvent(QKeyEvent* event) {
    auto* v = verticalScrollBar();
    auto* h = horizontalScrollBar();
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
    case Qt::Key_Up:
        v->setValue(v->value() - 1);
        return;
    case Qt::Key_Down:
        v->setValue(v->value() + 1);
        return;
    case Qt::Key_Left:
        if (shift) {
            h->setValue(h->value() - 1);
            return;
        }
        break;
    case Qt::Key_Right:
        if (shift) {
            h->setValue(h->value() + 1);
            return;
        }
        break;
    case Qt::Key_Home:
        v->setValue(v->minimum());
        return;
    case Qt::Key_End:
        v->setValue(v->maximum());
        return;
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void CellScrollArea::wheelEvent(QWheelEvent* event) {
    // A notch (120) moves a cell; Shift, or a sideways wheel, moves across.
    const QPoint delta = event->angleDelta();
    const bool across = (event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y());
    auto* bar = across ? horizontalScrollBar() : verticalScrollBar();
    const int notches = (across && delta.x() != 0 ? delta.x() : delta.y()) / 120;
    const int step = notches != 0 ? notches : ((across && delta.x() != 0 ? delta.x() : delta.y()) > 0 ? 1 : -1);
    if (bar->maximum() == 0) {
        event->ignore();
        return;
    }
    bar->setValue(bar->value() - step);
    event->accept();
}

bool CellScrollArea::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Wheel) {
        wheelEvent(static_cast<QWheelEvent*>(event));
        return event->isAccepted();
    }
    return QAbstractScrollArea::eventFilter(watched, event);
}

}  // namespace alignscope::ui
