#include "cli/Commands.h"
#include "cli/DecodingModel.h"
#include "cli/LineStreams.h"
#include "cli/SentenceWatchdog.h"

#include "core/alignment/Aligner.h"
#include "core/decoding/BatchDecoder.h"
#include "core/text/PairLine.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <optional>
#include <vector>

namespace alignscope::cli {

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
    c->add_option(
         "--links", o->links,
         "Hard links, one decision per target word over its merged row: argmax (a row that peaks on </s> links nothing), "
         "argmax-skip-eos (the peak among the source words: </s> as an attention sink), threshold; argmax-both-ways (each target word's "
         "peak and each source word's peak of the one matrix, joined by grow-diag-final-and); itermax (SimAlign's mutual peaks in two "
         "rounds); or with --reverse-model intersection, union, "
         "grow-diag-final-and of each direction's argmax, or the same prefixed agreement- (each target and "
         "source word's peak of the two directions' word matrices multiplied, then joined; the best with "
         "attention-x-occlusion, docs/alignment.md)")
        ->check(CLI::IsMember(core::Aligner::ruleNames()))
        ->capture_default_str();
    c->add_option("--threshold", o->threshold, "--links threshold: the share of a row's positive mass a link needs")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    c->add_option("--reverse-model", o->reverseModels,
                  "A model of the other direction (target to source), for --links [agreement-]intersection, union, "
                  "grow-diag-final-and (default: the one the model declares, metadata reverse_model); several make "
                  "an ensemble, as for --model");
    c->add_option("--points", o->points, "integrated-gradients: interpolation points, both ends included")
        ->check(CLI::Range(2, 256))
        ->capture_default_str();
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
        if (o->models.empty()) o->models.push_back(core::Runtime::defaultModelPath());
        std::vector<core::Model> models;  // an ensemble's members
        for (const auto& path : o->models) models.push_back(loadDecodingModel(path));
        core::Aligner::checkReversePaths(o->reverseModels, o->links);
        core::Aligner::checkReverseFiles(o->reverseModels);
        auto reverses = core::Aligner::reverseModels(models, o->reverseModels, o->links,
                                                     [](const std::string& path) { return loadDecodingModel(path); });
        LineStreams io(o->input, o->output);
        io.setProgress(!o->noProgress);
        SentenceWatchdog watchdog(o->timeLimit, models.front().origin(), [&io] { io.abandon(); });
        core::Aligner::Options options;
        options.method = o->method;
        options.links = o->links;
        options.threshold = o->threshold;
        options.batch = o->batch;
        options.workers = startWorkers(o->workers, o->batch);
        options.attribution.points = o->points;
        options.attribution.baseline = o->baseline;
        options.attribution.adaptive = !o->fixedPoints;
        options.progress = watchdog.progress();  // beats with each step and row: a long pair keeps the limit away
        options.entering = [&watchdog](const char* phase) { watchdog.enter(phase); };
        options.json = o->format == "json";
        const core::Aligner aligner(std::move(models), std::move(reverses), options);
        return io.forEachChunk(
            "align", aligner.chunkPairs(),
            [&](const std::vector<std::string>& lines) {
                std::vector<LineStreams::LineOutcome> out(lines.size());
                std::vector<core::Aligner::Pair> pairs;
                std::vector<size_t> where;  // pair -> line
                for (size_t k = 0; k < lines.size(); ++k) {
                    try {
                        auto pair = core::PairLine::parse(lines[k]);
                        if (!pair.target) throw core::Error("expected 'source ||| target'");
                        pairs.push_back({pair.source, *pair.target});
                        where.push_back(k);
                    } catch (const core::Error& e) {
                        out[k] = {false, e.what()};
                    }
                }
                const auto results = aligner.align(pairs);
                for (size_t i = 0; i < results.size(); ++i) {
                    const auto& r = results[i];
                    out[where[i]] = !r.error.empty() ? LineStreams::LineOutcome{false, r.error}
                                    : options.json   ? LineStreams::LineOutcome{true, core::JsonText::dump(r.json)}
                                                     : LineStreams::LineOutcome{true, r.pharaoh()};
                }
                return out;
            },
            o->format == "json" ? "null" : "", std::nullopt, &watchdog);
    };
}

}  // namespace alignscope::cli
