#include "ui/DockToggles.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>

namespace alignscope::ui {

void DockToggles::add(QMenu* menu, QDockWidget* dock, const QString& menuText) {
    auto* toggle = dock->toggleViewAction();
    const auto name = [toggle, menuText](const QString& title) {
        const QString plain = QString(menuText).remove(QLatin1Char('&'));
        toggle->setText(title.startsWith(plain) ? menuText + title.mid(plain.size()).replace(QLatin1Char('&'), QStringLiteral("&&"))
                                                : title);
    };
    name(dock->windowTitle());
    QObject::connect(dock, &QWidget::windowTitleChanged, toggle, name);
    menu->addAction(toggle);
}

}  // namespace alignscope::ui
