#include "ui/PicturePanel.h"

#include <QMouseEvent>
#include <QPainter>

namespace alignscope::ui {

PicturePanel::PicturePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("picturePanel"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to see the picture full size (Ctrl+I)"));
    setMinimumSize(120, 90);
}

void PicturePanel::setPicture(const QPixmap& picture) {
    picture_ = picture;
    update();
}

QSize PicturePanel::sizeHint() const { return picture_.isNull() ? QSize(300, 200) : picture_.size().boundedTo(QSize(600, 450)); }

void PicturePanel::paintEvent(QPaintEvent*) {
    if (picture_.isNull()) return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    // As large as the panel allows, its proportions kept, centred.
    const QSize size = picture_.size().scaled(this->size(), Qt::KeepAspectRatio);
    const QRect target(QPoint((width() - size.width()) / 2, (height() - size.height()) / 2), size);
    painter.drawPixmap(target, picture_);
}

void PicturePanel::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) emit enlargeRequested();
}

}  // namespace alignscope::ui
