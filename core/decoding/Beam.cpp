#include "core/decoding/Beam.h"

#include "core/text/Vocabulary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace alignscope::core {

namespace {

// Stable: hypotheses with equal scores keep the order in which they finished.
void sortBestFirst(std::vector<Hypothesis>& hypotheses) {
    std::stable_sort(hypotheses.begin(), hypotheses.end(), [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
}

}  // namespace

Beam::Beam(const Vocabulary& vocabulary, int width, float lengthPenalty, int64_t columns, int limit)
    : vocabulary_(vocabulary),
      width_(std::max(1, width)),
      lengthPenalty_(lengthPenalty),
      columns_(columns),
      limit_(limit),
      done_(limit < 1),
      alive_(1) {}  // the empty prefix

float Beam::normalised(const Hypothesis& h) const {
    return lengthPenalty_ == 0.0f ? h.logProb : h.logProb / std::pow(static_cast<float>(h.ids.size()), lengthPenalty_);
}

Beam::Extension Beam::advance(const torch::Tensor& logProbs, const torch::Tensor& alpha) {
    const int64_t V = logProbs.size(1);
    std::vector<float> prefix;
    for (const auto& h : alive_) prefix.push_back(h.logProb);
    const auto total = logProbs + torch::tensor(prefix).unsqueeze(1);  // [n,V]
    const int64_t k = std::min<int64_t>(2 * width_, total.numel());
    const auto [values, indices] = total.reshape({-1}).topk(k);
    const auto rowsAlpha = alpha.contiguous();  // [n,S']
    const int64_t stride = rowsAlpha.size(1);
    const auto topValues = values.contiguous();
    const auto topIndices = indices.contiguous();
    const float* value = topValues.data_ptr<float>();
    const int64_t* index = topIndices.data_ptr<int64_t>();
    std::vector<Hypothesis> next;
    Extension extension;
    for (int64_t j = 0; j < k && static_cast<int>(next.size()) < width_; ++j) {
        const int64_t row = index[j] / V, token = index[j] % V;
        Hypothesis h = alive_[static_cast<size_t>(row)];
        h.ids.push_back(token);
        h.tokens.push_back(vocabulary_.token(token));
        h.logProb = value[j];
        const float* a = rowsAlpha.data_ptr<float>() + row * stride;
        h.alpha.emplace_back(a, a + columns_);
        if (token == vocabulary_.eos()) {
            // Only an end among the `width` best candidates finishes a hypothesis; ends ranked
            // lower would fill the finished list with unlikely short outputs and stop early.
            if (j >= width_) continue;
            h.finished = true;
            h.score = normalised(h);
            finished_.push_back(std::move(h));
        } else {
            next.push_back(std::move(h));
            extension.rows.push_back(row);
            extension.tokens.push_back(token);
        }
    }
    alive_ = std::move(next);
    ++steps_;
    done_ = alive_.empty() || steps_ >= limit_;
    // Stop once `width` hypotheses have finished and no open prefix scores as well as the worst of
    // them (exact without a length penalty, where extending only lowers a score).
    if (!alive_.empty() && static_cast<int>(finished_.size()) >= width_) {
        sortBestFirst(finished_);
        finished_.resize(static_cast<size_t>(width_));
        float bestOpen = -std::numeric_limits<float>::infinity();
        for (const auto& h : alive_) bestOpen = std::max(bestOpen, normalised(h));
        if (bestOpen < finished_.back().score) done_ = true;
    }
    if (done_) extension = {};
    return extension;
}

std::vector<Hypothesis> Beam::result() {
    if (finished_.empty()) {  // length cap reached: report the open prefixes
        for (auto& h : alive_) {
            h.score = normalised(h);
            finished_.push_back(std::move(h));
        }
        alive_.clear();
    }
    sortBestFirst(finished_);
    if (static_cast<int>(finished_.size()) > width_) finished_.resize(static_cast<size_t>(width_));
    return finished_;
}

}  // namespace alignscope::core
