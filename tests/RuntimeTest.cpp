// Process-wide settings of core::Runtime that change what the process does, checked by their effect.
#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <sys/resource.h>

#include <vector>

namespace alignscope::core {
namespace {

long minorPageFaults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// What a training update does to memory: many large tensors alive together, written, freed
// together (an en-fr update faulted ~27,000 pages in, about this much).
void updateLikeAllocations() {
    std::vector<torch::Tensor> alive;
    for (int i = 0; i < 12; ++i) alive.push_back(torch::empty({2 << 20}).fill_(1.0f));  // 8 MB each
}

// With glibc's defaults the heap's free top (96 MB here) goes back to the kernel after every
// update and is faulted in again by the next: ~20,000 faults per update, measured. After
// reuseFreedMemory the next update gets memory the heap already has. (The warm-up lets the heap
// reach its size: LibTorch allocates with posix_memalign, whose freed blocks glibc 2.36 reuses
// only once the heap has room beside them.)
TEST(RuntimeTest, TrainingReusesFreedMemoryInsteadOfFaultingItInAgain) {
    Runtime::reuseFreedMemory();
    for (int i = 0; i < 10; ++i) updateLikeAllocations();
    const long before = minorPageFaults();
    for (int i = 0; i < 5; ++i) updateLikeAllocations();
    EXPECT_LT(minorPageFaults() - before, 1000)
        << "freed memory went back to the kernel and was faulted in again (without the setting: ~100,000)";
}

}  // namespace
}  // namespace alignscope::core
