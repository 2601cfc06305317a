#pragma once
#include <QHash>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QWidget;

namespace alignscope::ui {

// The window's commands by name, as Tiled's ActionManager holds them: menus, toolbars, saved
// settings and tests reach an action by its id ("step", "teacher-forcing") instead of through an
// accessor each. Every action is added to the owner widget, so its keys work anywhere in it.
class ActionRegistry : public QObject {
    Q_OBJECT
public:
    explicit ActionRegistry(QWidget* owner);

    // A new action `id` (ids are unique): its menu text, a tool tip that names its first key, its
    // keys, and what it does when triggered.
    QAction* add(const QString& id, const QString& text, const QString& tip, const QList<QKeySequence>& keys,
                 std::function<void()> triggered);
    // The same, checkable.
    QAction* addToggle(const QString& id, const QString& text, const QString& tip, const QList<QKeySequence>& keys,
                       std::function<void()> toggled);
    // The action `id`; an id never added is a programming error (std::out_of_range names it).
    QAction* action(const QString& id) const;
    QStringList ids() const { return order_; }  // in the order they were added

private:
    QWidget* owner_;
    QHash<QString, QAction*> actions_;
    QStringList order_;
};

}  // namespace alignscope::ui
