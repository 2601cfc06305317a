#pragma once
#include <atomic>
#include <cstdint>

namespace alignscope::core {

// How far a decoding has got, written by the decoding thread and read by a watchdog on another
// (the CLI's --time-limit, the app's Cancel), so a model that stops answering can be named with
// the step it stopped in.
struct DecodingProgress {
    std::atomic<int64_t> step{0};  // 0: encoding the source; t >= 1: computing target step t
};

}  // namespace alignscope::core
