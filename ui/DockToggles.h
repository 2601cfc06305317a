#pragma once
#include <QString>

class QDockWidget;
class QMenu;

namespace alignscope::ui {

// View's list of panels: each dock's own show/hide action with the menu's mnemonic, so a panel
// closed with its × comes back from the menu. The mnemonic is the menu's, not in the dock's title,
// and a title that grows ("Compare models: A = …") keeps it (QDockWidget renames its action to
// each new title).
class DockToggles {
public:
    static void add(QMenu* menu, QDockWidget* dock, const QString& menuText);
};

}  // namespace alignscope::ui
