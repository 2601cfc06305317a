#include "ui/AlignmentFigure.h"

#include "ui/PlotStyle.h"
#include "ui/WordMatrix.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <set>

namespace alignscope::ui {
namespace {

using P = PlotStyle;

constexpr int kMinCell = 22;       // pixels per token column/row at the least (exports)
constexpr int kEncoderFloor = 90;  // pixels of the encoder panel's cells at the least

QString label(const QString& shown, bool unknown) { return unknown ? shown + QStringLiteral("?") : shown; }

int columnCount(const core::DecodingState& s, const FigureOptions& o) {
    return static_cast<int>(o.shownColumns(s.source.tokens, s.source.words));
}

// The encoder panel's axis label, on one line where the panel is wide enough, else on two (a
// centred label wider than its panel runs into the c_t / s_t labels beside it).
QString encoderLabel() { return AlignmentFigure::tr("encoder states h_i (one column per source token)"); }
QString encoderLabelWrapped() { return AlignmentFigure::tr("encoder states h_i\n(one column per source token)"); }

int wrappedLabelWidth(const QFontMetrics& fm) {
    int w = 0;
    for (const auto& line : encoderLabelWrapped().split(QLatin1Char('\n'))) w = std::max(w, fm.horizontalAdvance(line));
    return w;
}

// The colour scale's title, drawn along the scale: the heatmap is never shorter than it (a
// sentence of few rows once cut "attention weight alpha" to "ttention weight alph").
QString scaleTitle(const core::DecodingState& s, bool attribution) {
    if (attribution)
        return QString::fromStdString(s.attributionMethod) + (s.attributionSigned ? AlignmentFigure::tr(" (signed)") : QString());
    return s.alphaIsUniform ? AlignmentFigure::tr("alpha (uniform: no attention)") : AlignmentFigure::tr("attention weight alpha");
}

int scaleTitleLength(const core::DecodingState& s, const QFontMetrics& fm) {
    return std::max(fm.horizontalAdvance(scaleTitle(s, false)),
                    s.attributionMethod.empty() ? 0 : fm.horizontalAdvance(scaleTitle(s, true))) +
           12;
}

// Width taken beside the heatmap: target labels and axis title on the left, colour scale on the right.
int reservedWidth(int longestTarget) { return longestTarget + 40 + 110; }

bool needsRotation(const std::vector<QString>& labels, const QFont& font, int cell) {
    QFontMetrics fm(font);
    for (const auto& l : labels)
        if (fm.horizontalAdvance(l) > cell - 4) return true;
    return false;
}

// A page's named rows or columns: 1-based positions, or labels as the axis shows them (a
// SentencePiece label also matches without its word-start mark).
std::vector<int> resolveMarks(const std::vector<FigureOptions::Mark>& marks, const std::vector<QString>& labels, int count) {
    std::set<int> found;
    for (const auto& mark : marks) {
        if (mark.position > 0) {
            if (mark.position <= count) found.insert(mark.position - 1);
            continue;
        }
        for (int k = 0; k < count && k < static_cast<int>(labels.size()); ++k) {
            const QString& l = labels[static_cast<size_t>(k)];
            if (l == mark.label || (l.startsWith(QChar(0x2581)) && l.mid(1) == mark.label)) found.insert(k);
        }
    }
    return {found.begin(), found.end()};
}

// The label font for cells `cell` pixels long: the figure's own where a line fits, else shrunk
// toward the smallest readable size.
QFont shrunkFont(const QFont& font, double cell) {
    const int line = QFontMetrics(font).height();
    if (line + 1 <= cell) return font;
    QFont small = font;
    const int pixels = QFontInfo(font).pixelSize();
    small.setPixelSize(std::max(FigureOptions::kSmallestLabelPx, static_cast<int>(std::floor(pixels * (cell - 1) / line))));
    return small;
}

}  // namespace

// Numbers on a figure are data: a dot in every UI language, as in the exported files.
AlignmentFigure::AlignmentFigure(QCustomPlot* plot) : plot_(plot) { plot_->setLocale(QLocale::c()); }

QSize AlignmentFigure::preferredSize(const core::DecodingState& s, const FigureOptions& o) {
    QFont font;
    font.setPointSize(o.fontSize);
    QFontMetrics fm(font);
    const int cell = std::max(kMinCell, fm.height() + 6);
    const int S = columnCount(s, o);
    const auto alignment = s.alignment();
    const int T = std::max({1, static_cast<int>(alignment.targetTokens().size()), o.reservedRows});
    int longestSource = 0, longestTarget = 0;
    for (const auto& t : s.source.tokens) longestSource = std::max(longestSource, fm.horizontalAdvance(QString::fromStdString(t)));
    for (const auto& t : alignment.targetTokens()) longestTarget = std::max(longestTarget, fm.horizontalAdvance(QString::fromStdString(t)));
    int heatWidth = S * cell;
    if (o.showEncoderStates && s.encoderSize > 0 && !o.mergeWords) heatWidth = std::max(heatWidth, wrappedLabelWidth(fm) + 10);
    int width = reservedWidth(longestTarget) + heatWidth;
    if (!o.title.isEmpty()) {
        QFont titleFont = font;
        titleFont.setPointSize(o.fontSize + 2);
        titleFont.setBold(true);
        // The title is centred over the heatmap's column: the colour scale's column is beside it.
        width = std::max(width, QFontMetrics(titleFont).horizontalAdvance(o.title) + 20 + 110);
    }
    int height = 30 + std::max(T * cell, scaleTitleLength(s, fm)) + longestSource + 30;
    // The encoder panel asks for little: at the default window size a sentence of a dozen words fits
    // with it, without a scrollbar (it stretches with the heatmap when there is room).
    if (o.showEncoderStates && !o.mergeWords) height += std::max(120, std::min(240, static_cast<int>(s.encoderSize) * 2)) + 20;
    if (!o.title.isEmpty()) height += fm.height() * 2;
    return {std::max(width, 360), std::max(height, 240)};
}

// View > Links: a ringed dot on each cell whose words the rule links (over words, the word's cell;
// over pieces, every cell of the two words' pieces), legible on every colour of the map.
void AlignmentFigure::drawLinks(const core::DecodingState& s, const core::Alignment& alignment, int shownTokens) {
    linkCells_ = 0;
    if (s.links.empty() || !heatmap_) return;
    const std::set<std::pair<int, int>> links(s.links.begin(), s.links.end());
    auto* x = heatRect_->axis(QCPAxis::atBottom);
    auto* y = heatRect_->axis(QCPAxis::atLeft);
    const auto dot = [&](int column, int row) {
        // A round dot of a fixed size in pixels, whatever the cells' shape.
        auto* mark = new QCPItemTracer(plot_);
        mark->setClipAxisRect(heatRect_);
        mark->position->setAxes(x, y);
        mark->position->setCoords(column, row);
        mark->setStyle(QCPItemTracer::tsCircle);
        mark->setSize(linkDot_ > 0 ? linkDot_ : std::max(6.0, QFontMetrics(font_).height() * 0.45));
        mark->setPen(QPen(Qt::black, 1.5));
        mark->setBrush(Qt::white);
        ++linkCells_;
    };
    if (merged_) {
        for (const auto& [source, target] : links)
            if (source < static_cast<int>(columns_.size()) && target < static_cast<int>(rows_.size())) dot(source, target);
        return;
    }
    const auto& sourceWords = alignment.sourceWords();
    const auto& targetWords = alignment.targetWords();
    for (int t = 0; t < static_cast<int>(targetWords.size()); ++t)
        for (int i = 0; i < shownTokens && i < static_cast<int>(sourceWords.size()); ++i)
            if (links.count({sourceWords[static_cast<size_t>(i)], targetWords[static_cast<size_t>(t)]})) dot(i, t);
}

void AlignmentFigure::show(const core::DecodingState& s, const FigureOptions& o) {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->clear();  // deletes the old axis rects, colour scales and title
    heatmap_ = nullptr;
    scale_ = nullptr;
    linkCells_ = 0;
    heatRect_ = encoderRect_ = nullptr;
    weights_.clear();
    columns_.clear();
    rows_.clear();
    encoder_.clear();

    QFont font = plot_->font();
    font.setPointSize(o.fontSize);
    font_ = font;
    const auto alignment = s.alignment();
    const int shownTokens = columnCount(s, o);
    const int tokenRows = static_cast<int>(alignment.targetTokens().size());
    const auto sourceLabels = FigureOptions::tokenLabels(s.source.tokens);
    for (int i = 0; i < shownTokens; ++i)
        columns_.push_back(label(sourceLabels[static_cast<size_t>(i)], s.source.unknown[static_cast<size_t>(i)]));
    rows_ = FigureOptions::tokenLabels(alignment.targetTokens());
    smallestCell_ = std::max(1, o.smallestCell);
    linkDot_ = o.linkDotPx;
    // Attribution in place of attention (View > Heatmap) once its rows are there for every shown step.
    attributionLabel_ = QString::fromStdString(s.attributionMethod);
    attribution_ = !s.attributionMethod.empty() && s.attribution.size() == alignment.weights().size() && tokenRows > 0;
    double extent = 0;  // the attribution's largest magnitude: its colour scale is symmetric about 0
    if (attribution_) {
        for (const auto& row : s.attribution) {
            std::vector<double> r(static_cast<size_t>(shownTokens), 0.0);
            for (int i = 0; i < shownTokens && i < static_cast<int>(row.size()); ++i)
                r[static_cast<size_t>(i)] = row[static_cast<size_t>(i)];
            for (double v : r) extent = std::max(extent, std::abs(v));
            weights_.push_back(std::move(r));
        }
        // An animation's frames share the whole sentence's scale (core::DecodingState::prefix keeps it).
        if (s.attributionExtent > 0) extent = s.attributionExtent;
    }
    for (const auto& row : alignment.weights()) {
        if (attribution_) break;
        std::vector<double> r(row.begin(), row.begin() + shownTokens);
        if (o.endColumn == FigureOptions::EndColumn::Renormalize && shownTokens < static_cast<int>(row.size())) {
            double sum = 0;
            for (double v : r) sum += v;
            if (sum > 0)
                for (double& v : r) v /= sum;
        }
        weights_.push_back(std::move(r));
    }

    // View > Words: the pieces' matrix merged into the words a reader sees (the merge every
    // word-level view and link uses), and the encoder panel left out: its columns are pieces.
    merged_ = o.mergeWords;
    int S = shownTokens, T = tokenRows;
    if (merged_) {
        auto words = WordMatrix::merge(s, weights_, shownTokens);
        weights_ = std::move(words.weights);
        columns_ = std::move(words.columns);
        rows_ = std::move(words.rows);
        S = static_cast<int>(columns_.size());
        T = static_cast<int>(weights_.size());
        if (attribution_ && s.attributionExtent <= 0) {  // sums of scores: the scale follows them
            extent = 0;
            for (const auto& r : weights_)
                for (double v : r) extent = std::max(extent, std::abs(v));
        }
    }
    const bool encoderPanel = o.showEncoderStates && s.encoderSize > 0 && !merged_;
    markedRows_ = resolveMarks(o.markedRows, rows_, T);
    markedColumns_ = resolveMarks(o.markedColumns, columns_, S);

    auto* layout = plot_->plotLayout();
    int row = 0;
    if (!o.title.isEmpty()) {
        QFont titleFont = font;
        titleFont.setPointSize(o.fontSize + 2);
        titleFont.setBold(true);
        layout->addElement(row++, 0, new QCPTextElement(plot_, o.title, titleFont));
    }
    auto* margins = new QCPMarginGroup(plot_);

    // The heatmap: x = source position, y = target position (first row on top).
    heatRect_ = new QCPAxisRect(plot_);
    layout->addElement(row, 0, heatRect_);
    heatRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    auto* x = heatRect_->axis(QCPAxis::atBottom);
    auto* y = heatRect_->axis(QCPAxis::atLeft);
    P::styleAxis(x, font);
    P::styleAxis(y, font);
    x->setTicker(P::textTicker(columns_));
    y->setTicker(P::textTicker(rows_));
    y->setRangeReversed(true);
    x->setRange(-0.5, std::max(0, S) - 0.5);
    rowsTotal_ = std::max({1, T, o.reservedRows});
    y->setRange(-0.5, rowsTotal_ - 0.5);
    // The mark on unknown words, explained where it appears.
    bool anyUnknown = false;
    for (int i = 0; i < shownTokens; ++i) anyUnknown = anyUnknown || s.source.unknown[static_cast<size_t>(i)];
    const QString source =
        merged_ ? FigureOptions::sideLabel(tr("source words"), s.sourceLanguage, tr("merged from pieces: a word's columns summed"))
                : FigureOptions::sideLabel(tr("source"), s.sourceLanguage);
    x->setLabel(anyUnknown ? tr("%1   (word? = not in the model's vocabulary: read as <unk>)").arg(source) : source);
    // Rows a target or a click chose say so, also after teacher forcing is turned off.
    const auto& shown = s.shownSteps();
    const auto forced = std::count_if(shown.begin(), shown.end(), [](const core::StepRecord& r) { return r.forced; });
    const QString how = s.teacherForced             ? tr("given")
                        : s.selectedHypothesis >= 0 ? tr("beam hypothesis %1").arg(s.selectedHypothesis + 1)
                        : forced == 0               ? tr("decoded")
                                                    : tr("%1 of %2 forced").arg(forced).arg(shown.size());
    const QString target = FigureOptions::sideLabel(tr("target"), s.targetLanguage, how);
    y->setLabel(merged_ ? tr("%1, words: rows averaged").arg(target) : target);
    const int cell = std::max(kMinCell, QFontMetrics(font).height() + 6);
    if (needsRotation(columns_, font, cell)) x->setTickLabelRotation(-90);

    auto* scale = scale_ = new QCPColorScale(plot_);
    // In a grid of its own with an empty element after it: a grid gives an element its column's
    // width whatever its maximum, and the column is as wide as c_t and s_t under it (the bar was).
    auto* scaleGrid = new QCPLayoutGrid;
    layout->addElement(row, 1, scaleGrid);
    scaleGrid->addElement(0, 0, scale);
    scaleGrid->addElement(0, 1, new QCPLayoutElement(plot_));
    scale->setType(QCPAxis::atRight);
    const QCPRange range = !attribution_         ? QCPRange(0, 1)
                           : s.attributionSigned ? QCPRange(-std::max(extent, 1e-6), std::max(extent, 1e-6))
                                                 : QCPRange(0, std::max(extent, 1e-6));
    scale->setDataRange(range);
    scale->setGradient(attribution_ && s.attributionSigned ? P::divergingGradient() : P::alphaGradient(o.colorMap));
    scale->axis()->setLabel(scaleTitle(s, attribution_));
    P::styleAxis(scale->axis(), font);
    heatRect_->setMinimumSize(0, scaleTitleLength(s, QFontMetrics(font)));
    scale->setBarWidth(12);
    auto* scaleMargins = new QCPMarginGroup(plot_);
    heatRect_->setMarginGroup(QCP::msTop | QCP::msBottom, scaleMargins);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, scaleMargins);

