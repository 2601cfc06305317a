#pragma once
#include <QWidget>

class QLabel;
class QPushButton;

namespace alignscope::ui {

class LessonPlayer;

// The lesson dock: the page's text, where we are, Previous / Next. Renders the player it is given.
class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(LessonPlayer* player, QWidget* parent = nullptr);
    QString pageText() const;

private:
    void showPage(int page, int pages);

    LessonPlayer* player_;
    QLabel* title_;
    QLabel* text_;
    QLabel* counter_;
    QPushButton* previous_;
    QPushButton* next_;
};

}  // namespace alignscope::ui
