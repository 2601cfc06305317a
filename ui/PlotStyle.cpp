#include "ui/PlotStyle.h"

#include <algorithm>

namespace alignscope::ui {

QCPColorGradient PlotStyle::alphaGradient(FigureOptions::ColorMap map) {
    QCPColorGradient g;
    g.clearColorStops();
    if (map == FigureOptions::ColorMap::Grayscale) {
        g.setColorStopAt(0.0, QColor(255, 255, 255));
        g.setColorStopAt(1.0, QColor(0, 0, 0));
    } else {  // viridis (matplotlib), sampled at nine points
        const char* stops[] = {"#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725"};
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

void PlotStyle::fitLabel(QCPAxis* axis, const QString& label, int length) {
    const QFontMetrics fm(axis->labelFont());
    const auto longest = [&fm](const QString& text) {
        int w = 0;
        for (const auto& line : text.split(QLatin1Char('\n'))) w = std::max(w, fm.horizontalAdvance(line));
        return w;
    };
    QStringList forms{label};
    // Two lines, broken at the space nearest the middle.
    const QString flat = QString(label).replace(QLatin1Char('\n'), QLatin1Char(' '));
    int best = -1;
    for (int k = flat.indexOf(QLatin1Char(' ')); k >= 0; k = flat.indexOf(QLatin1Char(' '), k + 1))
        if (best < 0 || std::abs(k - flat.size() / 2) < std::abs(best - flat.size() / 2)) best = k;
    if (best > 0) forms << flat.left(best) + QLatin1Char('\n') + flat.mid(best + 1);
    int head = flat.size();
    for (const auto& mark : {QStringLiteral(" ("), QStringLiteral(",")})
        if (const int at = flat.indexOf(mark); at > 0) head = std::min(head, at);
    forms << flat.left(head) << flat.section(QLatin1Char(' '), -1);  // at last its last word ("alpha")
    for (const auto& form : forms)
        if (longest(form) <= length) {
            axis->setLabel(form);
            return;
        }
    axis->setLabel(QString());  // an axis too short for any title: its tick labels say what it holds
}

void PlotStyle::fitLabels(QCustomPlot* plot) {
    // A title that fits may change the margins (a second line), and so the length of the other
    // axes: fitted again on the new layout until none changes (a form only ever gets shorter).
    for (int pass = 0; pass < 3; ++pass) {
        bool changed = false;
        const auto fit = [&changed](QCPAxis* axis, int length) {
            const QString before = axis->label();
            fitLabel(axis, before, length);
            changed = changed || axis->label() != before;
        };
        for (auto* rect : plot->axisRects()) {
            // A horizontal title is centred under its axis rect: the room either side of that centre, twice.
            const int centre = rect->left() + rect->width() / 2;
            const int across = 2 * std::min(centre, plot->width() - centre) - 10;
            for (auto* axis : rect->axes())
                if (!axis->label().isEmpty()) fit(axis, axis->orientation() == Qt::Horizontal ? across : rect->height());
        }
        for (auto* element : plot->plotLayout()->elements(true))  // a scale may sit in a grid of its own
            if (auto* scale = qobject_cast<QCPColorScale*>(element))
                if (!scale->axis()->label().isEmpty()) fit(scale->axis(), scale->axis()->axisRect()->height());
        layOut(plot);
        if (!changed && pass > 0) break;
    }
}

void PlotStyle::layOut(QCustomPlot* plot) {
    plot->setViewport(plot->rect());
    auto* layout = plot->plotLayout();
    // A colour scale reports its current margin as the one it needs, so a margin group holding one
    // only ever grew (labels turned upright and back left their height as an empty band): from zero.
    for (auto* element : layout->elements(true))
        if (auto* scale = qobject_cast<QCPColorScale*>(element)) scale->setMargins(QMargins());
    layout->update(QCPLayoutElement::upPreparation);
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
}

}  // namespace alignscope::ui