    if (T > 0 && S > 0) {
        heatmap_ = new QCPColorMap(x, y);
        heatmap_->data()->setSize(S, T);
        heatmap_->data()->setRange(P::cellCentres(S), P::cellCentres(T));
        for (int t = 0; t < T; ++t)
            for (int i = 0; i < S; ++i) heatmap_->data()->setCell(i, t, weights_[static_cast<size_t>(t)][static_cast<size_t>(i)]);
        heatmap_->setInterpolate(false);  // one flat cell per weight
        heatmap_->setTightBoundary(false);
        heatmap_->setColorScale(scale);
        heatmap_->setDataRange(range);
        const auto rectangle = [this](double left, double top, double right, double bottom) {
            return heatmapRectangle(left, top, right, bottom);
        };
        if (o.vectorCells && S * T <= FigureOptions::kMaxVectorCells) {
            // One rectangle a weight, drawn where the image would be (which then stays hidden).
            for (int t = 0; t < T; ++t)
                for (int i = 0; i < S; ++i) {
                    auto* cell = rectangle(i - 0.5, t - 0.5, i + 0.5, t + 0.5);
                    const QColor colour =
                        QColor::fromRgb(heatmap_->gradient().color(weights_[static_cast<size_t>(t)][static_cast<size_t>(i)], range));
                    cell->setPen(QPen(colour, 0.5));  // a hairline of its own colour: no seams between cells
                    cell->setBrush(colour);
                }
            heatmap_->setVisible(false);
        }
        if (o.valuesInCells) {
            QFont small = font;
            small.setPointSize(std::max(6, o.fontSize - 2));
            for (int t = 0; t < T; ++t)
                for (int i = 0; i < S; ++i) {
                    const double v = weights_[static_cast<size_t>(t)][static_cast<size_t>(i)];
                    auto* text = new QCPItemText(plot_);
                    text->setClipAxisRect(heatRect_);
                    text->position->setAxes(x, y);
                    text->position->setCoords(i, t);
                    QString number = QString::number(v, 'f', 2);  // ".82"; 0.996 is "1.00"
                    if (number.startsWith(QLatin1String("0."))) number.remove(0, 1);
                    text->setText(number);
                    text->setFont(small);
                    const bool dark = attribution_ && s.attributionSigned              ? std::abs(v) > 0.6 * extent
                                      : o.colorMap == FigureOptions::ColorMap::Viridis ? v < 0.6
                                                                                       : v > 0.5;
                    text->setColor(dark ? Qt::white : Qt::black);
                }
        }
        if (o.highlightCurrentStep && s.selectedHypothesis < 0 && T > 0) {
            const int t = T - 1;
            auto* frame = rectangle(-0.5, t - 0.5, S - 0.5, t + 0.5);
            frame->setPen(QPen(QColor("#ff7f0e"), 2));
            // A uniform row has no peak: framing its first cell would point at nothing.
            if (!s.alphaIsUniform || attribution_) {
                const auto& r = weights_[static_cast<size_t>(t)];
                const int peak = static_cast<int>(std::max_element(r.begin(), r.end()) - r.begin());
                auto* peakFrame = rectangle(peak - 0.45, t - 0.45, peak + 0.45, t + 0.45);
                peakFrame->setPen(QPen(QColor("#d62728"), 3));
            }
        }
        drawLinks(s, alignment, shownTokens);
        drawMarks(S, T);
    }

