#include "ui/RecentModelsMenu.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

#include <algorithm>

namespace alignscope::ui {

namespace {
constexpr int kMaxRecent = 8;
const QString kKey = QStringLiteral("recentModels");
}  // namespace

RecentModelsMenu::RecentModelsMenu(QMenu* menu) : QObject(menu), menu_(menu) { refresh(); }

void RecentModelsMenu::remember(const QString& given) {
    const QString canonical = QFileInfo(given).canonicalFilePath();
    const QString path = canonical.isEmpty() ? QFileInfo(given).absoluteFilePath() : canonical;
    QSettings settings;
    auto recent = settings.value(kKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kKey, recent);
    refresh();
}

void RecentModelsMenu::refresh() {
    menu_->clear();
    const auto recent = QSettings().value(kKey).toStringList();
    for (const auto& path : recent) {
        const QString name = QFileInfo(path).fileName();
        const bool shared =
            std::count_if(recent.begin(), recent.end(), [&](const QString& p) { return QFileInfo(p).fileName() == name; }) > 1;
        const QString text = shared ? QStringLiteral("%1 — %2").arg(name, QDir::toNativeSeparators(QFileInfo(path).absolutePath())) : name;
        menu_->addAction(text, this, [this, path] { emit openRequested(path); })->setToolTip(path);
    }
    menu_->setEnabled(!recent.isEmpty());
}

}  // namespace alignscope::ui
