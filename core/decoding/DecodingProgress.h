#pragma once
#include <atomic>
#include <cstdint>

namespace alignscope::core {

// How far a decoding has got, written by the decoding threads and read by a watchdog on another
// (the CLI's --time-limit, the app's Cancel), so a model that stops answering can be named with
// the step it stopped in. `beats` counts every report: a batch of many sentences takes long but
// keeps beating; a model whose code loops stops.
struct DecodingProgress {
    std::atomic<int64_t> step{0};    // 0: encoding the source; t >= 1: computing target step t
    std::atomic<uint64_t> beats{0};  // reports so far

    void reached(int64_t s) {
        step = s;
        ++beats;
    }
    // Something finished that is not a decoder step (a sentence's attribution, say).
    void moved() { ++beats; }
};

}  // namespace alignscope::core
