#include "ui/PlotStyle.h"

namespace alignscope::ui {

QCPColorGradient PlotStyle::alphaGradient(FigureOptions::ColorMap map) {
    QCPColorGradient g;
    g.clearColorStops();
    if (map == FigureOptions::ColorMap::Grayscale) {
        g.setColorStopAt(0.0, QColor(255, 255, 255));
        g.setColorStopAt(1.0, QColor(0, 0, 0));
    } else {  // viridis (matplotlib), sampled at nine points
        const char* stops[] = {"#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c",
                               "#28ae80", "#5ec962", "#addc30", "#fde725"};
        for (int i = 0; i < 9; ++i) g.setColorStopAt(i / 8.0, QColor(stops[i]));
    }
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

QCPColorGradient PlotStyle::divergingGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor("#2166ac"));
    g.setColorStopAt(0.5, QColor("#f7f7f7"));
    g.setColorStopAt(1.0, QColor("#b2182b"));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

QSharedPointer<QCPAxisTickerText> PlotStyle::textTicker(const std::vector<QString>& labels) {
    QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
    for (size_t i = 0; i < labels.size(); ++i) t->addTick(static_cast<double>(i), labels[i]);
    return t;
}

void PlotStyle::styleAxis(QCPAxis* axis, const QFont& font) {
    axis->setTickLabelFont(font);
    axis->setLabelFont(font);
    axis->setSubTicks(false);
    axis->setTickLength(0, 3);
    axis->grid()->setVisible(false);
}

}  // namespace alignscope::ui
