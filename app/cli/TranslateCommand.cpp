#include "cli/Commands.h"
#include "cli/DecodingModel.h"
#include "cli/LineStreams.h"
#include "cli/SentenceWatchdog.h"

#include "core/decoding/BatchDecoder.h"
#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"

namespace alignscope::cli {
namespace {

// A line of text translated as nothing is a failed line, said so (the line out stays blank).
std::string nothingFor(const std::string& line, const std::string& translation) {
    if (!translation.empty() || line.find_first_not_of(" \t\r") == std::string::npos) return {};
    return "the model translates this line as nothing";
}

}  // namespace

Command addTranslateCommand(CLI::App& app) {
    struct Options {
        std::string model, input, output;
        int beam = 1, maxLen = 0, batch = 0, workers = 0;  // batch 0: BatchDecoder::defaultBatch
        double timeLimit = 30;
        bool noProgress = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("translate", "Translate one sentence per input line");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr-subword model)");
    c->add_option("-b,--beam", o->beam, "Beam width (1 = greedy)")->check(CLI::Range(1, 64));
    c->add_option("--max-len", o->maxLen, "Maximum target tokens (default: the model's max_length, else 2*source+10)")
        ->check(CLI::Range(0, 1000));
    c->add_option("-i,--input", o->input, "Input file (default stdin)");
    c->add_option("-o,--output", o->output, "Output file (default stdout)");
    addTimeLimitOption(c, o->timeLimit);
    c->add_flag("--no-progress", o->noProgress, "No progress bar on stderr (drawn only when it is a terminal)");
    c->add_option("--batch", o->batch,
                  "Sentences decoded together, greedy or beam (default: 256 greedy, 32 with a beam; "
                  "1: one at a time; the same tokens either way)")
        ->check(CLI::Range(1, 1024));
    addWorkersOption(c, o->workers);
    return [o, c]() -> int {
        if (!*c) return -1;
        auto model = loadDecodingModel(o->model, o->maxLen);
        LineStreams io(o->input, o->output);
        io.setProgress(!o->noProgress);
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), [&io] { io.abandon(); });
        core::SearchOptions options;
        options.beamWidth = o->beam;
        options.maxLength = o->maxLen;
        options.progress = watchdog.progress();
        options.returnScores = false;  // lines of text out
        if (o->batch == 0) o->batch = core::BatchDecoder::defaultBatch(o->beam);
        o->workers = startWorkers(o->workers, o->batch);
        // A blank line has nothing to translate: a blank line out, as for a failed one.
        if (o->batch > 1 || o->workers > 1) {
            const core::BatchDecoder decoder(model, o->batch, o->workers);
            const auto chunk = core::BatchDecoder::chunkLines(o->batch, o->workers);
            return io.forEachChunk(
                "translate", chunk,
                [&](const std::vector<std::string>& lines) {
                    std::vector<core::BatchDecoder::Item> items;
                    for (const auto& l : lines) items.push_back({l, std::nullopt});
                    std::vector<LineStreams::LineOutcome> out;
                    const auto results = decoder.run(items, options);
                    for (size_t k = 0; k < results.size(); ++k) {
                        const auto& r = results[k];
                        const std::string error = r.error.empty() ? nothingFor(lines[k], r.translation) : r.error;
                        out.push_back(error.empty() ? LineStreams::LineOutcome{true, r.translation}
                                                    : LineStreams::LineOutcome{false, error});
                    }
                    return out;
                },
                "", std::string(), &watchdog);
        }
        return io.forEachLine(
            "translate",
            [&](const std::string& line) {
                core::DecodingSession session(model, line);
                auto translation = model.detokenize(session.search(options).front().ids);
                if (const auto error = nothingFor(line, translation); !error.empty()) throw core::Error(error);
                return translation;
            },
            "", std::string(), &watchdog);
    };
}

}  // namespace alignscope::cli
