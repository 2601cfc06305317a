#include "ui/AlignmentComparisonFigure.h"

#include "ui/PlotStyle.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace alignscope::ui {

namespace {

using P = PlotStyle;
constexpr int kMinCell = 22;     // pixels per column and row at the least, as the alignment figure
constexpr int kScaleWidth = 90;  // a colour scale with its label

std::vector<QString> labels(const std::vector<std::string>& texts) { return FigureOptions::tokenLabels(texts); }

// The difference panel's row labels: the shared token, or both where the targets differ.
std::vector<QString> differenceLabels(const core::AlignmentComparison& c) {
    std::vector<QString> out;
    for (size_t t = 0; t < c.rowAgrees().size(); ++t) {
        const auto name = [&](const core::AlignmentComparison::Side& s) {
            return t < s.rows.size() ? FigureOptions::tokenLabel(s.rows[t]) : QStringLiteral("–");
        };
        out.push_back(c.rowAgrees()[t] ? name(c.a()) : name(c.a()) + QStringLiteral(" | ") + name(c.b()));
    }
    return out;
}

int longest(const std::vector<QString>& texts, const QFontMetrics& fm) {
    int w = 0;
    for (const auto& t : texts) w = std::max(w, fm.horizontalAdvance(t));
    return w;
}

double differenceExtent(const core::AlignmentComparison& c) { return std::max(0.05, c.largestAbsoluteDifference()); }

}  // namespace

AlignmentComparisonFigure::AlignmentComparisonFigure(QCustomPlot* plot) : plot_(plot) { plot_->setLocale(QLocale::c()); }

QSize AlignmentComparisonFigure::preferredSize(const core::AlignmentComparison& c, const FigureOptions& o) {
    QFont font;
    font.setPointSize(o.fontSize);
    const QFontMetrics fm(font);
    const int cell = std::max(kMinCell, fm.height() + 6);
    const int C = static_cast<int>(c.columns().size());
    const int R = std::max<int>(1, static_cast<int>(c.rowAgrees().size()));
    int width = 2 * kScaleWidth + 20;
    for (const auto& rows : {labels(c.a().rows), labels(c.b().rows), differenceLabels(c)}) width += C * cell + longest(rows, fm) + 30;
    const int height = 2 * fm.height() + 20 + R * cell + longest(labels(c.columns()), fm) + 40;
    return {std::max(width, 480), std::max(height, 220)};
}

