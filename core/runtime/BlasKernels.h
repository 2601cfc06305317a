#pragma once
#include <string>

namespace alignscope::core {

// Which of OpenBLAS's kernel sets runs the matrix products, and a repair where OpenBLAS does not
// know the CPU.
//
// Why: Debian 12's OpenBLAS 0.3.21 (DYNAMIC_ARCH) picks its kernels by the CPU's family and model
// number, not by the instructions the CPU has, so a CPU newer than its table falls back to its
// SSE3 kernels at half the speed (docs/startup.md, "On an Intel Xeon").
class BlasKernels {
public:
    // The instruction sets that decide which kernels a CPU can run.
    struct Cpu {
        bool avx2 = false;
        bool fma = false;
        bool avx512 = false;  // AVX-512 F, CD, BW, DQ and VL, as OpenBLAS's SkylakeX kernels use
    };
    static Cpu thisCpu();

    // OpenBLAS's name of the kernels in use ("SkylakeX", "Haswell", "Prescott"), or empty when the
    // BLAS is not OpenBLAS.
    static std::string name();

    // The kernels to use instead of OpenBLAS's pick `picked` on `cpu`, or empty to keep it: only a
    // pick without AVX2 (the fallback of a CPU OpenBLAS does not know, or an older one) on a CPU
    // with AVX-512 (SkylakeX) or AVX2 and FMA (Haswell). Picks with AVX2 are kept: on an AVX-512
    // CPU, Haswell's kernels ran a one-row product as fast as SkylakeX's (Intel host above).
    static std::string better(const std::string& picked, const Cpu& cpu);

    // Once per process, before its first matrix product (Runtime::initialize calls it):
    // switchToBetter(), unless OPENBLAS_CORETYPE is set (the user's choice).
    static void repair();
    // Switches to better(name(), thisCpu()) if that is not empty; returns what it did, or empty.
    // No matrix product may run meanwhile, on any thread.
    static std::string switchToBetter();
    // What repair() did, for `inspect` and the benchmarks, or empty.
    static std::string repairNote();

    // Switches OpenBLAS to the kernels it calls `kernels` (its OPENBLAS_CORETYPE names), through its
    // own start-up path (gotoblas_dynamic_quit, then gotoblas_dynamic_init with OPENBLAS_CORETYPE
    // set; the environment is restored after). True when name() is `kernels` afterwards. No matrix
    // product may run meanwhile, on any thread.
    static bool use(const std::string& kernels);
};

}  // namespace alignscope::core
