#pragma once
#include "core/decoding/Alignment.h"
#include "ui/FigureOptions.h"

#include <string>
#include <vector>

namespace alignscope::ui {

// The matrix as the figure shows it: the </s> column kept, dropped, or dropped with each row
// renormalised (the same arithmetic as AlignmentFigure). Values stay floats unless renormalised.
// CSV and JSON files (FigureExporter, PageData) hold this matrix.
struct DisplayedMatrix {
    std::vector<std::string> columns;
    std::vector<int> columnWords;
    std::vector<std::vector<float>> floats;    // exact engine values (keep, drop)
    std::vector<std::vector<double>> doubles;  // renormalised rows
    bool renormalized = false;

    static DisplayedMatrix of(const core::Alignment& alignment, const FigureOptions& options);
};

}  // namespace alignscope::ui
