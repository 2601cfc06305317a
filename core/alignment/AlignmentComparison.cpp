#include "core/alignment/AlignmentComparison.h"

#include "core/alignment/LinkExtraction.h"
#include "core/alignment/LinkSet.h"
#include "core/alignment/SoftAlignment.h"
#include "core/Error.h"
#include "core/model/Model.h"
#include "core/text/Utf8.h"

#include <cmath>
#include <limits>

namespace alignscope::core {

namespace {

// Source tokens without a model's own <padding> column (it has no counterpart in another model).
std::vector<std::string> realSourceTokens(const Alignment& a) {
    auto tokens = a.sourceTokens();
    if (Model::endsWithPaddingColumn(tokens)) tokens.pop_back();
    return tokens;
}

std::string folded(const std::string& text) {
    std::string out;
    for (const auto& c : utf8::codePoints(text)) out += utf8::encode(utf8proc_tolower(c.cp));
    return out;
}

// Every row cut or padded (with 0) to `columns` cells.
void fitColumns(std::vector<std::vector<float>>& rows, size_t columns) {
    for (auto& row : rows) row.resize(columns, 0.0f);
}

}  // namespace

AlignmentComparison AlignmentComparison::compare(const std::string& sourceText, Side a, const Alignment& alignmentA, Side b,
                                                 const Alignment& alignmentB, bool words) {
    AlignmentComparison c;
    const auto sourceA = realSourceTokens(alignmentA), sourceB = realSourceTokens(alignmentB);
    c.sameTokens_ = sourceA == sourceB;
    c.wordLevel_ = words || !c.sameTokens_;
    if (!c.wordLevel_) {
        c.columns_ = sourceA;
        for (auto [side, alignment] : {std::pair<Side*, const Alignment*>{&a, &alignmentA}, {&b, &alignmentB}}) {
            side->rows = alignment->targetTokens();
            side->weights = alignment->weights();
            fitColumns(side->weights, c.columns_.size());
        }
    } else {
        c.columns_ = LinkSet::words(sourceText);
        for (auto [side, alignment] : {std::pair<Side*, const Alignment*>{&a, &alignmentA}, {&b, &alignmentB}}) {
            side->weights = SoftAlignment::fromAttention(*alignment).wordMatrix();
            side->rows = LinkExtraction::wordLabels(alignment->targetTokens(), alignment->targetWords(), side->weights.size());
            for (const auto& row : side->weights)
                while (c.columns_.size() < row.size()) c.columns_.push_back("?");
        }
        fitColumns(a.weights, c.columns_.size());
        fitColumns(b.weights, c.columns_.size());
    }
    const size_t rows = std::max(a.rows.size(), b.rows.size());
    const float none = std::numeric_limits<float>::quiet_NaN();
    c.difference_.assign(rows, std::vector<float>(c.columns_.size(), none));
    c.rowAgrees_.assign(rows, false);
    for (size_t t = 0; t < rows; ++t) {
        if (t >= a.rows.size() || t >= b.rows.size()) continue;
        const bool same = c.wordLevel_ ? folded(a.rows[t]) == folded(b.rows[t]) : a.rows[t] == b.rows[t];
        if (!same) continue;
        c.rowAgrees_[t] = true;
        for (size_t i = 0; i < c.columns_.size(); ++i) c.difference_[t][i] = a.weights[t][i] - b.weights[t][i];
    }
    c.a_ = std::move(a);
    c.b_ = std::move(b);
    return c;
}

size_t AlignmentComparison::agreeingRows() const {
    size_t n = 0;
    for (bool agrees : rowAgrees_) n += agrees ? 1 : 0;
    return n;
}

double AlignmentComparison::meanAbsoluteDifference() const {
    double sum = 0;
    size_t cells = 0;
    for (size_t t = 0; t < difference_.size(); ++t)
        if (rowAgrees_[t])
            for (float d : difference_[t]) {
                sum += std::fabs(d);
                ++cells;
            }
    return cells ? sum / static_cast<double>(cells) : 0.0;
}

double AlignmentComparison::largestAbsoluteDifference() const {
    double largest = 0;
    for (size_t t = 0; t < difference_.size(); ++t)
        if (rowAgrees_[t])
            for (float d : difference_[t]) largest = std::max(largest, static_cast<double>(std::fabs(d)));
    return largest;
}

nlohmann::json AlignmentComparison::toJson() const {
    const auto side = [](const Side& s) {
        return nlohmann::json{{"model", s.name}, {"target", s.target}, {"rows", s.rows}, {"alpha", s.weights}};
    };
    nlohmann::json difference = nlohmann::json::array();
    for (size_t t = 0; t < difference_.size(); ++t) {
        if (!rowAgrees_[t]) {
            difference.push_back(nullptr);  // the targets differ here: no difference to show
            continue;
        }
        difference.push_back(difference_[t]);
    }
    return {{"level", wordLevel_ ? "words" : "tokens"},
            {"same_tokens", sameTokens_},
            {"columns", columns_},
            {"a", side(a_)},
            {"b", side(b_)},
            {"difference", difference},
            {"agreeing_rows", agreeingRows()},
            {"mean_abs_difference", meanAbsoluteDifference()},
            {"max_abs_difference", largestAbsoluteDifference()}};
}

}  // namespace alignscope::core
