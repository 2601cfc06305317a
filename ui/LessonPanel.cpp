#include "ui/LessonPanel.h"

#include "ui/LessonLanguage.h"
#include "ui/LessonPlayer.h"

#include <QDialog>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

namespace alignscope::ui {

// The title and text a little above the window's text, whatever size that is (presenter mode).
void LessonPanel::setTextScale(const QFont& base, double scale) {
    QFont bold = base;
    bold.setBold(true);
    bold.setPointSizeF(base.pointSizeF() * 1.25);
    title_->setFont(bold);
    QFont text = base;
    text.setPointSizeF(base.pointSizeF() * (stage_ ? 1.0 : 1.1));  // the stage's band: every line counts
    text_->setFont(text);
    for (auto* w : {static_cast<QWidget*>(counter_), static_cast<QWidget*>(previous_), static_cast<QWidget*>(next_)}) w->setFont(base);
    imageScale_ = std::max(1.0, scale);  // a chart's picture carries its own text: it grows with the rest
    scaleImage();
}

LessonPanel::LessonPanel(LessonPlayer* player, QWidget* parent) : QWidget(parent), player_(player) {
    title_ = new QLabel;
    title_->setWordWrap(true);
    text_ = new QLabel;
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    text_->setObjectName(QStringLiteral("lessonText"));
    picture_ = new QLabel;
    picture_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    picture_->setMinimumSize(1, 1);  // the pixmap follows the panel's width, not the other way round
    picture_->hide();
    picture_->setCursor(Qt::PointingHandCursor);
    picture_->setToolTip(tr("Click to see the picture full size"));
    picture_->installEventFilter(this);
    counter_ = new QLabel;
    previous_ = new QPushButton(tr("◀ Previous"));
    next_ = new QPushButton(tr("Next ▶"));
    previous_->setToolTip(tr("Previous page (Page Up)"));
    next_->setToolTip(tr("Next page (Page Down)"));
    connect(previous_, &QPushButton::clicked, player_, &LessonPlayer::previous);
    connect(next_, &QPushButton::clicked, player_, &LessonPlayer::next);
    connect(player_, &LessonPlayer::pageChanged, this, &LessonPanel::showPage);
    connect(player_, &LessonPlayer::stopped, this, [this] { showPage(-1, 0); });  // View → Lesson shows no ended lesson
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(previous_);
    buttons->addStretch(1);
    buttons->addWidget(counter_);
    buttons->addStretch(1);
    buttons->addWidget(next_);
    // Title, text and picture scroll together when a small screen cannot hold them; the buttons
    // stay in view.
    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(title_);
    pageLayout->addWidget(text_);
    pageLayout->addWidget(picture_);
    pageLayout->addStretch(1);
    scroll_ = new QScrollArea;
    scroll_->setObjectName(QStringLiteral("lessonScroll"));
    scroll_->setWidget(page);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the text wraps to the width
    scroll_->setFocusPolicy(Qt::NoFocus);                           // Page Down reaches it from anywhere
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll_, 1);
    layout->addLayout(buttons);
    setMinimumWidth(300);
    setTextScale(font());
    showPage(-1, 0);
}

QString LessonPanel::pageText() const { return text_->text(); }

QString LessonPanel::pageTitle() const { return title_->text(); }

void LessonPanel::setStage(bool on) {
    stage_ = on;
    for (auto* w : {static_cast<QWidget*>(counter_), static_cast<QWidget*>(previous_), static_cast<QWidget*>(next_)}) w->setVisible(!on);
    picture_->setVisible(!image_.isNull() && !on);
    if (player_->running()) showPage(player_->page(), static_cast<int>(player_->lesson().pages.size()));
}

bool LessonPanel::scrollPage(int direction) {
    auto* bar = scroll_->verticalScrollBar();
    if (direction > 0 ? bar->value() >= bar->maximum() : bar->value() <= bar->minimum()) return false;
    // A screenful less two lines, so the line read last stays in view.
    const int lines = 2 * QFontMetrics(text_->font()).lineSpacing();
    bar->setValue(bar->value() + direction * std::max(bar->singleStep(), scroll_->viewport()->height() - lines));
    return true;
}

int LessonPanel::pageHeight(int width) const {
    const QMargins outer = layout()->contentsMargins();
    // Measured beside a scroll bar: a page that fits exactly without one wrapped a line more with it.
    const int inner = width - outer.left() - outer.right() - style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    int page = 0;
    for (auto* part : {title_, text_, picture_})
        if (!part->isHidden())
            page += (part->hasHeightForWidth() ? part->heightForWidth(inner) : part->sizeHint().height()) +
                    scroll_->widget()->layout()->spacing();
    const int buttons = next_->isHidden() ? 0 : layout()->spacing() + next_->sizeHint().height();
    return outer.top() + page + buttons + outer.bottom();
}

void LessonPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    scaleImage();
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == picture_ && event->type() == QEvent::MouseButtonRelease) {
        enlargeImage();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LessonPanel::enlargeImage() {
    if (image_.isNull()) return;
    auto* dialog = new QDialog(window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title_->text());
    auto* label = new QLabel;
    // Fit the screen (a projector may be smaller than the picture), never enlarge past 1:1.
    const QSize room = screen() ? screen()->availableSize() * 0.9 : QSize(1600, 1000);
    label->setPixmap(image_.size().boundedTo(room) == image_.size() ? image_
                                                                    : image_.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(label);
    dialog->show();
}

void LessonPanel::scaleImage() {
    if (image_.isNull()) return;
    // Scaled in device pixels, so the picture stays sharp on a high-density screen.
    const double ratio = devicePixelRatioF();
    const int room = scroll_->viewport()->width() - 4;
    const int width = std::min(qRound(image_.width() * imageScale_), qRound(std::max(50, room) * ratio));
    QPixmap scaled = image_.scaledToWidth(width, Qt::SmoothTransformation);
    scaled.setDevicePixelRatio(ratio);
    picture_->setPixmap(scaled);
}

void LessonPanel::showPage(int page, int pages) {
    if (page < 0) {
        title_->setText(tr("No lesson"));
        text_->setText(tr("Choose one from the Lessons menu."));
        counter_->clear();
        image_ = QPixmap();
        picture_->hide();
        previous_->setEnabled(false);
        next_->setEnabled(false);
        return;
    }
    // On the stage the buttons give way (Page Down / Page Up turn the pages): the title says where we are.
    // A lesson shown in English for want of the interface's language says so beside its title.
    const QString note = LessonLanguage::fallbackNote(player_->lesson());
    const QString title = note.isEmpty() ? player_->lesson().title : tr("%1 (%2)").arg(player_->lesson().title, note);
    title_->setText(stage_ ? tr("%1 · %2 / %3").arg(title).arg(page + 1).arg(pages) : title);
    const auto& p = player_->lesson().pages[page];
    text_->setText(p.html);  // the page's markup, checked and converted when the lesson was loaded
    image_ = p.picture.isNull() ? QPixmap() : QPixmap::fromImage(p.picture);
    picture_->setVisible(!image_.isNull() && !stage_);  // on the stage it has a panel of its own
    scaleImage();
    counter_->setText(tr("%1 / %2").arg(page + 1).arg(pages));
    scroll_->verticalScrollBar()->setValue(0);  // each page is read from its top
    previous_->setEnabled(page > 0);
    next_->setEnabled(page + 1 < pages);
}

}  // namespace alignscope::ui
