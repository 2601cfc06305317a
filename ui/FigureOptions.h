#pragma once
#include <QString>

namespace alignscope::ui {

// How an alignment figure is drawn, in the app and in exported files alike.
struct FigureOptions {
    enum class ColorMap { Viridis, Grayscale };    // perceptually uniform, or print-friendly grey
    enum class EndColumn { Keep, Drop, Renormalize };  // the </s> source column (display only)

    bool showEncoderStates = true;     // the encoder-states panel below the heatmap
    ColorMap colorMap = ColorMap::Viridis;
    bool valuesInCells = false;        // write each alpha into its cell
    int fontSize = 10;                 // token labels, in points
    EndColumn endColumn = EndColumn::Keep;
    QString title;                     // empty: no title
    bool highlightCurrentStep = true;  // frame the newest row and its peak
};

}  // namespace alignscope::ui
