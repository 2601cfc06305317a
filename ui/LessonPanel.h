#pragma once
#include <QPixmap>
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
    QLabel* textLabel() const { return text_; }
    // Title and text sized from `base` (the window's text font; larger in presenter mode).
    void setTextScale(const QFont& base);
    // The page's picture as loaded (null when the page has none), before scaling to the panel.
    QPixmap pageImage() const { return image_; }

    // The page's picture at full size in a window of its own (a click on the picture does this).
    void enlargeImage();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showPage(int page, int pages);
    void scaleImage();

    LessonPlayer* player_;
    QLabel* title_;
    QLabel* text_;
    QLabel* picture_;
    QPixmap image_;
    QLabel* counter_;
    QPushButton* previous_;
    QPushButton* next_;
};

}  // namespace alignscope::ui
