// alignscope-cli: the command-line companion. Thin: parses arguments, reads lines, calls core/.
#include "core/Alignment.h"
#include "core/DecodingSession.h"
#include "core/Error.h"
#include "core/Model.h"
#include "core/Runtime.h"
#include "core/Trainer.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace core = alignscope::core;

namespace {

// Input from a file or stdin, output to a file or stdout.
struct Streams {
    std::unique_ptr<std::ifstream> inFile;
    std::unique_ptr<std::ofstream> outFile;
    std::istream* in = &std::cin;
    std::ostream* out = &std::cout;

    Streams(const std::string& input, const std::string& output) {
        if (!input.empty() && input != "-") {
            inFile = std::make_unique<std::ifstream>(input);
            if (!*inFile) throw core::Error("cannot read '" + input + "'");
            in = inFile.get();
        }
        if (!output.empty() && output != "-") {
            outFile = std::make_unique<std::ofstream>(output);
            if (!*outFile) throw core::Error("cannot write '" + output + "'");
            out = outFile.get();
        }
    }
};

core::Model loadModel(const std::string& path) {
    return core::Model::load(path.empty() ? core::Runtime::defaultModelPath() : path);
}

int translate(const std::string& modelPath, int beam, int maxLen, const std::string& input,
              const std::string& output) {
    auto model = loadModel(modelPath);
    Streams io(input, output);
    core::SearchOptions options;
    options.beamWidth = beam;
    options.maxLength = maxLen;
    std::string line;
    long lineNo = 0;
    int failures = 0;
    while (std::getline(*io.in, line)) {
        ++lineNo;
        try {
            core::DecodingSession session(model, line);
            const auto best = session.search(options).front();
            *io.out << model.detokenize(best.ids) << '\n';
        } catch (const core::Error& e) {
            std::cerr << "line " << lineNo << ": " << e.what() << '\n';
            *io.out << '\n';  // keep output lines parallel to input lines
            ++failures;
        }
    }
    io.out->flush();
    return failures ? 1 : 0;
}

int align(const std::string& modelPath, const std::string& format, const std::string& input,
          const std::string& output) {
    auto model = loadModel(modelPath);
    Streams io(input, output);
    std::string line;
    long lineNo = 0;
    int failures = 0;
    while (std::getline(*io.in, line)) {
        ++lineNo;
        try {
            const auto sep = line.find("|||");
            if (sep == std::string::npos) throw core::Error("expected 'source ||| target'");
            core::DecodingSession session(model, line.substr(0, sep));
            session.alignTo(line.substr(sep + 3));
            const auto alignment = session.alignment();
            if (format == "json") *io.out << alignment.toJson().dump() << '\n';
            else *io.out << alignment.pharaoh() << '\n';
        } catch (const core::Error& e) {
            std::cerr << "line " << lineNo << ": " << e.what() << '\n';
            *io.out << (format == "json" ? "null" : "") << '\n';
            ++failures;
        }
    }
    io.out->flush();
    return failures ? 1 : 0;
}

int inspect(const std::string& modelPath, bool asJson) {
    auto model = loadModel(modelPath);
    nlohmann::json j = {{"file", model.origin()},
                        {"name", model.name()},
                        {"contract", "meets AlignScope model format v1"},
                        {"source_vocabulary", model.sourceVocabulary().size()},
                        {"target_vocabulary", model.targetVocabulary().size()},
                        {"parameters", model.parameterCount()},
                        {"encoder_output_size", model.encoderOutputSize()},
                        {"state_size", model.stateSize()},
                        {"metadata", model.metadata()},
                        {"blas", core::Runtime::blasDescription()},
                        {"threads", core::Runtime::threads()}};
    if (asJson) {
        std::cout << j.dump(2) << '\n';
        return 0;
    }
    std::cout << "file:              " << model.origin() << '\n'
              << "name:              " << model.name() << '\n'
              << "contract:          meets AlignScope model format v1\n"
              << "source vocabulary: " << model.sourceVocabulary().size() << '\n'
              << "target vocabulary: " << model.targetVocabulary().size() << '\n'
              << "parameters:        " << model.parameterCount() << '\n'
              << "encoder output E:  " << model.encoderOutputSize() << '\n'
              << "decoder state D:   " << model.stateSize() << '\n'
              << "BLAS:              " << core::Runtime::blasDescription() << '\n'
              << "threads:           " << core::Runtime::threads() << '\n'
              << "metadata:\n" << model.metadata().dump(2) << '\n';
    return 0;
}

std::atomic<bool> interrupted{false};

std::string clock(double seconds) {
    const long s = static_cast<long>(seconds);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    return buf;
}

int train(core::TrainingOptions options) {
    std::signal(SIGINT, [](int) { interrupted = true; });
    std::signal(SIGTERM, [](int) { interrupted = true; });
    core::Trainer trainer(options);
    std::cerr << "reading " << options.corpusPath << " ...\n";
    trainer.prepare();
    for (const auto& p : trainer.corpusProblems()) std::cerr << "skipped " << p << '\n';
    std::cerr << "pairs: " << trainer.trainingPairs() << " train, " << trainer.validationPairs() << " validation, "
              << trainer.testPairs() << " test (held out); threads " << core::Runtime::threads() << "; BLAS "
              << core::Runtime::blasDescription() << "\n";
    const bool tty = isatty(STDERR_FILENO);
    auto last = std::chrono::steady_clock::now() - std::chrono::hours(1);
    auto result = trainer.run(
        [&](const core::TrainingProgress& p) {
            const auto now = std::chrono::steady_clock::now();
            if (!p.event.empty()) {
                std::cerr << (tty ? "\r\033[K" : "") << "step " << p.step << ": " << p.event << '\n';
                return;
            }
            if (now - last < std::chrono::milliseconds(tty ? 200 : 30000) && p.step != p.totalSteps) return;
            last = now;
            const double f = p.totalSteps ? static_cast<double>(p.step) / static_cast<double>(p.totalSteps) : 0;
            const int width = 30, filled = static_cast<int>(f * width);
            char line[256];
            std::snprintf(line, sizeof line, "[%s%s] %3.0f%% step %lld/%lld epoch %d loss %.3f %.0f tok/s ETA %s",
                          std::string(static_cast<size_t>(filled), '#').c_str(),
                          std::string(static_cast<size_t>(width - filled), '.').c_str(), 100 * f,
                          static_cast<long long>(p.step), static_cast<long long>(p.totalSteps), p.epoch + 1, p.loss,
                          p.tokensPerSecond, clock(p.secondsLeft).c_str());
            std::cerr << (tty ? "\r\033[K" : "") << line << (tty ? "" : "\n") << std::flush;
        },
        &interrupted);
    std::cerr << (tty ? "\n" : "");
    if (!result.completed) {
        std::cerr << "interrupted at step " << result.steps << "; checkpoint saved. Continue with the same command and --resume\n";
        return 130;
    }
    std::cerr << "done: " << result.steps << " steps, best validation NLL/token " << result.validationLoss
              << ", greedy validation BLEU " << result.validationBleu << ", " << static_cast<long>(result.tokensPerSecond)
              << " target tokens/s; model " << result.modelPath << '\n';
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"alignscope-cli: translate, align and inspect attention-based seq2seq models"};
    app.set_version_flag("--version", "alignscope-cli " + core::Runtime::version());
    app.require_subcommand(1);
    std::string modelPath, input, output;
    int threads = 0;
    app.add_option("--threads", threads, "Intra-op threads (default: LibTorch's)");

