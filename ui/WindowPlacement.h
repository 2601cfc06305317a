#pragma once
#include <QRect>
#include <QSize>

class QMainWindow;
class QSettings;

namespace alignscope::ui {

// Where the main window opens and what of it is saved: the last rectangle fitted to the screen it
// opens on (a window saved on a larger screen, or a projector's, shows whole: title bar, status bar
// and docks on screen), else as much of 1280×820 as the screen holds, centred.
class WindowPlacement {
public:
    // A window manager's frame and title bar: the whole window stays on screen.
    static constexpr QSize kFrameAllowance{16, 48};

    // `saved` moved and shrunk into `room` (a screen's available geometry) with its frame.
    static QRect fitted(const QRect& saved, const QRect& room);
    // The saved rectangle (window/rect, window/maximized) or the first placement.
    static void restore(QMainWindow* window, const QSettings& settings);
    static void save(QSettings& settings, const QRect& normalGeometry, bool maximized);
    static void placeFirst(QMainWindow* window);
};

}  // namespace alignscope::ui
