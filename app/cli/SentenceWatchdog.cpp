#include "cli/SentenceWatchdog.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace alignscope::cli {

SentenceWatchdog::SentenceWatchdog(double seconds, std::string modelPath, std::function<void()> onExpire, bool linesStartHere)
    : seconds_(seconds), modelPath_(std::move(modelPath)), onExpire_(std::move(onExpire)), linesStartHere_(linesStartHere) {
    if (seconds_ > 0) thread_ = std::thread([this] { watch(); });
}

SentenceWatchdog::~SentenceWatchdog() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void SentenceWatchdog::start(long lineNo, long lastLineNo) {
    if (seconds_ <= 0) return;
    if (linesStartHere_) progress_.step = 0;  // else a worker may have reported this line already
    phase_ = nullptr;
    {
        std::lock_guard lock(mutex_);
        startBeats_ = progress_.beats;
        line_ = lineNo;
        lastLine_ = std::max(lineNo, lastLineNo);
        ++generation_;
    }
    wake_.notify_all();
}

void SentenceWatchdog::stop() {
    if (seconds_ <= 0) return;
    std::lock_guard lock(mutex_);
    line_ = 0;
}

void SentenceWatchdog::enter(const char* phase) {
    if (seconds_ <= 0) return;
    phase_ = phase;
    progress_.moved();  // a new part starts its own clock
}

void SentenceWatchdog::watch() {
    std::unique_lock lock(mutex_);
    while (!quit_) {
        if (line_ == 0) {
            wake_.wait(lock);
            continue;
        }
        const long generation = generation_;
        // Ends when the sentence finishes (line_ 0 or a new generation) or when nothing has been
        // reported for the limit: a batch of many sentences, or of slow attributions, takes longer
        // in all but keeps beating, where a model whose code loops falls silent. Checked a few
        // times a second, so a silence is caught within a quarter second of the limit.
        const auto silence = std::chrono::duration<double>(seconds_);
        const auto poll = std::min<std::chrono::duration<double>>(silence, std::chrono::milliseconds(250));
        uint64_t beats = progress_.beats;
        auto lastBeat = std::chrono::steady_clock::now();
        bool finished = false;
        for (;;) {
            finished = wake_.wait_for(lock, poll, [&] { return quit_ || line_ == 0 || generation_ != generation; });
            if (finished) break;
            const auto now = std::chrono::steady_clock::now();
            if (const uint64_t seen = progress_.beats; seen != beats) {
                beats = seen;
                lastBeat = now;
            } else if (now - lastBeat >= silence) {
                break;
            }
        }
        if (finished) continue;
        // The decoding thread is inside the model's code and holds nothing this needs; it stays
        // there, so the process ends here, holding the lock so the line cannot finish meanwhile.
        const int64_t step = progress_.step;
        const char* phase = phase_;
        const bool tokenizing = linesStartHere_ && phase == nullptr && progress_.beats == startBeats_;
        std::string part = phase        ? std::string(phase)
                           : tokenizing ? std::string("tokenizing the sentence")
                           : step == 0  ? std::string("encoding the sentence")
                                        : "step " + std::to_string(step);
        std::ostringstream limit;
        limit << seconds_;
        if (isatty(STDERR_FILENO)) std::cerr << "\r\033[K";  // over a progress bar
        std::cerr << (lastLine_ > line_ ? "lines " + std::to_string(line_) + "-" + std::to_string(lastLine_) + " (decoded together)"
                                        : "line " + std::to_string(line_))
                  << ": the model '" << modelPath_ << "' did not finish " << part << " within " << limit.str() << " s (--time-limit); "
                  << (tokenizing ? "its tokenizer is at fault, not its code" : "its code may loop for ever") << ". Stopping after line "
                  << line_ - 1 << '\n';
        if (onExpire_) onExpire_();
        std::cerr.flush();
        std::_Exit(2);
    }
}

}  // namespace alignscope::cli
