#include "ui/TimelinePanel.h"

#include "ui/PlotStyle.h"
#include "ui/UiLanguage.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QLocale>
#include <QResizeEvent>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>

namespace alignscope::ui {

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    // In a scroll area: a short dock (presenter mode's column) scrolls rather than cutting the curve.
    auto* content = content_ = new QWidget;
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    label_ = new QLabel;
    label_->setWordWrap(true);
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setPageStep(1);
    slider_->setTickPosition(QSlider::TicksBelow);
    plot_ = new QCustomPlot;
    plot_->setLocale(QLocale::c());  // the axes' numbers are data: a dot, whatever the UI language
    plot_->setMinimumHeight(160);
    plot_->installEventFilter(this);
    fitAxisTitles();
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    export_ = new QPushButton(tr("Export animation…"));
    export_->setToolTip(tr("The sentence through every snapshot, as an animated GIF or numbered PNG frames"));
    connect(export_, &QPushButton::clicked, this, &TimelinePanel::exportRequested);
    // The text over the whole width, the button beside the slider: fewer lines in a narrow dock.
    auto* controls = new QHBoxLayout;
    controls->addWidget(slider_, 1);
    controls->addWidget(export_);
    layout->addWidget(label_);
    layout->addLayout(controls);
    layout->addWidget(plot_, 1);
    // Released or stepped with the keys: each position is a model to load, so not while dragging.
    slider_->setTracking(false);
    connect(slider_, &QSlider::valueChanged, this, [this](int) {
        showCurrent();
        emit snapshotChosen(snapshotPath(current()));
    });
}

void TimelinePanel::setTimeline(const core::TrainingTimeline& timeline) {
    timeline_ = timeline;
    const int n = static_cast<int>(timeline_.snapshots().size());
    plot_->clearGraphs();
    auto* loss = plot_->addGraph();
    loss->setPen(QPen(QColor("#1f77b4")));
    // The per-update loss is noisy: a running mean over 2 % of the run draws the trend.
    const auto& raw = timeline_.loss();
    const size_t window = std::max<size_t>(1, raw.size() / 50);
    double sum = 0;
    for (size_t i = 0; i < raw.size(); ++i) {
        sum += raw[i];
        if (i >= window) sum -= raw[i - window];
        loss->addData(static_cast<double>(i + 1), sum / static_cast<double>(std::min(i + 1, window)));
    }
    auto* marks = plot_->addGraph();
    marks->setLineStyle(QCPGraph::lsNone);
    marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor("#d62728"), Qt::white, 7));
    // Each snapshot sits on the curve (the trend at its update; its own smoothed loss lags it).
    for (const auto& s : timeline_.snapshots()) {
        const auto at = loss->data()->findBegin(static_cast<double>(s.step), false);
        marks->addData(static_cast<double>(s.step), at != loss->data()->constEnd() && !raw.empty() ? at->value : s.loss);
    }
    plot_->rescaleAxes();
    plot_->yAxis->setRange(0, plot_->yAxis->range().upper * 1.08);  // room for the marks at the top
    plot_->xAxis->setRange(
        0.8, std::max<double>(2.0, static_cast<double>(std::max<size_t>(raw.size(), n ? timeline_.snapshots().back().step : 1)) * 1.25));
    slider_->blockSignals(true);
    slider_->setRange(0, std::max(0, n - 1));
    slider_->setValue(std::max(0, n - 1));
    slider_->blockSignals(false);
    showCurrent();
}

void TimelinePanel::setLabelFont(const QFont& font) {
    for (auto* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
    }
    // Room for a few ticks on the loss axis and, under it, its tick labels and the x axis's title;
    // the loss axis's title takes a shorter form where the axis is shorter than it (fitAxisTitles).
    plot_->setMinimumHeight(std::max(150, QFontMetrics(font).lineSpacing() * 9 / 2));
    fitAxisTitles();
}

void TimelinePanel::fitAxisTitles() {
    plot_->xAxis->setLabel(tr("update (log scale)"));
    plot_->yAxis->setLabel(tr("loss (NLL/token)"));
    PlotStyle::layOut(plot_);
    PlotStyle::fitLabels(plot_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool TimelinePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize) fitAxisTitles();
    return QWidget::eventFilter(watched, event);
}

int TimelinePanel::wholeHeight() const { return content_->layout()->minimumSize().height(); }

int TimelinePanel::current() const { return slider_->value(); }

void TimelinePanel::choose(int index) { slider_->setValue(index); }

void TimelinePanel::setCurrent(int index) {
    const QSignalBlocker quiet(slider_);
    slider_->setValue(index);
    showCurrent();
}

QString TimelinePanel::snapshotPath(int index) const {
    const auto& s = timeline_.snapshots();
    if (index < 0 || index >= static_cast<int>(s.size())) return {};
    return QString::fromStdString(timeline_.folder() + "/" + s[static_cast<size_t>(index)].file);
}

void TimelinePanel::showCurrent() {
    const auto& snaps = timeline_.snapshots();
    const int i = current();
    if (i < 0 || i >= static_cast<int>(snaps.size())) return;
    const auto& s = snaps[static_cast<size_t>(i)];
    // Counts in the UI language's grouping (12,000 / 12.000 / 12 000), the loss with its decimal sign.
    const QLocale locale;
    const auto total = timeline_.updates();
    label_->setToolTip(tr("The heatmap is this snapshot's alignment of the sentence, forced along one target."));
    label_->setText(tr("<b>%1</b>: snapshot %2 of %3, after update %4 of %5 (training loss %6)")
                        .arg(QString::fromStdString(timeline_.name()).toHtmlEscaped())
                        .arg(i + 1)
                        .arg(snaps.size())
                        .arg(locale.toString(static_cast<qlonglong>(s.step)))
                        .arg(locale.toString(static_cast<qlonglong>(total)))
                        .arg(UiLanguage::number(s.loss, 2)));
    // The chosen snapshot: a vertical line on the loss curve.
    for (int k = plot_->itemCount() - 1; k >= 0; --k) plot_->removeItem(k);
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(static_cast<double>(s.step), 0);
    line->point2->setCoords(static_cast<double>(s.step), 1);
    line->setPen(QPen(QColor("#d62728"), 2, Qt::DashLine));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace alignscope::ui
