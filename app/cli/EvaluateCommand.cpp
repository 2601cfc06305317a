#include "cli/Commands.h"
#include "cli/DecodingModel.h"
#include "cli/ProgressBar.h"
#include "cli/SentenceWatchdog.h"

#include "core/training/Corpus.h"
#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/evaluation/Evaluator.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace alignscope::cli {
namespace {

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string pad(const std::string& s, size_t width, bool right = true) {
    if (s.size() >= width) return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

void printReport(const core::EvaluationResult& r, std::ostream& out) {
    size_t references = 0;
    for (auto n : r.referenceCounts) references += n;
    out << "model:    " << r.modelName << " (" << r.modelFile << ")\n"
        << "test:     " << r.testName << ": " << r.pairs << (r.pairs == 1 ? " pair" : " pairs");
    if (r.pairsUsed != r.pairs) {
        out << ", " << r.pairsUsed << " used";
        if (!r.skipped.empty()) out << " (" << r.skipped.size() << " left out by --skip-bad-lines)";
        if (r.pairsUsed + r.skipped.size() != r.pairs) out << " (--max-sentences)";
    }
    out << "; " << r.sources.size() << " distinct sources with " << references << " references\n"
        << "metric:   corpus BLEU-4, no smoothing, every reference of a source counts;\n"
        << "          compared as " << r.tokenization << "\n\n";

    out << pad("search", 10, false) << pad("BLEU", 7) << pad("BP", 7) << pad("p1", 7) << pad("p2", 7) << pad("p3", 7) << pad("p4", 7)
        << pad("hyp/ref tokens", 16) << pad("sent/s", 9) << '\n';
    for (const auto& s : r.searches) {
        const auto& c = s.corpus;
        out << pad(s.name, 10, false) << pad(fixed(c.bleu, 2), 7) << pad(fixed(c.brevityPenalty, 3), 7);
        for (double p : c.precisions) out << pad(fixed(100 * p, 1), 7);
        out << pad(std::to_string(c.hypothesisLength) + "/" + std::to_string(c.referenceLength), 16)
            << pad(fixed(s.sentencesPerSecond, 1), 9) << '\n';
    }

    out << "\nBLEU by source length (tokens, </s> not counted):\n" << pad("length", 8, false) << pad("sentences", 10);
    for (const auto& s : r.searches) out << pad(s.name, 9);
    out << '\n';
    for (size_t b = 0; b < r.buckets.size(); ++b) {
        out << pad(r.buckets[b].label, 8, false) << pad(std::to_string(r.bucketSentences[b]), 10);
        for (const auto& s : r.searches) out << pad(s.buckets[b].segments ? fixed(s.buckets[b].bleu, 2) : "-", 9);
        out << '\n';
    }
}

}  // namespace

Command addEvaluateCommand(CLI::App& app) {
    struct Options {
        std::string model, test, json, hypotheses;
        core::EvaluationOptions e;
        bool skipBad = false, noProgress = false;
        double timeLimit = 30;
    };
    auto o = std::make_shared<Options>();
    o->e.workers = 0;  // one per core (startWorkers)
    auto* c = app.add_subcommand("evaluate", "Translate a test file (source<TAB>target) and report corpus BLEU");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr-subword model)");
    c->add_option("--test", o->test, "Test pairs: source<TAB>target per line; a source may repeat with other targets")->required();
    c->add_option("-b,--beam", o->e.beamWidth, "Beam width, run after greedy (1: greedy only)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    c->add_option("--max-len", o->e.maxLength, "Maximum target tokens (default: the model's max_length, else 2*source+10)")
        ->check(CLI::Range(0, 1000));
    c->add_option("--max-sentences", o->e.maxSentences, "Evaluate only the first N distinct sources (0: all)")
        ->check(CLI::NonNegativeNumber);
    c->add_option("--buckets", o->e.bucketBounds, "Upper ends of the source-length buckets, increasing (an open bucket follows)")
        ->delimiter(',')
        ->capture_default_str();
    c->add_option("--tokenize", o->e.tokenize,
                  "What BLEU compares: model (the model's target tokens, its own words or pieces) or 13a (sacrebleu's "
                  "default tokenisation of the detokenised text, cased: comparable across models and with published BLEU)")
        ->check(CLI::IsMember({"model", "13a"}))
        ->capture_default_str();
    c->add_flag("--lowercase", o->e.lowercase, "--tokenize 13a: compare lower-cased text (sacrebleu -lc)");
    c->add_flag("--no-progress", o->noProgress, "No progress line on stderr (a bar on a terminal, a line every 30 s into a log)");
    c->add_flag("--skip-bad-lines", o->skipBad, "Skip malformed test lines and pairs the model cannot take (default: stop at the first)");
    c->add_option("--batch", o->e.batch,
                  "Sentences decoded together, greedy and beam (default: 256 greedy, 32 with a beam; "
                  "1: one at a time; the same tokens either way)")
        ->check(CLI::Range(1, 1024));
    addWorkersOption(c, o->e.workers);
    addTimeLimitOption(c, o->timeLimit);
    c->add_option("--json", o->json, "Also write the scores as JSON to this file");
    c->add_option("--hypotheses", o->hypotheses,
                  "Write the translations here: a header line, then source<TAB>greedy<TAB>beam per distinct source");
    return [o, c]() -> int {
        if (!*c) return -1;
        auto model = loadDecodingModel(o->model, o->e.maxLength);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(o->test, ec))
            throw core::Error("test file '" + o->test + "' does not exist or is not a file");
        const auto corpus = core::Corpus::read(o->test, o->skipBad ? core::Corpus::OnBadLine::Skip : core::Corpus::OnBadLine::Reject);
        for (const auto& p : corpus.problems()) std::cerr << "skipped " << o->test << ":" << p.line << ": " << p.reason << '\n';
        // Check the outputs before the long part, so a bad path fails at once; they are written
        // (atomically) only at the end, so an interrupted run leaves old files as they were.
        if (!o->json.empty()) core::AtomicFile::checkWritable(o->json);
        if (!o->hypotheses.empty()) core::AtomicFile::checkWritable(o->hypotheses);
        o->e.skipUnusablePairs = o->skipBad;
        o->e.workers = startWorkers(o->e.workers);
        // The whole test set is one batch for the watchdog: it ends the run when no step is reported
        // for the limit (nothing is written: the outputs are written at the end).
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), nullptr);
        o->e.progress = watchdog.progress();
        const core::Evaluator evaluator(model, o->e);
        ProgressBar bar(ProgressBar::IntoLog::EveryHalfMinute, !o->noProgress);
        std::string search;  // the pass being shown
        watchdog.start(1, static_cast<long>(corpus.pairs().size()));
        const auto result = evaluator.evaluate(corpus.pairs(), o->test, [&bar, &search](const core::EvaluationProgress& p) {
            if (p.search != search) bar.restart(), search = p.search;
            bar.update(static_cast<long long>(p.done), static_cast<long long>(p.total), "sentences", p.search);
        });
        watchdog.stop();
        bar.clear();
        for (const auto& s : result.skipped) std::cerr << "skipped " << s << '\n';
        printReport(result, std::cout);
        std::cout.flush();
        if (!o->json.empty()) core::AtomicFile::write(o->json, core::JsonText::dump(result.toJson(), 2) + "\n");
        if (!o->hypotheses.empty()) {
            core::AtomicFile file(o->hypotheses);
            auto& out = file.stream();
            out << "source";
            for (const auto& s : result.searches) out << '\t' << s.name;
            out << '\n';
            for (size_t i = 0; i < result.sources.size(); ++i) {
                out << result.sources[i];
                for (const auto& s : result.searches) out << '\t' << s.hypotheses[i];
                out << '\n';
            }
            file.commit();
        }
        return 0;
    };
}

}  // namespace alignscope::cli
