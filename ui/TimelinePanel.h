#pragma once
#include "core/training/TrainingTimeline.h"

#include <QString>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QSlider;
class QPushButton;

namespace alignscope::ui {

// A training run's snapshots (train --snapshots K) as a slider, beside the training loss curve
// with the chosen snapshot marked. Choosing one emits its model file; the window opens it in the
// document, which keeps the sentence and its given target, so the heatmap's rows line up.
class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    void setTimeline(const core::TrainingTimeline& timeline);  // chooses the last snapshot
    const core::TrainingTimeline& timeline() const { return timeline_; }
    int current() const;         // index into timeline().snapshots()
    void choose(int index);      // as if the slider moved there
    void setCurrent(int index);  // the slider there, nothing opened (the caller opens that snapshot)
    QString snapshotPath(int index) const;
    QSlider* slider() const { return slider_; }
    QPushButton* exportButton() const { return export_; }
    QCustomPlot* lossPlot() const { return plot_; }
    // The height that shows the text, the slider and the loss curve at its least, whole (the panel
    // itself scrolls in less: a layout may still make it smaller).
    int wholeHeight() const;
    void setLabelFont(const QFont& font);  // the loss curve's ticks and axis titles (presenter mode enlarges them)

signals:
    void snapshotChosen(const QString& path);
    void exportRequested();  // "Export animation…": the snapshots as a GIF or PNG frames

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showCurrent();
    void fitAxisTitles();  // the titles again for the curve's size (shorter forms on a short axis)
    core::TrainingTimeline timeline_;
    QSlider* slider_;
    QLabel* label_;
    QPushButton* export_;
    QCustomPlot* plot_;
    QWidget* content_;
};

}  // namespace alignscope::ui
