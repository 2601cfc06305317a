#pragma once
#include "ui/FigureOptions.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QString>

#include <algorithm>

#include <vector>

namespace alignscope::ui {

// The look every heatmap shares (the alignment figure, the compare view): colour maps, text
// tickers, cell ranges and axis style, so two figures side by side read alike.
class PlotStyle {
public:
    // Attention weights in [0, 1]: viridis (perceptually uniform) or grey for print.
    static QCPColorGradient alphaGradient(FigureOptions::ColorMap map);
    // Signed values (states in [-1, 1], attributions, differences): blue-white-red.
    static QCPColorGradient divergingGradient();
    static QSharedPointer<QCPAxisTickerText> textTicker(const std::vector<QString>& labels);
    // The data range of a colour map dimension of n cells centred on 0..n-1. QCustomPlot sizes a
    // cell from the distance between the first and last centres, so a dimension of one cell would
    // get no extent and not be drawn; given -0.5..0.5 that cell covers its unit like every other.
    static QCPRange cellCentres(int n) { return n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.5, 0.5); }
    static void styleAxis(QCPAxis* axis, const QFont& font);
    // The smallest cell whose label can still be read beside it (a row's label is a line of text).
    static int readableCell(const QFont& font) { return QFontMetrics(font).height() + 2; }
    // Lays the chart out at the widget's size now (what a replot does first), so that its axis
    // rects' sizes can be read before drawing.
    static void layOut(QCustomPlot* plot);
    // An axis title no longer than `length` pixels: the whole title, else on two lines, else its
    // head (before " (" or ","), else its last word, else none: a short axis keeps a title that is
    // read, not one that is cut.
    static void fitLabel(QCPAxis* axis, const QString& label, int length);
    // fitLabel for every axis title of a laid-out chart (across: the chart's width; up: the axis
    // rect's height; a colour scale's: its bar's), then the chart laid out again.
    static void fitLabels(QCustomPlot* plot);
    // How many cells of `total` fit in `pixels` at `cell` pixels each (at least one).
    static int cellsThatFit(int pixels, int cell, int total) { return std::clamp(pixels / std::max(1, cell), 1, std::max(1, total)); }
};

}  // namespace alignscope::ui
