#include "core/evaluation/Bleu.h"

#include "core/text/NormalizedText.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>

namespace alignscope::core {
namespace {

std::map<std::vector<std::string>, size_t> ngrams(const Bleu::Tokens& tokens, size_t n) {
    std::map<std::vector<std::string>, size_t> out;
    for (size_t i = 0; i + n <= tokens.size(); ++i) ++out[std::vector<std::string>(tokens.begin() + i, tokens.begin() + i + n)];
    return out;
}

}  // namespace

Bleu::Tokens Bleu::tokenize13a(const std::string& text, bool lowercase) {
    // sacrebleu's Tokenizer13a: its regular expressions, in its order, on " text " (UTF-8 is safe:
    // every class is ASCII, and a space inserted beside a multi-byte character's byte lands at the
    // character's edge).
    static const std::regex symbols(R"(([\x7B-\x7E\x5B-\x60\x20-\x26\x28-\x2B\x3A-\x40\x2F]))");
    static const std::regex pointAfterNonDigit(R"(([^0-9])([\.,]))");
    static const std::regex pointBeforeNonDigit(R"(([\.,])([^0-9]))");
    static const std::regex dashAfterDigit(R"(([0-9])(-))");
    std::string line = text;
    if (lowercase) {  // sacrebleu lower-cases before it tokenises
        NormalizedText lowered(line);
        lowered.lowercase();
        line = lowered.text();
    }
    for (const auto& [from, to] : {std::pair<const char*, const char*>{"<skipped>", ""},
                                   {"-\n", ""},
                                   {"\n", " "},
                                   {"&quot;", "\""},
                                   {"&amp;", "&"},
                                   {"&lt;", "<"},
                                   {"&gt;", ">"}})
        for (size_t at = 0; (at = line.find(from, at)) != std::string::npos;) {
            line.replace(at, std::char_traits<char>::length(from), to);
            at += std::char_traits<char>::length(to);
        }
    line = " " + line + " ";
    line = std::regex_replace(line, symbols, " $1 ");
    line = std::regex_replace(line, pointAfterNonDigit, "$1 $2 ");
    line = std::regex_replace(line, pointBeforeNonDigit, " $1 $2");
    line = std::regex_replace(line, dashAfterDigit, "$1 $2 ");
    Tokens tokens;
    std::istringstream words(line);
    for (std::string w; words >> w;) tokens.push_back(w);
    return tokens;
}

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
