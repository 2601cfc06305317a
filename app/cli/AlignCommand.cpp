#include "cli/Commands.h"
#include "cli/LineStreams.h"
#include "cli/SentenceWatchdog.h"

#include "core/decoding/Alignment.h"
#include "core/decoding/BatchDecoder.h"
#include "core/decoding/DecodingSession.h"
#include "core/text/PairLine.h"
#include "core/text/Tokenizer.h"
#include "core/Error.h"
#include "core/Runtime.h"

namespace alignscope::cli {

Command addAlignCommand(CLI::App& app) {
    struct Options {
        std::string model, input, output, format = "pharaoh";
        double timeLimit = 30;
        int batch = 32;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("align", "Teacher-forced alignment of 'source ||| target' lines");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr model)");
    c->add_option("-f,--format", o->format, "pharaoh (i-j word links, source first) or json (soft matrix)")
        ->check(CLI::IsMember({"pharaoh", "json"}));
    c->add_option("-i,--input", o->input, "Input file (default stdin)");
    c->add_option("-o,--output", o->output, "Output file (default stdout)");
    addTimeLimitOption(c, o->timeLimit);
    c->add_option("--batch", o->batch, "Pairs aligned together (1: one at a time; the same numbers within 1e-5)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    return [o, c]() -> int {
        if (!*c) return -1;
        auto model = core::Model::load(o->model.empty() ? core::Runtime::defaultModelPath() : o->model);
        LineStreams io(o->input, o->output);
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), [&io] { io.abandon(); });
        core::SessionOptions options;
        options.progress = watchdog.progress();
        const auto format = [&](const core::Alignment& alignment) {
            return o->format == "json" ? alignment.toJson().dump() : alignment.pharaoh();
        };
        // Nothing to align on one side: an alignment of an empty sentence would be made up.
        const auto parse = [](const std::string& line) {
            auto pair = core::PairLine::parse(line);
            if (!pair.target) throw core::Error("expected 'source ||| target'");
            if (core::Tokenizer::isBlank(pair.source)) throw core::Error("the source side is empty");
            if (core::Tokenizer::isBlank(*pair.target)) throw core::Error("the target side is empty");
            return pair;
        };
        if (o->batch > 1) {
            const core::BatchDecoder decoder(model, o->batch);
            core::SearchOptions searchOptions;
            searchOptions.progress = watchdog.progress();
            return io.forEachChunk("align", static_cast<size_t>(o->batch), [&](const std::vector<std::string>& lines) {
                std::vector<LineStreams::LineOutcome> out(lines.size());
                std::vector<core::BatchDecoder::Item> items;
                std::vector<size_t> where;  // item -> line
                for (size_t k = 0; k < lines.size(); ++k) {
                    try {
                        auto pair = parse(lines[k]);
                        items.push_back({pair.source, *pair.target});
                        where.push_back(k);
                    } catch (const core::Error& e) {
                        out[k] = {false, e.what()};
                    }
                }
                const auto results = decoder.run(items, searchOptions);
                for (size_t i = 0; i < results.size(); ++i)
                    out[where[i]] = results[i].error.empty() ? LineStreams::LineOutcome{true, format(results[i].alignment())}
                                                             : LineStreams::LineOutcome{false, results[i].error};
                return out;
            }, o->format == "json" ? "null" : "", std::nullopt, &watchdog);
        }
        return io.forEachLine("align", [&](const std::string& line) {
            const auto pair = parse(line);
            core::DecodingSession session(model, pair.source, options);
            session.alignTo(*pair.target);
            return format(session.alignment());
        }, o->format == "json" ? "null" : "", std::nullopt, &watchdog);
    };
}

}  // namespace alignscope::cli
