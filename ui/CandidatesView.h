#pragma once
#include "core/decoding/StepRecord.h"
#include "core/inspection/DecodingState.h"

#include <QWidget>

#include <vector>

namespace alignscope::ui {

// The top-k next tokens of the current step as labelled probability bars. Clicking a bar, or
// Enter on the row picked with Up and Down, asks for that token to be forced (what-if decoding).
// Rows, labels and numbers are measured in the widget's font, so larger text never cuts them.
class CandidatesView : public QWidget {
    Q_OBJECT
public:
    explicit CandidatesView(QWidget* parent = nullptr);

    // `chosen` is the token the step emitted (highlighted); `enabled` false greys out clicks;
    // `lastOutsideTop`: the last row is the chosen token from outside the top k (a forced one),
    // drawn apart and marked.
    void setCandidates(std::vector<core::Candidate> candidates, int64_t chosen, bool enabled, bool lastOutsideTop = false);
    // The current step's candidates. A shown beam hypothesis is read-only (a click would change
    // steps that are not on screen); a forced token outside the top k is listed after them, marked,
    // with its probability.
    void render(const core::DecodingState& s);
    bool lastOutsideTop() const { return lastOutsideTop_; }
    const std::vector<core::Candidate>& candidates() const { return candidates_; }
    QRect barRect(int index) const;  // where candidate `index` is drawn (tests click there)
    QSize sizeHint() const override;

signals:
    void candidateChosen(int64_t tokenId);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void showCursor();  // the cursor's row in view in the scroll area round this list
    int rowHeight() const;
    int labelWidth() const;
    QString rowText(size_t index) const;
    int numberWidth() const;
    int cursor_ = 0;  // the row Enter picks
    std::vector<core::Candidate> candidates_;
    int64_t chosen_ = -1;
    bool enabled_ = true;
    bool lastOutsideTop_ = false;
};

}  // namespace alignscope::ui
