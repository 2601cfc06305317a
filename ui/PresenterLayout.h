#pragma once
#include <QByteArray>
#include <QRect>
#include <QList>

class QDockWidget;
class QMainWindow;

namespace alignscope::ui {

// Presenter mode's stage, made for the projectors classrooms have (1024×768, 1280×720): the
// lesson's text as a caption band across the top, as tall as the page needs, the heatmap under it
// with the room, and the panels the page names in one column on the right, at most kColumnShare
// of the width (MainWindow::fitStage decides which show; none is left empty). The window's
// geometry (with its title bar), its menu bar, toolbars and dock layout are kept on entering and
// put back on leaving; the docks a lesson page shows or hides keep the visibility they have.
class PresenterLayout {
public:
    static constexpr double kColumnShare = 0.3;      // of the window's width, for the named panels
    static constexpr double kLessonShare = 0.4;      // of the window's height, for the caption band at most
    static constexpr double kWideShare = 0.52;       // of the window's height, for the compare view under it all
    static constexpr double kPictureShare = 0.45;    // of the width, for a page's picture in the column (a chart to read)
    static constexpr int kNoWindowManagerMs = 1500;  // after which an unanswered full-screen request takes the screen's size

    explicit PresenterLayout(QMainWindow* window) : window_(window) {}

    // `lesson` is the caption band, `tabbed` share the column (in this order); `wide` (the
    // compare view: three heatmaps side by side need the width) goes under the window's widgets
    // and the column, the whole width; `live` are the docks whose visibility follows what the app
    // shows rather than the user's layout.
    void enter(bool fillScreen, QDockWidget* lesson, const QList<QDockWidget*>& tabbed, QDockWidget* wide, const QList<QDockWidget*>& live);
    void leave();
    bool active() const { return active_; }
    // The window outside presenter mode (what leave() puts back): what a window closed in presenter
    // mode saves, so that the next start is a normal one.
    QRect normalGeometry() const;
    Qt::WindowStates normalWindowState() const;
    QByteArray normalLayout() const;
    // The column again, for the window's current size (after it changed, or a dock was shown).
    void arrange();
    // The dock's tab to the front (a lesson page points at its panel); remembered outside presenter
    // mode for when it starts.
    void bringForward(QDockWidget* dock);
    // The column's dock that holds a page's picture: given more of the width when it shows.
    void setPictureDock(QDockWidget* dock) { picture_ = dock; }

private:
    QMainWindow* window_;
    bool active_ = false;
    QRect geometry_;                // the window's own, kept as a rectangle (saveGeometry's frame
    Qt::WindowStates windowState_;  // arithmetic moves a window without a window manager)
    QByteArray state_;
    QDockWidget* lesson_ = nullptr;
    QList<QDockWidget*> tabbed_, live_;
    QDockWidget* wide_ = nullptr;
    QDockWidget* picture_ = nullptr;
    QList<QDockWidget*> steppedAside_;                           // tabbed panels hidden while `wide` is shown
    Qt::DockWidgetArea bottomRight_ = Qt::BottomDockWidgetArea;  // the corners' owners outside presenter mode
    Qt::DockWidgetArea topLeft_ = Qt::TopDockWidgetArea, topRight_ = Qt::TopDockWidgetArea;
    QDockWidget* forward_ = nullptr;  // the panel last brought forward (its tab in front on entering)
};

}  // namespace alignscope::ui
