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
