#include "core/runtime/BlasKernels.h"

#include <dlfcn.h>
#include <strings.h>

#include <array>
#include <cstdlib>
#include <mutex>
#include <optional>

namespace alignscope::core {

namespace {

using CoreName = char* (*)();
using Hook = void (*)();

// OpenBLAS's functions, found in the libraries LibTorch mapped; null when the BLAS is not OpenBLAS.
struct OpenBlas {
    CoreName coreName = nullptr;
    Hook dynamicQuit = nullptr;
    Hook dynamicInit = nullptr;
};

const OpenBlas& openBlas() {
    static const OpenBlas blas{reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename")),
                               reinterpret_cast<Hook>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_quit")),
                               reinterpret_cast<Hook>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_init"))};
    return blas;
}

// OpenBLAS's x86-64 kernel sets that use neither AVX2 nor AVX-512 (its corename strings).
constexpr std::array<const char*, 14> kWithoutAvx2 = {"Prescott", "Core2",       "Penryn",    "Dunnington", "Nehalem",
                                                      "Atom",     "Nano",        "Barcelona", "Opteron",    "Opteron_SSE3",
                                                      "Bobcat",   "Sandybridge", "Bulldozer", "Piledriver"};

std::string& note() {
    static std::string text;
    return text;
}

}  // namespace

BlasKernels::Cpu BlasKernels::thisCpu() {
    Cpu cpu;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();  // the builtins below also check that the OS saves the wider registers
    cpu.avx2 = __builtin_cpu_supports("avx2");
    cpu.fma = __builtin_cpu_supports("fma");
    cpu.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
                 __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#endif
    return cpu;
}

std::string BlasKernels::name() {
    const auto coreName = openBlas().coreName;
    if (!coreName) return {};
    const char* text = coreName();
    return text ? text : "";
}

std::string BlasKernels::better(const std::string& picked, const Cpu& cpu) {
    bool old = false;
    for (const char* kernels : kWithoutAvx2) old = old || strcasecmp(picked.c_str(), kernels) == 0;
    if (!old) return {};
    if (cpu.avx512) return "SkylakeX";
    if (cpu.avx2 && cpu.fma) return "Haswell";
    return {};
}

bool BlasKernels::use(const std::string& kernels) {
    const auto& blas = openBlas();
    if (!blas.coreName || !blas.dynamicQuit || !blas.dynamicInit) return false;
    const char* before = std::getenv("OPENBLAS_CORETYPE");
    const std::optional<std::string> saved = before ? std::optional<std::string>(before) : std::nullopt;
    setenv("OPENBLAS_CORETYPE", kernels.c_str(), 1);
    blas.dynamicQuit();
    blas.dynamicInit();  // reads OPENBLAS_CORETYPE, sets the kernels and their block sizes
    if (saved) setenv("OPENBLAS_CORETYPE", saved->c_str(), 1);
    else unsetenv("OPENBLAS_CORETYPE");
    return strcasecmp(name().c_str(), kernels.c_str()) == 0;
}

void BlasKernels::repair() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (!std::getenv("OPENBLAS_CORETYPE")) note() = switchToBetter();
    });
}

std::string BlasKernels::switchToBetter() {
    const std::string picked = name();
    const std::string kernels = better(picked, thisCpu());
    if (kernels.empty()) return {};
    if (use(kernels)) return "OpenBLAS picked " + picked + ", older than this CPU; switched to " + kernels;
    use(picked);  // OpenBLAS refused the name: back to its own pick
    return {};
}

std::string BlasKernels::repairNote() { return note(); }

}  // namespace alignscope::core
