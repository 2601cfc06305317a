#include "ui/ComparePanel.h"

#include "ui/AlignmentComparisonFigure.h"
#include "ui/UiLanguage.h"
#include "ui/CellScrollArea.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QMouseEvent>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>

namespace alignscope::ui {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel),
      scores_(new QLabel),
      area_(new CellScrollArea),
      plot_(area_->plot()),
      figure_(std::make_unique<AlignmentComparisonFigure>(plot_)) {
    auto* layout = new QVBoxLayout(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scores_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scores_->hide();
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    plot_->setObjectName(QStringLiteral("comparePlot"));
    area_->setFocusPolicy(Qt::StrongFocus);  // Up/Down and Shift+Left/Right move the window of cells
    connect(area_, &CellScrollArea::resized, this, [this] {
        if (comparison_) draw();
    });
    connect(area_, &CellScrollArea::windowMoved, this, [this] {
        figure_->showWindow(area_->first(), area_->fitting());
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    layout->addWidget(summary_);
    layout->addWidget(scores_);
    layout->addWidget(area_, 1);
    showMessage(tr("Open a second model with File → Compare with…"));
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::setOptions(const FigureOptions& options) {
    options_ = options;
    if (comparison_) render(*comparison_);
}

void ComparePanel::render(const core::AlignmentComparison& comparison) {
    comparison_ = comparison;
    const auto& c = *comparison_;
    const QString level = !c.sameTokens() ? tr("The models read the source in different tokens: both are merged to words "
                                               "(a source word's columns summed, a target word's rows averaged).")
                          : c.wordLevel() ? tr("Both models read the source in the same tokens, merged to words here "
                                               "(View → Words: a source word's columns summed, a target word's rows averaged).")
                                          : tr("Both models read the source in the same tokens: compared token by token.");
    // One line above the heatmaps (their titles name A and B, their rows the targets); the rest on
    // hover, so a projector's panel keeps its height for the heatmaps.
    summary_->setText(tr("<b>%1 of %2 rows agree</b>; mean |A − B| %3, largest %4 (grey rows: the targets differ there).")
                          .arg(c.agreeingRows())
                          .arg(c.rowAgrees().size())
                          .arg(UiLanguage::number(c.meanAbsoluteDifference(), 3))
                          .arg(UiLanguage::number(c.largestAbsoluteDifference(), 3)));
    summary_->setToolTip(tr("<b>A</b> %1: <i>%2</i><br><b>B</b> %3: <i>%4</i><br>%5")
                             .arg(QString::fromStdString(c.a().name).toHtmlEscaped(), QString::fromStdString(c.a().target).toHtmlEscaped(),
                                  QString::fromStdString(c.b().name).toHtmlEscaped(), QString::fromStdString(c.b().target).toHtmlEscaped(),
                                  level));
    plot_->show();
    draw();
}

void ComparePanel::draw() {
    // The labels at the options' size (the stage's) where the three matrices fit whole so; else a
    // point smaller at a time, down to the window's size, before the matrices scroll.
    FigureOptions o = options_;
    const int smallest = std::min(o.fontSize, FigureOptions().fontSize);
    QSize fits;
    for (;; --o.fontSize) {
        figure_->show(*comparison_, o);
        fits = figure_->fit();
        if (fits == figure_->cells() || o.fontSize <= smallest) break;
    }
    area_->setCells(figure_->cells(), fits);
    figure_->showWindow(area_->first(), area_->fitting());
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void ComparePanel::showMessage(const QString& message) {
    comparison_.reset();
    summary_->setText(message.toHtmlEscaped());
    summary_->setToolTip(QString());
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->clear();
    plot_->replot();
    plot_->hide();
}

void ComparePanel::setScores(const QString& testName, const std::vector<core::ModelScorecard>& cards) {
    QString html = tr("<b>Test set</b> %1 (%2 sources, %3; cased BLEU over words and punctuation)<table cellspacing='6'>"
                      "<tr><th></th><th align='left'>model</th><th>BLEU</th>")
                       .arg(testName.toHtmlEscaped())
                       .arg(cards.empty() ? 0 : cards.front().segments)
                       .arg(cards.empty() ? QString() : QString::fromStdString(cards.front().search));
    const bool aer = !cards.empty() && cards.front().hasAer;
    if (aer) html += tr("<th>AER</th><th>precision</th><th>recall</th>");
    html += QStringLiteral("</tr>");
    for (size_t k = 0; k < cards.size(); ++k) {
        const auto& card = cards[k];
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td align='right'>%3</td>")
                    .arg(k == 0 ? QStringLiteral("A") : QStringLiteral("B"), QString::fromStdString(card.model).toHtmlEscaped())
                    .arg(card.bleu, 0, 'f', 2);
        if (aer)
            html += QStringLiteral("<td align='right'>%1</td><td align='right'>%2</td><td align='right'>%3</td>")
                        .arg(card.aer, 0, 'f', 2)
                        .arg(card.precision, 0, 'f', 2)
                        .arg(card.recall, 0, 'f', 2);
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    if (aer) html += tr("AER: attention forced along each reference, argmax links over words; lower is better.");
    scoresError_.clear();
    scores_->setText(html);
    scores_->show();
}

void ComparePanel::setScoresError(const QString& message) {
    scoresError_ = message;
    scores_->setText(QStringLiteral("<span style='color:#a00'>%1</span>").arg(message.toHtmlEscaped()));
    scores_->show();
}

void ComparePanel::setScoresMessage(const QString& message) {
    scoresError_.clear();
    scores_->setText(message.toHtmlEscaped());
    scores_->setVisible(!message.isEmpty());
}

QString ComparePanel::summaryText() const {
    QTextDocument d;
    d.setHtml(summary_->text() + (summary_->toolTip().isEmpty() ? QString() : QStringLiteral("<br>") + summary_->toolTip()));
    return d.toPlainText();
}

QString ComparePanel::scoresText() const {
    if (scores_->isHidden()) return {};
    QTextDocument d;
    d.setHtml(scores_->text());
    return d.toPlainText();
}

bool ComparePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && comparison_ && (event->type() == QEvent::MouseMove || event->type() == QEvent::Leave)) {
        std::optional<AlignmentComparisonFigure::Cell> cell;
        if (event->type() == QEvent::MouseMove) cell = figure_->cellAt(static_cast<QMouseEvent*>(event)->position());
        figure_->highlight(cell.value_or(AlignmentComparisonFigure::Cell{}));
        plot_->replot(QCustomPlot::rpQueuedReplot);
        if (cell) QToolTip::showText(static_cast<QMouseEvent*>(event)->globalPosition().toPoint(), figure_->describe(*cell), plot_);
        else QToolTip::hideText();
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace alignscope::ui
