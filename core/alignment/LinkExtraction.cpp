#include "core/alignment/LinkExtraction.h"

#include "core/text/PieceText.h"

#include "core/Error.h"

#include <algorithm>
#include <set>

namespace alignscope::core {

namespace {

std::vector<double> shares(const std::vector<float>& row) {  // the row's positive part, summing to 1
    std::vector<double> out(row.size());
    double mass = 0;
    for (size_t i = 0; i < row.size(); ++i) mass += out[i] = std::max(0.0f, row[i]);
    if (mass > 0)
        for (auto& v : out) v /= mass;
    return out;
}

// A token matrix merged to words: for each target word, its rows summed over each source word's
// columns, with the tokens of no word (</s>) pooled in a last column, and how many rows it had.
// Sums in double; a row shorter than the source (malformed) is left out. The one merge that
// extract and mergeToWords both read.
struct WordSums {
    std::vector<std::vector<double>> sums;  // [target words][source words + 1]
    std::vector<int> rows;                  // [target words]
    size_t none = 0;                        // the pooled column's index (= source words)
};

WordSums sumByWord(const std::vector<std::vector<float>>& matrix, const std::vector<int>& sourceWords,
                   const std::vector<int>& targetWords) {
    const size_t S = sourceWords.size();
    int sourceCount = 0, targetCount = 0;
    for (int w : sourceWords) sourceCount = std::max(sourceCount, w + 1);
    for (int w : targetWords) targetCount = std::max(targetCount, w + 1);
    WordSums merged;
    merged.none = static_cast<size_t>(sourceCount);
    merged.sums.assign(static_cast<size_t>(targetCount), std::vector<double>(merged.none + 1, 0.0));
    merged.rows.assign(static_cast<size_t>(targetCount), 0);
    for (size_t t = 0; t < matrix.size() && t < targetWords.size(); ++t) {
        if (targetWords[t] < 0 || matrix[t].size() < S || S == 0) continue;
        auto& row = merged.sums[static_cast<size_t>(targetWords[t])];
        ++merged.rows[static_cast<size_t>(targetWords[t])];
        for (size_t i = 0; i < S; ++i) row[sourceWords[i] >= 0 ? static_cast<size_t>(sourceWords[i]) : merged.none] += matrix[t][i];
    }
    return merged;
}

// Each target word's rows averaged, </s>'s column dropped: the word matrix [T][S] mergeToWords
// returns and the rules that read columns compare target words by (a word of three pieces must
// not weigh three times).
std::vector<std::vector<double>> averagedRows(const WordSums& merged) {
    std::vector<std::vector<double>> m(merged.sums.size());
    for (size_t w = 0; w < m.size(); ++w) {
        m[w].assign(merged.sums[w].begin(), merged.sums[w].begin() + static_cast<long>(merged.none));
        for (auto& v : m[w]) v /= std::max(1, merged.rows[w]);
    }
    return m;
}

}  // namespace

LinkExtraction::Links LinkExtraction::extract(const std::vector<std::vector<float>>& matrix, const std::vector<int>& sourceWords,
                                              const std::vector<int>& targetWords, Rule rule, float threshold) {
    // One decision per target word over its merged row (a source word's columns summed, a target
    // word's rows averaged, as mergeToWords), not one per piece: a French word cut in three pieces
    // would otherwise make up to three links (issue 35). The tokens of no word (</s>) keep a column
    // of their own, so that a word whose row peaks there stays unaligned, as a token's did.
    const auto merged = sumByWord(matrix, sourceWords, targetWords);
    const auto& words = merged.sums;
    const auto& rows = merged.rows;
    const size_t none = merged.none;  // the column of tokens outside every word
    if (rule == Rule::IterMax) return iterMax(averagedRows(merged));
    std::set<std::pair<int, int>> links;
    for (size_t w = 0; w < words.size(); ++w) {
        if (rows[w] == 0) continue;
        const auto& row = words[w];
        if (rule == Rule::Argmax || rule == Rule::ArgmaxBothWays) {
            const auto peak = static_cast<size_t>(std::max_element(row.begin(), row.end()) - row.begin());
            if (peak != none) links.emplace(static_cast<int>(peak), static_cast<int>(w));
            continue;
        }
        if (rule == Rule::ArgmaxSkipEos) {
            if (none == 0) continue;
            const auto peak = std::max_element(row.begin(), row.begin() + static_cast<long>(none)) - row.begin();
            links.emplace(static_cast<int>(peak), static_cast<int>(w));
            continue;
        }
        double mass = 0;
        for (double v : row) mass += std::max(0.0, v);
        if (mass <= 0) continue;
        for (size_t i = 0; i < none; ++i)
            if (std::max(0.0, row[i]) / mass >= threshold) links.emplace(static_cast<int>(i), static_cast<int>(w));
    }
    if (rule != Rule::ArgmaxBothWays) return {links.begin(), links.end()};

    // Each source word's peak over the target words that have tokens; the first of equal peaks
    // wins, as a row's does.
    const auto m = averagedRows(merged);
    Links columns;
    for (size_t i = 0; i < none; ++i) {
        int best = -1;
        for (size_t w = 0; w < m.size(); ++w)
            if (rows[w] > 0 && (best < 0 || m[w][i] > m[static_cast<size_t>(best)][i])) best = static_cast<int>(w);
        if (best >= 0) columns.emplace_back(static_cast<int>(i), best);
    }
    return symmetrize({links.begin(), links.end()}, columns, Symmetrization::GrowDiagFinalAnd);
}

LinkExtraction::Links LinkExtraction::iterMax(const std::vector<std::vector<double>>& m) {
    // As SimAlign's iter_max(max_count=2, alpha_ratio=0.5) reads a similarity matrix: numpy's
    // argmax (the first of equal peaks), at most two rounds, and a matrix with a side of two
    // words or fewer keeps the first round only. 0.5, not SimAlign's 0.9: chosen on the dev half.
    constexpr double kDamping = 0.5;
    const size_t T = m.size(), S = T > 0 ? m[0].size() : 0;
    Links links;
    if (T == 0 || S == 0) return links;
    std::vector<std::vector<double>> w = m;
    std::vector<char> rowLinked(T, 0), columnLinked(S, 0);
    for (int round = 0; round < 2; ++round) {
        if (round == 1) {
            if (std::min(T, S) <= 2) break;
            const bool rowsLeft = std::count(rowLinked.begin(), rowLinked.end(), 0) > 0;
            const bool columnsLeft = std::count(columnLinked.begin(), columnLinked.end(), 0) > 0;
            if (!rowsLeft || !columnsLeft) break;
            for (size_t t = 0; t < T; ++t)
                for (size_t s = 0; s < S; ++s) w[t][s] = m[t][s] * std::min(1.0, kDamping * (!rowLinked[t] + !columnLinked[s]));
        }
        std::vector<size_t> rowPeak(T, 0), columnPeak(S, 0);
        for (size_t t = 0; t < T; ++t)
            for (size_t s = 1; s < S; ++s)
                if (w[t][s] > w[t][rowPeak[t]]) rowPeak[t] = s;
        for (size_t s = 0; s < S; ++s)
            for (size_t t = 1; t < T; ++t)
                if (w[t][s] > w[columnPeak[s]][s]) columnPeak[s] = t;
        Links added;
        for (size_t t = 0; t < T; ++t) {
            const size_t s = rowPeak[t];
            if (columnPeak[s] == t && !(rowLinked[t] && columnLinked[s])) added.emplace_back(static_cast<int>(s), static_cast<int>(t));
        }
        if (added.empty()) break;
        for (const auto& [s, t] : added) rowLinked[static_cast<size_t>(t)] = columnLinked[static_cast<size_t>(s)] = 1;
        links.insert(links.end(), added.begin(), added.end());
    }
    std::sort(links.begin(), links.end());
    return links;
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

LinkExtraction::Links LinkExtraction::agree(const std::vector<std::vector<float>>& forward, const std::vector<std::vector<float>>& backward,
                                            Symmetrization how) {
    const size_t T = forward.size(), S = T > 0 ? forward[0].size() : backward.size();
    const auto covers = [](const std::vector<std::vector<float>>& m, size_t rows, size_t columns) {
        if (m.size() != rows) return false;
        for (const auto& row : m)
            if (row.size() != columns) return false;
        return true;
    };
    if (!covers(forward, T, S) || !covers(backward, S, T))
        throw Error("the two directions cover different words (" + std::to_string(S) + " x " + std::to_string(T) + " forward, " +
                    std::to_string(backward.size()) + " x " + std::to_string(backward.empty() ? 0 : backward[0].size()) + " backward)");
    std::vector<std::vector<double>> product(T, std::vector<double>(S));
    for (size_t t = 0; t < T; ++t) {
        const auto f = shares(forward[t]);
        for (size_t s = 0; s < S; ++s) product[t][s] = f[s];
    }
    for (size_t s = 0; s < S; ++s) {
        const auto b = shares(backward[s]);
        for (size_t t = 0; t < T; ++t) product[t][s] *= b[t];
    }
    Links f, b;
    for (size_t t = 0; t < T; ++t) {
        size_t best = 0;
        for (size_t s = 1; s < S; ++s)
            if (product[t][s] > product[t][best]) best = s;
        if (S > 0 && product[t][best] > 0) f.emplace_back(static_cast<int>(best), static_cast<int>(t));
    }
    for (size_t s = 0; s < S; ++s) {
        size_t best = 0;
        for (size_t t = 1; t < T; ++t)
            if (product[t][s] > product[best][s]) best = t;
        if (T > 0 && product[best][s] > 0) b.emplace_back(static_cast<int>(s), static_cast<int>(best));
    }
    std::sort(f.begin(), f.end());
    std::sort(b.begin(), b.end());
    return symmetrize(f, b, how);
}

std::vector<std::vector<float>> LinkExtraction::average(const std::vector<std::vector<std::vector<float>>>& members) {
    if (members.empty()) return {};
    const auto shape = [](const std::vector<std::vector<float>>& m) {
        return std::to_string(m.size()) + " x " + std::to_string(m.empty() ? 0 : m[0].size());
    };
    std::vector<std::vector<double>> sum(members[0].size());
    for (size_t k = 0; k < members.size(); ++k) {
        const auto& m = members[k];
        bool same = m.size() == sum.size();
        for (size_t t = 0; same && t < m.size(); ++t) same = m[t].size() == members[0][t].size();
        if (!same)
            throw Error("ensemble member " + std::to_string(k + 1) + " covers " + shape(m) + " words, member 1 " + shape(members[0]) +
                        " (target x source)");
        for (size_t t = 0; t < m.size(); ++t) {
            const auto row = shares(m[t]);
            if (sum[t].empty()) sum[t].assign(row.size(), 0.0);
            for (size_t s = 0; s < row.size(); ++s) sum[t][s] += row[s];
        }
    }
    std::vector<std::vector<float>> mean(sum.size());
    for (size_t t = 0; t < sum.size(); ++t)
        for (double v : sum[t]) mean[t].push_back(static_cast<float>(v / static_cast<double>(members.size())));
    return mean;
}

std::vector<std::vector<float>> LinkExtraction::mergeToWords(const std::vector<std::vector<float>>& matrix,
                                                             const std::vector<int>& sourceWords, const std::vector<int>& targetWords) {
    std::vector<std::vector<float>> words;
    for (const auto& row : averagedRows(sumByWord(matrix, sourceWords, targetWords))) words.emplace_back(row.begin(), row.end());
    return words;
}

std::vector<std::string> LinkExtraction::wordLabels(const std::vector<std::string>& tokens, const std::vector<int>& words, size_t count) {
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
    if (name == "argmax-skip-eos") return Rule::ArgmaxSkipEos;
    if (name == "threshold") return Rule::Threshold;
    if (name == "argmax-both-ways") return Rule::ArgmaxBothWays;
    if (name == "itermax") return Rule::IterMax;
    throw Error("unknown link rule '" + name +
                "' (argmax, argmax-skip-eos, threshold, argmax-both-ways, itermax, [agreement-]intersection, [agreement-]union, "
                "[agreement-]grow-diag-final-and)");
}

namespace {
constexpr const char* kAgreement = "agreement-";
std::string withoutAgreement(const std::string& name) {
    return name.rfind(kAgreement, 0) == 0 ? name.substr(std::string(kAgreement).size()) : name;
}
}  // namespace

bool LinkExtraction::isAgreement(const std::string& name) {
    return name.rfind(kAgreement, 0) == 0 && isSymmetrization(withoutAgreement(name));
}

bool LinkExtraction::isSymmetrization(const std::string& name) {
    const auto plain = withoutAgreement(name);
    return plain == "intersection" || plain == "union" || plain == "grow-diag-final-and";
}

LinkExtraction::Symmetrization LinkExtraction::symmetrizationNamed(const std::string& name) {
    const auto plain = withoutAgreement(name);
    if (plain == "intersection") return Symmetrization::Intersection;
    if (plain == "union") return Symmetrization::Union;
    if (plain == "grow-diag-final-and") return Symmetrization::GrowDiagFinalAnd;
    throw Error("unknown symmetrisation '" + name + "' ([agreement-]intersection, [agreement-]union, [agreement-]grow-diag-final-and)");
}

}  // namespace alignscope::core
