#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace alignscope::core {

// Chooses the BLAS thread count of model calls by timing them, because no count is right on every
// host and load (docs/performance.md, "Why the code is as it is"). Each kind of call (the model's
// method, and the size of its inputs to within a factor of 2) keeps the times of its last few
// calls at each count; all calls run with the count those times favour, weighted by how often each
// kind was called lately (one count for all: changing it costs as much as a step). Now and then a
// few calls run on the other count, so a machine that gets busy or quiet is noticed. Off until
// enable(): then every call keeps the count the caller set (Runtime::setThreads).
//
// Two thread counts can differ in the last bits (OpenBLAS splits a product differently): with the
// chooser on, a step's log-probabilities may differ by ~1e-6 from a run on a quieter machine.
class BlasThreadChooser {
public:
    using Clock = std::function<double()>;        // seconds, monotonic
    using SetThreads = std::function<void(int)>;  // applies a thread count

    static constexpr int kSamples = 3;      // the median of each count's last 3 calls of a kind decides
    static constexpr int kWarmUpCalls = 2;  // a kind's first calls are not timed
    static constexpr double kProbeIntervalSeconds = 1.0;
    static constexpr int kProbeCalls = 3;           // a probe: this many calls on the other count, the first untimed
    static constexpr double kProbeSpacing = 100;    // and probes at least this many calls' time apart
    static constexpr double kWeightSeconds = 10.0;  // a kind's weight: its calls, fading with this time constant

    // The process's chooser: sets OpenBLAS's threads (Runtime::setThreads), steady clock.
    static BlasThreadChooser& shared();
    BlasThreadChooser(SetThreads set, Clock clock);

    // Candidates 1 and maxThreads; maxThreads ≤ 1 turns the chooser off. Enabling it again with
    // the same count keeps the times it has.
    void enable(int maxThreads);

    // One call of a kind: sets its thread count now, records its time when the guard goes. A call
    // made while another is in progress on the same thread runs on that one's count, untimed.
    class Call {
    public:
        Call(Call&& other) noexcept;
        Call(const Call&) = delete;
        Call& operator=(const Call&) = delete;
        ~Call();
        int threads() const { return threads_; }  // 0: the chooser is off, or the call is nested

    private:
        friend class BlasThreadChooser;
        Call(BlasThreadChooser* chooser, std::string kind, int threads, double start);
        BlasThreadChooser* chooser_;
        std::string kind_;
        int threads_;
        double start_;
    };
    Call call(const std::string& method, long long inputElements);

    // The kind's name: the method and the input size's power of two.
    static std::string kindOf(const std::string& method, long long inputElements);

private:
    struct Kind {
        int calls = 0;
        double weight = 0, lastCall = 0;  // calls, fading (kWeightSeconds)
        std::vector<double> samples[2];   // [0]: 1 thread, [1]: maxThreads; the last kSamples seconds each
    };
    int bestIndex(double now) const;  // into samples: 0 one thread, 1 maxThreads
    void record(const std::string& kind, int threads, double seconds);

    SetThreads set_;
    Clock clock_;
    std::atomic<int> maxThreads_{0};
    int applied_ = 0;  // the count last set; nothing else sets it while the chooser is on
    double lastProbe_ = -1e300;
    int probeIndex_ = 0, probeLeft_ = 0;
    double lastSeconds_ = 0;  // the last timed call's
    std::mutex mutex_;
    std::map<std::string, Kind> kinds_;
};

}  // namespace alignscope::core
