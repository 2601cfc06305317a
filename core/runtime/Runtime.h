#pragma once
#include <string>

namespace alignscope::core {

// Process-wide LibTorch settings and where things are. Call initialize() (or any model load)
// before using models; configure threads from the main thread before work starts.
class Runtime {
public:
    // Cheap and idempotent, called on every model use: switches the TorchScript graph optimiser
    // off for the calling thread, so a method computes the same bits on its first and its
    // hundredth call and on any thread (stepping back and forward is bit-identical).
    static void initialize();
    // Threads for matrix products (OpenBLAS's pool); LibTorch's own intra-op pool is kept at 1.
    // Measured on 2 cores: both pools at 2 spin against each other and run a training batch
    // 5-20x slower than OpenBLAS at 2 with LibTorch at 1. 0 keeps the current setting.
    static void setThreads(int threads);
    static int threads();  // BLAS threads when the BLAS says, else LibTorch's
    // For training and the command-line tool: keep freed memory in the process for the next use.
    // A training update, or a decoder step over a batch, allocates and frees the same large
    // tensors every time; by default glibc maps blocks over its (adaptive) mmap threshold afresh
    // and hands the heap's free top back to the kernel, so every update page-faults its buffers in
    // again (docs/performance.md, "Why the code is as it is"). Blocks under 32 MB (glibc's largest
    // threshold) come from the heap, and up to 512 MB of free heap is kept. Process-wide and
    // permanent; not for the GUI, whose memory should shrink.
    static void reuseFreedMemory();
    // Which BLAS LibTorch is using, read from the libraries mapped into this process.
    static std::string blasDescription();
    // Folder of the bundled models: $ALIGNSCOPE_MODELS, else models/ of the data folder
    // (InstallLayout: share/alignscope beside the program).
    static std::string modelsDirectory();
    // The bundled default model (en-fr-subword.pt in modelsDirectory()).
    static std::string defaultModelPath();
    static std::string version();
};

}  // namespace alignscope::core
