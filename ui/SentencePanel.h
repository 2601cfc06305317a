#pragma once
#include "core/inspection/DecodingState.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QTimer;

namespace alignscope::ui {

// The sentence at the top of the window: the source typed, its tokens as the model reads them
// (unknown ones marked), the target given for teacher forcing and the translation. Renders the
// snapshots it is given and says what the user typed; the window decides what to decode.
class SentencePanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kTypingPauseMs = 250;  // an edit is acted on once typing pauses this long
    static constexpr int kStageLines = 2;       // the translation's lines on the stage at most

    explicit SentencePanel(QWidget* parent = nullptr);

    void render(core::DecodingStatePtr state);  // tokens (underlined in the typed text) and translation
    void setSource(const QString& text);        // the box's text, from its start; no signal
    void showTarget(const QString& text);       // the Target box with this text; empty: hidden
    void setTargetVisible(bool visible);
    QString source() const;
    QString target() const;
    void stopTyping();  // an edit waiting for its pause is dropped
    void setTranslationFont(const QFont& font);
    // Presenter mode's stage: the translation only (the class reads the sentence on the heatmap's
    // axis); off, the Source and Tokens rows again, and Target where it was asked for.
    void setStage(bool on);

    QLineEdit* sourceEdit() const { return source_; }
    QLineEdit* targetEdit() const { return target_; }
    QLabel* tokensLabel() const { return tokens_; }
    QLabel* translationLabel() const { return translation_; }

signals:
    void sourcePaused(const QString& text);     // the source was edited and typing paused
    void sourceSubmitted(const QString& text);  // Enter in the Source box
    void targetPaused();                        // the target was edited and typing paused
    void targetSubmitted();                     // Enter in the Target box

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void underlineTokens(const core::DecodingState& s);
    void fitWrappedRows();
    void showRows();
    void showTranslation();

    QLineEdit* source_;
    QLineEdit* target_;
    QLabel* tokens_;
    QLabel* translation_;
    QTimer* typing_;
    core::DecodingStatePtr shown_;
    bool stage_ = false;
    bool targetWanted_ = false;  // the Target row, outside the stage
};

}  // namespace alignscope::ui
