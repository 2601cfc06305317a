#pragma once
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

class QCustomPlot;

namespace alignscope::ui {

// One line of the figure: a model and a search, scored per source-length bucket.
struct BleuSeries {
    QString name;          // legend entry, e.g. "en-fr (attention), beam 5"
    QVector<double> bleu;  // [buckets] corpus BLEU 0..100; NaN where the bucket was empty
    bool dashed = false;   // draw the line dashed (e.g. greedy beside beam)
    int colour = -1;       // palette index (lines of one model share it); -1: the next unused
};

// The figure of Bahdanau et al. 2014 (Fig. 2): corpus BLEU against source-sentence length, one
// line per model and search. It only draws: the scores come from core::Evaluator (through
// `alignscope-cli evaluate --json`). Main (GUI) thread only, like every QWidget.
class BleuByLengthPlot {
public:
    // bucketLabels: "1-4", "5", ..., "15+"; bucketSentences: [buckets] segments in each.
    BleuByLengthPlot(QStringList bucketLabels, QVector<int> bucketSentences, QString title);
    ~BleuByLengthPlot();  // out of line: QCustomPlot is incomplete here
    BleuByLengthPlot(const BleuByLengthPlot&) = delete;
    BleuByLengthPlot& operator=(const BleuByLengthPlot&) = delete;

    // Throws core::Error when the series does not have one value per bucket.
    void addSeries(const BleuSeries& series);
    // Writes a PNG of about width x height pixels (the layout is made at 96 dpi and scaled to
    // `dpi`, so each side can be off by up to dpi/96 pixels) with `dpi` recorded in the file.
    // Throws core::Error with the reason when the file cannot be written.
    void savePng(const QString& path, int width, int height, int dpi) const;

    QCustomPlot* plot() const { return plot_.get(); }

private:
    QStringList labels_;
    QVector<int> sentences_;
    std::unique_ptr<QCustomPlot> plot_;
    int seriesCount_ = 0;
};

}  // namespace alignscope::ui
