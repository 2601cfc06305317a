#include "core/runtime/BlasThreadChooser.h"

#include "core/runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace alignscope::core {

namespace {

// Calls inside a timed call (a model method inside an attribution pass) run on its count, untimed:
// the outer call's time is what a count costs, and a switch inside it would blur that.
thread_local int callDepth = 0;

// Of a count's last samples (1 to 3; of 2, the larger), without a copy: it runs for every kind
// at every model call.
static_assert(BlasThreadChooser::kSamples == 3, "median() below takes at most 3 samples");
double median(const std::vector<double>& v) {
    if (v.size() == 1) return v[0];
    if (v.size() == 2) return std::max(v[0], v[1]);
    return std::max(std::min(v[0], v[1]), std::min(std::max(v[0], v[1]), v[2]));
}

}  // namespace

BlasThreadChooser& BlasThreadChooser::shared() {
    static BlasThreadChooser chooser(
        [](int threads) { Runtime::setThreads(threads); },
        [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); });
    return chooser;
}

BlasThreadChooser::BlasThreadChooser(SetThreads set, Clock clock) : set_(std::move(set)), clock_(std::move(clock)) {}

void BlasThreadChooser::enable(int maxThreads) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (maxThreads == maxThreads_.load()) return;  // what it has learnt still holds
    maxThreads_ = maxThreads;
    kinds_.clear();
    applied_ = 0;
    lastProbe_ = -1e300;
    probeLeft_ = 0;
}

std::string BlasThreadChooser::kindOf(const std::string& method, long long inputElements) {
    int power = 0;
    while (power < 62 && (1LL << (power + 1)) <= inputElements) ++power;
    return method + "/2^" + std::to_string(power);
}

int BlasThreadChooser::bestIndex(double now) const {
    // What one thread costs more than maxThreads, summed over the kinds timed at both counts,
    // each weighted by how often it has run lately. Untried: maxThreads.
    double extra = 0;
    for (const auto& [name, k] : kinds_)
        if (!k.samples[0].empty() && !k.samples[1].empty())
            extra += k.weight * std::exp(-(now - k.lastCall) / kWeightSeconds) * (median(k.samples[0]) - median(k.samples[1]));
    return extra >= 0 ? 1 : 0;
}

BlasThreadChooser::Call BlasThreadChooser::call(const std::string& method, long long inputElements) {
    const int maxThreads = maxThreads_.load();
    if (maxThreads <= 1 || callDepth > 0) return Call(nullptr, std::string(), 0, 0.0);
    std::string name = kindOf(method, inputElements);
    int threads = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const double now = clock_();
        Kind& kind = kinds_[name];
        kind.weight = kind.weight * std::exp(-(now - kind.lastCall) / kWeightSeconds) + 1.0;
        kind.lastCall = now;
        bool timed = kind.calls++ >= kWarmUpCalls;  // a kind's first calls allocate: not timed
        int index = 0;
        if (probeLeft_ > 0) {
            index = probeIndex_;
            --probeLeft_;
        } else {
            index = bestIndex(now);
            // Probes cost calls on the worse count: for long calls (an attribution pass) fewer of them.
            if (now - lastProbe_ >= std::max(kProbeIntervalSeconds, kProbeSpacing * lastSeconds_)) {
                lastProbe_ = now;
                probeIndex_ = 1 - index;
                probeLeft_ = kProbeCalls - 1;
                index = probeIndex_;
            }
        }
        threads = index == 0 ? 1 : maxThreads;
        // Setting OpenBLAS's count is not free (~0.2 ms) and the call after it runs slow (threads
        // wake, caches refill): set only on a change, and do not time that call, or the count
        // not in use would always look worse than it is.
        if (threads != applied_) {
            set_(threads);
            applied_ = threads;
            timed = false;
        }
        if (!timed) name.clear();
    }
    ++callDepth;
    return Call(this, std::move(name), threads, clock_());
}

void BlasThreadChooser::record(const std::string& name, int threads, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = kinds_.find(name);
    if (found == kinds_.end()) return;  // enable() started afresh meanwhile
    lastSeconds_ = seconds;
    auto& samples = found->second.samples[threads == 1 ? 0 : 1];
    samples.push_back(seconds);
    if (samples.size() > static_cast<size_t>(kSamples)) samples.erase(samples.begin());
}

BlasThreadChooser::Call::Call(BlasThreadChooser* chooser, std::string kind, int threads, double start)
    : chooser_(chooser), kind_(std::move(kind)), threads_(threads), start_(start) {}

BlasThreadChooser::Call::Call(Call&& other) noexcept
    : chooser_(other.chooser_), kind_(std::move(other.kind_)), threads_(other.threads_), start_(other.start_) {
    other.chooser_ = nullptr;
}

BlasThreadChooser::Call::~Call() {
    if (!chooser_) return;
    --callDepth;
    if (!kind_.empty()) chooser_->record(kind_, threads_, chooser_->clock_() - start_);
}

}  // namespace alignscope::core
