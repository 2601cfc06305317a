#include "ui/ActionRegistry.h"

#include <QAction>
#include <QWidget>

#include <stdexcept>

namespace alignscope::ui {

ActionRegistry::ActionRegistry(QWidget* owner) : QObject(owner), owner_(owner) {}

QAction* ActionRegistry::add(const QString& id, const QString& text, const QString& tip, const QList<QKeySequence>& keys,
                             std::function<void()> triggered) {
    if (actions_.contains(id)) throw std::logic_error("ActionRegistry: the action '" + id.toStdString() + "' exists already");
    auto* a = new QAction(text, owner_);
    a->setObjectName(QStringLiteral("action-") + id);
    a->setToolTip(tip + (keys.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(keys.first().toString(QKeySequence::NativeText))));
    a->setShortcuts(keys);
    connect(a, &QAction::triggered, this, [triggered = std::move(triggered)] { triggered(); });
    owner_->addAction(a);
    actions_.insert(id, a);
    order_.append(id);
    return a;
}

QAction* ActionRegistry::addToggle(const QString& id, const QString& text, const QString& tip, const QList<QKeySequence>& keys,
                                   std::function<void()> toggled) {
    auto* a = add(id, text, tip, keys, std::move(toggled));
    a->setCheckable(true);
    return a;
}

QAction* ActionRegistry::action(const QString& id) const {
    const auto found = actions_.constFind(id);
    if (found == actions_.constEnd()) throw std::out_of_range("ActionRegistry: no action '" + id.toStdString() + "'");
    return found.value();
}

}  // namespace alignscope::ui