    encoderRows_ = 0;
    if (encoderPanel) {
        const int E = encoderRows_ = static_cast<int>(s.encoderSize);
        encoderRect_ = new QCPAxisRect(plot_);
        layout->addElement(row + 1, 0, encoderRect_);
        encoderRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        auto* ex = encoderRect_->axis(QCPAxis::atBottom);
        auto* ey = encoderRect_->axis(QCPAxis::atLeft);
        P::styleAxis(ex, font);
        P::styleAxis(ey, font);
        ex->setTicker(P::textTicker(columns_));
        ex->setTickLabels(false);  // the heatmap above names the columns
        ex->setRange(x->range());
        QObject::connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), ex, qOverload<const QCPRange&>(&QCPAxis::setRange));
        ey->setRangeReversed(true);
        ey->setRange(-0.5, E - 0.5);
        int longestTarget = 0;
        for (const auto& r : rows_) longestTarget = std::max(longestTarget, QFontMetrics(font).horizontalAdvance(r));
        const bool oneLine = QFontMetrics(font).horizontalAdvance(encoderLabel()) <= plot_->width() - reservedWidth(longestTarget);
        ex->setLabel(oneLine ? encoderLabel() : encoderLabelWrapped());
        QSharedPointer<QCPAxisTickerText> dims(new QCPAxisTickerText);
        if (s.bidirectional && E % 2 == 0) {
            dims->addTick(E / 4.0, tr("fwd →"));
            dims->addTick(3 * E / 4.0, tr("← bwd"));
            auto* split = new QCPItemStraightLine(plot_);
            split->setClipAxisRect(encoderRect_);
            split->point1->setAxes(ex, ey);
            split->point2->setAxes(ex, ey);
            split->point1->setCoords(0, E / 2.0 - 0.5);
            split->point2->setCoords(1, E / 2.0 - 0.5);
            split->setPen(QPen(Qt::black, 1.5));
        } else {
            dims->addTick(E / 2.0, QStringLiteral("h"));
        }
        ey->setTicker(dims);
        auto* enc = new QCPColorMap(ex, ey);
        enc->setLayer(QStringLiteral("background"));  // under the fwd/bwd split line (made before it on "main")
        enc->data()->setSize(std::max(S, 1), E);
        enc->data()->setRange(P::cellCentres(std::max(S, 1)), P::cellCentres(E));
        for (int i = 0; i < S; ++i) {
            std::vector<float> column(s.encoderStates.begin() + static_cast<long>(i) * E,
                                      s.encoderStates.begin() + static_cast<long>(i + 1) * E);
            for (int k = 0; k < E; ++k) enc->data()->setCell(i, k, column[static_cast<size_t>(k)]);
            encoder_.push_back(std::move(column));
        }
        enc->setInterpolate(false);
        enc->setTightBoundary(false);
        enc->setGradient(P::divergingGradient());
        enc->setDataRange(QCPRange(-1, 1));

        // c_t and s_t beside the encoder columns.
        auto* sideRect = new QCPAxisRect(plot_);
        // Beside c_t and s_t, the scale of every value in this row of panels (h_i, c_t, s_t: -1 to 1).
        auto* sideGrid = new QCPLayoutGrid;
        layout->addElement(row + 1, 1, sideGrid);
        sideGrid->addElement(0, 0, sideRect);
        auto* valueScale = new QCPColorScale(plot_);
        sideGrid->addElement(0, 1, valueScale);
        valueScale->setType(QCPAxis::atRight);
        valueScale->setDataRange(QCPRange(-1, 1));
        valueScale->setGradient(P::divergingGradient());
        valueScale->setBarWidth(8);
        P::styleAxis(valueScale->axis(), font);
        QSharedPointer<QCPAxisTickerText> valueTicks(new QCPAxisTickerText);
        valueTicks->addTick(-1, QStringLiteral("-1"));
        valueTicks->addTick(0, QStringLiteral("0"));
        valueTicks->addTick(1, QStringLiteral("1"));
        valueScale->axis()->setTicker(valueTicks);
        auto* valueMargins = new QCPMarginGroup(plot_);
        sideRect->setMarginGroup(QCP::msTop | QCP::msBottom, valueMargins);
        valueScale->setMarginGroup(QCP::msTop | QCP::msBottom, valueMargins);
        // Two columns wide enough for their labels side by side.
        sideRect->setMinimumSize(2 * (QFontMetrics(font).horizontalAdvance(QStringLiteral("s_0")) + 8), 0);
        auto* sx = sideRect->axis(QCPAxis::atBottom);
        auto* sy = sideRect->axis(QCPAxis::atLeft);
        P::styleAxis(sx, font);
        P::styleAxis(sy, font);
        sy->setTickLabels(false);
        const auto* step = s.currentStep();
        QSharedPointer<QCPAxisTickerText> sideTicks(new QCPAxisTickerText);
        sideTicks->addTick(0, step ? QStringLiteral("c_t") : QStringLiteral("c"));
        sideTicks->addTick(1, step ? QStringLiteral("s_t") : QStringLiteral("s_0"));
        sx->setTicker(sideTicks);
        sx->setRange(-0.5, 1.5);
        const int D = static_cast<int>(s.stateSize);
        sy->setRangeReversed(true);
        sy->setRange(-0.5, std::max(E, D) - 0.5);
        // One two-column map (a one-column map is not drawn); the shorter vector's tail is NaN,
        // drawn transparent.
        const int n = std::max(E, D);
        auto* side = new QCPColorMap(sx, sy);
        side->data()->setSize(2, n);
        side->data()->setRange(QCPRange(0, 1), QCPRange(0, n - 1));
        const std::vector<float> none;
        const auto& context = step ? step->context : none;
        const auto& state = step ? step->state : s.initialState;
        for (int k = 0; k < n; ++k) {
            side->data()->setCell(0, k, k < static_cast<int>(context.size()) ? context[static_cast<size_t>(k)] : qQNaN());
            side->data()->setCell(1, k, k < static_cast<int>(state.size()) ? state[static_cast<size_t>(k)] : qQNaN());
        }
        side->setInterpolate(false);
        side->setTightBoundary(false);
        auto gradient = P::divergingGradient();
        gradient.setNanHandling(QCPColorGradient::nhTransparent);
        side->setGradient(gradient);
        side->setDataRange(QCPRange(-1, 1));
        layout->setRowStretchFactor(row, 3);
        layout->setRowStretchFactor(row + 1, 2);
    }
    layout->setColumnStretchFactor(0, 10);
    layout->setColumnStretchFactor(1, 1);
    // No replot here: the caller draws once, when it needs the pixels (a queued replot on top of
    // the view's immediate one drew every step twice).
}