void AlignmentComparisonFigure::show(const core::AlignmentComparison& c, const FigureOptions& o) {
    comparison_ = c;
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->clear();
    rects_.clear();
    frames_.clear();
    titles_.clear();
    highlighted_ = {};

    QFont font = plot_->font();
    font.setPointSize(o.fontSize);
    QFont titleFont = font;
    titleFont.setBold(true);
    const int C = static_cast<int>(c.columns().size());
    const int R = static_cast<int>(c.rowAgrees().size());
    const auto columns = labels(c.columns());
    const int cell = std::max(kMinCell, QFontMetrics(font).height() + 6);
    font_ = font;
    smallestCell_ = o.smallestCell;
    // Row or stack: the arrangement whose cells come out larger in this plot (labels, titles and
    // colour scales taken off first).
    {
        const QFontMetrics fm(font);
        int rowLabels = 0;
        for (const auto& rows : {labels(c.a().rows), labels(c.b().rows), differenceLabels(c)})
            rowLabels = std::max(rowLabels, longest(rows, fm));
        const int left = rowLabels + fm.height() + 24, title = fm.height() + 12;
        const int bottom = std::min(longest(columns, fm), 4 * fm.height()) + fm.height() + 24;
        const int W = plot_->width(), H = plot_->height(), Cn = std::max(1, C), Rn = std::max(1, R);
        const int inRow = std::min((W - 3 * left - 2 * kScaleWidth) / (3 * Cn), (H - bottom - title) / Rn);
        const int inStack = std::min((W - 2 * left - kScaleWidth) / (2 * Cn), (H - 2 * bottom - 2 * title) / (2 * Rn));
        stacked_ = inStack > inRow;
    }
    const bool rotate = longest(columns, QFontMetrics(font)) > cell - 4;
    const double extent = differenceExtent(c);

    auto* layout = plot_->plotLayout();
    auto* alphaScale = new QCPColorScale(plot_);
    alphaScale->setDataRange(QCPRange(0, 1));
    alphaScale->setGradient(P::alphaGradient(o.colorMap));
    alphaScale->axis()->setLabel(c.wordLevel() ? tr("alpha, merged to words") : tr("attention weight alpha"));
    auto* differenceScale = new QCPColorScale(plot_);
    differenceScale->setDataRange(QCPRange(-extent, extent));
    auto diverging = P::divergingGradient();
    diverging.setNanHandling(QCPColorGradient::nhNanColor);
    diverging.setNanColor(QColor("#d9d9d9"));  // rows where the targets differ
    differenceScale->setGradient(diverging);
    differenceScale->axis()->setLabel(tr("alpha A − alpha B"));
    auto* margins = new QCPMarginGroup(plot_);
    for (auto* scale : {alphaScale, differenceScale}) {
        scale->setType(QCPAxis::atRight);
        scale->setBarWidth(12);
        P::styleAxis(scale->axis(), font);
        scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    }

    const bool words = c.wordLevel();
    const std::vector<std::pair<QString, std::vector<QString>>> panels = {
        {QStringLiteral("A: %1").arg(QString::fromStdString(c.a().name)), labels(c.a().rows)},
        {QStringLiteral("B: %1").arg(QString::fromStdString(c.b().name)), labels(c.b().rows)},
        {tr("A − B (%1 of %2 rows agree)").arg(c.agreeingRows()).arg(R), differenceLabels(c)}};
    auto* columnMargins = new QCPMarginGroup(plot_);
    for (int k = 0; k < 3; ++k) {
        // In a row: titles over A, B, A − B. Stacked: A and B on top, A − B under A.
        const int titleRow = stacked_ && k == 2 ? 2 : 0, column = stacked_ && k == 2 ? 0 : k;
        auto* title = new QCPTextElement(plot_, panels[static_cast<size_t>(k)].first, titleFont);
        title->setMinimumSize(1, 0);  // its text does not widen its column (fit() cuts it to the column)
        layout->addElement(titleRow, column, title);
        titles_.emplace_back(title, panels[static_cast<size_t>(k)].first);
        auto* rect = new QCPAxisRect(plot_);
        layout->addElement(titleRow + 1, column, rect);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        // Stacked: A − B's margins as A's above it. In a row: one left margin for all three (the
        // widest row labels'), so that equal stretches give equal cells.
        rect->setMarginGroup(stacked_ ? QCP::msLeft | QCP::msRight : QCP::msLeft, columnMargins);
        auto* x = rect->axis(QCPAxis::atBottom);
        auto* y = rect->axis(QCPAxis::atLeft);
        P::styleAxis(x, font);
        P::styleAxis(y, font);
        x->setTicker(P::textTicker(columns));
        if (rotate) x->setTickLabelRotation(-90);
        x->setLabel(words ? tr("source words") : tr("source tokens"));
        const auto& rows = panels[static_cast<size_t>(k)].second;
        y->setTicker(P::textTicker(rows));
        y->setRangeReversed(true);
        y->setLabel(words ? tr("target words") : tr("target tokens"));
        x->setRange(-0.5, std::max(1, C) - 0.5);
        y->setRange(-0.5, std::max(1, R) - 0.5);
        const auto& side = k == 0 ? c.a() : c.b();
        const int rowsHere = k == 2 ? R : static_cast<int>(side.rows.size());
        if (C > 0 && rowsHere > 0) {
            auto* map = new QCPColorMap(x, y);
            map->data()->setSize(C, rowsHere);
            map->data()->setRange(P::cellCentres(C), P::cellCentres(rowsHere));
            for (int t = 0; t < rowsHere; ++t)
                for (int i = 0; i < C; ++i) {
                    const double v = k == 2 ? c.difference()[static_cast<size_t>(t)][static_cast<size_t>(i)]
                                            : side.weights[static_cast<size_t>(t)][static_cast<size_t>(i)];
                    map->data()->setCell(i, t, v);
                }
            map->setInterpolate(false);
            map->setTightBoundary(false);
            map->setColorScale(k == 2 ? differenceScale : alphaScale);
            map->setDataRange(k == 2 ? QCPRange(-extent, extent) : QCPRange(0, 1));
            if (k == 2) map->setGradient(diverging);
        }
        auto* frame = new QCPItemRect(plot_);
        frame->setClipAxisRect(rect);
        frame->topLeft->setAxes(x, y);
        frame->bottomRight->setAxes(x, y);
        frame->setPen(QPen(QColor("#ff7f0e"), 2));
        frame->setVisible(false);
        rects_.push_back(rect);
        frames_.push_back(frame);
    }
    if (stacked_) {
        layout->addElement(1, 2, alphaScale);
        layout->addElement(3, 2, differenceScale);
        for (int k = 0; k < 2; ++k) layout->setColumnStretchFactor(k, 1.0);
        layout->setColumnStretchFactor(2, 0.01);
        layout->setRowStretchFactor(0, 0.01);
        layout->setRowStretchFactor(2, 0.01);
        return;
    }
    layout->addElement(1, 3, alphaScale);
    layout->addElement(1, 4, differenceScale);
    // Every heatmap's cells the same size: the three columns share the width by their cell counts.
    for (int k = 0; k < 3; ++k) layout->setColumnStretchFactor(k, 1.0);
    layout->setColumnStretchFactor(3, 0.01);
    layout->setColumnStretchFactor(4, 0.01);
    layout->setRowStretchFactor(0, 0.01);
}

