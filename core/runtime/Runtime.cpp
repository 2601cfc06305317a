#include "core/runtime/Runtime.h"

#include "core/runtime/BlasKernels.h"
#include "core/platform/InstallLayout.h"

#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/torch.h>

#include <dlfcn.h>
#include <malloc.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace alignscope::core {

namespace {

// OpenBLAS's thread controls, when the BLAS behind libblas.so.3 is OpenBLAS.
using SetThreads = void (*)(int);
using GetThreads = int (*)();
// Looked up once: a lookup searches every loaded library, and BlasThreadChooser sets threads per model call.
SetThreads blasSetThreads() {
    static const auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    return set;
}
GetThreads blasGetThreads() {
    static const auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    return get;
}

}  // namespace

void Runtime::initialize() {
    static std::once_flag once;
    std::call_once(once, [] {
        torch::set_num_threads(1);
        BlasKernels::repair();  // before the first matrix product
    });
    // The optimiser switch is thread-local in LibTorch: every thread that runs a model turns it
    // off on first use, or a decoding thread would compute other bits than the main thread.
    thread_local bool threadReady = false;
    if (!threadReady) {
        torch::jit::setGraphExecutorOptimize(false);
        threadReady = true;
    }
}

void Runtime::setThreads(int threads) {
    initialize();
    if (threads <= 0) return;
    if (auto set = blasSetThreads()) set(threads);
    else torch::set_num_threads(threads);  // not OpenBLAS: LibTorch's pool is the only one
}

void Runtime::reuseFreedMemory() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

int Runtime::threads() {
    if (auto get = blasGetThreads()) return get();
    return torch::get_num_threads();
}

std::string Runtime::blasDescription() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const auto pos = line.find('/');
        if (pos == std::string::npos) continue;
        const std::string path = line.substr(pos);
        if (path.find("libblas.so") == std::string::npos && path.find("libopenblas") == std::string::npos &&
            path.find("libmkl") == std::string::npos)
            continue;
        std::error_code ec;
        const auto real = std::filesystem::canonical(path, ec).string();
        const auto& p = ec ? path : real;
        if (p.find("openblas") != std::string::npos) {
            const auto repair = BlasKernels::repairNote();
            return "OpenBLAS (" + p + "), " + BlasKernels::name() + " kernels" + (repair.empty() ? "" : " (" + repair + ")");
        }
        if (p.find("mkl") != std::string::npos) return "MKL (" + p + ")";
        if (p.find("/blas/") != std::string::npos) return "reference BLAS (" + p + ") - slow; install libopenblas0-pthread";
        return p;
    }
    return "unknown (no BLAS library mapped yet)";
}

std::string Runtime::modelsDirectory() { return InstallLayout::modelsDirectory(); }

std::string Runtime::defaultModelPath() { return (std::filesystem::path(modelsDirectory()) / "en-fr-subword.pt").string(); }

std::string Runtime::version() { return ALIGNSCOPE_VERSION; }

}  // namespace alignscope::core
