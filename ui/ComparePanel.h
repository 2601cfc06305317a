#pragma once
#include "core/alignment/AlignmentComparison.h"
#include "core/evaluation/ModelScorecard.h"
#include "ui/FigureOptions.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QLabel;

namespace alignscope::ui {

class AlignmentComparisonFigure;
class CellScrollArea;

// The compare view's dock: model A's and model B's alignments of the sentence, their difference
// where the targets agree, a summary line, and both models' BLEU and AER on a test set when one
// was given. Renders what it is handed; decoding happens in the window's two documents.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    ~ComparePanel() override;

    void setOptions(const FigureOptions& options);
    void render(const core::AlignmentComparison& comparison);
    // In place of the figure: why there is nothing to compare (B failed, or is still decoding).
    void showMessage(const QString& message);
    // Test-set scores of A and B, or why they could not be computed; `pending` while they run.
    void setScores(const QString& testName, const std::vector<core::ModelScorecard>& cards);
    void setScoresMessage(const QString& message);  // progress; empty: none
    void setScoresError(const QString& message);
    QString scoresError() const { return scoresError_; }  // why the last test-set scores failed

    const std::optional<core::AlignmentComparison>& comparison() const { return comparison_; }
    const AlignmentComparisonFigure& figure() const { return *figure_; }
    QCustomPlot* plot() const { return plot_; }
    CellScrollArea* plotArea() const { return area_; }
    QString summaryText() const;  // the line above the figure and its details on hover (plain text)
    QString scoresText() const;   // the scores table (plain text), empty when none

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void draw();  // the figure at the panel's size, fitted
    QLabel* summary_;
    QLabel* scores_;
    CellScrollArea* area_;
    QCustomPlot* plot_;
    std::unique_ptr<AlignmentComparisonFigure> figure_;
    std::optional<core::AlignmentComparison> comparison_;
    FigureOptions options_;
    QString scoresError_;
};

}  // namespace alignscope::ui
