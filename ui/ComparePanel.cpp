#include "ui/ComparePanel.h"

#include "ui/AlignmentComparisonFigure.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QMouseEvent>
#include <QScrollArea>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>

namespace alignscope::ui {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent), summary_(new QLabel), scores_(new QLabel), scroll_(new QScrollArea), plot_(new QCustomPlot),
      figure_(std::make_unique<AlignmentComparisonFigure>(plot_)) {
    auto* layout = new QVBoxLayout(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scores_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scores_->hide();
    scroll_->setWidget(plot_);
    scroll_->setWidgetResizable(false);
    scroll_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    plot_->setObjectName(QStringLiteral("comparePlot"));
    scroll_->installEventFilter(this);
    layout->addWidget(summary_);
    layout->addWidget(scores_);
    layout->addWidget(scroll_, 1);
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
                          : c.wordLevel()  ? tr("Both models read the source in the same tokens, merged to words here "
                                                "(View → Words: a source word's columns summed, a target word's rows averaged).")
                                           : tr("Both models read the source in the same tokens: compared token by token.");
    summary_->setText(tr("<b>A</b> %1: <i>%2</i><br><b>B</b> %3: <i>%4</i><br>%5 %6 of %7 rows agree; mean |A − B| %8, "
                         "largest %9 (grey rows: the targets differ there).")
                          .arg(QString::fromStdString(c.a().name).toHtmlEscaped(), QString::fromStdString(c.a().target).toHtmlEscaped(),
                               QString::fromStdString(c.b().name).toHtmlEscaped(), QString::fromStdString(c.b().target).toHtmlEscaped(),
                               level)
                          .arg(c.agreeingRows())
                          .arg(c.rowAgrees().size())
                          .arg(c.meanAbsoluteDifference(), 0, 'f', 3)
                          .arg(c.largestAbsoluteDifference(), 0, 'f', 3));
    plot_->show();
    fitPlot();
    figure_->show(c, options_);
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void ComparePanel::showMessage(const QString& message) {
    comparison_.reset();
    summary_->setText(message.toHtmlEscaped());
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
    d.setHtml(summary_->text());
    return d.toPlainText();
}

QString ComparePanel::scoresText() const {
    if (scores_->isHidden()) return {};
    QTextDocument d;
    d.setHtml(scores_->text());
    return d.toPlainText();
}

void ComparePanel::fitPlot() {
    if (!comparison_) return;
    const QSize need = AlignmentComparisonFigure::preferredSize(*comparison_, options_);
    const QSize have = scroll_->viewport()->size();
    plot_->resize(std::max(need.width(), have.width()), std::max(need.height(), have.height()));
}

void ComparePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitPlot();
}

// The scroll area's viewport has its new size only once the area has handled its resize: fit then.
void ComparePanel::fitLater() {
    QMetaObject::invokeMethod(this, [this] { fitPlot(); }, Qt::QueuedConnection);
}

bool ComparePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_ && event->type() == QEvent::Resize) fitLater();
    if (watched == plot_ && comparison_ && (event->type() == QEvent::MouseMove || event->type() == QEvent::Leave)) {
        std::optional<AlignmentComparisonFigure::Cell> cell;
        if (event->type() == QEvent::MouseMove) cell = figure_->cellAt(static_cast<QMouseEvent*>(event)->position());
        figure_->highlight(cell.value_or(AlignmentComparisonFigure::Cell{}));
        plot_->replot(QCustomPlot::rpQueuedReplot);
        if (cell)
            QToolTip::showText(static_cast<QMouseEvent*>(event)->globalPosition().toPoint(), figure_->describe(*cell), plot_);
        else
            QToolTip::hideText();
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace alignscope::ui
