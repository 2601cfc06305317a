#pragma once
#include "core/inspection/DecodingState.h"

#include <QString>

#include <vector>

namespace alignscope::ui {

// A heatmap's matrix over the words of the text (View > Words): a source word's piece columns
// summed, a target word's piece rows averaged (core::LinkExtraction::mergeToWords), the columns
// labelled as typed and the rows as each word's pieces spell it. The figure and the CSV export
// merge through this one function, so a file holds what the screen shows.
struct WordMatrix {
    std::vector<QString> columns, rows;
    std::vector<std::vector<double>> weights;  // [target words][source words]

    // `pieces`: [target tokens][the first `shownTokens` source tokens] of the state's alignment.
    static WordMatrix merge(const core::DecodingState& s, const std::vector<std::vector<double>>& pieces, int shownTokens);
};

}  // namespace alignscope::ui
