#pragma once

namespace alignscope::cli {

// While it lives, Ctrl-C (SIGINT) and SIGTERM set a flag instead of ending the process, so a
// command stops between two lines and cleans up (a second one ends the process at once).
// One at a time; the previous handlers come back when it goes.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    bool raised() const;
};

}  // namespace alignscope::cli
