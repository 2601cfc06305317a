#include "cli/InterruptGuard.h"

#include <csignal>

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

InterruptGuard::InterruptGuard() {
    interrupted = 0;
    previousInt = std::signal(SIGINT, onInterrupt);
    previousTerm = std::signal(SIGTERM, onInterrupt);
}

InterruptGuard::~InterruptGuard() {
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
}

bool InterruptGuard::raised() const { return interrupted != 0; }

}  // namespace alignscope::cli
