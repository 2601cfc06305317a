#include "core/attribution/AttributionAgreement.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace alignscope::core {

namespace {

std::vector<double> ranks(const std::vector<float>& v) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
        for (size_t k = i; k <= j; ++k) r[order[k]] = (i + j) / 2.0 + 1.0;
        i = j + 1;
    }
    return r;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
    const double n = static_cast<double>(a.size());
    const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n, mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0.0;
}

std::vector<double> distribution(const std::vector<float>& v) {
    std::vector<double> p(v.size());
    double sum = 0;
    for (size_t i = 0; i < v.size(); ++i) sum += p[i] = std::abs(static_cast<double>(v[i]));
    for (auto& x : p) x = sum > 0 ? x / sum : 1.0 / v.size();
    return p;
}

}  // namespace

AttributionAgreement AttributionAgreement::between(const std::vector<float>& attention, const std::vector<float>& attribution) {
    AttributionAgreement a;
    const size_t n = std::min(attention.size(), attribution.size());
    if (n == 0) return a;
    const std::vector<float> x(attention.begin(), attention.begin() + n), y(attribution.begin(), attribution.begin() + n);
    a.spearman = pearson(ranks(x), ranks(y));
    a.sameTop = std::max_element(x.begin(), x.end()) - x.begin() == std::max_element(y.begin(), y.end()) - y.begin();
    const auto p = distribution(x), q = distribution(y);
    double js = 0;
    for (size_t i = 0; i < n; ++i) {
        const double m = (p[i] + q[i]) / 2;
        if (p[i] > 0) js += 0.5 * p[i] * std::log2(p[i] / m);
        if (q[i] > 0) js += 0.5 * q[i] * std::log2(q[i] / m);
    }
    a.jensenShannon = std::max(0.0, js);
    return a;
}

}  // namespace alignscope::core
