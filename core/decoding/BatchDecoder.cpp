#include "core/decoding/BatchDecoder.h"

#include "core/Error.h"
#include "core/decoding/SearchBatch.h"
#include "core/decoding/DecodingSession.h"
#include "core/model/TorchModel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

namespace alignscope::core {

namespace {

// The rows' sources padded into one batch and encoded; `limits` gets each row's most target tokens.
EncoderOutput encodeRows(const Model& model, const std::vector<BatchDecoder::Result>& results, const std::vector<size_t>& rows,
                         const std::vector<BatchDecoder::Item>& items, const SearchOptions& options, std::vector<int>& limits) {
    const auto& vocab = model.targetVocabulary();
    const int64_t B = static_cast<int64_t>(rows.size());
    int64_t S = 0;
    for (size_t r : rows) S = std::max<int64_t>(S, static_cast<int64_t>(results[r].source.size()));
    auto src = torch::full({B, S}, model.sourceVocabulary().paddingId(), torch::kLong);  // [B,S]
    auto lengths = torch::empty({B}, torch::kLong);                                      // [B]
    limits.assign(rows.size(), 0);
    for (int64_t b = 0; b < B; ++b) {
        const auto& r = results[rows[static_cast<size_t>(b)]];
        const auto n = static_cast<int64_t>(r.source.size());
        src[b].slice(0, 0, n) = torch::from_blob(const_cast<int64_t*>(r.source.ids.data()), {n}, torch::kLong);
        lengths[b] = n;
        // Teacher forcing: the target and </s>; else the search's cap for this sentence.
        limits[static_cast<size_t>(b)] = items[rows[static_cast<size_t>(b)]].target
                                             ? static_cast<int>(r.target.size()) + (vocab.eos() >= 0 ? 1 : 0)
                                             : options.lengthLimit(n, model.maxLength());
    }
    if (options.progress) options.progress->reached(0);
    return model.torch().encode(src, lengths);
}

// Teacher forcing in one call of the model's force_attention (the caller reads alphas, not the
// forced tokens' scores): each row's tokens are the target's then </s>, ending where the step loop
// below would end them, and each step reads the token before.
void forceRows(const Model& model, std::vector<BatchDecoder::Result>& results, const std::vector<size_t>& rows,
               const SearchOptions& options, const std::vector<int>& limits, const EncoderOutput& encoded) {
    const auto& vocab = model.targetVocabulary();
    const auto B = static_cast<int64_t>(rows.size());
    std::vector<std::vector<int64_t>> tokens(rows.size());
    int64_t T = 0;
    for (size_t row = 0; row < rows.size(); ++row) {
        const auto& target = results[rows[row]].target;
        for (size_t t = 0;; ++t) {
            const int64_t token = t < target.size() ? target.ids[t] : vocab.eos();
            tokens[row].push_back(token);
            if ((token == vocab.eos() && vocab.eos() >= 0) || static_cast<int>(tokens[row].size()) >= limits[row]) break;
        }
        T = std::max(T, static_cast<int64_t>(tokens[row].size()));
    }
    std::vector<int64_t> read(static_cast<size_t>(B * T), vocab.startId()), lengths(rows.size());
    for (size_t row = 0; row < rows.size(); ++row) {
        lengths[row] = static_cast<int64_t>(tokens[row].size());
        for (size_t t = 1; t < tokens[row].size(); ++t) read[row * static_cast<size_t>(T) + t] = tokens[row][t - 1];
    }
    if (options.cancelled && options.cancelled()) throw Error("decoding was cancelled");
    if (options.progress) options.progress->reached(1);
    const auto forced =
        model.torch().forceAttention(torch::tensor(read, torch::kLong).view({B, T}), torch::tensor(lengths, torch::kLong), encoded);
    const auto alpha = forced.alpha.contiguous();  // [B,T,S]
    const int64_t S = alpha.size(2);
    for (size_t row = 0; row < rows.size(); ++row) {
        auto& r = results[rows[row]];
        Hypothesis h;
        for (size_t t = 0; t < tokens[row].size(); ++t) {
            h.ids.push_back(tokens[row][t]);
            h.tokens.push_back(t < r.target.size() ? r.target.tokens[t] : vocab.token(tokens[row][t]));
            const float* a = alpha.data_ptr<float>() + (static_cast<int64_t>(row) * T + static_cast<int64_t>(t)) * S;
            h.alpha.emplace_back(a, a + r.source.size());  // this sentence's columns: the rest is padding, weight 0
        }
        h.finished = h.ids.back() == vocab.eos();
        r.hypothesis = std::move(h);
    }
}

}  // namespace

BatchDecoder::BatchDecoder(Model model, int maxBatch, int workers)
    : model_(std::move(model)), maxBatch_(std::max(1, maxBatch)), workers_(std::max(1, workers)) {}

Alignment BatchDecoder::Result::alignment() const {
    return Alignment(source.tokens, source.words, hypothesis.tokens, targetWords, hypothesis.alpha);
}

std::vector<BatchDecoder::Result> BatchDecoder::run(const std::vector<Item>& items, const SearchOptions& options) const {
    std::vector<Result> results(items.size());
    std::vector<size_t> ready;  // items that tokenised
    for (size_t i = 0; i < items.size(); ++i) {
        try {
            results[i].source = model_.tokenizeSource(items[i].source);
            if (items[i].target) results[i].target = model_.tokenizeTarget(*items[i].target);
            ready.push_back(i);
        } catch (const Error& e) {
            results[i].error = e.what();
        }
    }
    // A model attending its own padding has one more alpha column per sentence; those go one at a
    // time (DecodingSession handles that column).
    const int batch = model_.attendsPadding() ? 1 : maxBatch_;
    // Free decoding before teacher forcing (a batch is one or the other: a beam search has nothing
    // to search along a given target), longest first, so each batch pads little.
    std::stable_sort(ready.begin(), ready.end(), [&](size_t a, size_t b) {
        const bool forcedA = items[a].target.has_value(), forcedB = items[b].target.has_value();
        return forcedA != forcedB ? forcedB : results[a].source.size() > results[b].source.size();
    });
    std::vector<std::vector<size_t>> batches;  // each a list of rows (indices into items)
    for (size_t start = 0, end = 0; start < ready.size(); start = end) {
        end = std::min(ready.size(), start + static_cast<size_t>(batch));
        for (size_t k = start + 1; k < end; ++k)
            if (items[ready[k]].target.has_value() != items[ready[start]].target.has_value()) end = k;
        batches.emplace_back(ready.begin() + static_cast<std::ptrdiff_t>(start), ready.begin() + static_cast<std::ptrdiff_t>(end));
    }
    const auto decode = [&](const std::vector<size_t>& rows) {
        try {
            runBatch(results, rows, items, options);
        } catch (const Error& e) {
            if (rows.size() == 1) {
                results[rows[0]].error = e.what();
                return;
            }
            // Which sentence? Each alone, so a failure names its own line.
            for (size_t r : rows) {
                try {
                    runBatch(results, {r}, items, options);
                } catch (const Error& single) {
                    results[r].error = single.what();
                }
            }
        }
    };
    const auto threads = std::min(static_cast<size_t>(workers_), batches.size());
    if (threads <= 1) {
        for (const auto& rows : batches) decode(rows);
    } else {
        // Batches taken in turn by `workers` threads; each writes only its own rows' results.
        std::atomic<size_t> next{0};
        std::exception_ptr failure;
        std::mutex failureMutex;
        std::vector<std::thread> pool;
        const auto work = [&] {
            for (size_t b; (b = next++) < batches.size();) {
                try {
                    decode(batches[b]);
                } catch (...) {  // not a model's Error (those are the rows' own): the whole run fails
                    const std::lock_guard<std::mutex> lock(failureMutex);
                    if (!failure) failure = std::current_exception();
                    next = batches.size();
                }
            }
        };
        try {
            for (size_t w = 0; w < threads; ++w) pool.emplace_back(work);
        } catch (...) {  // a thread that cannot start: the started ones finish the batches
            if (pool.empty()) throw;
        }
        for (auto& t : pool) t.join();
        if (failure) std::rethrow_exception(failure);
    }
    for (size_t i = 0; i < results.size(); ++i) {
        auto& r = results[i];
        if (!r.error.empty()) continue;
        r.translation = model_.detokenize(r.hypothesis.ids);
        // As DecodingSession::alignment: a given target's words are the user's.
        r.targetWords = items[i].target ? r.target.words : model_.targetWords(r.hypothesis.ids);
        r.targetWords.resize(r.hypothesis.ids.size(), -1);
    }
    return results;
}

void BatchDecoder::runBatch(std::vector<Result>& results, const std::vector<size_t>& rows, const std::vector<Item>& items,
                            const SearchOptions& options) const {
    torch::InferenceMode guard;
    if (model_.attendsPadding()) {  // rows.size() == 1 here
        auto& r = results[rows[0]];
        SessionOptions o;
        o.maxLength = options.maxLength;
        o.progress = options.progress;
        DecodingSession session(model_, items[rows[0]].source, o);
        r.source = session.source();
        if (!items[rows[0]].target) {  // the searches over the session's encoding (its padding column included)
            auto found = session.search(options);
            if (found.empty()) throw Error("beam search found no hypothesis");
            r.hypothesis = std::move(found.front());
            return;
        }
        session.alignTo(*items[rows[0]].target);
        Hypothesis h;
        for (const auto& s : session.steps()) {
            h.ids.push_back(s.tokenId);
            h.tokens.push_back(s.token);
            h.alpha.push_back(s.alpha);
            h.logProb += s.logProb;
        }
        h.finished = !h.ids.empty() && h.ids.back() == model_.targetVocabulary().eos();
        h.score = h.logProb;
        r.hypothesis = std::move(h);
        return;
    }
    std::vector<int> limits;
    EncoderOutput enc = encodeRows(model_, results, rows, items, options, limits);
    const bool forced = items[rows[0]].target.has_value();  // a batch is all free or all forced
    if (forced && !options.returnScores && model_.torch().forcesAttention()) {
        forceRows(model_, results, rows, options, limits, enc);
        return;
    }
    SearchBatch batch{std::move(enc), {}, std::move(limits), {}};
    for (size_t r : rows) {
        batch.sourceLengths.push_back(static_cast<int64_t>(results[r].source.size()));
        batch.targets.push_back(forced ? &results[r].target : nullptr);
    }
    // Teacher forcing is greedy decoding whose every choice is given.
    const auto strategy = SearchStrategy::create(forced ? 1 : options.beamWidth);
    auto found = strategy->searchBatch(model_, batch, options);
    for (size_t row = 0; row < rows.size(); ++row) {
        if (found[row].empty()) throw Error("beam search found no hypothesis");
        results[rows[row]].hypothesis = std::move(found[row].front());
    }
}

}  // namespace alignscope::core
