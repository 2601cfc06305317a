#include "ui/WindowPlacement.h"

#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>

#include <algorithm>

namespace alignscope::ui {

QRect WindowPlacement::fitted(const QRect& saved, const QRect& room) {
    const QSize size = saved.size().boundedTo(room.size() - kFrameAllowance);
    const QPoint lowest =
        room.bottomRight() - QPoint(size.width(), size.height()) - QPoint(kFrameAllowance.width(), kFrameAllowance.height()) + QPoint(1, 1);
    const int titleBar = kFrameAllowance.height() - kFrameAllowance.width() / 2;  // above the rectangle
    const int border = kFrameAllowance.width() / 2;                               // left of it (a window manager's frame)
    return QRect(QPoint(std::clamp(saved.x(), room.left() + border, std::max(room.left() + border, lowest.x() + border)),
                        std::clamp(saved.y(), room.top() + titleBar, std::max(room.top() + titleBar, lowest.y() + titleBar))),
                 size);
}

void WindowPlacement::restore(QMainWindow* window, const QSettings& settings) {
    const QRect saved = settings.value("window/rect").toRect();
    if (!saved.isValid()) {
        placeFirst(window);
        return;
    }
    const QScreen* screen = QGuiApplication::screenAt(saved.center());
    if (!screen) screen = window->screen();
    window->setGeometry(fitted(saved, screen ? screen->availableGeometry() : saved));
    if (settings.value("window/maximized", false).toBool()) window->setWindowState(Qt::WindowMaximized);
}

void WindowPlacement::save(QSettings& settings, const QRect& normalGeometry, bool maximized) {
    settings.remove("window/geometry");  // an older version's, which could hold presenter mode's
    settings.setValue("window/rect", normalGeometry);
    settings.setValue("window/maximized", maximized);
}

void WindowPlacement::placeFirst(QMainWindow* window) {
    const QSize wanted(1280, 820);
    const QScreen* screen = window->screen();
    if (!screen) {
        window->resize(wanted);
        return;
    }
    const QRect room = screen->availableGeometry();
    window->resize(wanted.boundedTo(room.size() - kFrameAllowance));
    window->move(room.topLeft() +
                 QPoint((room.width() - window->width()) / 2, (room.height() - window->height() - kFrameAllowance.height()) / 2));
}

}  // namespace alignscope::ui
