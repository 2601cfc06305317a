#include "cli/Commands.h"
#include "cli/DecodingModel.h"
#include "cli/LineStreams.h"
#include "cli/SentenceWatchdog.h"

#include "core/alignment/LinkExtraction.h"
#include "core/attribution/Attributor.h"
#include "core/decoding/Alignment.h"
#include "core/decoding/BatchDecoder.h"
#include "core/decoding/DecodingSession.h"
#include "core/model/ReverseModel.h"
#include "core/text/PairLine.h"
#include "core/text/Tokenizer.h"
#include "core/Error.h"
#include "core/Runtime.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

namespace alignscope::cli {

namespace {

std::string pharaoh(const core::LinkExtraction::Links& links) {
    std::string out;
    for (const auto& [s, t] : links) {
        if (!out.empty()) out += ' ';
        out += std::to_string(s) + "-" + std::to_string(t);
    }
    return out;
}

// One direction's soft matrix and word maps, from attention or an attribution method.
struct Soft {
    std::vector<std::vector<float>> matrix;  // [T][S'] (S' may hold a model's padding column)
    std::vector<int> sourceWords;            // [S] real source tokens only
    std::vector<int> targetWords;            // [T]
    nlohmann::json json;
};

}  // namespace

Command addAlignCommand(CLI::App& app) {
    struct Options {
        std::vector<std::string> models, reverseModels;
        std::string input, output, format = "pharaoh";
        double timeLimit = 30;
        int batch = core::BatchDecoder::defaultBatch(1), workers = 0;
        std::string method = "attention", links = "argmax", baseline = "zero";
        float threshold = 0.3f;
        int points = 16;
        bool fixedPoints = false, noProgress = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("align", "Teacher-forced alignment of 'source ||| target' lines");
    c->add_option("-m,--model", o->models,
                  "Model file (default: the bundled en-fr-subword model); several (-m A -m B) make an ensemble: each "
                  "pair's word matrices, as row shares, averaged before links are read (docs/alignment.md, \"Ensembles\")");
    c->add_option("-f,--format", o->format, "pharaoh (i-j word links, source first) or json (soft matrix)")
        ->check(CLI::IsMember({"pharaoh", "json"}));
    c->add_option("-i,--input", o->input, "Input file (default stdin)");
    c->add_option("-o,--output", o->output, "Output file (default stdout)");
    addTimeLimitOption(c, o->timeLimit);
    c->add_option("--batch", o->batch, "Pairs aligned together (1: one at a time; the same numbers within 1e-5)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    addWorkersOption(c, o->workers);
    c->add_option("--method", o->method,
                  "The soft matrix: attention, or an attribution of each target token to the source tokens "
                  "(grad-x-input, integrated-gradients, occlusion), or attention-x-occlusion, where attention and "
                  "occlusion agree (the best aligner of these; docs/alignment.md)")
        ->capture_default_str();
    c->add_option("--links", o->links,
                  "Hard links, one decision per target word over its merged row: argmax, threshold; argmax-both-ways (each target word's "
                  "peak and each source word's peak of the one matrix, joined by grow-diag-final-and); itermax (SimAlign's mutual peaks in two "
                  "rounds); or with --reverse-model intersection, union, "
                  "grow-diag-final-and of each direction's argmax, or the same prefixed agreement- (each target and "
                  "source word's peak of the two directions' word matrices multiplied, then joined; the best with "
                  "attention-x-occlusion, docs/alignment.md)")
        ->check(CLI::IsMember({"argmax", "threshold", "argmax-both-ways", "itermax", "intersection", "union", "grow-diag-final-and", "agreement-intersection",
                               "agreement-union", "agreement-grow-diag-final-and"}))
        ->capture_default_str();
    c->add_option("--threshold", o->threshold, "--links threshold: the share of a row's positive mass a link needs")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    c->add_option("--reverse-model", o->reverseModels,
                  "A model of the other direction (target to source), for --links [agreement-]intersection, union, "
                  "grow-diag-final-and (default: the one the model declares, metadata reverse_model); several make "
                  "an ensemble, as for --model");
    c->add_option("--points", o->points, "integrated-gradients: interpolation points, both ends included")->check(CLI::Range(2, 256))->capture_default_str();
    c->add_flag("--no-progress", o->noProgress, "No progress bar on stderr (drawn only when it is a terminal)");
    c->add_flag("--fixed-points", o->fixedPoints,
                "integrated-gradients: never add points (by default a step whose scores miss f(x) - f(baseline) by "
                "more than 5% is integrated again with twice the points, up to 128)");
    c->add_option("--baseline", o->baseline, "integrated-gradients: zero (embeddings 0) or pad (the pad token's)")
        ->check(CLI::IsMember({"zero", "pad"}))
        ->capture_default_str();
    return [o, c]() -> int {
        if (!*c) return -1;
        core::Attributor::method(o->method);  // an unknown name fails before any model loads
        const bool symmetric = core::LinkExtraction::isSymmetrization(o->links);
        if (!symmetric && !o->reverseModels.empty())
            throw core::Error("--reverse-model is used by --links [agreement-]intersection, union or grow-diag-final-and, not " +
                              o->links);
        if (o->models.empty()) o->models.push_back(core::Runtime::defaultModelPath());
        std::vector<core::Model> models, reverses;  // an ensemble's members, each direction
        for (const auto& path : o->models) models.push_back(loadDecodingModel(path));
        if (symmetric && o->reverseModels.empty()) {
            // The model's own reverse model (metadata reverse_model), so the documented best rule
            // needs no extra flag; each member of an ensemble brings its own.
            for (const auto& m : models) {
                const auto reverse = m.reverseModelPath();
                if (reverse.empty())
                    throw core::Error("--links " + o->links + " joins two directions, and '" + m.origin() +
                                      "' declares no reverse model: give --reverse-model FILE (a model translating the "
                                      "target side into the source side)");
                o->reverseModels.push_back(reverse);
            }
        }
        for (const auto& path : o->reverseModels) reverses.push_back(loadDecodingModel(path));
        for (const auto& m : models)
            for (const auto& r : reverses) core::ReverseModel::check(m, r);
        const auto& model = models.front();
        const bool ensemble = models.size() > 1 || reverses.size() > 1;
        std::vector<const core::Model*> all;
        for (const auto* group : {&models, &reverses})
            for (const auto& m : *group) all.push_back(&m);
        for (const core::Model* m : all)
            if (core::Attributor::method(o->method).needsEmbeddings() && !m->encodesEmbedded())
                throw core::Error(o->method + " needs the model's embed_source and encode_embedded methods, which '" + m->origin() +
                                  "' lacks (occlusion and attention work for every model; `alignscope-cli update-code` adds "
                                  "them to AlignScope's own older files)");
        LineStreams io(o->input, o->output);
        io.setProgress(!o->noProgress);
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), [&io] { io.abandon(); });
        // Nothing to align on one side: an alignment of an empty sentence would be made up.
        const auto parse = [](const std::string& line) {
            auto pair = core::PairLine::parse(line);
            if (!pair.target) throw core::Error("expected 'source ||| target'");
            if (core::Tokenizer::isBlank(pair.source)) throw core::Error("the source side is empty");
            if (core::Tokenizer::isBlank(*pair.target)) throw core::Error("the target side is empty");
            return pair;
        };
        const char* empty = o->format == "json" ? "null" : "";
        const bool attention = o->method == "attention";
        const bool plain = attention && o->links == "argmax" && !ensemble;
        o->workers = startWorkers(o->workers, o->batch);
        if (plain && o->batch == 1 && o->workers == 1) {
            core::SessionOptions options;
            options.progress = watchdog.progress();
            return io.forEachLine("align", [&](const std::string& line) {
                const auto pair = parse(line);
                core::DecodingSession session(model, pair.source, options);
                session.alignTo(*pair.target);
                return o->format == "json" ? session.alignment().toJson().dump() : session.alignment().pharaoh();
            }, empty, std::nullopt, &watchdog);
        }

        core::Attributor::Options attributionOptions;
        attributionOptions.points = o->points;
        attributionOptions.baseline = o->baseline;
        attributionOptions.adaptive = !o->fixedPoints;
        attributionOptions.progress = watchdog.progress();  // beats with each row: a long pair keeps the limit away
        const auto soft = [&](const core::Model& m, const core::BatchDecoder::Result& r) {
            Soft s;
            if (attention) {
                const auto alignment = r.alignment();
                s.matrix = alignment.weights();
                s.sourceWords = alignment.sourceWords();
                if (core::Model::endsWithPaddingColumn(alignment.sourceTokens())) s.sourceWords.pop_back();
                s.targetWords = alignment.targetWords();
                s.json = alignment.toJson();
            } else {
                watchdog.enter("attributing the pair");
                const auto attribution =
                    core::Attributor::attribute(m, r.source, r.hypothesis, r.targetWords, o->method, attributionOptions);
                s.matrix = attribution.matrix();
                s.sourceWords = attribution.sourceWords;
                s.targetWords = attribution.targetWords;
                s.json = attribution.toJson();
            }
            return s;
        };
        const auto rule = symmetric ? core::LinkExtraction::Rule::Argmax : core::LinkExtraction::ruleNamed(o->links);
        const bool agreement = core::LinkExtraction::isAgreement(o->links);
        std::vector<core::BatchDecoder> decoders, reverseDecoders;  // one a member
        for (const auto& m : models) decoders.emplace_back(m, o->batch, o->workers);
        for (const auto& m : reverses) reverseDecoders.emplace_back(m, o->batch, o->workers);
        core::SearchOptions searchOptions;
        searchOptions.progress = watchdog.progress();
        using Matrix = std::vector<std::vector<float>>;
        // One direction's word matrix [target words][source words]: its members' averaged as row shares.
        const auto wordMatrix = [](const std::vector<Soft>& members, const std::vector<std::string>& files) {
            std::vector<Matrix> words;
            for (const auto& s : members) words.push_back(core::LinkExtraction::mergeToWords(s.matrix, s.sourceWords, s.targetWords));
            try {
                return core::LinkExtraction::average(words);
            } catch (const core::Error& e) {
                std::string names;
                for (const auto& f : files) names += (names.empty() ? "" : ", ") + f;
                throw core::Error("the ensemble's models split this pair into different words: " + std::string(e.what()) +
                                  "; members in order: " + names);
            }
        };
        const auto identity = [](size_t n) {
            std::vector<int> words(n);
            std::iota(words.begin(), words.end(), 0);
            return words;
        };
        return io.forEachChunk("align", core::BatchDecoder::chunkLines(o->batch, o->workers), [&](const std::vector<std::string>& lines) {
            std::vector<LineStreams::LineOutcome> out(lines.size());
            std::vector<core::BatchDecoder::Item> items, reversed;
            std::vector<size_t> where;  // item -> line
            for (size_t k = 0; k < lines.size(); ++k) {
                try {
                    auto pair = parse(lines[k]);
                    items.push_back({pair.source, *pair.target});
                    reversed.push_back({*pair.target, pair.source});
                    where.push_back(k);
                } catch (const core::Error& e) {
                    out[k] = {false, e.what()};
                }
            }
            std::vector<std::vector<core::BatchDecoder::Result>> results, backResults;  // [member][item]
            for (const auto& d : decoders) results.push_back(d.run(items, searchOptions));
            for (const auto& d : reverseDecoders) backResults.push_back(d.run(reversed, searchOptions));
            const auto finish = [&](size_t i) {
                for (size_t m = 0; m < results.size(); ++m)
                    if (!results[m][i].error.empty()) {
                        out[where[i]] = {false, (ensemble ? "the model " + o->models[m] + ": " : "") + results[m][i].error};
                        return;
                    }
                for (size_t m = 0; m < backResults.size(); ++m)
                    if (!backResults[m][i].error.empty()) {
                        out[where[i]] = {false, "the reverse model" + (ensemble ? " " + o->reverseModels[m] : "") + ": " +
                                                    backResults[m][i].error};
                        return;
                    }
                try {
                    std::vector<Soft> forward, backward;
                    for (size_t m = 0; m < models.size(); ++m) forward.push_back(soft(models[m], results[m][i]));
                    for (size_t m = 0; m < reverses.size(); ++m) backward.push_back(soft(reverses[m], backResults[m][i]));
                    const Matrix words = wordMatrix(forward, o->models);
                    const Matrix reverseWords = backward.empty() ? Matrix() : wordMatrix(backward, o->reverseModels);
                    core::LinkExtraction::Links links;
                    if (agreement) {
                        links = core::LinkExtraction::agree(words, reverseWords, core::LinkExtraction::symmetrizationNamed(o->links));
                    } else {
                        // One model's links come from its tokens (a word's pieces merge into one link);
                        // an ensemble's members may split a line differently, so they meet at its words.
                        const auto read = [&](const std::vector<Soft>& members, const Matrix& merged, core::LinkExtraction::Rule r) {
                            if (members.size() == 1)
                                return core::LinkExtraction::extract(members[0].matrix, members[0].sourceWords, members[0].targetWords,
                                                                     r, o->threshold);
                            return core::LinkExtraction::extract(merged, identity(merged.empty() ? 0 : merged[0].size()),
                                                                 identity(merged.size()), r, o->threshold);
                        };
                        links = read(forward, words, rule);
                        if (!backward.empty()) {
                            core::LinkExtraction::Links flipped;
                            for (const auto& [t, src] : read(backward, reverseWords, rule)) flipped.emplace_back(src, t);
                            std::sort(flipped.begin(), flipped.end());
                            links = core::LinkExtraction::symmetrize(links, flipped, core::LinkExtraction::symmetrizationNamed(o->links));
                        }
                    }
                    auto& json = forward.front().json;
                    if (o->format == "json") {
                        if (!backward.empty()) json["reverse"] = backward.front().json;
                        if (ensemble) {  // the first members stay where a single model's matrices are
                            nlohmann::json e{{"models", o->models}, {"word_scores", words}, {"members", nlohmann::json::array()}};
                            for (size_t m = 1; m < forward.size(); ++m) e["members"].push_back(forward[m].json);
                            if (!backward.empty()) {
                                e["reverse_models"] = o->reverseModels;
                                e["reverse_word_scores"] = reverseWords;
                                e["reverse_members"] = nlohmann::json::array();
                                for (size_t m = 1; m < backward.size(); ++m) e["reverse_members"].push_back(backward[m].json);
                            }
                            json["ensemble"] = std::move(e);
                        }
                        if (!plain) {
                            json["links"] = pharaoh(links);
                            json["link_rule"] = o->links;
                            if (o->links == "threshold") json["threshold"] = o->threshold;
                        }
                    }
                    out[where[i]] = {true, o->format == "json" ? json.dump() : pharaoh(links)};
                } catch (const core::Error& e) {
                    out[where[i]] = {false, e.what()};
                }
            };
            // An attribution is a pair's own forward and backward passes, so the workers take the
            // pairs in turn (one BLAS thread each, as they decode); each writes its own line's slot.
            const size_t threads = attention ? 1 : std::min(where.size(), static_cast<size_t>(o->workers));
            // What a line's own message cannot hold (not a core::Error) stops the run as it did
            // before there were threads: the first such error is thrown again here.
            std::atomic<size_t> next{0};
            std::exception_ptr failure;
            std::mutex failureLock;
            const auto work = [&] {
                try {
                    for (size_t i; (i = next++) < where.size();) finish(i);
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
        }, empty, std::nullopt, &watchdog);
    };
}

}  // namespace alignscope::cli
