#pragma once
#include "core/inspection/DecodingState.h"

#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QScrollArea;
class QVBoxLayout;

namespace alignscope::ui {

// One decoding step explained for a class, with the model's real numbers: the query s_{t-1},
// the energies e_{t,i}, the softmax alpha_{t,i}, the context c_t = sum_i alpha_{t,i} h_i, the
// decoder update to s_t, and the output distribution. A quantity the model does not report is
// named as missing, never made up. Renders the snapshots it is given.
class StepExplainedPanel : public QWidget {
    Q_OBJECT
public:
    explicit StepExplainedPanel(QWidget* parent = nullptr);
    void render(core::DecodingStatePtr state);

    // The numbers on show, for tests: energies and alpha per source token, output probabilities.
    const std::vector<double>& shownEnergies() const { return energies_; }
    const std::vector<double>& shownAlpha() const { return alpha_; }
    QString text(int part) const;              // the formula text of part 1..6
    QStringList chartLabels(int chart) const;  // category labels of chart 0 (energies), 1 (alpha), 2 (output)
    void setLabelFont(const QFont& font);      // the charts' tick labels (presenter mode enlarges them)
    // The part a lesson page talks about, scrolled to the top of the panel and kept there as the
    // steps change: query, energies, softmax, context, update, output or attribution; empty: the top.
    void showPart(const QString& name);
    static const QStringList& partNames();
    QWidget* partWidget(const QString& name) const;  // nullptr for an unknown name
    QScrollArea* scrollArea() const { return scroll_; }
    QCustomPlot* chart(int chart) const;  // 0 energies, 1 alpha, 2 output

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showAttribution(const core::DecodingState& s);
    void scrollToPart();
    QString part_;  // the part a lesson page names
    QLabel* parts_[6];
    QLabel* attributionPart_;        // the attribution asked for (View > Heatmap) against this step's attention
    QVBoxLayout* layout_ = nullptr;  // the parts in reading order (the decoder update moves for Luong-style models)
    QCustomPlot* energyPlot_;
    QCustomPlot* alphaPlot_;
    QCustomPlot* outputPlot_;
    QScrollArea* scroll_ = nullptr;  // the panel's scroll area: the wheel over a chart scrolls it
    std::vector<double> energies_, alpha_;
};

}  // namespace alignscope::ui
