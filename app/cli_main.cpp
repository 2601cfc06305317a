// alignscope-cli: the command-line companion. Thin: parses arguments, reads lines, calls core/.
#include "core/Alignment.h"
#include "core/DecodingSession.h"
#include "core/Error.h"
#include "core/Model.h"
#include "core/Runtime.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>

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

    CLI11_PARSE(app, argc, argv);
    try {
        core::Runtime::setThreads(threads);
        if (*tr) return translate(modelPath, beam, maxLen, input, output);
        if (*al) return align(modelPath, format, input, output);
        if (*in) return inspect(modelPath, asJson);
    } catch (const core::Error& e) {
        std::cerr << "alignscope-cli: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "alignscope-cli: unexpected error: " << e.what() << '\n';
        return 3;
    }
    return 0;
}
