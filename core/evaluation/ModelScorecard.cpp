#include "core/evaluation/ModelScorecard.h"

#include "core/alignment/AlignmentErrorRate.h"
#include "core/alignment/Aligner.h"
#include "core/decoding/BatchDecoder.h"
#include "core/decoding/SearchStrategy.h"
#include "core/evaluation/Bleu.h"
#include "core/Error.h"
#include "core/text/Tokenizer.h"

#include <unordered_map>

namespace alignscope::core {

namespace {

constexpr size_t kBatch = 32;

std::string where(const SentencePair& p, size_t k) { return "pair " + std::to_string(p.line > 0 ? p.line : static_cast<long>(k + 1)); }

void throwIfCancelled(const std::function<bool()>& cancelled) {
    if (cancelled && cancelled()) throw Error("cancelled");
}

ModelScorecard scoreModel(const Model& model, const std::vector<SentencePair>& pairs, const std::vector<LinkSet>& gold,
                          const std::string& goldName, int beamWidth, const std::function<bool()>& cancelled) {
    if (pairs.empty()) throw Error("the test set has no sentence pairs");
    if (beamWidth < 1) throw Error("the beam width must be at least 1");
    if (!gold.empty() && gold.size() != pairs.size())
        throw Error("'" + goldName + "' has " + std::to_string(gold.size()) + " lines of links for " + std::to_string(pairs.size()) +
                    " test pairs: each line holds the links of one pair");
    ModelScorecard card;
    card.model = model.name();
    card.search = beamWidth == 1 ? "greedy" : "beam " + std::to_string(beamWidth);

    // Distinct sources, each translated once; their references grouped (Tatoeba repeats sources).
    std::vector<std::string> sources;
    std::vector<std::vector<std::string>> references;
    std::unordered_map<std::string, size_t> index;
    for (const auto& p : pairs) {
        auto [it, added] = index.emplace(p.source, sources.size());
        if (added) {
            sources.push_back(p.source);
            references.emplace_back();
        }
        references[it->second].push_back(p.target);
    }
    std::vector<std::string> hypotheses(sources.size());
    SearchOptions options;
    options.beamWidth = beamWidth;
    options.cancelled = cancelled;
    // Greedy or beam, or forced along the references: kBatch items at a time (the same tokens as one
    // at a time), `cancelled` polled between batches; each(i, result) for item i.
    const BatchDecoder decoder(model, static_cast<int>(kBatch));
    const auto decodeAll = [&](const std::vector<BatchDecoder::Item>& all, const auto& each) {
        for (size_t from = 0; from < all.size(); from += kBatch) {
            throwIfCancelled(cancelled);
            const std::vector<BatchDecoder::Item> items(all.begin() + static_cast<std::ptrdiff_t>(from),
                                                        all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), from + kBatch)));
            const auto results = decoder.run(items, options);
            for (size_t k = 0; k < results.size(); ++k) each(from + k, results[k]);
        }
    };
    std::vector<BatchDecoder::Item> free;
    for (const auto& s : sources) free.push_back({s, std::nullopt});
    decodeAll(free, [&](size_t i, const BatchDecoder::Result& r) {
        if (!r.error.empty()) throw Error("'" + sources[i] + "': " + r.error);
        hypotheses[i] = r.translation;
    });
    // Cased BLEU over one tokenization for every model (words, punctuation split off), so models
    // with different tokenizers, or one that lower-cases, are scored alike.
    const Tokenizer words(Tokenizer::Settings{/*lowercase=*/false, /*splitPunctuation=*/true, /*splitElision=*/false});
    const auto tokens = [&words](const std::string& text) {
        Bleu::Tokens out;
        for (const auto& t : words.tokenize(text)) out.push_back(t.text);
        return out;
    };
    Bleu bleu;
    for (size_t i = 0; i < sources.size(); ++i) {
        std::vector<Bleu::Tokens> refs;
        for (const auto& r : references[i]) refs.push_back(tokens(r));
        bleu.add(tokens(hypotheses[i]), refs);
    }
    card.bleu = bleu.score();
    card.segments = sources.size();

    if (gold.empty()) return card;
    for (size_t k = 0; k < pairs.size(); ++k) {
        const auto s = LinkSet::wordCount(pairs[k].source), t = LinkSet::wordCount(pairs[k].target);
        if (gold[k].maxSource() >= static_cast<int>(s) || gold[k].maxTarget() >= static_cast<int>(t))
            throw Error(goldName + ":" + std::to_string(k + 1) + ": a link reaches source word " + std::to_string(gold[k].maxSource()) +
                        " or target word " + std::to_string(gold[k].maxTarget()) + ", but " + where(pairs[k], k) + " has " +
                        std::to_string(s) + " source and " + std::to_string(t) + " target words (counting from 0)");
    }
    AlignmentErrorRate aer;
    Aligner::Options alignOptions;  // attention's argmax, as `align` gives it by default
    alignOptions.batch = static_cast<int>(kBatch);
    const Aligner aligner({model}, {}, alignOptions);
    for (size_t from = 0; from < pairs.size(); from += kBatch) {
        throwIfCancelled(cancelled);
        std::vector<Aligner::Pair> chunk;
        for (size_t k = from; k < std::min(pairs.size(), from + kBatch); ++k) chunk.push_back({pairs[k].source, pairs[k].target});
        const auto results = aligner.align(chunk);
        for (size_t k = 0; k < results.size(); ++k) {
            if (!results[k].error.empty()) throw Error(where(pairs[from + k], from + k) + ": " + results[k].error);
            aer.add(gold[from + k], std::set<LinkSet::Link>(results[k].links.begin(), results[k].links.end()));
        }
    }
    card.hasAer = true;
    card.aer = aer.aer() * 100;
    card.precision = aer.precision() * 100;
    card.recall = aer.recall() * 100;
    card.alignedPairs = pairs.size();
    return card;
}

}  // namespace

ModelScorecard ModelScorecard::score(const Model& model, const std::vector<SentencePair>& pairs, const std::string& testName,
                                     const std::vector<LinkSet>& gold, const std::string& goldName, int beamWidth,
                                     const std::function<bool()>& cancelled) {
    try {
        return scoreModel(model, pairs, gold, goldName, beamWidth, cancelled);
    } catch (const Error& e) {
        throw Error("'" + model.origin() + "' on '" + testName + "': " + e.what());
    }
}

nlohmann::json ModelScorecard::toJson() const {
    nlohmann::json j{{"model", model}, {"search", search}, {"bleu", bleu}, {"segments", segments}};
    if (hasAer) {
        j["aer"] = aer;
        j["precision"] = precision;
        j["recall"] = recall;
        j["aligned_pairs"] = alignedPairs;
    }
    return j;
}

}  // namespace alignscope::core
