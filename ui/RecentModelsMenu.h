#pragma once
#include <QObject>
#include <QString>

class QMenu;

namespace alignscope::ui {

// File > Open recent: the last models opened, newest first, kept in the settings. One entry per
// file however it was named (relative, through a link); two files of one name are told apart by
// their folder.
class RecentModelsMenu : public QObject {
    Q_OBJECT
public:
    explicit RecentModelsMenu(QMenu* menu);
    void remember(const QString& path);
    QMenu* menu() const { return menu_; }

signals:
    void openRequested(const QString& path);

private:
    void refresh();
    QMenu* menu_;
};

}  // namespace alignscope::ui
