#pragma once
#include <nlohmann/json.hpp>

namespace alignscope::ui {

class MainWindow;

// What the window shows, as `alignscope --screenshot F --view-report R` writes it beside the
// picture: the window's size; every heatmap on screen (attention, encoder states, compare A, B and
// A − B) with its rows and columns, how many of each are in view and its cells' size in pixels;
// and every visible panel's rectangle. Tests, and anyone checking a lesson page, read it instead
// of guessing from pixels.
class ViewReport {
public:
    static nlohmann::json of(const MainWindow& window);
};

}  // namespace alignscope::ui
