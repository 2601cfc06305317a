#pragma once
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QActionGroup;
class QMenu;

namespace alignscope::ui {

// A submenu of exclusive choices, each a name (the action's data; "" for the first, the default)
// and its text: View > Heatmap's methods, View > Links's rules. Picking one calls `chosen` with
// its name; choose() sets one from code (a view, the command line) without calling it.
class ChoiceMenu : public QObject {
    Q_OBJECT
public:
    using Choices = QList<QPair<QString, QString>>;  // name, menu text
    ChoiceMenu(QMenu* menu, const QString& objectPrefix, const Choices& choices, std::function<void(const QString&)> chosen);

    bool choose(const QString& name);  // false: no such choice (nothing changes)
    QString chosen() const;
    QStringList names() const;  // every choice's name, in the menu's order ("" the default)
    QList<QAction*> actions() const;

private:
    QActionGroup* group_;
};

}  // namespace alignscope::ui
