#pragma once
#include "core/decoding/DecodingProgress.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace alignscope::cli {

// The per-sentence time limit (--time-limit). Model code is TorchScript run by LibTorch, which
// cannot be interrupted from outside: a sentence whose decoding reports no progress (a step, or a
// finished attribution) for the limit ends the run; a batch as a whole may take longer. The
// watchdog names the line, the model and the step it stopped in, lets `onExpire` keep what was
// written (the lines before), and exits with 2.
class SentenceWatchdog {
public:
    // seconds <= 0: no limit (start and stop do nothing).
    SentenceWatchdog(double seconds, std::string modelPath, std::function<void()> onExpire);
    ~SentenceWatchdog();
    SentenceWatchdog(const SentenceWatchdog&) = delete;
    SentenceWatchdog& operator=(const SentenceWatchdog&) = delete;

    // The clock runs from here and again from every report to progress(); progress back at
    // encoding. lastLineNo: a batch of lines decoded together.
    void start(long lineNo, long lastLineNo = 0);
    void stop();
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
    long line_ = 0;         // 0: no sentence running
    long lastLine_ = 0;     // of a batch
    long generation_ = 0;   // one per start()
    bool quit_ = false;
    std::thread thread_;
};

}  // namespace alignscope::cli
