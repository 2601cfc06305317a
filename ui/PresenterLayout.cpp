#include "ui/PresenterLayout.h"

#include "ui/LessonPanel.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QScreen>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace alignscope::ui {

void PresenterLayout::enter(bool fillScreen, QDockWidget* lesson, const QList<QDockWidget*>& tabbed, QDockWidget* wide,
                            const QList<QDockWidget*>& live) {
    if (!active_) {
        geometry_ = window_->normalGeometry();
        windowState_ = window_->windowState();
        state_ = window_->saveState();
        bottomRight_ = window_->corner(Qt::BottomRightCorner);
        topLeft_ = window_->corner(Qt::TopLeftCorner);
        topRight_ = window_->corner(Qt::TopRightCorner);
    }
    active_ = true;
    // No menu bar or toolbars on the stage: every command keeps its key (ActionRegistry adds each
    // action to the window), and F1 lists them.
    window_->menuBar()->hide();
    for (auto* bar : window_->findChildren<QToolBar*>()) bar->hide();
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
    // The caption band spans the whole width, over the column too.
    window_->setCorner(Qt::TopLeftCorner, Qt::TopDockWidgetArea);
    window_->setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
    window_->addDockWidget(Qt::TopDockWidgetArea, lesson_);
    // One above the other, not tabbed: the stage shows only what the page names (one or two
    // panels), and a panel behind a tab is one the class cannot see.
    for (auto* dock : tabbed_) window_->addDockWidget(Qt::RightDockWidgetArea, dock, Qt::Vertical);
    if (fillScreen) {
        // From a maximised window too: some window managers keep the title bar of a window that
        // goes from maximised to full screen in one step.
        if (window_->isMaximized()) window_->showNormal();
        window_->showFullScreen();
        // Without a window manager nobody acts on the full-screen request: then the screen's size
        // is taken, but only once a window manager would have answered. Set at once, the size
        // reached a busy one before the request did and cancelled it (a normal window of the
        // screen's size, title bar and all, its bottom under the screen's edge).
        QTimer::singleShot(kNoWindowManagerMs, window_, [this] {
            auto* screen = window_->screen();
            if (active_ && window_->isFullScreen() && screen && window_->geometry() != screen->geometry())
                window_->setGeometry(screen->geometry());
        });
    }
    arrange();
}

void PresenterLayout::arrange() {
    if (!active_) return;
    const bool wide = wide_ && !wide_->isHidden();
    // Above a comparison the lesson text takes the whole column: the panels tabbed under it step
    // aside until the comparison closes (leave() restores them with the rest).
    const bool lessonShown = !lesson_->isHidden();
    for (auto* dock : tabbed_)
        if (wide && lessonShown && !dock->isHidden() && !live_.contains(dock)) {
            dock->hide();
            steppedAside_ << dock;
        }
    if ((!wide || !lessonShown) && !steppedAside_.isEmpty()) {
        for (auto* dock : steppedAside_) dock->show();
        steppedAside_.clear();
        if (forward_ && !forward_->isHidden()) forward_->raise();
    }
    const bool picture = picture_ && !picture_->isHidden();
    for (auto* dock : tabbed_)
        if (!dock->isHidden()) {
            window_->resizeDocks({dock}, {static_cast<int>(window_->width() * (picture ? kPictureShare : kColumnShare))}, Qt::Horizontal);
            break;
        }
    // The comparison in the heatmap's place takes all the height the band (if any) and the
    // translation leave (a share of it left an empty stretch round the translation).
    if (lesson_->isHidden()) {
        if (wide) window_->resizeDocks({wide_}, {window_->height()}, Qt::Vertical);
        return;
    }
    // The band is as tall as the page needs at the window's width, within its share: a page that
    // needs more is one to split (the lesson check says which).
    int band = static_cast<int>(window_->height() * kLessonShare);
    if (auto* panel = qobject_cast<LessonPanel*>(lesson_->widget())) {
        const int frame = std::max(0, lesson_->height() - panel->height());  // the dock's title bar
        const int width = window_->width() - std::max(0, lesson_->width() - panel->width());
        band = std::min(band, panel->pageHeight(width) + frame);
        // Held as the panel's least height: the column's panels beside the heatmap otherwise took
        // rows of the band back whenever the dock layout shared out the height again.
        panel->setMinimumHeight(std::max(0, band - frame));
    }
    window_->resizeDocks({lesson_}, {band}, Qt::Vertical);
    if (wide) window_->resizeDocks({wide_}, {window_->height()}, Qt::Vertical);
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
    window_->setCorner(Qt::TopLeftCorner, topLeft_);
    window_->setCorner(Qt::TopRightCorner, topRight_);
    if (lesson_ && lesson_->widget()) lesson_->widget()->setMinimumHeight(0);
    window_->restoreState(state_);  // the toolbars too
    window_->menuBar()->show();
    for (int k = 0; k < live_.size(); ++k) live_[k]->setVisible(shown[k]);
}

}  // namespace alignscope::ui
