#include "ui/WordMatrix.h"

#include "core/alignment/LinkExtraction.h"
#include "core/alignment/LinkSet.h"
#include "ui/FigureOptions.h"

#include <algorithm>

namespace alignscope::ui {
namespace {

std::vector<QString> labels(const std::vector<std::string>& texts) {
    std::vector<QString> out;
    for (const auto& t : texts) out.push_back(QString::fromStdString(t));
    return out;
}

}  // namespace

WordMatrix WordMatrix::merge(const core::DecodingState& s, const std::vector<std::vector<double>>& pieces, int shownTokens) {
    const auto alignment = s.alignment();
    std::vector<std::vector<float>> rows;
    for (const auto& r : pieces) rows.emplace_back(r.begin(), r.end());
    std::vector<int> sourceWords(
        s.source.words.begin(),
        s.source.words.begin() + static_cast<long>(std::min<size_t>(s.source.words.size(), static_cast<size_t>(std::max(0, shownTokens)))));
    int sourceCount = 0;
    for (int w : sourceWords) sourceCount = std::max(sourceCount, w + 1);
    // A shown </s> column (View > Keep the </s> column, or renormalised) is a column of its own
    // here too: it belongs to no word, and without it a row would not sum as the tokens' row does.
    const bool endColumn = !sourceWords.empty() && sourceWords.back() < 0;
    if (endColumn) sourceWords.back() = sourceCount;
    WordMatrix m;
    for (const auto& r : core::LinkExtraction::mergeToWords(rows, sourceWords, alignment.targetWords()))
        m.weights.emplace_back(r.begin(), r.end());
    const int columns = sourceCount + (endColumn ? 1 : 0);
    for (auto& r : m.weights) r.resize(static_cast<size_t>(columns), 0.0);
    // Columns as typed (the tokenizer numbers the text's words); rows as each word's pieces spell it.
    const auto typed = core::LinkSet::words(s.sourceText);
    m.columns = labels(typed.size() == static_cast<size_t>(sourceCount)
                           ? typed
                           : core::LinkExtraction::wordLabels(s.source.tokens, s.source.words, static_cast<size_t>(sourceCount)));
    if (endColumn) m.columns.push_back(FigureOptions::tokenLabel(s.source.tokens[sourceWords.size() - 1]));
    m.rows = labels(core::LinkExtraction::wordLabels(alignment.targetTokens(), alignment.targetWords(), m.weights.size()));
    return m;
}

}  // namespace alignscope::ui
