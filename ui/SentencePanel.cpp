#include "ui/SentencePanel.h"

#include "ui/FigureOptions.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QFormLayout>
#include <QInputMethodEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTextCharFormat>
#include <QResizeEvent>
#include <QTimer>

#include <algorithm>

namespace alignscope::ui {

SentencePanel::SentencePanel(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    source_ = new QLineEdit;
    source_->setObjectName(QStringLiteral("sourceEdit"));
    source_->setPlaceholderText(tr("Type a source sentence and press Enter"));
    target_ = new QLineEdit;
    target_->setObjectName(QStringLiteral("targetEdit"));
    target_->setPlaceholderText(tr("Target sentence for teacher forcing"));
    tokens_ = new QLabel;
    tokens_->setTextFormat(Qt::RichText);
    tokens_->setWordWrap(true);
    tokens_->setToolTip(tr("The source as the model sees it; unknown words are marked"));
    translation_ = new QLabel;
    translation_->setObjectName(QStringLiteral("translationLabel"));
    translation_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    translation_->setWordWrap(true);
    form->addRow(tr("Source"), source_);
    form->addRow(tr("Tokens"), tokens_);
    form->addRow(tr("Target"), target_);
    form->addRow(tr("Translation"), translation_);
    showRows();
    // As tall as the wrapped translation and tokens need at the window's width, no taller (fitWrappedRows).
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    translation_->installEventFilter(this);
    tokens_->installEventFilter(this);

    typing_ = new QTimer(this);
    typing_->setSingleShot(true);
    typing_->setInterval(kTypingPauseMs);
    connect(typing_, &QTimer::timeout, this, [this] { emit sourcePaused(source_->text()); });
    connect(source_, &QLineEdit::textEdited, this, [this] {
        typing_->start();
        if (shown_) underlineTokens(*shown_);  // the text no longer matches its tokens: underlines go
    });
    connect(source_, &QLineEdit::returnPressed, this, [this] {
        typing_->stop();
        emit sourceSubmitted(source_->text());
    });
    connect(target_, &QLineEdit::returnPressed, this, &SentencePanel::targetSubmitted);
    connect(target_, &QLineEdit::textEdited, this, [this] {
        typing_->stop();
        QTimer::singleShot(kTypingPauseMs, this, &SentencePanel::targetPaused);
    });
}

void SentencePanel::render(core::DecodingStatePtr state) {
    shown_ = std::move(state);
    const auto& s = *shown_;
    QStringList parts;
    for (size_t i = 0; i < s.source.size(); ++i) {
        // No line break inside a token ("</s>" breaks after its slash otherwise): a word joiner holds it.
        const QString t =
            FigureOptions::tokenLabel(s.source.tokens[i]).replace(QLatin1Char('/'), QStringLiteral("/\u2060")).toHtmlEscaped();
        parts << (s.source.unknown[i] ? QStringLiteral("<span style='background-color:#fdd;color:#a00' title='%1'>%2</span>")
                                            .arg(tr("unknown to the model"), t)
                                      : QStringLiteral("<span style='background-color:#e4e8f4'>%1</span>").arg(t));
    }
    tokens_->setText(parts.join(QStringLiteral(" ")));
    fitWrappedRows();
    underlineTokens(s);
    showTranslation();
}

// On the stage a long translation keeps to kStageLines lines, its newest words in view (the rest
// is on the heatmap's axis): a 40-word sentence's translation took the screen.
void SentencePanel::showTranslation() {
    if (!shown_) return;
    QString text = QString::fromStdString(shown_->translation);
    translation_->setText(text.toHtmlEscaped());
    if (stage_ && translation_->width() > 0) {
        const int most = kStageLines * QFontMetrics(translation_->font()).lineSpacing() + 2;
        while (translation_->heightForWidth(translation_->width()) > most && text.size() > 1) {
            const int space = text.indexOf(QLatin1Char(' '), std::min<int>(static_cast<int>(text.size()) - 1, 8));
            text = space > 0 ? text.mid(space + 1) : text.mid(static_cast<int>(text.size()) / 2);
            translation_->setText(QStringLiteral("… ") + text.toHtmlEscaped());
        }
    }
    fitWrappedRows();
}

// A wrapped label in a form nested in the window's layout got a few pixels less than its lines
// need (the form's height-for-width is not asked again at the final width): it asks for them.
// The tokens' second line was cut in half at 1024x768 after a long sentence.
void SentencePanel::fitWrappedRows() {
    for (QLabel* label : {translation_, tokens_}) label->setMinimumHeight(std::max(0, label->heightForWidth(label->width())));
}

bool SentencePanel::eventFilter(QObject* watched, QEvent* event) {
    if ((watched == translation_ || watched == tokens_) && event->type() == QEvent::Resize) {
        if (watched == translation_ && stage_ && static_cast<QResizeEvent*>(event)->oldSize().width() != translation_->width())
            showTranslation();
        else fitWrappedRows();
    }
    return QWidget::eventFilter(watched, event);
}

// Each token underlined in the typed text, alternating colours so neighbours stay apart, unknown
// ones wavy red (a QLineEdit takes character formats through an input-method event).
void SentencePanel::underlineTokens(const core::DecodingState& s) {
    QList<QInputMethodEvent::Attribute> formats;
    if (source_->text().toStdString() == s.sourceText) {
        auto position = [&s](size_t byte) { return static_cast<int>(QString::fromStdString(s.sourceText.substr(0, byte)).size()); };
        for (size_t i = 0; i < s.source.size() && i < s.source.offsets.size(); ++i) {
            const auto [begin, end] = s.source.offsets[i];
            if (end <= begin || end > s.sourceText.size()) continue;  // </s>, the padding column
            QTextCharFormat f;
            f.setFontUnderline(true);
            f.setUnderlineStyle(s.source.unknown[i] ? QTextCharFormat::WaveUnderline : QTextCharFormat::SingleUnderline);
            f.setUnderlineColor(s.source.unknown[i] ? QColor("#c00") : i % 2 ? QColor("#2a6fdb") : QColor("#2ca02c"));
            const int from = position(begin) - source_->cursorPosition();  // relative to the cursor
            formats << QInputMethodEvent::Attribute(QInputMethodEvent::TextFormat, from, position(end) - position(begin), f);
        }
    }
    QInputMethodEvent event(QString(), formats);
    QCoreApplication::sendEvent(source_, &event);
}

void SentencePanel::setSource(const QString& text) {
    source_->setText(text);
    source_->setCursorPosition(0);  // a long sentence shows its start
}

void SentencePanel::showTarget(const QString& text) {
    targetWanted_ = !text.isEmpty();
    target_->setText(text);
    showRows();
}

void SentencePanel::setTargetVisible(bool visible) {
    targetWanted_ = visible;
    showRows();
}

void SentencePanel::setStage(bool on) {
    stage_ = on;
    showRows();
    showTranslation();
}

// Whole rows, label and field: a hidden field alone left its label ("Target") behind.
void SentencePanel::showRows() {
    auto* form = static_cast<QFormLayout*>(layout());
    form->setRowVisible(source_, !stage_);
    form->setRowVisible(tokens_, !stage_);
    form->setRowVisible(target_, !stage_ && targetWanted_);
}

QString SentencePanel::source() const { return source_->text(); }

QString SentencePanel::target() const { return target_->text(); }

void SentencePanel::stopTyping() { typing_->stop(); }

void SentencePanel::setTranslationFont(const QFont& font) {
    translation_->setFont(font);
    showTranslation();
}

}  // namespace alignscope::ui
