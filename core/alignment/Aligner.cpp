#include "core/alignment/Aligner.h"
#include "core/model/ReverseModel.h"

#include "core/Error.h"
#include "core/platform/BoundedFile.h"
#include "core/decoding/BatchDecoder.h"
#include "core/decoding/DecodingSession.h"
#include "core/text/Tokenizer.h"

#include <algorithm>
#include <limits>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

namespace alignscope::core {

namespace {

using Matrix = SoftAlignment::Matrix;

std::vector<int> identity(size_t n) {
    std::vector<int> words(n);
    std::iota(words.begin(), words.end(), 0);
    return words;
}

// One direction's word matrix [target words][source words]: its members' averaged as row shares.
Matrix wordMatrix(const std::vector<SoftAlignment>& members, const std::vector<Model>& models) {
    std::vector<Matrix> words;
    for (const auto& s : members) words.push_back(s.wordMatrix());
    try {
        return LinkExtraction::average(words);
    } catch (const Error& e) {
        std::string names;
        for (const auto& m : models) names += (names.empty() ? "" : ", ") + m.origin();
        throw Error("the ensemble's models split this pair into different words: " + std::string(e.what()) +
                    "; members in order: " + names);
    }
}

// One model's links come from its tokens (a word's pieces merge into one link); an ensemble's
// members may split a line differently, so they meet at its words.
LinkExtraction::Links read(const std::vector<SoftAlignment>& members, const Matrix& merged, LinkExtraction::Rule rule, float threshold) {
    if (members.size() == 1) return members[0].links(rule, threshold);
    return LinkExtraction::extract(merged, identity(merged.empty() ? 0 : merged[0].size()), identity(merged.size()), rule, threshold);
}

}  // namespace

const std::vector<std::string>& Aligner::ruleNames() {
    static const std::vector<std::string> names = {"argmax",
                                                   "argmax-skip-eos",
                                                   "threshold",
                                                   "argmax-both-ways",
                                                   "itermax",
                                                   "intersection",
                                                   "union",
                                                   "grow-diag-final-and",
                                                   "agreement-intersection",
                                                   "agreement-union",
                                                   "agreement-grow-diag-final-and"};
    return names;
}

bool Aligner::joinsDirections(const std::string& links) { return LinkExtraction::isSymmetrization(links); }

void Aligner::checkReversePaths(const std::vector<std::string>& paths, const std::string& links) {
    if (!paths.empty() && !joinsDirections(links))
        throw Error("--reverse-model is used by --links [agreement-]intersection, union or grow-diag-final-and, not " + links);
    for (const auto& path : paths)
        if (path.empty()) throw Error("--reverse-model has an empty name: give a model file (or leave the option out)");
}

void Aligner::checkReverseFiles(const std::vector<std::string>& paths) {
    // Regular files only, checked without opening them for reading: a pipe would block the run
    // (and under export's watchdog be blamed on the forward model's step).
    for (const auto& path : paths) BoundedFile::check(path, std::numeric_limits<uint64_t>::max(), "--reverse-model");
}

std::vector<Model> Aligner::reverseModels(const std::vector<Model>& models, const std::vector<std::string>& paths, const std::string& links,
                                          const std::function<Model(const std::string&)>& load) {
    checkReversePaths(paths, links);
    const bool joins = joinsDirections(links);
    std::vector<std::string> chosen = paths;
    if (joins && chosen.empty()) {
        // The model's own reverse model (metadata reverse_model), so the documented best rule
        // needs no extra flag; each member of an ensemble brings its own.
        for (const auto& m : models) {
            const auto reverse = m.reverseModelPath();
            if (reverse.empty())
                throw Error("--links " + links + " joins two directions, and '" + m.origin() +
                            "' declares no reverse model: give --reverse-model FILE (a model translating the "
                            "target side into the source side)");
            chosen.push_back(reverse);
        }
    }
    std::vector<Model> reverses;
    for (const auto& path : chosen) reverses.push_back(load(path));
    // Each must read what the forward models write and write what they read (ReverseModel::check).
    for (const auto& m : models)
        for (const auto& r : reverses) ReverseModel::check(m, r);
    return reverses;
}

Aligner::Aligner(std::vector<Model> models, std::vector<Model> reverseModels, Options options)
    : models_(std::move(models)), reverses_(std::move(reverseModels)), options_(std::move(options)) {
    const auto& method = Attributor::method(options_.method);  // an unknown name fails here
    if (!joinsDirections(options_.links)) LinkExtraction::ruleNamed(options_.links);
    if (models_.empty()) throw Error("alignment needs a model");
    if (joinsDirections(options_.links) && reverses_.empty())
        throw Error("the link rule " + options_.links + " joins two directions: it needs a model of the other direction");
    if (!joinsDirections(options_.links) && !reverses_.empty())
        throw Error("the link rule " + options_.links + " reads one direction: it takes no model of the other");
    for (const auto* group : {&models_, &reverses_})
        for (const auto& m : *group)
            if (method.needsEmbeddings() && !m.encodesEmbedded())
                throw Error(options_.method + " needs the model's embed_source and encode_embedded methods, which '" + m.origin() +
                            "' lacks (occlusion and attention work for every model; `alignscope-cli update-code` adds "
                            "them to AlignScope's own older files)");
    ensemble_ = models_.size() > 1 || reverses_.size() > 1;
    if (!options_.attribution.progress) options_.attribution.progress = options_.progress;
    if (stepsOneAtATime()) return;
    for (const auto& m : models_) decoders_.push_back(std::make_unique<BatchDecoder>(m, options_.batch, options_.workers));
    for (const auto& m : reverses_) reverseDecoders_.push_back(std::make_unique<BatchDecoder>(m, options_.batch, options_.workers));
}

Aligner::~Aligner() = default;
Aligner::Aligner(Aligner&&) noexcept = default;
Aligner& Aligner::operator=(Aligner&&) noexcept = default;

bool Aligner::stepsOneAtATime() const {
    return options_.method == "attention" && options_.links == "argmax" && !ensemble_ && options_.batch == 1 && options_.workers == 1;
}

size_t Aligner::chunkPairs() const { return stepsOneAtATime() ? 1 : BatchDecoder::chunkLines(options_.batch, options_.workers); }

Aligner::Result Aligner::alignInSession(const Pair& pair) const {
    Result result;
    try {
        SessionOptions options;
        options.progress = options_.progress;
        DecodingSession session(models_.front(), pair.source, options);
        session.alignTo(pair.target);
        const auto alignment = session.alignment();
        result.forward.push_back(SoftAlignment::fromAttention(alignment));
        result.links = result.forward.front().links(LinkExtraction::Rule::Argmax);
        if (options_.json) result.json = SoftAlignment::attentionJson(alignment);
    } catch (const Error& e) {
        result.error = e.what();
    }
    return result;
}

std::vector<Aligner::Result> Aligner::align(const std::vector<Pair>& pairs) const {
    std::vector<Result> out(pairs.size());
    std::vector<BatchDecoder::Item> items, reversed;
    std::vector<size_t> where;  // item -> pair
    for (size_t k = 0; k < pairs.size(); ++k) {
        // Nothing to align on one side: an alignment of an empty sentence would be made up.
        if (Tokenizer::isBlank(pairs[k].source)) out[k].error = "the source side is empty";
        else if (Tokenizer::isBlank(pairs[k].target)) out[k].error = "the target side is empty";
        else if (stepsOneAtATime()) out[k] = alignInSession(pairs[k]);
        else {
            items.push_back({pairs[k].source, pairs[k].target});
            reversed.push_back({pairs[k].target, pairs[k].source});
            where.push_back(k);
        }
    }
    if (items.empty()) return out;
    SearchOptions search;
    search.progress = options_.progress;
    search.returnScores = false;  // alignment reads alphas and tokens, never the forced tokens' scores
    std::vector<std::vector<BatchDecoder::Result>> results, backResults;  // [member][item]
    for (const auto& d : decoders_) results.push_back(d->run(items, search));
    for (const auto& d : reverseDecoders_) backResults.push_back(d->run(reversed, search));

    const bool attention = options_.method == "attention";
    // One direction's member: its soft matrix, and its JSON where asked.
    const auto soft = [&](const Model& m, const BatchDecoder::Result& r, std::vector<SoftAlignment>& members,
                          std::vector<nlohmann::json>& json) {
        if (attention) {
            const auto alignment = r.alignment();
            members.push_back(SoftAlignment::fromAttention(alignment));
            if (options_.json) json.push_back(SoftAlignment::attentionJson(alignment));
            return;
        }
        if (options_.entering) options_.entering("attributing the pair");
        const auto attribution = Attributor::attribute(m, r.source, r.hypothesis, r.targetWords, options_.method, options_.attribution);
        members.push_back(SoftAlignment::fromAttribution(attribution));
        if (options_.json) json.push_back(attribution.toJson());
    };
    const auto finishItem = [&](size_t i) {
        auto& result = out[where[i]];
        for (size_t m = 0; m < results.size(); ++m)
            if (!results[m][i].error.empty()) {
                result.error = (ensemble_ ? "the model " + models_[m].origin() + ": " : "") + results[m][i].error;
                return;
            }
        for (size_t m = 0; m < backResults.size(); ++m)
            if (!backResults[m][i].error.empty()) {
                result.error = "the reverse model" + (ensemble_ ? " " + reverses_[m].origin() : "") + ": " + backResults[m][i].error;
                return;
            }
        try {
            std::vector<SoftAlignment> forward, backward;
            std::vector<nlohmann::json> forwardJson, backwardJson;
            for (size_t m = 0; m < models_.size(); ++m) soft(models_[m], results[m][i], forward, forwardJson);
            for (size_t m = 0; m < reverses_.size(); ++m) soft(reverses_[m], backResults[m][i], backward, backwardJson);
            finish(result, std::move(forward), std::move(forwardJson), std::move(backward), std::move(backwardJson));
        } catch (const Error& e) {
            result = Result();
            result.error = e.what();
        }
    };
    // An attribution is a pair's own forward and backward passes, so the workers take the pairs in
    // turn (one BLAS thread each, as they decode); each writes its own pair's slot. What a pair's
    // own message cannot hold (not an Error) stops the run: the first such error is thrown again here.
    const size_t threads = attention ? 1 : std::min(where.size(), static_cast<size_t>(std::max(1, options_.workers)));
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureLock;
    const auto work = [&] {
        try {
            for (size_t i; (i = next++) < where.size();) finishItem(i);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(failureLock);
            if (!failure) failure = std::current_exception();
            next = where.size();
        }
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& thread : pool) thread.join();
    if (failure) std::rethrow_exception(failure);
    return out;
}

void Aligner::finish(Result& result, std::vector<SoftAlignment>&& forward, std::vector<nlohmann::json>&& forwardJson,
                     std::vector<SoftAlignment>&& backward, std::vector<nlohmann::json>&& backwardJson) const {
    const bool agreement = LinkExtraction::isAgreement(options_.links);
    // Word matrices: what agreement and an ensemble read, and what an ensemble's JSON shows.
    const bool needsWords = agreement || ensemble_;
    const Matrix words = needsWords ? wordMatrix(forward, models_) : Matrix();
    const Matrix reverseWords = needsWords && !backward.empty() ? wordMatrix(backward, reverses_) : Matrix();
    if (agreement) {
        result.links = LinkExtraction::agree(words, reverseWords, LinkExtraction::symmetrizationNamed(options_.links));
    } else {
        const auto rule = joinsDirections(options_.links) ? LinkExtraction::Rule::Argmax : LinkExtraction::ruleNamed(options_.links);
        result.links = read(forward, words, rule, options_.threshold);
        if (!backward.empty()) {
            LinkExtraction::Links flipped;
            for (const auto& [t, s] : read(backward, reverseWords, rule, options_.threshold)) flipped.emplace_back(s, t);
            std::sort(flipped.begin(), flipped.end());
            result.links = LinkExtraction::symmetrize(result.links, flipped, LinkExtraction::symmetrizationNamed(options_.links));
        }
    }
    if (options_.json) {
        auto& json = forwardJson.front();
        if (!backward.empty()) json["reverse"] = backwardJson.front();
        if (ensemble_) {  // the first members stay where a single model's matrices are
            const auto names = [](const std::vector<Model>& models) {
                std::vector<std::string> out;
                for (const auto& m : models) out.push_back(m.origin());
                return out;
            };
            nlohmann::json e{{"models", names(models_)}, {"word_scores", words}, {"members", nlohmann::json::array()}};
            for (size_t m = 1; m < forwardJson.size(); ++m) e["members"].push_back(forwardJson[m]);
            if (!backward.empty()) {
                e["reverse_models"] = names(reverses_);
                e["reverse_word_scores"] = reverseWords;
                e["reverse_members"] = nlohmann::json::array();
                for (size_t m = 1; m < backwardJson.size(); ++m) e["reverse_members"].push_back(backwardJson[m]);
            }
            json["ensemble"] = std::move(e);
        }
        // A single model's attention argmax is the alignment's own "links"; other rules say theirs.
        if (options_.method != "attention" || options_.links != "argmax" || ensemble_) {
            json["links"] = SoftAlignment::pharaoh(result.links);
            json["link_rule"] = options_.links;
            if (options_.links == "threshold") json["threshold"] = options_.threshold;
        }
        result.json = std::move(json);
    }
    result.forward = std::move(forward);
    result.backward = std::move(backward);
}

}  // namespace alignscope::core
