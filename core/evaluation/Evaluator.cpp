#include "core/evaluation/Evaluator.h"

#include "core/evaluation/Bleu.h"
#include "core/decoding/BatchDecoder.h"
#include "core/Error.h"
#include "core/decoding/SearchStrategy.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <unordered_map>

namespace alignscope::core {
namespace {

BleuSummary summarize(const Bleu& bleu) {
    BleuSummary s;
    s.segments = bleu.segments();
    s.bleu = bleu.score();
    s.brevityPenalty = bleu.brevityPenalty();
    for (int n = 1; n <= 4; ++n) s.precisions[n - 1] = bleu.precision(n);
    s.hypothesisLength = bleu.hypothesisLength();
    s.referenceLength = bleu.referenceLength();
    return s;
}

nlohmann::json bleuJson(const BleuSummary& s) {
    if (s.segments == 0) return {{"sentences", 0}, {"bleu", nullptr}};  // no score rather than a fake 0
    return {{"sentences", s.segments},
            {"bleu", s.bleu},
            {"brevity_penalty", s.brevityPenalty},
            {"precisions", {s.precisions[0], s.precisions[1], s.precisions[2], s.precisions[3]}},
            {"hypothesis_length", s.hypothesisLength},
            {"reference_length", s.referenceLength}};
}

std::string where(const std::string& testName, const SentencePair& p, size_t index) {
    if (p.line > 0) return (testName.empty() ? std::string("line ") : testName + ":") + std::to_string(p.line);
    return "pair " + std::to_string(index + 1);
}

std::string describe(const Tokenizer& tokenizer) { return "tokens of the model's target tokenizer (" + tokenizer.describe() + ")"; }

}  // namespace

nlohmann::json EvaluationResult::toJson() const {
    size_t references = 0;
    for (auto n : referenceCounts) references += n;
    nlohmann::json bucketList = nlohmann::json::array();
    for (size_t b = 0; b < buckets.size(); ++b)
        bucketList.push_back({{"label", buckets[b].label},
                              {"min_length", buckets[b].minLength},
                              {"max_length", buckets[b].maxLength < 0 ? nlohmann::json(nullptr) : nlohmann::json(buckets[b].maxLength)},
                              {"sentences", b < bucketSentences.size() ? bucketSentences[b] : 0}});
    nlohmann::json searchList = nlohmann::json::array();
    for (const auto& s : searches) {
        auto j = bleuJson(s.corpus);
        j["name"] = s.name;
        j["beam_width"] = s.beamWidth;
        j["seconds"] = s.seconds;
        j["sentences_per_second"] = s.sentencesPerSecond;
        j["buckets"] = nlohmann::json::array();
        for (size_t b = 0; b < s.buckets.size() && b < buckets.size(); ++b) {
            auto jb = bleuJson(s.buckets[b]);
            jb["label"] = buckets[b].label;
            j["buckets"].push_back(jb);
        }
        searchList.push_back(j);
    }
    return {{"model", {{"name", modelName}, {"file", modelFile}}},
            {"test", testName},
            {"pairs", pairs},
            {"pairs_used", pairsUsed},
            {"sentences", sources.size()},
            {"references", references},
            {"metric", "corpus BLEU-4 (Papineni et al. 2002), no smoothing; every reference of a source counts"},
            {"tokenization", tokenization},
            {"length_unit", "source tokens, </s> not counted"},
            {"buckets", bucketList},
            {"searches", searchList}};
}

Evaluator::Evaluator(Model model, EvaluationOptions options) : model_(std::move(model)), options_(std::move(options)) {
    if (options_.beamWidth < 1) throw Error("the beam width must be at least 1");
    if (options_.maxLength < 0) throw Error("the maximum target length must be 0 (automatic) or positive");
    int previous = 0;
    for (int b : options_.bucketBounds) {
        if (b <= previous) throw Error("source-length bucket bounds must be positive and increasing");
        previous = b;
    }
}

std::vector<LengthBucket> Evaluator::buckets() const {
    std::vector<LengthBucket> out;
    int low = 1;
    for (int high : options_.bucketBounds) {
        out.push_back({low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high), low, high});
        low = high + 1;
    }
    out.push_back({std::to_string(low) + "+", low, -1});
    return out;
}