    auto* tr = app.add_subcommand("translate", "Translate one sentence per input line");
    int beam = 1, maxLen = 0;
    tr->add_option("-m,--model", modelPath, "Model file (default: the bundled en-fr model)");
    tr->add_option("-b,--beam", beam, "Beam width (1 = greedy)")->check(CLI::Range(1, 64));
    tr->add_option("--max-len", maxLen, "Maximum target tokens (default 2*source+10)")->check(CLI::Range(0, 1000));
    tr->add_option("-i,--input", input, "Input file (default stdin)");
    tr->add_option("-o,--output", output, "Output file (default stdout)");

    auto* al = app.add_subcommand("align", "Teacher-forced alignment of 'source ||| target' lines");
    std::string format = "pharaoh";
    al->add_option("-m,--model", modelPath, "Model file (default: the bundled en-fr model)");
    al->add_option("-f,--format", format, "pharaoh or json")->check(CLI::IsMember({"pharaoh", "json"}));
    al->add_option("-i,--input", input, "Input file (default stdin)");
    al->add_option("-o,--output", output, "Output file (default stdout)");

    auto* in = app.add_subcommand("inspect", "Show a model's metadata and check its contract");
    bool asJson = false;
    in->add_option("-m,--model", modelPath, "Model file (default: the bundled en-fr model)");
    in->add_flag("--json", asJson, "Print JSON");

