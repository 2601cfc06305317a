#include "core/evaluation/Bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace alignscope::core {
namespace {

std::map<std::vector<std::string>, size_t> ngrams(const Bleu::Tokens& tokens, size_t n) {
    std::map<std::vector<std::string>, size_t> out;
    for (size_t i = 0; i + n <= tokens.size(); ++i) ++out[std::vector<std::string>(tokens.begin() + i, tokens.begin() + i + n)];
    return out;
}

}  // namespace

void Bleu::add(const Tokens& hyp, const std::vector<Tokens>& refs) {
    ++segments_;
    hypLength_ += hyp.size();
    if (!refs.empty()) {
        size_t best = refs.front().size();
        for (const auto& r : refs) {
            const auto d = std::labs(static_cast<long>(r.size()) - static_cast<long>(hyp.size()));
            const auto bd = std::labs(static_cast<long>(best) - static_cast<long>(hyp.size()));
            if (d < bd || (d == bd && r.size() < best)) best = r.size();
        }
        refLength_ += best;
    }
    for (size_t n = 1; n <= 4; ++n) {
        const auto h = ngrams(hyp, n);
        std::map<std::vector<std::string>, size_t> maxRef;
        for (const auto& r : refs)
            for (const auto& [g, c] : ngrams(r, n)) maxRef[g] = std::max(maxRef[g], c);
        for (const auto& [g, c] : h) {
            const auto it = maxRef.find(g);
            matches_[n - 1] += std::min(c, it == maxRef.end() ? size_t{0} : it->second);
            totals_[n - 1] += c;
        }
    }
}

double Bleu::precision(int n) const {
    const auto i = static_cast<size_t>(n - 1);
    return totals_[i] ? static_cast<double>(matches_[i]) / static_cast<double>(totals_[i]) : 0.0;
}

double Bleu::brevityPenalty() const {
    if (hypLength_ == 0) return 0.0;
    if (hypLength_ >= refLength_) return 1.0;
    return std::exp(1.0 - static_cast<double>(refLength_) / static_cast<double>(hypLength_));
}

double Bleu::score() const {
    double logSum = 0;
    for (int n = 1; n <= 4; ++n) {
        const double p = precision(n);
        if (p <= 0) return 0.0;
        logSum += std::log(p);
    }
    return 100.0 * brevityPenalty() * std::exp(logSum / 4.0);
}

}  // namespace alignscope::core
