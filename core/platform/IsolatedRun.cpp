#include "core/platform/IsolatedRun.h"

#include "core/Error.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <algorithm>
#include <new>

namespace alignscope::core {
namespace {

// A page shared with the child (mmap'd before the fork): its last note().
constexpr size_t kPhaseBytes = 256;
char* childPhase = nullptr;  // set in the child only

uint64_t addressSpaceInUse() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

void writeAll(int fd, const std::string& s) {
    for (size_t done = 0; done < s.size();) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n <= 0 && errno != EINTR) return;
        if (n > 0) done += static_cast<size_t>(n);
    }
}

[[noreturn]] void childMain(int fd, const std::function<void()>& job, const IsolatedRun::Limits& limits) {
    rlimit none{0, 0};
    setrlimit(RLIMIT_CORE, &none);  // a crash here is an answer, not a core file
    const rlim_t space = static_cast<rlim_t>(addressSpaceInUse() + limits.extraMemoryBytes);
    rlimit as{space, space};
    setrlimit(RLIMIT_AS, &as);
    const rlim_t cpu = static_cast<rlim_t>(limits.seconds) + 2;  // a backstop to the parent's clock
    rlimit cpuLimit{cpu, cpu};
    setrlimit(RLIMIT_CPU, &cpuLimit);
    char kind = 'S';
    std::string message;
    try {
        job();
    } catch (const std::bad_alloc&) {
        kind = 'M';
    } catch (const std::exception& e) {
        kind = 'F';
        message = e.what();
    } catch (...) {
        kind = 'F';
        message = "an unknown exception";
    }
    writeAll(fd, std::string(1, kind) + message);
    ::close(fd);
    _exit(0);  // no atexit handlers, no static destructors: they belong to the parent
}

}  // namespace

void IsolatedRun::note(const std::string& phase) {
    if (!childPhase) return;
    const size_t n = std::min(phase.size(), kPhaseBytes - 1);
    std::memcpy(childPhase, phase.data(), n);
    childPhase[n] = '\0';
}

IsolatedRun::Outcome IsolatedRun::run(const std::function<void()>& job, const Limits& limits) {
    void* page = ::mmap(nullptr, kPhaseBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) throw Error(std::string("cannot start a checking process: ") + std::strerror(errno));
    std::unique_ptr<void, std::function<void(void*)>> unmap(page, [](void* p) { ::munmap(p, kPhaseBytes); });
    static_cast<char*>(page)[0] = '\0';
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot start a checking process: ") + std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw Error(std::string("cannot start a checking process: ") + std::strerror(errno));
    }
    if (pid == 0) {
        ::close(fds[0]);
        childPhase = static_cast<char*>(page);
        childMain(fds[1], job, limits);
    }
    ::close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(limits.seconds * 1000));
    std::string reply;
    bool timedOut = false;
    char buffer[4096];
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1000)));
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // the child closed its end: done or dead
        if (reply.size() < (1u << 20)) reply.append(buffer, static_cast<size_t>(n));
    }
    ::close(fds[0]);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    Outcome out;
    out.phase.assign(static_cast<const char*>(page), strnlen(static_cast<const char*>(page), kPhaseBytes));
    if (timedOut) {
        out.kind = Outcome::Kind::TimedOut;
    } else if (WIFSIGNALED(status) || reply.empty()) {
        const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        out.kind = sig == SIGXCPU ? Outcome::Kind::TimedOut : Outcome::Kind::Crashed;
        out.message = sig ? (sigabbrev_np(sig) ? std::string("SIG") + sigabbrev_np(sig) : "signal " + std::to_string(sig)) : "no answer";
    } else if (reply[0] == 'S') {
        out.kind = Outcome::Kind::Succeeded;
    } else if (reply[0] == 'M') {
        out.kind = Outcome::Kind::OutOfMemory;
    } else {
        out.kind = Outcome::Kind::Failed;
        out.message = reply.substr(1);
    }
    return out;
}

}  // namespace alignscope::core
