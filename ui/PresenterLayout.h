#pragma once
#include <QByteArray>
#include <QRect>
#include <QList>

class QDockWidget;
class QMainWindow;

namespace alignscope::ui {

// Presenter mode's arrangement of the main window, made for the projectors classrooms have
// (1024×768, 1280×720): every dock in one column on the right, at most kColumnShare of the width,
// the lesson on top and the other panels tabbed under it, so the heatmap and the translation get
// the room. The window's geometry (with its title bar) and its dock layout are kept on entering
// and put back on leaving; the docks a lesson page shows or hides keep the visibility they have.
class PresenterLayout {
public:
    static constexpr double kColumnShare = 0.4;   // of the window's width, for the docks
    static constexpr double kLessonShare = 0.55;  // of the column's height, for the lesson text at most
    static constexpr double kLessonFloor = 0.25;  // and at least: what a short page leaves goes to the panels under it
    static constexpr double kWideShare = 0.52;    // of the window's height, for the compare view under it all

    explicit PresenterLayout(QMainWindow* window) : window_(window) {}

    // `lesson` heads the column, `tabbed` share the space under it (in this order); `wide` (the
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

private:
    QMainWindow* window_;
    bool active_ = false;
    QRect geometry_;                // the window's own, kept as a rectangle (saveGeometry's frame
    Qt::WindowStates windowState_;  // arithmetic moves a window without a window manager)
    QByteArray state_;
    QDockWidget* lesson_ = nullptr;
    QList<QDockWidget*> tabbed_, live_;
    QDockWidget* wide_ = nullptr;
    QList<QDockWidget*> steppedAside_;                           // tabbed panels hidden while `wide` is shown
    Qt::DockWidgetArea bottomRight_ = Qt::BottomDockWidgetArea;  // the corner's owner outside presenter mode
    QDockWidget* forward_ = nullptr;                             // the panel last brought forward (its tab in front on entering)
};

}  // namespace alignscope::ui