QSize AlignmentComparisonFigure::cells() const {
    return {std::max<int>(1, static_cast<int>(comparison_.columns().size())),
            std::max<int>(1, static_cast<int>(comparison_.rowAgrees().size()))};
}

QSize AlignmentComparisonFigure::fit() {
    if (rects_.empty()) return {1, 1};
    const QSize all = cells();
    showWindow({0, 0}, all);
    P::layOut(plot_);
    P::fitLabels(plot_);
    // A long model name is cut to its column ("…"; the summary above names both whole): at the
    // stage's size the three titles ran into each other.
    for (const auto& [title, text] : titles_)
        title->setText(QFontMetrics(title->font()).elidedText(text, Qt::ElideRight, std::max(0, title->outerRect().width() - 8)));
    // Three matrices of a sentence whole before any scrolling: cells down to the panel's smallest
    // (FigureOptions::smallestCell), where a label's line may just touch its neighbour's.
    const int cell = std::max(smallestCell_, static_cast<int>(std::lround(0.8 * P::readableCell(font_))));
    QSize fits = all;
    for (auto* rect : rects_)
        fits = fits.boundedTo({P::cellsThatFit(rect->width(), cell, all.width()), P::cellsThatFit(rect->height(), cell, all.height())});
    return fits;
}

QRect AlignmentComparisonFigure::titleRect(int index) const {
    auto* title = titles_.at(static_cast<size_t>(index)).first;
    const QFontMetrics fm(title->font());
    const QRect outer = title->outerRect();
    const int width = fm.horizontalAdvance(title->text());  // drawn centred in its element
    return {outer.center().x() - width / 2, outer.y(), width, outer.height()};
}

void AlignmentComparisonFigure::showWindow(QPoint first, QSize count) {
    for (auto* rect : rects_) {
        rect->axis(QCPAxis::atBottom)->setRange(first.x() - 0.5, first.x() + count.width() - 0.5);
        rect->axis(QCPAxis::atLeft)->setRange(first.y() - 0.5, first.y() + count.height() - 0.5);
    }
}

std::optional<AlignmentComparisonFigure::Cell> AlignmentComparisonFigure::cellAt(const QPointF& pos) const {
    for (auto* rect : rects_) {
        if (!rect->rect().contains(pos.toPoint())) continue;
        const int column = static_cast<int>(std::lround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())));
        const int row = static_cast<int>(std::lround(rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y())));
        if (column < 0 || row < 0 || column >= static_cast<int>(comparison_.columns().size()) ||
            row >= static_cast<int>(comparison_.rowAgrees().size()))
            return std::nullopt;
        return Cell{row, column};
    }
    return std::nullopt;
}

QString AlignmentComparisonFigure::describe(const Cell& cell) const {
    const auto& c = comparison_;
    const auto t = static_cast<size_t>(cell.row), i = static_cast<size_t>(cell.column);
    const QString source = FigureOptions::tokenLabel(c.columns()[i]);
    const auto value = [&](const core::AlignmentComparison::Side& s, const QString& name) {
        if (t >= s.rows.size()) return tr("%1: no row %2").arg(name).arg(cell.row + 1);
        return QStringLiteral("%1 %2 → %3 %4").arg(name, source, FigureOptions::tokenLabel(s.rows[t])).arg(s.weights[t][i], 0, 'f', 3);
    };
    QString text = value(c.a(), QStringLiteral("A")) + QStringLiteral("\n") + value(c.b(), QStringLiteral("B"));
    if (c.rowAgrees()[t]) text += QStringLiteral("\nA − B %1").arg(c.difference()[t][i], 0, 'f', 3);
    else text += QLatin1Char('\n') + tr("the targets differ at row %1: no difference").arg(cell.row + 1);
    return text;
}

QPointF AlignmentComparisonFigure::centreOf(int index, const Cell& cell) const {
    auto* rect = rects_.at(static_cast<size_t>(index));
    return {rect->axis(QCPAxis::atBottom)->coordToPixel(cell.column), rect->axis(QCPAxis::atLeft)->coordToPixel(cell.row)};
}

void AlignmentComparisonFigure::highlight(const Cell& cell) {
    highlighted_ = cell;
    for (auto* frame : frames_) {
        frame->setVisible(cell.row >= 0);
        frame->topLeft->setCoords(cell.column - 0.5, cell.row - 0.5);
        frame->bottomRight->setCoords(cell.column + 0.5, cell.row + 0.5);
    }
}

}  // namespace alignscope::ui