    auto* trn = app.add_subcommand("train", "Train a model on a tab-separated corpus (source<TAB>target)");
    core::TrainingOptions topt;
    std::string cell = "gru", attention = "additive";
    bool unidirectional = false, skipBad = false, untied = false;
    trn->add_option("--corpus", topt.corpusPath, "Corpus file: source<TAB>target per line")->required();
    trn->add_option("-o,--out", topt.outputPath, "Model file to write")->required();
    trn->add_option("--name", topt.name, "Model name (default: output file stem)");
    trn->add_option("--corpus-name", topt.corpusName, "Corpus name recorded in the model");
    trn->add_option("--corpus-licence", topt.corpusLicence, "Corpus licence and attribution recorded in the model");
    trn->add_flag("--skip-bad-lines", skipBad, "Skip malformed corpus lines (default: stop at the first)");
    trn->add_option("--max-len", topt.maxLength, "Leave out pairs longer than this many tokens")->check(CLI::Range(1, 1000));
    trn->add_option("--src-min-count", topt.sourceMinCount, "Source vocabulary: minimum token count");
    trn->add_option("--tgt-min-count", topt.targetMinCount, "Target vocabulary: minimum token count");
    trn->add_option("--src-vocab", topt.sourceVocabSize, "Source vocabulary cap (0: none)");
    trn->add_option("--tgt-vocab", topt.targetVocabSize, "Target vocabulary cap (0: none)");
    trn->add_option("--src-elision", topt.sourceElision, "Split elisions (l'homme) on the source side");
    trn->add_option("--tgt-elision", topt.targetElision, "Split elisions (l'homme) on the target side");
    trn->add_option("--cell", cell, "gru or lstm")->check(CLI::IsMember({"gru", "lstm"}));
    trn->add_option("--attention", attention, "additive, dot, general or none")
        ->check(CLI::IsMember({"additive", "dot", "general", "none"}));
    trn->add_flag("--unidirectional", unidirectional, "Encoder reads left to right only");
    trn->add_option("--embedding", topt.spec.embeddingSize, "Embedding size");
    trn->add_option("--encoder-hidden", topt.spec.encoderHidden, "Encoder hidden size per direction");
    trn->add_option("--decoder-hidden", topt.spec.decoderHidden, "Decoder hidden size");
    trn->add_option("--attention-size", topt.spec.attentionSize, "Additive attention width");
    trn->add_option("--readout", topt.spec.readoutSize, "Readout size (= embedding size to tie the output layer)");
    trn->add_flag("--untied", untied, "Separate output projection instead of the target embeddings");
    trn->add_option("--dropout", topt.dropout, "Dropout on embeddings and readout");
    trn->add_option("--label-smoothing", topt.labelSmoothing, "Label smoothing");
    trn->add_option("--batch", topt.batchSize, "Batch size")->check(CLI::Range(1, 4096));
    trn->add_option("--lr", topt.learningRate, "Adam learning rate");
    trn->add_option("--clip", topt.clipNorm, "Gradient norm cap (0: none)");
    trn->add_option("--epochs", topt.epochs, "Epochs")->check(CLI::Range(1, 1000));
    trn->add_option("--steps", topt.maxSteps, "Stop after this many updates (0: epochs decide)");
    trn->add_option("--seed", topt.seed, "Seed for initialisation, data order, dropout and the split");
    trn->add_option("--train-threads", topt.threads, "LibTorch threads for training")->check(CLI::Range(1, 64));
    trn->add_option("--valid-fraction", topt.validationFraction, "Share of source sentences for validation");
    trn->add_option("--test-fraction", topt.testFraction, "Share of source sentences held out for testing");
    trn->add_option("--test-out", topt.testSplitPath, "Write the held-out test pairs to this TSV file");
    trn->add_option("--valid-bleu", topt.validationBleuSentences, "Greedy BLEU on this many validation sources");
    trn->add_option("--checkpoint-dir", topt.checkpointDir, "Checkpoint folder (default: OUT.ckpt)");
    trn->add_option("--checkpoint-minutes", topt.checkpointMinutes, "Minutes between checkpoints");
    trn->add_flag("--resume", topt.resume, "Continue from the checkpoint");
    trn->add_flag("--half", topt.half, "Store weights as float16 (half the file size)");

    CLI11_PARSE(app, argc, argv);
    try {
        core::Runtime::setThreads(threads);
        if (*tr) return translate(modelPath, beam, maxLen, input, output);
        if (*al) return align(modelPath, format, input, output);
        if (*in) return inspect(modelPath, asJson);
        if (*trn) {
            topt.spec.cell = core::ModelSpec::parseCell(cell);
            topt.spec.attention = core::ModelSpec::parseAttention(attention);
            topt.spec.bidirectional = !unidirectional;
            topt.spec.tieOutput = !untied;
            topt.onBadLine = skipBad ? core::Corpus::OnBadLine::Skip : core::Corpus::OnBadLine::Reject;
            for (int i = 1; i < argc; ++i) topt.recipe += std::string(i > 1 ? " " : "") + argv[i];
            topt.recipe = "alignscope-cli " + topt.recipe;
            return train(topt);
        }
    } catch (const core::Error& e) {
        std::cerr << "alignscope-cli: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "alignscope-cli: unexpected error: " << e.what() << '\n';
        return 3;
    }
    return 0;
}