EvaluationResult Evaluator::evaluate(const std::vector<SentencePair>& pairs, const std::string& testName,
                                     const std::function<void(const EvaluationProgress&)>& progress) const {
    if (pairs.empty()) throw Error("the test set has no sentence pairs");
    EvaluationResult r;
    r.modelName = model_.name();
    r.modelFile = model_.origin();
    r.testName = testName;
    r.pairs = pairs.size();
    r.buckets = buckets();
    r.bucketSentences.assign(r.buckets.size(), 0);
    const bool sacre = options_.tokenize == "13a";
    if (!sacre && options_.tokenize != "model") throw Error("BLEU's tokenisation is 'model' or '13a', not '" + options_.tokenize + "'");
    if (options_.lowercase && !sacre)
        throw Error("lower-casing applies to the 13a tokenisation only (the model's tokenizer has its own case rule)");
    r.tokenization = sacre ? std::string("sacrebleu's 13a tokenisation of the detokenised translation and the reference, ") +
                                 (options_.lowercase ? "lower-cased" : "cased")
                           : describe(model_.targetTokenizer());

    // Group by the source as the model sees it: sources that differ only in case or spacing get
    // the same translation, so they are one segment.
    std::unordered_map<std::string, size_t> index;
    std::vector<std::vector<Bleu::Tokens>> references;
    std::vector<size_t> bucketOf;
    for (size_t k = 0; k < pairs.size(); ++k) {
        const auto& p = pairs[k];
        TokenizedSentence source;
        Bleu::Tokens reference;
        try {
            source = model_.tokenizeSource(p.source);
            if (sacre) reference = Bleu::tokenize13a(p.target, options_.lowercase);
            else
                for (const auto& t : model_.targetTokenizer().tokenize(p.target)) reference.push_back(t.text);
        } catch (const Error& e) {
            if (!options_.skipUnusablePairs) throw Error(where(testName, p, k) + ": " + e.what());
            r.skipped.push_back(where(testName, p, k) + ": " + e.what());
            continue;
        }
        std::string key;
        for (const auto& t : source.tokens) key += t + ' ';
        auto it = index.find(key);
        if (it == index.end()) {
            if (options_.maxSentences > 0 && r.sources.size() >= options_.maxSentences) continue;
            it = index.emplace(key, r.sources.size()).first;
            const int length = static_cast<int>(source.size()) - 1;  // without </s>
            size_t b = 0;
            while (b + 1 < r.buckets.size() && length > r.buckets[b].maxLength) ++b;
            r.sources.push_back(p.source);
            r.sourceLengths.push_back(length);
            r.referenceCounts.push_back(0);
            references.emplace_back();
            bucketOf.push_back(b);
            ++r.bucketSentences[b];
        }
        references[it->second].push_back(std::move(reference));
        ++r.referenceCounts[it->second];
        ++r.pairsUsed;
    }

    if (r.sources.empty())
        throw Error("no pair of " + (testName.empty() ? std::string("the test set") : "'" + testName + "'") + " could be evaluated (" +
                    std::to_string(r.skipped.size()) + " left out)");
    std::vector<int> widths = {1};
    if (options_.beamWidth > 1) widths.push_back(options_.beamWidth);
    for (int width : widths) {
        SearchEvaluation s;
        s.beamWidth = width;
        s.name = width == 1 ? "greedy" : "beam " + std::to_string(width);
        SearchOptions so;
        so.beamWidth = width;
        so.maxLength = options_.maxLength;
        so.lengthPenalty = options_.lengthPenalty;
        so.returnScores = false;  // BLEU reads the tokens only
        so.progress = options_.progress;
        Bleu all;
        std::vector<Bleu> perBucket(r.buckets.size());
        const auto start = std::chrono::steady_clock::now();
        auto record = [&](size_t i, const Hypothesis& found) {
            Bleu::Tokens hypothesis;
            const auto& ids = found.ids;
            s.hypotheses.push_back(model_.detokenize(ids));
            if (sacre) hypothesis = Bleu::tokenize13a(s.hypotheses.back(), options_.lowercase);
            else
                for (size_t t = 0; t < ids.size(); ++t)
                    if (ids[t] != model_.targetVocabulary().eos()) hypothesis.push_back(found.tokens[t]);
            all.add(hypothesis, references[i]);
            perBucket[bucketOf[i]].add(hypothesis, references[i]);
            if (progress) progress({s.name, i + 1, r.sources.size()});
        };
        // In batches, greedy or beam: the same tokens as one sentence at a time (BatchDecoder), several times faster.
        const int batch = options_.batch > 0 ? options_.batch : BatchDecoder::defaultBatch(so.beamWidth);
        const BatchDecoder decoder(model_, batch, options_.workers);
        const size_t chunk = BatchDecoder::chunkLines(batch, options_.workers);
        for (size_t from = 0; from < r.sources.size(); from += chunk) {
            std::vector<BatchDecoder::Item> items;
            for (size_t i = from; i < std::min(r.sources.size(), from + chunk); ++i) items.push_back({r.sources[i], std::nullopt});
            const auto results = decoder.run(items, so);
            for (size_t k = 0; k < results.size(); ++k) {
                if (!results[k].error.empty()) throw Error(results[k].error);
                record(from + k, results[k].hypothesis);
            }
        }
        s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        s.sentencesPerSecond = s.seconds > 0 ? static_cast<double>(r.sources.size()) / s.seconds : 0;
        s.corpus = summarize(all);
        for (const auto& b : perBucket) s.buckets.push_back(summarize(b));
        r.searches.push_back(std::move(s));
    }
    return r;
}

}  // namespace alignscope::core
