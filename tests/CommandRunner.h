#pragma once
#include <string>
#include <vector>

namespace alignscope::tests {

// Runs programs as a user would from a shell, for tests of the command-line fronts.
struct CommandResult {
    int exitCode = -1;   // -1: did not start or did not exit normally
    std::string output;  // what it printed on stdout (and stderr, unless redirected)
};

// Runs `command` through the shell with stderr sent to `stderrTo` ("&1": into the output).
CommandResult runCommand(const std::string& command, const std::string& stderrTo = "&1");
// Runs `command` through the shell (its stdout and stderr redirected inside it: what it prints is
// not kept) and returns the exit code and the largest peak resident memory of its processes, in kB
// (-1: not measured).
struct PeakMemory {
    int exitCode = -1;
    long peakKb = 0;
};
PeakMemory runMeasuringMemory(const std::string& command);
// Single-quoted for the shell: temporary paths may hold spaces.
std::string shellQuoted(const std::string& text);
std::string readFile(const std::string& path);
std::vector<std::string> readLines(const std::string& path);

}  // namespace alignscope::tests
