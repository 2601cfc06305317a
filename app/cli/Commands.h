#pragma once
// The subcommands of alignscope-cli. Each add*Command registers its options on `app` and returns
// the action main() runs when that subcommand was chosen; the action returns the exit code and
// may throw core::Error, which main() prints.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace alignscope::cli {

using Command = std::function<int()>;

// --time-limit SECONDS on a line-by-line command (SentenceWatchdog): default 30, 0 for none.
inline void addTimeLimitOption(CLI::App* command, double& seconds) {
    command->add_option("--time-limit", seconds, "Seconds one sentence may take before the run stops (0: no limit)")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
}

// --workers N on a batched command (BatchDecoder): N batches decoded at once, on N threads with one
// BLAS thread each (the action calls core::Runtime::setThreads(1) when N > 1).
inline void addWorkersOption(CLI::App* command, int& workers) {
    command->add_option("--workers", workers,
                        "Batches decoded at once, one thread each with one BLAS thread (the same output; on N cores, N beats "
                        "--threads N on one batch)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
}

Command addTranslateCommand(CLI::App& app);
Command addAlignCommand(CLI::App& app);
Command addAerCommand(CLI::App& app);
Command addCompareCommand(CLI::App& app);
Command addSplitCommand(CLI::App& app);
Command addInspectCommand(CLI::App& app);
Command addTrainCommand(CLI::App& app, const std::string& commandLine);  // recorded as the recipe
Command addEvaluateCommand(CLI::App& app);
Command addMakeDatesCommand(CLI::App& app);
Command addCheckDatesCommand(CLI::App& app);
Command addUpdateCodeCommand(CLI::App& app);
Command addTraceCommand(CLI::App& app);
#ifdef ALIGNSCOPE_CLI_EXPORT
Command addExportCommand(CLI::App& app);    // needs Qt: built with ALIGNSCOPE_BUILD_GUI only
Command addPlotBleuCommand(CLI::App& app);  // needs Qt, as export
#endif

}  // namespace alignscope::cli
