#include "ui/StepExplainedPanel.h"

#include "ui/FigureOptions.h"
#include "ui/UiLanguage.h"
#include "core/model/Model.h"
#include "core/text/PieceText.h"

#include <qcustomplot.h>

#include <QLabel>

#include "core/attribution/AttributionAgreement.h"
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace alignscope::ui {
namespace {

// A number in a sentence: the UI language's decimal sign (the charts' axes keep a dot).
QString num(double v, int precision = 3) { return UiLanguage::number(v, precision); }

double norm(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += static_cast<double>(x) * x;
    return std::sqrt(s);
}

QString tok(const std::string& t) { return FigureOptions::tokenLabel(t).toHtmlEscaped(); }

QCustomPlot* barPlot(int height) {
    auto* p = new QCustomPlot;
    p->setLocale(QLocale::c());  // the charts' numbers are data: a dot, whatever the UI language
    p->setMinimumHeight(height);
    p->setMaximumHeight(height);
    p->xAxis->grid()->setVisible(false);
    p->xAxis->setSubTicks(false);
    p->yAxis->setSubTicks(false);
    return p;
}

// An empty chart: no bars and no category labels (labels left from another sentence would show
// its words under this one's chart).
void clearPlot(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    // Nor its value range: an empty chart has no scale to read.
    plot->xAxis->setRange(0, 1);
    plot->yAxis->setRange(0, 1);
    plot->yAxis->setTickLabels(false);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

// Bars over labelled categories.
void showBars(QCustomPlot* plot, const std::vector<QString>& labels, const std::vector<double>& values, const QColor& color,
              int highlight) {
    plot->clearPlottables();
    // Upright labels while they fit side by side (in the labels' own font), slanted otherwise; where
    // even slanted ones would overlap (a long sentence in a narrow panel), every k-th category is
    // labelled, and always the highlighted one, which the text beside the chart names.
    const QFontMetrics fm(plot->xAxis->tickLabelFont());
    const int n = static_cast<int>(values.size());
    const int width = std::max(1, plot->width() - 50);
    int total = 0;
    for (const auto& l : labels) total += fm.horizontalAdvance(l) + fm.horizontalAdvance(QStringLiteral("  "));
    const bool slanted = total > width;
    plot->xAxis->setTickLabelRotation(slanted ? -60 : 0);
    const double slantedLabelWidth = fm.height() * 1.25;  // across the axis, at 60 degrees
    const int every = slanted ? std::max(1, static_cast<int>(std::ceil(slantedLabelWidth * n / width))) : 1;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keys, vals, hkeys, hvals;
    for (int i = 0; i < n; ++i) {
        const bool shown = i == highlight || (i % every == 0 && (highlight < 0 || std::abs(i - highlight) >= every));
        ticker->addTick(static_cast<double>(i), shown ? labels[i] : QString());
        (i == highlight ? hkeys : keys).push_back(static_cast<double>(i));
        (i == highlight ? hvals : vals).push_back(values[i]);
    }
    plot->xAxis->setTicker(ticker);
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setData(keys, vals);
    bars->setBrush(color);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.7);
    auto* peak = new QCPBars(plot->xAxis, plot->yAxis);
    peak->setData(hkeys, hvals);
    peak->setBrush(QColor("#ff7f0e"));
    peak->setPen(Qt::NoPen);
    peak->setWidth(0.7);
    plot->xAxis->setRange(-0.6, static_cast<double>(values.size()) - 0.4);
    double lo = 0, hi = 0;
    for (double v : values) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    plot->yAxis->setRange(lo - 0.05 * (hi - lo + 1e-9), hi + 0.1 * (hi - lo + 1e-9));
    plot->yAxis->setTickLabels(true);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace

StepExplainedPanel::StepExplainedPanel(QWidget* parent) : QWidget(parent) {
    auto* inner = new QWidget;
    auto* layout = layout_ = new QVBoxLayout(inner);
    for (int i = 0; i < 6; ++i) {
        parts_[i] = new QLabel;
        parts_[i]->setWordWrap(true);
        parts_[i]->setTextFormat(Qt::RichText);
        parts_[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        parts_[i]->setObjectName(QStringLiteral("stepPart%1").arg(i + 1));
    }
    attributionPart_ = new QLabel;
    attributionPart_->setWordWrap(true);
    attributionPart_->setTextFormat(Qt::RichText);
    attributionPart_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    attributionPart_->setObjectName(QStringLiteral("stepAttribution"));
    attributionPart_->hide();
    energyPlot_ = barPlot(150);
    alphaPlot_ = barPlot(150);
    outputPlot_ = barPlot(150);
    layout->addWidget(attributionPart_);  // first, where a lesson's reader sees it without scrolling
    layout->addWidget(parts_[0]);
    layout->addWidget(parts_[1]);
    layout->addWidget(energyPlot_);
    layout->addWidget(parts_[2]);
    layout->addWidget(alphaPlot_);
    layout->addWidget(parts_[3]);
    layout->addWidget(parts_[4]);
    layout->addWidget(parts_[5]);
    layout->addWidget(outputPlot_);
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(inner);
    scroll->setWidgetResizable(true);
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll_ = scroll;
    connect(scroll->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this] { scrollToPart(); });
    // QCustomPlot takes wheel events even without zooming: hand them to the scroll area.
    for (auto* p : {energyPlot_, alphaPlot_, outputPlot_}) {
        p->installEventFilter(this);
        p->setFocusPolicy(Qt::NoFocus);
    }
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    setMinimumWidth(280);
}

QString StepExplainedPanel::text(int part) const { return parts_[part - 1]->text(); }

bool StepExplainedPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel && watched != scroll_) {
        QCoreApplication::sendEvent(scroll_->verticalScrollBar(), event);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void StepExplainedPanel::setLabelFont(const QFont& font) {
    for (auto* p : {energyPlot_, alphaPlot_, outputPlot_}) {
        for (auto* axis : {p->xAxis, p->yAxis}) axis->setTickLabelFont(font);
        const int height = std::max(150, QFontMetrics(font).height() * 9);  // taller with larger labels
        p->setMinimumHeight(height);
        p->setMaximumHeight(height);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    scrollToPart();
}

QCustomPlot* StepExplainedPanel::chart(int chart) const { return chart == 0 ? energyPlot_ : chart == 1 ? alphaPlot_ : outputPlot_; }

const QStringList& StepExplainedPanel::partNames() {
    static const QStringList names = {"query", "energies", "softmax", "context", "update", "output", "attribution"};
    return names;
}

QWidget* StepExplainedPanel::partWidget(const QString& name) const {
    const int k = static_cast<int>(partNames().indexOf(name));
    return k < 0 ? nullptr : k < 6 ? static_cast<QWidget*>(parts_[k]) : static_cast<QWidget*>(attributionPart_);
}

void StepExplainedPanel::showPart(const QString& name) {
    part_ = name;
    if (name.isEmpty()) scroll_->verticalScrollBar()->setValue(0);  // a page that names none: the top
    scrollToPart();
}

// After the layout has placed the parts (a render or larger text changes their heights; the
// scroll range follows later still, hence the range's own signal too): the part at the top.
void StepExplainedPanel::scrollToPart() {
    if (part_.isEmpty()) return;  // where the reader scrolled to stays
    QTimer::singleShot(0, this, [this] {
        if (auto* part = partWidget(part_); part && part->isVisible())
            scroll_->verticalScrollBar()->setValue(part->y() - layout_->spacing());
    });
}

QStringList StepExplainedPanel::chartLabels(int chart) const {
    const QCustomPlot* plot = this->chart(chart);
    QStringList labels;
    if (auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>())
        for (const auto& label : ticker->ticks()) labels << label;
    return labels;
}

void StepExplainedPanel::render(core::DecodingStatePtr state) {
    const auto& s = *state;
    const auto* step = s.currentStep();
    energies_.clear();
    alpha_.clear();
    if (!step) {
        parts_[0]->setText(tr("<b>Press Step</b> to see one decoding step explained with this model's numbers."));
        for (int i = 1; i < 6; ++i) parts_[i]->clear();
        for (auto* p : {energyPlot_, alphaPlot_, outputPlot_}) clearPlot(p);
        attributionPart_->hide();
        scrollToPart();
        return;
    }
    const auto& steps = s.shownSteps();
    const int t = static_cast<int>(steps.size());
    showAttribution(s);
    // Bahdanau's order (attention from s_{t-1}, then the cell) or Luong's (the cell, then attention
    // from s_t): the panel reads in the model's own order, numbered as it runs.
    const bool after = s.attentionAfterCell;
    layout_->removeWidget(parts_[4]);
    layout_->insertWidget(after ? 0 : layout_->indexOf(parts_[3]) + 1, parts_[4]);
    auto n = [after](int part) { return after ? (part == 5 ? 1 : part <= 4 ? part + 1 : part) : part; };
    // The conditional decoder (Sennrich et al. 2017) attends from s'_t, the state after a first cell
    // has read the previous token; a second cell then reads the context.
    const bool conditional = s.conditionalDecoder && !after;
    const QString qs = after         ? QStringLiteral("s<sub>t</sub>")
                       : conditional ? QStringLiteral("s'<sub>t</sub>")
                                     : QStringLiteral("s<sub>t-1</sub>");
    const auto& queryState = after ? step->state : step->previousState;
    const std::string previous = t >= 2 ? steps[static_cast<size_t>(t - 2)].token : std::string("<s>");
    std::vector<QString> labels;
    for (const auto& x : s.source.tokens) labels.push_back(FigureOptions::tokenLabel(x));
    const int peak = static_cast<int>(std::max_element(step->alpha.begin(), step->alpha.end()) - step->alpha.begin());
    // A model's own <padding> column (the last) has a weight but no energy of its own.
    const bool paddingColumn = core::Model::endsWithPaddingColumn(s.source.tokens);
    const size_t energyCount = s.source.size() - (paddingColumn ? 1 : 0);

    // 1. the query
    QString q = after ? tr("<b>%1. Query</b>: the new decoder state s<sub>%2</sub> (%3 numbers, length %4): this model "
                           "attends after its recurrent cell.")
                            .arg(n(1))
                            .arg(t)
                            .arg(queryState.size())
                            .arg(num(norm(queryState)))
                : conditional ? tr("<b>%1. Query</b>: s'<sub>%2</sub> = %3(s<sub>%4</sub>, emb(<i>%5</i>)), the previous state (length %6) "
                                   "after a first cell has read the word just written: this model knows “<i>%5</i>” before it looks.")
                                    .arg(n(1))
                                    .arg(t)
                                    .arg(QString::fromStdString(s.cell).toUpper())
                                    .arg(t - 1)
                                    .arg(tok(previous))
                                    .arg(num(norm(queryState)))
                              : tr("<b>%1. Query</b>: the previous decoder state s<sub>%2</sub> (%3 numbers, length %4).")
                                    .arg(n(1))
                                    .arg(t - 1)
                                    .arg(queryState.size())
                                    .arg(num(norm(queryState)));
    if (step->extras.count("query") && s.attention == "additive")
        q += tr(" Projected: W %1 has length %2.").arg(qs).arg(num(norm(step->extras.at("query"))));
    parts_[0]->setText(q);

    // 2. the energies
    const bool hasEnergies = step->extras.count("energies") && s.attention != "none";
    QString formula = s.attention == "dot"       ? tr("e<sub>t,i</sub> = %1<sup>T</sup> h<sub>i</sub>").arg(qs)
                      : s.attention == "general" ? tr("e<sub>t,i</sub> = %1<sup>T</sup> W<sub>a</sub> h<sub>i</sub>").arg(qs)
                      : s.attention == "mlp"     ? tr("e<sub>t,i</sub> = MLP([h<sub>i</sub>; %1]), a small network over the pair").arg(qs)
                                                 : tr("e<sub>t,i</sub> = v<sup>T</sup> tanh(W %1 + U h<sub>i</sub>)").arg(qs);
    if (s.attention == "none") {
        parts_[1]->setText(tr("<b>%1. Energies</b>: this model has no attention; every step uses the same context, "
                              "the encoder's final state.")
                               .arg(n(2)));
        clearPlot(energyPlot_);
    } else if (!hasEnergies) {
        parts_[1]->setText(tr("<b>%1. Energies</b> %2: this model does not report its energies.").arg(n(2)).arg(formula));
        clearPlot(energyPlot_);
    } else {
        const auto& e = step->extras.at("energies");
        energies_.assign(e.begin(), e.begin() + static_cast<long>(std::min(e.size(), energyCount)));
        const auto top = static_cast<size_t>(std::max_element(energies_.begin(), energies_.end()) - energies_.begin());
        parts_[1]->setText(tr("<b>%5. Energies</b> %1, one per source token: e<sub>%2,%3</sub> = %4 is the largest.")
                               .arg(formula)
                               .arg(t)
                               .arg(tok(s.source.tokens[top]))
                               .arg(num(energies_[top]))
                               .arg(n(2)));
        showBars(energyPlot_, labels, energies_, QColor("#9467bd"), static_cast<int>(top));
    }

    // 3. the softmax
    alpha_.assign(step->alpha.begin(), step->alpha.end());
    const double sum = std::accumulate(alpha_.begin(), alpha_.end(), 0.0);
    if (s.attention == "none") {
        parts_[2]->setText(
            tr("<b>%2. Softmax</b>: not used; alpha is shown uniform (1/%1 each) only as a placeholder.").arg(alpha_.size()).arg(n(3)));
    } else if (hasEnergies && !paddingColumn && energies_.size() == alpha_.size()) {
        double z = 0;
        for (double v : energies_) z += std::exp(v);
        parts_[2]->setText(tr("<b>%6. Softmax</b>: alpha<sub>t,i</sub> = exp(e<sub>t,i</sub>) / &Sigma;<sub>j</sub> exp(e<sub>t,j</sub>). "
                              "For <i>%1</i>: exp(%2) / %3 = <b>%4</b>. The weights sum to %5.")
                               .arg(tok(s.source.tokens[static_cast<size_t>(peak)]), num(energies_[static_cast<size_t>(peak)]), num(z, 2),
                                    num(alpha_[static_cast<size_t>(peak)]), num(sum, 4))
                               .arg(n(3)));
    } else {
        parts_[2]->setText(tr("<b>%4. Softmax</b>: alpha<sub>t,%1</sub> = <b>%2</b> is the largest weight; the weights sum to %3.%5")
                               .arg(tok(s.source.tokens[static_cast<size_t>(peak)]), num(alpha_[static_cast<size_t>(peak)]), num(sum, 4))
                               .arg(n(3))
                               .arg(paddingColumn ? tr(" The model's softmax also covers its own padding positions: their share "
                                                       "is the <i>&lt;padding&gt;</i> column, %1.")
                                                        .arg(num(alpha_.back()))
                                                  : QString()));
    }
    showBars(alphaPlot_, labels, alpha_, QColor("#1f77b4"), peak);

    // 4. the context
    std::vector<size_t> order(alpha_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return alpha_[a] > alpha_[b]; });
    QStringList terms;
    for (size_t k = 0; k < std::min<size_t>(3, order.size()); ++k)
        terms << QStringLiteral("%1·h<sub>%2</sub>(<i>%3</i>)")
                     .arg(num(alpha_[order[k]], 2))
                     .arg(order[k] + 1)
                     .arg(tok(s.source.tokens[order[k]]));
    if (s.attention == "none")
        parts_[3]->setText(tr("<b>%2. Context</b>: c = the encoder's final state, the same at every step (length %1).")
                               .arg(num(norm(step->context)))
                               .arg(n(4)));
    else
        parts_[3]->setText(tr("<b>%6. Context</b>: c<sub>%1</sub> = &Sigma;<sub>i</sub> alpha<sub>%1,i</sub> h<sub>i</sub> = %2%3 "
                              "(%4 numbers, length %5; the c_t column beside the encoder states).")
                               .arg(t)
                               .arg(terms.join(QStringLiteral(" + ")))
                               .arg(order.size() > 3 ? QStringLiteral(" + …") : QString())
                               .arg(step->context.size())
                               .arg(num(norm(step->context)))
                               .arg(n(4)));

    // 5. the decoder update
    double change = 0;
    for (size_t k = 0; k < std::min(step->state.size(), step->previousState.size()); ++k)
        change += std::pow(static_cast<double>(step->state[k]) - step->previousState[k], 2);
    const QString cell = QString::fromStdString(s.cell).toUpper();
    if (after)
        parts_[4]->setText(tr("<b>1. Decoder update</b> (%1), before any attention: s<sub>%2</sub> = %1(s<sub>%3</sub>, "
                              "[emb(<i>%4</i>)%5]): the state moves by %6 (length %7 → %8).")
                               .arg(cell)
                               .arg(t)
                               .arg(t - 1)
                               .arg(tok(previous))
                               .arg(s.inputFeeding ? tr("; the previous step's attentional output") : QString())
                               .arg(num(std::sqrt(change)))
                               .arg(num(norm(step->previousState)))
                               .arg(num(norm(step->state))));
    else if (conditional)
        parts_[4]->setText(tr("<b>5. Decoder update</b> (%1, a second cell): s<sub>%2</sub> = %1(s'<sub>%2</sub>, c<sub>%2</sub>): "
                              "from s<sub>%3</sub> the state moves by %4 (length %5 → %6).")
                               .arg(cell)
                               .arg(t)
                               .arg(t - 1)
                               .arg(num(std::sqrt(change)))
                               .arg(num(norm(step->previousState)))
                               .arg(num(norm(step->state))));
    else
        parts_[4]->setText(tr("<b>5. Decoder update</b> (%1): s<sub>%2</sub> = %1(s<sub>%3</sub>, [emb(<i>%4</i>); c<sub>%2</sub>]): "
                              "the state moves by %5 (length %6 → %7).")
                               .arg(cell)
                               .arg(t)
                               .arg(t - 1)
                               .arg(tok(previous))
                               .arg(num(std::sqrt(change)))
                               .arg(num(norm(step->previousState)))
                               .arg(num(norm(step->state))));

    // 6. the output
    std::vector<QString> names;
    std::vector<double> probs;
    int chosen = -1;
    for (const auto& c : step->candidates) {
        if (c.id == step->tokenId) chosen = static_cast<int>(names.size());
        names.push_back(FigureOptions::tokenLabel(c.token));
        probs.push_back(c.probability);
    }
    const QString from = s.ownReadout ? tr("[s<sub>%1</sub>; c<sub>%1</sub>; emb(<i>%2</i>)]").arg(t).arg(tok(previous))
                         : after      ? tr("s<sub>%1</sub> and c<sub>%1</sub>").arg(t)
                                      : tr("the new state s<sub>%1</sub>").arg(t);
    // A sub-word model writes pieces: say where the chosen one sits in its word.
    QString piece;
    if (s.targetPieces && step->tokenId != s.eosId) {
        const int byte = core::PieceText::fallbackByte(step->token);
        piece =
            byte >= 0
                ? tr(" A byte piece: one UTF-8 byte (0x%1) of a character the vocabulary spells byte by byte.").arg(byte, 2, 16, QChar('0'))
            : core::PieceText::startsWord(step->token) ? tr(" A piece that starts a new word (its ▁ is the space before it).")
                                                       : tr(" A piece that continues the word before it (no ▁).");
    }
    parts_[5]->setText(tr("<b>6. Output</b>: a softmax over the whole target vocabulary from %1 "
                          "(top %3 shown). %4 <i>%5</i>, p = <b>%6</b>.%7")
                           .arg(from)
                           .arg(step->candidates.size())
                           .arg(s.selectedHypothesis >= 0 ? tr("Beam search kept:")
                                : step->forced            ? tr("Forced:")
                                                          : tr("Chosen:"),
                                tok(step->token), num(std::exp(step->logProb)), piece));
    showBars(outputPlot_, names, probs, QColor("#2ca02c"), chosen);
    scrollToPart();
}

// The attribution asked for, held against this step's attention: what the method measures, and how
// far the two agree here (rank correlation, the same top token or not, Jensen–Shannon divergence).
void StepExplainedPanel::showAttribution(const core::DecodingState& s) {
    const auto* step = s.currentStep();
    if (s.attributionMethod.empty() || !step) {
        attributionPart_->hide();
        return;
    }
    attributionPart_->show();
    const QString method = QString::fromStdString(s.attributionMethod).toHtmlEscaped();
    const QString what = QString::fromStdString(s.attributionDescription).toHtmlEscaped();
    const size_t t = s.shownSteps().size() - 1;
    if (!s.attributionError.empty() || t >= s.attribution.size()) {
        attributionPart_->setText(
            tr("<b>Attribution</b> (%1): %2<br><i>%3</i>")
                .arg(method, what,
                     (s.attributionError.empty() ? tr("computing…") : QString::fromStdString(s.attributionError)).toHtmlEscaped()));
        return;
    }
    const size_t S = s.sourceTokenCount();
    std::vector<float> alpha(step->alpha.begin(), step->alpha.begin() + static_cast<long>(std::min(S, step->alpha.size())));
    const auto& row = s.attribution[t];
    std::vector<float> scores(row.begin(), row.begin() + static_cast<long>(std::min(S, row.size())));
    const auto a = core::AttributionAgreement::between(alpha, scores);
    const size_t top = static_cast<size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
    const size_t peak = static_cast<size_t>(std::max_element(alpha.begin(), alpha.end()) - alpha.begin());
    const QString same = a.sameTop ? tr("the same top source token (<i>%1</i>)").arg(tok(s.source.tokens[top]))
                                   : tr("different top source tokens: attention <i>%1</i>, %2 <i>%3</i>")
                                         .arg(tok(s.source.tokens[peak]), method, tok(s.source.tokens[top]));
    attributionPart_->setText(tr("<b>Attribution</b> (%1, shown in the heatmap): %2<br>Against this step's attention: "
                                 "rank correlation &rho; = <b>%3</b>, %4, Jensen–Shannon divergence <b>%5</b> "
                                 "(0: the same distribution, 1: nothing in common; the attribution's magnitudes as a distribution).")
                                  .arg(method, what, num(a.spearman, 2), same, num(a.jensenShannon, 2)));
}

}  // namespace alignscope::ui
