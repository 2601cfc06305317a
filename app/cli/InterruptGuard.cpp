#include "cli/InterruptGuard.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>

namespace alignscope::cli {

namespace {
volatile std::sig_atomic_t interrupted = 0;
void (*previousInt)(int) = SIG_DFL;
void (*previousTerm)(int) = SIG_DFL;

extern "C" void onInterrupt(int) {
    interrupted = 1;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C stops at once
    std::signal(SIGTERM, SIG_DFL);
}
}  // namespace

InterruptGuard::InterruptGuard(std::function<void()> onStuck) : onStuck_(std::move(onStuck)) {
    interrupted = 0;
    previousInt = std::signal(SIGINT, onInterrupt);
    previousTerm = std::signal(SIGTERM, onInterrupt);
    watcher_ = std::thread([this] { watch(); });
}

InterruptGuard::~InterruptGuard() {
    done_ = true;
    watcher_.join();
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
}

bool InterruptGuard::raised() const { return interrupted != 0; }

// Polls: a signal handler may not wake a condition variable, and a tenth of a second is well
// inside the grace the user gets.
void InterruptGuard::watch() {
    using namespace std::chrono;
    const auto poll = milliseconds(50);
    while (!done_ && !interrupted) std::this_thread::sleep_for(poll);
    if (done_) return;
    const auto deadline = steady_clock::now() + duration<double>(kGraceSeconds);
    while (!done_ && steady_clock::now() < deadline) std::this_thread::sleep_for(poll);
    if (done_) return;
    // The command is inside a line that does not end: what is complete is kept, the rest is not waited for.
    std::cerr << "\ninterrupted: a sentence still running was not waited for\n";
    if (onStuck_) onStuck_();
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(130);
}

}  // namespace alignscope::cli
