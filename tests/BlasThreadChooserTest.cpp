#include "core/runtime/BlasThreadChooser.h"

#include <gtest/gtest.h>

using namespace alignscope;

namespace {

// A machine where one call costs `cost[threads]` seconds, on a clock that only calls move.
struct FakeMachine {
    double now = 0;
    double cost1 = 0, costMax = 0;
    std::vector<int> applied;  // every count the chooser set
    core::BlasThreadChooser chooser{[this](int t) { applied.push_back(t); }, [this] { return now; }};

    int call(const char* method = "step", long long elements = 8000) {
        auto c = chooser.call(method, elements);
        now += c.threads() == 1 ? cost1 : costMax;
        return c.threads();
    }
    int callsOn(int threads, int calls) {
        int n = 0;
        for (int i = 0; i < calls; ++i) n += call() == threads;
        return n;
    }
};

}  // namespace

TEST(BlasThreadChooser, RunsTheFasterCountAndNoticesTheMachineGettingBusyAndQuietAgain) {
    FakeMachine m;
    m.chooser.enable(2);
    // Quiet (the Zen 4 host's decoder step): two threads 3x faster.
    m.cost1 = 0.87e-3, m.costMax = 0.29e-3;
    for (int i = 0; i < core::BlasThreadChooser::kWarmUpCalls; ++i) m.call();  // a first probe, on 1
    EXPECT_GE(m.callsOn(2, 20), 18);                                           // its last call on 1, then 2
    // Another process takes the second core: two threads now 2x slower; within kSamples calls it runs on 1.
    m.cost1 = 1.15e-3, m.costMax = 2.4e-3;
    m.callsOn(1, core::BlasThreadChooser::kSamples);
    EXPECT_EQ(m.callsOn(1, 50), 50);  // well under a second: no probe
    // Quiet again: a probe a second, its first call untimed (it pays for the change), two timed.
    m.cost1 = 0.87e-3, m.costMax = 0.29e-3;
    m.now += core::BlasThreadChooser::kProbeIntervalSeconds;
    for (int i = 0; i < core::BlasThreadChooser::kProbeCalls; ++i) EXPECT_EQ(m.call(), 2) << "probe call " << i;
    EXPECT_EQ(m.callsOn(2, 50), 50);
}

TEST(BlasThreadChooser, OneCountForAllKindsAndOffMeansTheCallersCount) {
    // OpenBLAS takes about a step's time to change its count: every kind runs with the count the
    // kinds' times favour together, a new kind too.
    FakeMachine m;
    m.chooser.enable(4);
    m.cost1 = 1e-3, m.costMax = 3e-3;  // one thread faster here
    for (int i = 0; i < 10; ++i) m.call("step", 8000);
    EXPECT_EQ(m.call("step", 8000), 1);
    EXPECT_EQ(m.call("step", 8100), 1);  // same power of two: the same kind
    for (int i = 0; i < 5; ++i) EXPECT_EQ(m.call("encode", 40000), 1) << "a new kind runs on the count in force";
    EXPECT_EQ(m.callsOn(1, 20), 20);
    const auto switches = m.applied.size();
    for (int i = 0; i < 20; ++i) m.call("step", 8000), m.call("encode", 40000);
    EXPECT_EQ(m.applied.size(), switches) << "no change of count between kinds";
    EXPECT_EQ(core::BlasThreadChooser::kindOf("step", 8000), "step/2^12");
    EXPECT_EQ(core::BlasThreadChooser::kindOf("encode", 1), "encode/2^0");

    {
        auto outer = m.chooser.call("integrated-gradients", 5000);
        const auto before = m.applied.size();
        EXPECT_EQ(m.chooser.call("step", 8000).threads(), 0) << "nested: runs on the outer call's count, untimed";
        EXPECT_EQ(m.applied.size(), before);
    }
    EXPECT_NE(m.chooser.call("step", 8000).threads(), 0) << "after the outer call, timed again";

    m.chooser.enable(1);
    m.applied.clear();
    EXPECT_EQ(m.call(), 0);
    EXPECT_TRUE(m.applied.empty()) << "off: the count the caller set stands";
}
