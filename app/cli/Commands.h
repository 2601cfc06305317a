#pragma once
// The subcommands of alignscope-cli. Each add*Command registers its options on `app` and returns
// the action main() runs when that subcommand was chosen; the action returns the exit code and
// may throw core::Error, which main() prints.
#include "core/runtime/Runtime.h"

#include <CLI/CLI.hpp>
#include <sched.h>

#include <algorithm>
#include <functional>
#include <string>
#include <thread>

namespace alignscope::cli {

using Command = std::function<int()>;

// --time-limit SECONDS on a line-by-line command (SentenceWatchdog): default 30, 0 for none.
inline void addTimeLimitOption(CLI::App* command, double& seconds) {
    command
        ->add_option("--time-limit", seconds,
                     "Seconds a sentence may go without progress (a decoder step, an attributed pair) before the run stops (0: no limit)")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
}

// The cores this process may run on (its affinity mask, as nproc counts them), at least 1.
inline int availableCores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

// --workers N on a batched command (BatchDecoder): N batches decoded at once, on N threads with one
// BLAS thread each. The default, 0, is one worker per core (at most 8): workers beat one batch on
// several BLAS threads, idle or loaded (docs/performance.md, "Why the code is as it is").
inline void addWorkersOption(CLI::App* command, int& workers, const char* what = "Batches") {
    command
        ->add_option("--workers", workers,
                     std::string(what) +
                         " decoded at once, one thread each with one BLAS thread (the same output; 0: one "
                         "per core, at most 8; 1 with --threads N: one batch at a time on N BLAS threads)")
        ->check(CLI::Range(0, 64))
        ->capture_default_str();
}

// The workers a command runs: as asked, else one per core, or one where `batch` is 1 (--batch 1 is
// one sentence at a time, the path whose errors and time limits name a single line); with more
// than one, each has one BLAS thread.
inline int startWorkers(int requested, int batch = 0) {
    const int workers = requested > 0 ? requested : batch == 1 ? 1 : std::min(8, availableCores());
    if (workers > 1) core::Runtime::setThreads(1);
    return workers;
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
Command addExportCommand(CLI::App& app);        // needs Qt: built with ALIGNSCOPE_BUILD_GUI only
Command addPlotBleuCommand(CLI::App& app);      // needs Qt, as export
Command addExportLessonCommand(CLI::App& app);  // needs Qt, as export
#endif

}  // namespace alignscope::cli
