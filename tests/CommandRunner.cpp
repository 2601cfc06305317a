#include "CommandRunner.h"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace alignscope::tests {

CommandResult runCommand(const std::string& command, const std::string& stderrTo) {
    FILE* pipe = popen((command + " 2>" + stderrTo).c_str(), "r");
    if (!pipe) return {-1, "cannot start: " + command};
    CommandResult r;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, pipe)) r.output.append(buf, n);
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

PeakMemory runMeasuringMemory(const std::string& command) {
    // Measured from a small python3 parent: a process this (large) test process starts carries the
    // test's own peak in its ru_maxrss (exec keeps the old address space's peak), but processes the
    // small parent starts report their own.
    const std::string script =
        "import resource, subprocess, sys\n"
        "code = subprocess.run(sys.argv[1], shell=True).returncode\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(code if 0 <= code < 256 else 1)\n";
    const auto r = runCommand("/usr/bin/python3 -c " + shellQuoted(script) + " " + shellQuoted(command));
    PeakMemory m;
    m.exitCode = r.exitCode;
    const auto lastLine = r.output.find_last_of('\n', r.output.size() >= 2 ? r.output.size() - 2 : 0);
    try {
        m.peakKb = std::stol(r.output.substr(lastLine == std::string::npos ? 0 : lastLine + 1));
    } catch (const std::exception&) {
        m.peakKb = -1;  // python3 did not report
    }
    return m;
}

std::string shellQuoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> readLines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

}  // namespace alignscope::tests
