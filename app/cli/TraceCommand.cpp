#include "cli/Commands.h"
#include "cli/DecodingModel.h"
#include "cli/LineStreams.h"
#include "cli/SentenceWatchdog.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/text/PairLine.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <nlohmann/json.hpp>

namespace alignscope::cli {
namespace {

// Every number of every step of one line, as JSON: what a converted model is checked with against
// its original, and what a user reads to see exactly what the model computed.
nlohmann::json trace(const core::DecodingSession& session) {
    const auto& model = session.model();
    const auto& source = session.source();
    const size_t S = source.size() - (model.attendsPadding() ? 1 : 0);  // real source positions
    nlohmann::json j;
    j["source_tokens"] = std::vector<std::string>(source.tokens.begin(), source.tokens.begin() + static_cast<long>(S));
    j["source_ids"] = std::vector<int64_t>(source.ids.begin(), source.ids.begin() + static_cast<long>(S));
    // [begin, end) bytes of the line each token came from (an appended </s> is empty, at the end)
    j["source_offsets"] = std::vector<std::pair<size_t, size_t>>(source.offsets.begin(), source.offsets.begin() + static_cast<long>(S));
    std::vector<std::string> tokens;
    std::vector<int64_t> ids;
    nlohmann::json steps = nlohmann::json::array();
    int64_t previous = model.targetVocabulary().startId();
    for (const auto& r : session.steps()) {
        tokens.push_back(r.token);
        ids.push_back(r.tokenId);
        nlohmann::json step = {{"y_prev", previous},
                               {"chosen", r.tokenId},
                               {"log_prob", r.logProb},
                               {"log_probs", r.logProbs},
                               {"alpha", std::vector<float>(r.alpha.begin(), r.alpha.begin() + static_cast<long>(S))}};
        if (model.attendsPadding()) step["alpha_padding"] = r.alpha.back();
        steps.push_back(std::move(step));
        previous = r.tokenId;
    }
    j["target_tokens"] = tokens;
    j["target_ids"] = ids;
    j["translation"] = session.translation();
    j["steps"] = std::move(steps);
    return j;
}

}  // namespace

Command addTraceCommand(CLI::App& app) {
    struct Options {
        std::string model, input, output;
        int maxLen = 0;
        double timeLimit = 30;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("trace",
                                 "Every step's numbers as JSON lines: greedy for 'source', teacher-forced for "
                                 "'source ||| target' (log-probs of the whole vocabulary, alpha)");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr-subword model)");
    c->add_option("--max-len", o->maxLen, "Maximum target tokens (default: the model's max_length, else 2*source+10)")
        ->check(CLI::Range(0, 1000));
    c->add_option("-i,--input", o->input, "Input file (default stdin)");
    c->add_option("-o,--output", o->output, "Output file (default stdout)");
    addTimeLimitOption(c, o->timeLimit);
    return [o, c]() -> int {
        if (!*c) return -1;
        auto model = loadDecodingModel(o->model, o->maxLen);
        LineStreams io(o->input, o->output);
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), [&io] { io.abandon(); });
        core::SessionOptions options;
        options.progress = watchdog.progress();
        options.maxLength = o->maxLen;
        options.keepLogProbs = true;
        // null for a line with nothing to trace or one that failed: output lines stay parallel to input lines
        return io.forEachLine(
            "trace",
            [&](const std::string& line) {
                const auto pair = core::PairLine::parse(line);
                core::DecodingSession session(model, pair.source, options);
                if (pair.target) session.alignTo(*pair.target);
                else session.runToEnd();
                return core::JsonText::dump(trace(session));
            },
            "null", std::string("null"), &watchdog);
    };
}

}  // namespace alignscope::cli
