#pragma once
#include "ui/FigureOptions.h"

#include <qcustomplot.h>

#include <QString>

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
};

}  // namespace alignscope::ui
