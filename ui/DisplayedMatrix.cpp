#include "ui/DisplayedMatrix.h"

namespace alignscope::ui {

DisplayedMatrix DisplayedMatrix::of(const core::Alignment& a, const FigureOptions& o) {
    DisplayedMatrix m;
    const size_t S = a.sourceTokens().size();
    const size_t kept = o.shownColumns(a.sourceTokens(), a.sourceWords());
    m.columns.assign(a.sourceTokens().begin(), a.sourceTokens().begin() + static_cast<long>(kept));
    m.columnWords.assign(a.sourceWords().begin(), a.sourceWords().begin() + static_cast<long>(kept));
    m.renormalized = o.endColumn == FigureOptions::EndColumn::Renormalize && kept < S;
    for (const auto& row : a.weights()) {
        if (m.renormalized) {
            std::vector<double> r(row.begin(), row.begin() + static_cast<long>(kept));
            double sum = 0;
            for (double v : r) sum += v;
            if (sum > 0)
                for (double& v : r) v /= sum;
            m.doubles.push_back(std::move(r));
        } else {
            m.floats.emplace_back(row.begin(), row.begin() + static_cast<long>(kept));
        }
    }
    return m;
}

}  // namespace alignscope::ui
