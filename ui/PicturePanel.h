#pragma once
#include <QPixmap>
#include <QWidget>

namespace alignscope::ui {

// A lesson page's picture on presenter mode's stage: beside the heatmap in the column, drawn as
// large as the panel allows with its proportions kept (in the caption band a chart was cut to a
// strip). A click asks for it full size (LessonPanel::enlargeImage).
class PicturePanel : public QWidget {
    Q_OBJECT
public:
    explicit PicturePanel(QWidget* parent = nullptr);
    void setPicture(const QPixmap& picture);  // null: nothing to show
    bool hasPicture() const { return !picture_.isNull(); }
    QSize sizeHint() const override;

signals:
    void enlargeRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QPixmap picture_;
};

}  // namespace alignscope::ui