QSize AlignmentFigure::cells() const { return {std::max<int>(1, static_cast<int>(columns_.size())), std::max(1, rowsTotal_)}; }

QSize AlignmentFigure::fit() {
    if (!heatRect_) return {1, 1};
    auto* x = heatRect_->axis(QCPAxis::atBottom);
    auto* y = heatRect_->axis(QCPAxis::atLeft);
    const QSize all = cells();
    showWindow({0, 0}, all);  // the widest labels of all decide the margins
    x->setTickLabelRotation(0);
    x->setTickLabelFont(font_);
    y->setTickLabelFont(font_);
    fitTickLabels(x, columns_, markedColumns_, 1e9);
    fitTickLabels(y, rows_, markedRows_, 1e9);
    if (scale_) P::styleAxis(scale_->axis(), font_);
    // In a panel the encoder states are never a strip: their cells and c_t / s_t stay large enough
    // to read a pattern in (cramped() then says when the heatmap cannot have its rows beside them).
    if (encoderRect_) encoderRect_->setMinimumSize(0, kEncoderFloor);
    // The colour scale's title is fitted to the bar below (fitLabels), not the bar to the title.
    heatRect_->setMinimumSize(0, 0);
    P::layOut(plot_);
    const int readable = P::readableCell(font_);
    if (heatRect_->width() >= all.width() * readable && heatRect_->height() >= all.height() * readable) {
        // Upright source labels where a column is narrower than its label.
        if (needsRotation(columns_, font_, heatRect_->width() / all.width())) {
            x->setTickLabelRotation(-90);
            P::layOut(plot_);
        }
        P::fitLabels(plot_);
        return all;
    }
    // The whole matrix in smaller cells, down to the smallest cell, before any scrolling: the
    // labels shrink and then thin (a slide's 40 x 40 matrix keeps every row, not a window of 9).
    // Twice: smaller labels leave narrower margins, and so larger cells. The colour scale gives
    // up a quarter of its text's size for them too.
    if (scale_) {
        QFont smaller = font_;
        smaller.setPointSizeF(font_.pointSizeF() * 0.75);
        P::styleAxis(scale_->axis(), smaller);
    }
    for (int pass = 0; pass < 2; ++pass) {
        const double across = std::max<double>(smallestCell_, static_cast<double>(heatRect_->width()) / all.width());
        const double down = std::max<double>(smallestCell_, static_cast<double>(heatRect_->height()) / all.height());
        fitTickLabels(y, rows_, markedRows_, down);
        // Upright source labels in the rows' size where rows are what is short: a 16-point label
        // standing under each column took the room of five rows.
        const double labelCell = std::min(across, down);
        const bool upright = needsRotation(columns_, shrunkFont(font_, labelCell), static_cast<int>(across));
        x->setTickLabelRotation(upright ? -90 : 0);
        fitTickLabels(x, columns_, markedColumns_, upright ? across : 1e9, upright ? labelCell : 1e9);
        P::layOut(plot_);
    }
    P::fitLabels(plot_);
    return {P::cellsThatFit(heatRect_->width(), smallestCell_, all.width()),
            P::cellsThatFit(heatRect_->height(), smallestCell_, all.height())};
}

