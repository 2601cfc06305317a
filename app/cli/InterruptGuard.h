#pragma once
#include <atomic>
#include <functional>
#include <thread>

namespace alignscope::cli {

// While it lives, Ctrl-C (SIGINT) and SIGTERM set a flag instead of ending the process, so a
// command stops between two lines and cleans up (a second one ends the process at once).
// A line may not end soon (a model whose code loops, a large batch): when the command has not let
// the guard go within kGraceSeconds of the signal, `onStuck` runs (from the guard's own thread:
// keep what is complete, e.g. LineStreams::abandon) and the process ends with 130, without
// waiting for the stuck thread. One at a time; the previous handlers come back when it goes.
class InterruptGuard {
public:
    static constexpr double kGraceSeconds = 1.5;

    explicit InterruptGuard(std::function<void()> onStuck = {});
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    bool raised() const;

private:
    void watch();

    std::function<void()> onStuck_;
    std::atomic<bool> done_{false};
    std::thread watcher_;
};

}  // namespace alignscope::cli
