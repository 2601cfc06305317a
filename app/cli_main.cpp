// alignscope-cli: the command-line companion. Thin: parses arguments and runs one subcommand;
// the work is in core/.
#include "cli/Commands.h"
#include "cli/LineStreams.h"

#include "core/Error.h"
#include "core/runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace core = alignscope::core;
namespace cli = alignscope::cli;

namespace {

int runCommand(int argc, char** argv) {
    CLI::App app{"alignscope-cli: translate, align, inspect, train and evaluate attention-based seq2seq models"};
    app.set_version_flag("--version", "alignscope-cli " + core::Runtime::version());
    app.require_subcommand(1);
    int threads = 0;
    app.add_option("--threads", threads, "BLAS threads (default: the BLAS's own)")->check(CLI::Range(0, 64));

    // The command as a shell would take it back: arguments with spaces or quotes are quoted.
    std::string commandLine = "alignscope-cli";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.find_first_of(" \t'\"$;&|<>()*?") == std::string::npos) {
            commandLine += " " + arg;
            continue;
        }
        std::string quoted = "'";
        for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        commandLine += " " + quoted + "'";
    }
    const std::vector<cli::Command> commands = {
        cli::addTranslateCommand(app),
        cli::addAlignCommand(app),
        cli::addAerCommand(app),
        cli::addCompareCommand(app),
        cli::addSplitCommand(app),
        cli::addInspectCommand(app),
        cli::addTrainCommand(app, commandLine),
        cli::addEvaluateCommand(app),
        cli::addMakeDatesCommand(app),
        cli::addCheckDatesCommand(app),
        cli::addUpdateCodeCommand(app),
        cli::addTraceCommand(app),
#ifdef ALIGNSCOPE_CLI_EXPORT
        cli::addExportCommand(app),
        cli::addPlotBleuCommand(app),
        cli::addExportLessonCommand(app),
#endif
    };
    if (argc > 1 && argv[1][0] != '-') {  // CLI11 would only say "A subcommand is required"
        std::string names;
        bool known = false;
        for (const auto* sub : app.get_subcommands([](CLI::App*) { return true; })) {
            known = known || sub->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known) {
            std::cerr << "alignscope-cli: unknown command '" << argv[1] << "'; the commands are " << names << '\n';
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; a mistake on the command line exits 2, as every other error
        // a user can cause does (CLI11's own codes are 100 and up).
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        core::Runtime::setThreads(threads);
        // Every command is batch work, decoding or training: the same large tensors come and go.
        core::Runtime::reuseFreedMemory();
        for (const auto& command : commands) {
            const int code = command();  // -1: not the chosen subcommand
            if (code < 0) continue;
            // What went to stdout (inspect, a piped translation) must have arrived: a full disk or
            // a closed pipe is an error, not a success.
            cli::LineStreams::flushStandardOutput();
            return code;
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

}  // namespace

int main(int argc, char** argv) {
    const int code = runCommand(argc, argv);
    // The command is over: its objects are gone, its files closed or committed. What is left at exit
    // is LibTorch's operator registry, the BLAS's threads and Qt's statics being torn down, about a
    // quarter of a second of every command; the output streams are all that must still be flushed.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
}