void AlignmentFigure::fitTickLabels(QCPAxis* axis, const std::vector<QString>& labels, const std::vector<int>& marked, double cell,
                                    double fontCell) {
    const QFont font = shrunkFont(font_, std::min(cell, fontCell));
    axis->setTickLabelFont(font);
    // Every k-th label where even the smallest line is longer than a cell, and every marked one,
    // with the regular labels next to a marked one left out so that none overlaps it.
    const int line = QFontMetrics(font).height();
    const int every = line <= cell ? 1 : static_cast<int>(std::ceil(line / cell));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int k = 0; k < static_cast<int>(labels.size()); ++k) {
        const bool isMarked = std::binary_search(marked.begin(), marked.end(), k);
        bool nearMark = false;
        for (int m : marked) nearMark = nearMark || (m != k && std::abs(m - k) < every);
        if (isMarked || (k % every == 0 && !nearMark)) ticker->addTick(k, labels[static_cast<size_t>(k)]);
    }
    axis->setTicker(ticker);
}

QRect AlignmentFigure::heatmapArea() const { return heatRect_ ? heatRect_->rect() : QRect(); }

QRect AlignmentFigure::encoderArea() const { return encoderRect_ ? encoderRect_->rect() : QRect(); }

// A rectangle on the heatmap's axes, clipped to it: a vector cell, the step's frame, its peak's, a mark.
QCPItemRect* AlignmentFigure::heatmapRectangle(double left, double top, double right, double bottom) {
    auto* r = new QCPItemRect(plot_);
    r->setClipAxisRect(heatRect_);
    for (auto* corner : {r->topLeft, r->bottomRight}) corner->setAxes(heatRect_->axis(QCPAxis::atBottom), heatRect_->axis(QCPAxis::atLeft));
    r->topLeft->setCoords(left, top);
    r->bottomRight->setCoords(right, bottom);
    return r;
}

