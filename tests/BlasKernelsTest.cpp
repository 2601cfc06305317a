// core::BlasKernels: which of OpenBLAS's kernel sets a CPU gets, and switching between them.
#include "core/runtime/BlasKernels.h"
#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <vector>

namespace alignscope::core {
namespace {

using Cpu = BlasKernels::Cpu;

TEST(BlasKernelsTest, AFallbackWithoutAvx2IsReplacedByWhatTheCpuCanRun) {
    const Cpu avx512{true, true, true}, avx2{true, true, false}, sse{false, false, false};
    EXPECT_EQ(BlasKernels::better("Prescott", avx512), "SkylakeX");  // the Intel Xeon model 207 case
    EXPECT_EQ(BlasKernels::better("Prescott", avx2), "Haswell");
    EXPECT_EQ(BlasKernels::better("Nehalem", avx2), "Haswell");
    EXPECT_EQ(BlasKernels::better("sandybridge", avx512), "SkylakeX");        // OpenBLAS compares without case
    EXPECT_EQ(BlasKernels::better("Prescott", sse), "");                      // a CPU that has nothing better
    EXPECT_EQ(BlasKernels::better("Prescott", Cpu{true, false, false}), "");  // AVX2 without FMA
}

TEST(BlasKernelsTest, AvxTwoAndNewerPicksAreKept) {
    const Cpu avx512{true, true, true};
    for (const char* picked : {"Haswell", "Zen", "SkylakeX", "Cooperlake", "SapphireRapids", "Excavator", "", "POWER9"})
        EXPECT_EQ(BlasKernels::better(picked, avx512), "") << picked;
}

// C = A B^T with OpenBLAS's sgemm, as LibTorch's linear layers call it.
using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);

std::vector<float> product(Sgemm sgemm, const std::vector<float>& a, const std::vector<float>& b, int n, int m, int k) {
    std::vector<float> c(static_cast<size_t>(n) * m);
    sgemm(101 /* row-major */, 111 /* A as it is */, 112 /* B transposed */, n, m, k, 1.0f, a.data(), k, b.data(), k, 0.0f, c.data(), m);
    return c;
}

// Switching the kernels at run time takes effect, computes the same products, and switches back.
TEST(BlasKernelsTest, SwitchingKernelsKeepsTheProducts) {
    Runtime::initialize();
    const std::string before = BlasKernels::name();
    if (before.empty()) GTEST_SKIP() << "the BLAS is not OpenBLAS: " << Runtime::blasDescription();
    const auto sgemm = reinterpret_cast<Sgemm>(dlsym(RTLD_DEFAULT, "cblas_sgemm"));
    ASSERT_NE(sgemm, nullptr);
    const Cpu cpu = BlasKernels::thisCpu();
    const std::string other = before == "Haswell" ? (cpu.avx512 ? "SkylakeX" : "Prescott") : "Haswell";
    if (other == "Haswell" && !(cpu.avx2 && cpu.fma)) GTEST_SKIP() << "this CPU runs no kernels but " << before;

    const int n = 48, m = 300, k = 256;  // a batch of rows against a weight matrix, as a decoder step
    std::vector<float> a(static_cast<size_t>(n) * k), b(static_cast<size_t>(m) * k);
    for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37f * static_cast<float>(i));
    for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.11f * static_cast<float>(i));
    const auto expected = product(sgemm, a, b, n, m, k);

    const char* env = std::getenv("OPENBLAS_CORETYPE");
    const std::string envBefore = env ? env : "(unset)";
    ASSERT_TRUE(BlasKernels::use(other));
    EXPECT_EQ(BlasKernels::name(), other);
    env = std::getenv("OPENBLAS_CORETYPE");
    EXPECT_EQ(env ? env : "(unset)", envBefore) << "the environment is restored";
    const auto switched = product(sgemm, a, b, n, m, k);
    ASSERT_TRUE(BlasKernels::use(before));
    EXPECT_EQ(BlasKernels::name(), before);
    for (size_t i = 0; i < expected.size(); ++i)
        ASSERT_NEAR(switched[i], expected[i], 1e-4f * (1.0f + std::abs(expected[i]))) << "element " << i;
}

// The repair as it runs on a host where OpenBLAS falls back to Prescott (here forced to it first).
TEST(BlasKernelsTest, AFallbackToPrescottIsSwitchedToTheCpusKernels) {
    Runtime::initialize();
    const std::string before = BlasKernels::name();
    if (before.empty()) GTEST_SKIP() << "the BLAS is not OpenBLAS: " << Runtime::blasDescription();
    const std::string expected = BlasKernels::better("Prescott", BlasKernels::thisCpu());
    if (expected.empty()) GTEST_SKIP() << "this CPU has neither AVX2 and FMA nor AVX-512";

    ASSERT_TRUE(BlasKernels::use("Prescott"));
    const std::string note = BlasKernels::switchToBetter();
    EXPECT_EQ(BlasKernels::name(), expected);
    EXPECT_EQ(note, "OpenBLAS picked Prescott, older than this CPU; switched to " + expected);
    EXPECT_EQ(BlasKernels::switchToBetter(), "") << "nothing more to do";
    ASSERT_TRUE(BlasKernels::use(before));
}

}  // namespace
}  // namespace alignscope::core
