#include "core/platform/LivePageMaker.h"

#include "core/Error.h"
#include "core/platform/InstallLayout.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace alignscope::core {
namespace {

namespace fs = std::filesystem;

// The exporter's own message: its last "error: " line, else the end of what it wrote.
std::string childMessage(const std::string& err) {
    const auto at = err.rfind("error: ");
    std::string message = at != std::string::npos ? err.substr(at + 7) : err;
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    if (message.size() > 2000) message = "..." + message.substr(message.size() - 2000);
    return message;
}

}  // namespace

std::string LivePageMaker::pythonPackageDirectory() { return InstallLayout::overridable("ALIGNSCOPE_PYTHON_PACKAGE", "python"); }

std::string LivePageMaker::runtimeDirectory() { return InstallLayout::overridable("ALIGNSCOPE_ORT_WEB", "onnxruntime-web"); }

std::string LivePageMaker::pythonProgram() {
    const char* env = std::getenv("ALIGNSCOPE_PYTHON");
    if (env && *env) return env;
    std::error_code ec;
    return fs::exists("/usr/bin/python3", ec) ? "/usr/bin/python3" : "python3";  // Debian's, where torch is
}

void LivePageMaker::makeLive(const std::vector<Page>& pages) {
    if (pages.empty()) return;
    const std::string package = pythonPackageDirectory();
    std::error_code ec;
    if (!fs::is_regular_file(fs::path(package) / "alignscope" / "live_page.py", ec))
        throw Error("a live page is made by the alignscope Python package, which is not in " + package +
                    " (set ALIGNSCOPE_PYTHON_PACKAGE to the folder holding alignscope/)");
    const std::string python = pythonProgram();
    // Debian's python3-torch and python3-onnx looked for before the package is imported (it
    // imports torch): their absence is one clear line, not a traceback.
    static const char* const kEntry =
        "import importlib.util, runpy, sys\n"
        "lack = [f\"the Python module '{n}' (Debian: apt-get install {p})\" for n, p in "
        "(('torch', 'python3-torch'), ('onnx', 'python3-onnx')) if importlib.util.find_spec(n) is None]\n"
        "if lack: sys.exit('error: a live page needs ' + '; '.join(lack) + ' for ' + sys.executable)\n"
        "runpy.run_module('alignscope.live_page', run_name='__main__', alter_sys=True)\n";
    std::vector<std::string> args = {python, "-c", kEntry, "pages", runtimeDirectory()};
    for (const auto& p : pages) {
        args.push_back(p.page);
        args.push_back(p.model);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The package first on the child's PYTHONPATH; the rest of the environment as it is.
    std::vector<std::string> env;
    const char* oldPath = std::getenv("PYTHONPATH");
    env.push_back("PYTHONPATH=" + package + (oldPath && *oldPath ? std::string(":") + oldPath : std::string()));
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "PYTHONPATH=", 11) != 0) env.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);

    int err[2];
    if (pipe2(err, O_CLOEXEC) != 0) throw Error(std::string("cannot start the live page's exporter: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);  // its JSON of sizes
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, python.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(err[1]);
    if (spawned != 0) {
        close(err[0]);
        throw Error("a live page needs " + python + " with Debian's python3-torch and python3-onnx, and it could not be started (" +
                    std::strerror(spawned) + ")");
    }
    std::string said;
    char buffer[4096];
    for (ssize_t n; (n = read(err[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (said.size() < (1u << 20)) said.append(buffer, static_cast<size_t>(n));
    }
    close(err[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        throw Error("a live page needs " + python + " with Debian's python3-torch and python3-onnx: " + python + " was not found");
    throw Error(
        "the live page could not be made: " +
        (said.empty() ? std::string("the exporter (") + python + " -m alignscope.live_page) ended without a message" : childMessage(said)));
}

}  // namespace alignscope::core
