#include "ui/BleuByLengthPlot.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"

#include <QBuffer>
#include <QImage>
#include <qcustomplot.h>

#include <cmath>

namespace alignscope::ui {
namespace {

// Colour-blind-safe (Okabe-Ito, black left out), one per model; shapes tell them apart in grey.
const QColor kColours[] = {QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115), QColor(204, 121, 167),
                           QColor(230, 159, 0), QColor(86, 180, 233), QColor(240, 228, 66)};
const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
                                                 QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssPlus,
                                                 QCPScatterStyle::ssStar};
constexpr int kStyles = 7;

}  // namespace

BleuByLengthPlot::BleuByLengthPlot(QStringList bucketLabels, QVector<int> bucketSentences, QString title)
    : labels_(std::move(bucketLabels)), sentences_(std::move(bucketSentences)) {
    if (labels_.isEmpty() || labels_.size() != sentences_.size())
        throw core::Error("BLEU-by-length plot: one sentence count per bucket is needed");
    plot_ = std::make_unique<QCustomPlot>();
    QFont font = plot_->font();
    font.setPointSizeF(10);
    plot_->setFont(font);
    if (!title.isEmpty()) {
        plot_->plotLayout()->insertRow(0);
        QFont titleFont = font;
        titleFont.setPointSizeF(12);
        titleFont.setBold(true);
        plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_.get(), title, titleFont));
    }
    // Bucket i sits at x = i; its label says the lengths and how many sentences it holds, so a
    // point made of few sentences can be read as such.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < labels_.size(); ++i) ticker->addTick(i, QStringLiteral("%1\n(%2)").arg(labels_[i]).arg(sentences_[i]));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setLabel(QStringLiteral("source sentence length in tokens (sentences in the bucket)"));
    plot_->xAxis->setRange(-0.5, labels_.size() - 0.5);
    plot_->xAxis->setTickLabelFont(font);
    plot_->xAxis->setLabelFont(font);
    plot_->yAxis->setLabel(QStringLiteral("corpus BLEU"));
    plot_->yAxis->setTickLabelFont(font);
    plot_->yAxis->setLabelFont(font);
    plot_->xAxis->grid()->setVisible(false);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font);
    // The legend sits in its own row under the axes, two entries a line: inside the axes it would
    // cover a curve wherever the curves happen to run.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    const int legendRow = plot_->plotLayout()->rowCount();
    plot_->plotLayout()->addElement(legendRow, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(legendRow, 0.001);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(2);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setMargins(QMargins(6, 0, 6, 6));
}

BleuByLengthPlot::~BleuByLengthPlot() = default;

void BleuByLengthPlot::addSeries(const BleuSeries& series) {
    if (series.bleu.size() != labels_.size())
        throw core::Error(QStringLiteral("BLEU-by-length plot: '%1' has %2 values for %3 buckets")
                              .arg(series.name)
                              .arg(series.bleu.size())
                              .arg(labels_.size())
                              .toStdString());
    auto* graph = plot_->addGraph();
    graph->setName(series.name);
    const int k = (series.colour >= 0 ? series.colour : seriesCount_) % kStyles;
    ++seriesCount_;
    QPen pen(kColours[k], 2.0);
    if (series.dashed) pen.setStyle(Qt::DashLine);
    graph->setPen(pen);
    graph->setScatterStyle(QCPScatterStyle(kShapes[k], kColours[k], kColours[k], 7));
    QVector<double> x, y;
    for (int i = 0; i < series.bleu.size(); ++i) {
        if (std::isnan(series.bleu[i])) continue;  // an empty bucket has no score: a gap, not a zero
        x << i;
        y << series.bleu[i];
    }
    graph->setData(x, y, true);
    double top = 0;
    for (int i = 0; i < plot_->graphCount(); ++i)
        for (auto it = plot_->graph(i)->data()->constBegin(); it != plot_->graph(i)->data()->constEnd(); ++it)
            top = std::max(top, it->value);
    plot_->yAxis->setRange(0, std::max(10.0, std::ceil((top + 5) / 10) * 10));
}

void BleuByLengthPlot::savePng(const QString& path, int width, int height, int dpi) const {
    if (width < 100 || height < 100 || width > 10000 || height > 10000)
        throw core::Error("BLEU-by-length plot: size must be 100-10000 pixels each way");
    // Lay out at 96 dpi (the fonts' point sizes), then scale: the picture looks the same at any dpi.
    const double scale = dpi / 96.0;
    plot_->setGeometry(0, 0, qRound(width / scale), qRound(height / scale));
    plot_->replot(QCustomPlot::rpImmediateRefresh);
    core::AtomicFile::checkWritable(path.toStdString());
    // Encoded in memory and written through AtomicFile: a full disk leaves no truncated PNG.
    QImage image = plot_->toPixmap(qRound(width / scale), qRound(height / scale), scale).toImage();
    const int dotsPerMeter = qRound(dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) throw core::Error("cannot encode the BLEU-by-length plot as PNG");
    core::AtomicFile::write(path.toStdString(), png.toStdString());
}

}  // namespace alignscope::ui
