#pragma once
#include <QPixmap>
#include <QWidget>

class QLabel;
class QPushButton;
class QScrollArea;

namespace alignscope::ui {

class LessonPlayer;

// The lesson dock: the page's text, where we are, Previous / Next. Renders the player it is given.
class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(LessonPlayer* player, QWidget* parent = nullptr);
    QString pageText() const;
    QString pageTitle() const;  // the lesson's title as shown (with a fallback note, on the stage the page number)
    QLabel* textLabel() const { return text_; }
    // Title and text sized from `base` (the window's text font; larger in presenter mode, where
    // `scale` also lets the picture grow past 1:1, as far as the panel's width allows).
    void setTextScale(const QFont& base, double scale = 1.0);
    // Presenter mode's caption band: no buttons (the keys turn the pages), the page number in the title.
    void setStage(bool on);
    // The page's picture as loaded (null when the page has none), before scaling to the panel.
    QPixmap pageImage() const { return image_; }

    // The page's picture at full size in a window of its own (a click on the picture does this).
    void enlargeImage();
    // One screenful of the page down (1) or up (-1) where the text runs past the panel (a small
    // projector); false where it is already at that end, so Page Down then turns the page.
    bool scrollPage(int direction);
    QScrollArea* textArea() const { return scroll_; }
    // The height that shows the whole page (title, text, picture and buttons) at this width.
    int pageHeight(int width) const;

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
    QScrollArea* scroll_;
    bool stage_ = false;
    double imageScale_ = 1.0;  // presenter mode: the picture may grow past 1:1 with the text
    QPixmap image_;
    QLabel* counter_;
    QPushButton* previous_;
    QPushButton* next_;
};

}  // namespace alignscope::ui
