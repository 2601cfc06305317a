#include "ui/PresenterLayout.h"

#include "ui/LessonPanel.h"
#include "ui/TimelinePanel.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScreen>
#include <QTabBar>

#include <algorithm>

namespace alignscope::ui {

void PresenterLayout::enter(bool fillScreen, QDockWidget* lesson, const QList<QDockWidget*>& tabbed, QDockWidget* wide,
                            const QList<QDockWidget*>& live) {
    if (!active_) {
        geometry_ = window_->normalGeometry();
        windowState_ = window_->windowState();
        state_ = window_->saveState();
        bottomRight_ = window_->corner(Qt::BottomRightCorner);
    }
    active_ = true;
    lesson_ = lesson;
    tabbed_ = tabbed;
    wide_ = wide;
    live_ = live;
    if (wide_) {
        wide_->setFloating(false);
        window_->setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);  // the whole width, under the column too
        window_->addDockWidget(Qt::BottomDockWidgetArea, wide_);
    }
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
        // From a maximised window too: some window managers keep the title bar of a window that
        // goes from maximised to full screen in one step.
        if (window_->isMaximized()) window_->showNormal();
        window_->showFullScreen();
        // Without a window manager nobody acts on the full-screen request: take the screen's size.
        if (auto* screen = window_->screen()) window_->setGeometry(screen->geometry());
    }
    arrange();
}

void PresenterLayout::arrange() {
    if (!active_) return;
    const bool wide = wide_ && !wide_->isHidden();
    // Above a comparison the lesson text takes the whole column: the panels tabbed under it step
    // aside until the comparison closes (leave() restores them with the rest).
    for (auto* dock : tabbed_)
        if (wide && !dock->isHidden() && !live_.contains(dock)) {
            dock->hide();
            steppedAside_ << dock;
        }
    if (!wide && !steppedAside_.isEmpty()) {
        for (auto* dock : steppedAside_) dock->show();
        steppedAside_.clear();
        if (forward_ && !forward_->isHidden()) forward_->raise();
    }
    QDockWidget* below = nullptr;
    for (auto* dock : tabbed_)
        if (!below && !dock->isHidden()) below = dock;
    if (wide) window_->resizeDocks({wide_}, {static_cast<int>(window_->height() * kWideShare)}, Qt::Vertical);
    QDockWidget* top = !lesson_->isHidden() ? lesson_ : below;
    if (!top) return;
    window_->resizeDocks({top}, {static_cast<int>(window_->width() * kColumnShare)}, Qt::Horizontal);
    if (top == lesson_ && below) {
        // The lesson takes what its page needs, within its shares; the panel under it the rest.
        // (resizeDocks shares what the column has in these proportions)
        const int height = lesson_->isVisible() && below->isVisible() ? lesson_->height() + below->height() : window_->height();
        int lessonHeight = static_cast<int>(height * kLessonShare);
        if (auto* panel = qobject_cast<LessonPanel*>(lesson_->widget())) {
            const int frame = std::max(0, lesson_->height() - panel->height());  // the dock's title bar
            const int width = static_cast<int>(window_->width() * kColumnShare) - std::max(0, lesson_->width() - panel->width());
            // The panels under it keep what they need whole (the loss curve with its axes).
            int under = 0, tabs = 0;
            for (auto* bar : window_->findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
                if (bar->isVisible()) tabs = std::max(tabs, bar->height());
            for (auto* dock : tabbed_)
                if (dock->isVisible()) {
                    const auto* run = qobject_cast<const TimelinePanel*>(dock->widget());
                    const int needs = run ? run->wholeHeight() : dock->widget()->minimumSizeHint().height();
                    under = std::max(under, needs + frame + tabs);
                }
            const int floor = static_cast<int>(height * kLessonFloor);
            lessonHeight = std::clamp(panel->pageHeight(width) + frame, floor, std::max(floor, std::min(lessonHeight, height - under)));
        }
        window_->resizeDocks({lesson_, below}, {lessonHeight, height - lessonHeight}, Qt::Vertical);
    }
}

void PresenterLayout::bringForward(QDockWidget* dock) {
    if (dock) forward_ = dock;
    if (!active_ || !dock || dock->isHidden()) return;
    dock->raise();
}

QRect PresenterLayout::normalGeometry() const { return active_ ? geometry_ : window_->normalGeometry(); }

Qt::WindowStates PresenterLayout::normalWindowState() const { return active_ ? windowState_ : window_->windowState(); }

QByteArray PresenterLayout::normalLayout() const { return active_ ? state_ : window_->saveState(); }

void PresenterLayout::leave() {
    if (!active_) return;
    active_ = false;
    steppedAside_.clear();  // restoreState shows them as they were
    QList<bool> shown;
    for (auto* dock : live_) shown << !dock->isHidden();
    window_->setWindowState(windowState_);  // out of full screen: the title bar comes back
    if (!(windowState_ & (Qt::WindowMaximized | Qt::WindowFullScreen))) window_->setGeometry(geometry_);
    window_->setCorner(Qt::BottomRightCorner, bottomRight_);
    window_->restoreState(state_);
    for (int k = 0; k < live_.size(); ++k) live_[k]->setVisible(shown[k]);
}

}  // namespace alignscope::ui
