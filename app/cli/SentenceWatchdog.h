#pragma once
#include "core/decoding/DecodingProgress.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace alignscope::cli {

// The per-sentence time limit (--time-limit). Model code is TorchScript run by LibTorch, which
// cannot be interrupted from outside: a sentence whose decoding reports no progress (a step, or a
// finished attribution) for the limit ends the run; a batch as a whole may take longer. The
// watchdog names the line, the model and the part that ran out of time (tokenizing: nothing
// reported since start; encoding: step 0; a decoder step; or the phase the command entered, e.g.
// an attribution), lets `onExpire` keep what was written (the lines before), and exits with 2.
class SentenceWatchdog {
public:
    // seconds <= 0: no limit (start and stop do nothing). `linesStartHere`: the line is tokenized
    // after start() on the thread that reports, so silence before any report is the tokenizer's;
    // false where lines are decoded ahead on workers (export).
    SentenceWatchdog(double seconds, std::string modelPath, std::function<void()> onExpire, bool linesStartHere = true);
    ~SentenceWatchdog();
    SentenceWatchdog(const SentenceWatchdog&) = delete;
    SentenceWatchdog& operator=(const SentenceWatchdog&) = delete;

    // The clock runs from here and again from every report to progress(); progress back at
    // encoding. lastLineNo: a batch of lines decoded together.
    void start(long lineNo, long lastLineNo = 0);
    void stop();
    // What the line is doing after its decoding, for the message ("attributing the pair"); a
    // string literal. start() clears it.
    void enter(const char* phase);
    // Hand to SearchOptions::progress / SessionOptions::progress.
    core::DecodingProgress* progress() { return &progress_; }

private:
    void watch();

    double seconds_;
    std::string modelPath_;
    std::function<void()> onExpire_;
    core::DecodingProgress progress_;
    std::mutex mutex_;
    std::condition_variable wake_;
    long line_ = 0;            // 0: no sentence running
    long lastLine_ = 0;        // of a batch
    long generation_ = 0;      // one per start()
    uint64_t startBeats_ = 0;  // progress_.beats at start(): none since means the line is still being tokenized
    std::atomic<const char*> phase_{nullptr};
    bool linesStartHere_;
    bool quit_ = false;
    std::thread thread_;
};

}  // namespace alignscope::cli
