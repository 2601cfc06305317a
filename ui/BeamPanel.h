#pragma once
#include <QWidget>

#include <string>
#include <vector>

class QFontMetrics;
class QListWidget;

namespace alignscope::core {
struct DecodingState;
}

namespace alignscope::ui {

// The Beam hypotheses dock's contents: each hypothesis with its score, best first. A hypothesis
// too long for the panel keeps the words where it differs from the best one (the best: from the
// runner-up) and loses the words they share ("… européenne signé …"), so two that differ in the
// middle never look the same.
class BeamPanel : public QWidget {
    Q_OBJECT
public:
    explicit BeamPanel(QWidget* parent = nullptr);

    void render(const core::DecodingState& s);
    QListWidget* list() const { return list_; }

    // Hypothesis k of `texts` as shown in `width` pixels: whole where it fits; else the words it
    // shares with the best at the start and the end become "…" (one shared word kept on each side
    // for context), and only then is the rest elided at the right.
    static QString shownText(const std::vector<std::string>& texts, size_t k, const QFontMetrics& metrics, int width);

signals:
    void hypothesisChosen(int row);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fill();

    QListWidget* list_;
    std::vector<std::string> texts_;
    std::vector<double> scores_;
    int selected_ = -1;
};

}  // namespace alignscope::ui
