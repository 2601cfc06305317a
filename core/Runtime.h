#pragma once
#include <string>

namespace alignscope::core {

// Process-wide LibTorch settings and where things are. Call initialize() (or any model load)
// before using models; configure threads from the main thread before work starts.
class Runtime {
public:
    // Idempotent: switches the TorchScript graph optimiser off, so a method computes the same
    // bits on its first and its hundredth call (stepping back and forward is bit-identical).
    static void initialize();
    static void setThreads(int threads);  // intra-op threads; 0 keeps the current number
    static int threads();
    // Which BLAS LibTorch is using, read from the libraries mapped into this process.
    static std::string blasDescription();
    // Folder of the bundled models: $ALIGNSCOPE_MODELS, else the source tree's models/.
    static std::string modelsDirectory();
    // The bundled default model (en-fr.pt in modelsDirectory()).
    static std::string defaultModelPath();
    static std::string version();
};

}  // namespace alignscope::core
