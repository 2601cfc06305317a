#include "ui/PresenterLayout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScreen>

#include <algorithm>

namespace alignscope::ui {

void PresenterLayout::enter(bool fillScreen, QDockWidget* lesson, const QList<QDockWidget*>& tabbed,
                            const QList<QDockWidget*>& live) {
    if (!active_) {
        geometry_ = window_->normalGeometry();
        windowState_ = window_->windowState();
        state_ = window_->saveState();
    }
    active_ = true;
    lesson_ = lesson;
    tabbed_ = tabbed;
    live_ = live;
    // Hidden docks are placed too, so that one a page shows later lands in the column.
    for (auto* dock : QList<QDockWidget*>{lesson_} + tabbed_) dock->setFloating(false);
    window_->addDockWidget(Qt::RightDockWidgetArea, lesson_, Qt::Vertical);
    QDockWidget* head = nullptr;
    for (auto* dock : tabbed_) {
        if (!head) window_->addDockWidget(Qt::RightDockWidgetArea, dock, Qt::Vertical);
        else window_->tabifyDockWidget(head, dock);
        head = head ? head : dock;
    }
    if (forward_ && !forward_->isHidden() && tabbed_.contains(forward_)) forward_->raise();
    else
        for (auto* dock : tabbed_)
            if (!dock->isHidden()) {
                dock->raise();
                break;
            }
    if (fillScreen) {
        window_->showFullScreen();
        // Without a window manager nobody acts on the full-screen request: take the screen's size.
        if (auto* screen = window_->screen()) window_->setGeometry(screen->geometry());
    }
    arrange();
}

void PresenterLayout::arrange() {
    if (!active_) return;
    QDockWidget* below = nullptr;
    for (auto* dock : tabbed_)
        if (!dock->isHidden()) {
            below = dock;
            break;
        }
    QDockWidget* top = !lesson_->isHidden() ? lesson_ : below;
    if (!top) return;
    window_->resizeDocks({top}, {static_cast<int>(window_->width() * kColumnShare)}, Qt::Horizontal);
    if (top == lesson_ && below) {
        const int height = window_->height();
        window_->resizeDocks({lesson_, below}, {static_cast<int>(height * kLessonShare), static_cast<int>(height * (1 - kLessonShare))},
                             Qt::Vertical);
    }
}

void PresenterLayout::bringForward(QDockWidget* dock) {
    if (dock) forward_ = dock;
    if (!active_ || !dock || dock->isHidden()) return;
    dock->raise();
}

void PresenterLayout::leave() {
    if (!active_) return;
    active_ = false;
    QList<bool> shown;
    for (auto* dock : live_) shown << !dock->isHidden();
    window_->setWindowState(windowState_);  // out of full screen: the title bar comes back
    if (!(windowState_ & (Qt::WindowMaximized | Qt::WindowFullScreen))) window_->setGeometry(geometry_);
    window_->restoreState(state_);
    for (int k = 0; k < live_.size(); ++k) live_[k]->setVisible(shown[k]);
}

}  // namespace alignscope::ui
