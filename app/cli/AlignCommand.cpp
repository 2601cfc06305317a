#include "cli/Commands.h"
#include "cli/LineStreams.h"
#include "cli/SentenceWatchdog.h"

#include "core/decoding/Alignment.h"
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
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("align", "Teacher-forced alignment of 'source ||| target' lines");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr model)");
    c->add_option("-f,--format", o->format, "pharaoh (i-j word links, source first) or json (soft matrix)")
        ->check(CLI::IsMember({"pharaoh", "json"}));
    c->add_option("-i,--input", o->input, "Input file (default stdin)");
    c->add_option("-o,--output", o->output, "Output file (default stdout)");
    addTimeLimitOption(c, o->timeLimit);
    return [o, c]() -> int {
        if (!*c) return -1;
        auto model = core::Model::load(o->model.empty() ? core::Runtime::defaultModelPath() : o->model);
        LineStreams io(o->input, o->output);
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), [&io] { io.abandon(); });
        core::SessionOptions options;
        options.progress = watchdog.progress();
        return io.forEachLine("align", [&](const std::string& line) {
            const auto pair = core::PairLine::parse(line);
            if (!pair.target) throw core::Error("expected 'source ||| target'");
            // Nothing to align on one side: an alignment of an empty sentence would be made up.
            if (core::Tokenizer::isBlank(pair.source)) throw core::Error("the source side is empty");
            if (core::Tokenizer::isBlank(*pair.target)) throw core::Error("the target side is empty");
            core::DecodingSession session(model, pair.source, options);
            session.alignTo(*pair.target);
            const auto alignment = session.alignment();
            return o->format == "json" ? alignment.toJson().dump() : alignment.pharaoh();
        }, o->format == "json" ? "null" : "", std::nullopt, &watchdog);
    };
}

}  // namespace alignscope::cli
