#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace alignscope::core {

// Runs a job in a forked child process under a wall-clock limit and an address-space limit, so
// that whatever the job meets (a crash in LibTorch's reader, code that loops for ever, an
// allocation a damaged length asks for) ends the child, not the caller. The child inherits the
// caller's memory (copy-on-write) and reports only a message back through a pipe.
class IsolatedRun {
public:
    struct Limits {
        double seconds = 10;                     // wall clock, from the fork
        uint64_t extraMemoryBytes = 1ull << 30;  // address space the child may add to what it inherits
    };
    struct Outcome {
        enum class Kind { Succeeded, Failed, Crashed, TimedOut, OutOfMemory };
        Kind kind = Kind::Succeeded;
        std::string message;  // Failed: the job's error; Crashed: the signal's name
        std::string phase;    // the last note() the child made: where it crashed or hung
    };

    // `job` throws to fail (its what() comes back as the message). Never throws itself, except
    // Error when no child process can be started.
    static Outcome run(const std::function<void()>& job, const Limits& limits);
    // Inside a job: says what the child is doing now, so a crash or a time-out can name it. Does
    // nothing outside one.
    static void note(const std::string& phase);
};

}  // namespace alignscope::core
