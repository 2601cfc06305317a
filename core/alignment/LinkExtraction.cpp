#include "core/alignment/LinkExtraction.h"

#include "core/text/PieceText.h"

#include "core/Error.h"

#include <algorithm>
#include <set>

namespace alignscope::core {

LinkExtraction::Links LinkExtraction::extract(const std::vector<std::vector<float>>& matrix, const std::vector<int>& sourceWords,
                                              const std::vector<int>& targetWords, Rule rule, float threshold) {
    std::set<std::pair<int, int>> links;
    const size_t S = sourceWords.size();
    for (size_t t = 0; t < matrix.size() && t < targetWords.size(); ++t) {
        const auto& row = matrix[t];
        if (targetWords[t] < 0 || row.size() < S || S == 0) continue;
        if (rule == Rule::Argmax) {
            const auto peak = static_cast<size_t>(std::max_element(row.begin(), row.begin() + S) - row.begin());
            if (sourceWords[peak] >= 0) links.emplace(sourceWords[peak], targetWords[t]);
            continue;
        }
        double mass = 0;
        for (size_t i = 0; i < S; ++i) mass += std::max(0.0f, row[i]);
        if (mass <= 0) continue;
        for (size_t i = 0; i < S; ++i)
            if (sourceWords[i] >= 0 && std::max(0.0f, row[i]) / mass >= threshold) links.emplace(sourceWords[i], targetWords[t]);
    }
    return {links.begin(), links.end()};
}

LinkExtraction::Links LinkExtraction::symmetrize(const Links& forward, const Links& backward, Symmetrization how) {
    const std::set<std::pair<int, int>> f(forward.begin(), forward.end()), b(backward.begin(), backward.end());
    std::set<std::pair<int, int>> both, either(f);
    either.insert(b.begin(), b.end());
    for (const auto& l : f)
        if (b.count(l)) both.insert(l);
    if (how == Symmetrization::Intersection) return {both.begin(), both.end()};
    if (how == Symmetrization::Union) return {either.begin(), either.end()};

    // grow-diag-final-and (Koehn et al. 2003, as Moses and fast_align's atools do it): start from
    // the intersection, grow into union links next to (also diagonally) an existing link whose
    // source or target word is still unaligned, then add union links between two unaligned words.
    std::set<std::pair<int, int>> a = both;
    std::set<int> sourceAligned, targetAligned;
    for (const auto& [s, t] : a) sourceAligned.insert(s), targetAligned.insert(t);
    const int neighbours[8][2] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
    for (bool added = true; added;) {
        added = false;
        // Inserting into a std::set leaves iterators valid: a point added in this sweep is visited
        // later in it when it sorts after the current one, as in Moses' loop over (e, f).
        for (auto it = a.begin(); it != a.end(); ++it) {
            for (const auto& n : neighbours) {
                const std::pair<int, int> c{it->first + n[0], it->second + n[1]};
                if (!either.count(c) || a.count(c)) continue;
                if (!sourceAligned.count(c.first) || !targetAligned.count(c.second)) {
                    sourceAligned.insert(c.first);
                    targetAligned.insert(c.second);
                    a.insert(c);
                    added = true;
                }
            }
        }
    }
    for (const auto* direction : {&f, &b})
        for (const auto& l : *direction)
            if (!sourceAligned.count(l.first) && !targetAligned.count(l.second)) {
                sourceAligned.insert(l.first);
                targetAligned.insert(l.second);
                a.insert(l);
            }
    return {a.begin(), a.end()};
}

std::vector<std::vector<float>> LinkExtraction::mergeToWords(const std::vector<std::vector<float>>& matrix,
                                                             const std::vector<int>& sourceWords,
                                                             const std::vector<int>& targetWords) {
    int sourceCount = 0, targetCount = 0;
    for (int w : sourceWords) sourceCount = std::max(sourceCount, w + 1);
    for (int w : targetWords) targetCount = std::max(targetCount, w + 1);
    std::vector<std::vector<float>> words(targetCount, std::vector<float>(sourceCount, 0.0f));
    std::vector<int> rows(targetCount, 0);
    for (size_t t = 0; t < matrix.size() && t < targetWords.size(); ++t) {
        if (targetWords[t] < 0) continue;
        ++rows[targetWords[t]];
        for (size_t i = 0; i < sourceWords.size() && i < matrix[t].size(); ++i)
            if (sourceWords[i] >= 0) words[targetWords[t]][sourceWords[i]] += matrix[t][i];
    }
    for (int w = 0; w < targetCount; ++w)
        if (rows[w] > 1)
            for (auto& v : words[w]) v /= static_cast<float>(rows[w]);
    return words;
}

std::vector<std::string> LinkExtraction::wordLabels(const std::vector<std::string>& tokens, const std::vector<int>& words,
                                                    size_t count) {
    std::vector<std::vector<std::string>> pieces(count);
    for (size_t t = 0; t < tokens.size() && t < words.size(); ++t)
        if (words[t] >= 0 && static_cast<size_t>(words[t]) < count) pieces[static_cast<size_t>(words[t])].push_back(tokens[t]);
    std::vector<std::string> labels;
    for (const auto& p : pieces) {
        std::string label = PieceText::join(p);
        const auto first = label.find_first_not_of(' '), last = label.find_last_not_of(' ');
        label = first == std::string::npos ? std::string() : label.substr(first, last - first + 1);
        labels.push_back(label.empty() ? "?" : label);
    }
    return labels;
}

LinkExtraction::Rule LinkExtraction::ruleNamed(const std::string& name) {
    if (name == "argmax") return Rule::Argmax;
    if (name == "threshold") return Rule::Threshold;
    throw Error("unknown link rule '" + name + "' (argmax, threshold, intersection, union, grow-diag-final-and)");
}

bool LinkExtraction::isSymmetrization(const std::string& name) {
    return name == "intersection" || name == "union" || name == "grow-diag-final-and";
}

LinkExtraction::Symmetrization LinkExtraction::symmetrizationNamed(const std::string& name) {
    if (name == "intersection") return Symmetrization::Intersection;
    if (name == "union") return Symmetrization::Union;
    if (name == "grow-diag-final-and") return Symmetrization::GrowDiagFinalAnd;
    throw Error("unknown symmetrisation '" + name + "' (intersection, union, grow-diag-final-and)");
}

}  // namespace alignscope::core
