#pragma once
#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace alignscope::ui {

// Lessons' first entries: the shipped lessons, numbered as shipped (Alt+L then the lesson's
// number starts it; the numbers alone pick candidates), and Open lesson file…. A lesson that
// cannot be read is listed by its file name, disabled.
class LessonsMenu {
public:
    static void addLessons(QMenu* menu, QWidget* dialogParent, const std::function<void(const QString& path)>& start);
};

}  // namespace alignscope::ui
