#include "ui/ChoiceMenu.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

#include <algorithm>

namespace alignscope::ui {

ChoiceMenu::ChoiceMenu(QMenu* menu, const QString& objectPrefix, const Choices& choices, std::function<void(const QString&)> chosen)
    : QObject(menu), group_(new QActionGroup(this)) {
    for (const auto& [name, text] : choices) {
        auto* a = menu->addAction(text);
        a->setCheckable(true);
        a->setChecked(name.isEmpty());
        a->setData(name);
        a->setObjectName(objectPrefix + (name.isEmpty() ? QStringLiteral("none") : name));  // tests find them by it
        group_->addAction(a);
        connect(a, &QAction::triggered, this, [chosen, name = name] { chosen(name); });
    }
}

bool ChoiceMenu::choose(const QString& name) {
    const auto actions = group_->actions();
    const auto found = std::find_if(actions.begin(), actions.end(), [&name](QAction* a) { return a->data().toString() == name; });
    if (found == actions.end()) return false;
    (*found)->setChecked(true);
    return true;
}

QString ChoiceMenu::chosen() const { return group_->checkedAction() ? group_->checkedAction()->data().toString() : QString(); }

QList<QAction*> ChoiceMenu::actions() const { return group_->actions(); }

QStringList ChoiceMenu::names() const {
    QStringList names;
    for (auto* a : group_->actions()) names << a->data().toString();
    return names;
}

}  // namespace alignscope::ui