// Frames around the rows and columns a lesson page talks about, over every colour of the map.
void AlignmentFigure::drawMarks(int columns, int rows) {
    const auto frame = [this](double left, double top, double right, double bottom) {
        heatmapRectangle(left, top, right, bottom)->setPen(QPen(QColor("#e377c2"), 2, Qt::DashLine));
    };
    for (int t : markedRows_)
        if (t < rows) frame(-0.5, t - 0.5, columns - 0.5, t + 0.5);
    for (int i : markedColumns_)
        if (i < columns) frame(i - 0.5, -0.5, i + 0.5, std::max(rows, 1) - 0.5);
}

bool AlignmentFigure::cramped() const {
    if (!heatRect_) return false;
    const int rows = std::min(3, cells().height());
    return heatRect_->height() < rows * smallestCell_;
}

void AlignmentFigure::showWindow(QPoint first, QSize count) {
    if (!heatRect_) return;
    // The encoder panel's columns follow the heatmap's (its x axis is tied to this one).
    heatRect_->axis(QCPAxis::atBottom)->setRange(first.x() - 0.5, first.x() + count.width() - 0.5);
    heatRect_->axis(QCPAxis::atLeft)->setRange(first.y() - 0.5, first.y() + count.height() - 0.5);
}

std::optional<QString> AlignmentFigure::describeAt(const QPointF& pos) const {
    if (heatRect_ && heatmap_ && heatRect_->rect().contains(pos.toPoint())) {
        const int i = static_cast<int>(std::lround(heatRect_->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())));
        const int t = static_cast<int>(std::lround(heatRect_->axis(QCPAxis::atLeft)->pixelToCoord(pos.y())));
        if (t >= 0 && t < static_cast<int>(weights_.size()) && i >= 0 && i < static_cast<int>(columns_.size()))
            // Positions count from 1, as in Step explained (docs/user-guide.md, "Positions").
            return tr("source %1 '%2' → step %3 '%4': %5 = %6")
                .arg(i + 1)
                .arg(columns_[static_cast<size_t>(i)])
                .arg(t + 1)
                .arg(rows_[static_cast<size_t>(t)])
                .arg(attribution_ ? attributionLabel_ : QStringLiteral("alpha"))
                .arg(weights_[static_cast<size_t>(t)][static_cast<size_t>(i)], 0, 'f', 4);
    }
    if (encoderRect_ && encoderRect_->rect().contains(pos.toPoint())) {
        const int i = static_cast<int>(std::lround(encoderRect_->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())));
        const int k = static_cast<int>(std::lround(encoderRect_->axis(QCPAxis::atLeft)->pixelToCoord(pos.y())));
        if (i >= 0 && i < static_cast<int>(encoder_.size()) && k >= 0 && k < static_cast<int>(encoder_[static_cast<size_t>(i)].size()))
            return tr("h_%1 (%2), dimension %3: %4")
                .arg(i + 1)
                .arg(columns_[static_cast<size_t>(i)])
                .arg(k + 1)
                .arg(encoder_[static_cast<size_t>(i)][static_cast<size_t>(k)], 0, 'f', 4);
    }
    return std::nullopt;
}

}  // namespace alignscope::ui
