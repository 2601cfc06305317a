// Process-wide settings of core::Runtime that change what the process does, checked by their effect.
#include "core/Runtime.h"

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

// What a training update does to memory: large tensors alive together, written, freed together.
void updateLikeAllocations() {
    std::vector<torch::Tensor> alive;
    for (int i = 0; i < 3; ++i) alive.push_back(torch::empty({4 << 20}).fill_(1.0f));  // 16 MB each
}

// With glibc's defaults the freed 48 MB go back to the kernel and every update faults 3 x 4,096
// pages in again, however long it runs; after reuseFreedMemory updates get memory the heap already
// has. (glibc 2.36 grows the heap for a few rounds first: LibTorch allocates with posix_memalign,
// whose large freed blocks are reused only once the heap has room beside them.)
TEST(RuntimeTest, TrainingReusesFreedMemoryInsteadOfFaultingItInAgain) {
    Runtime::reuseFreedMemory();
    for (int i = 0; i < 10; ++i) updateLikeAllocations();
    const long before = minorPageFaults();
    for (int i = 0; i < 5; ++i) updateLikeAllocations();
    EXPECT_LT(minorPageFaults() - before, 1000) << "freed memory went back to the kernel and was faulted in again";
}

}  // namespace
}  // namespace alignscope::core
