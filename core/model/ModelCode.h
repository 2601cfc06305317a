#pragma once
// Core-internal (LibTorch types).
#include "core/model/ModelSpec.h"

#include <torch/script.h>

#include <string>

namespace alignscope::core {

// The TorchScript methods of AlignScope's own models (encode, step, loss and their helpers): the
// text of python/alignscope/model_code.py below its marker line, embedded at build time, so C++
// and Python compile the same code.
const std::string& modelCodeSource();

// Compiles the methods onto `module`, which holds the weights already, with the architecture
// constants of `spec` (lstm, bidirectional, attention_*, tied) written in as literals.
void defineModelCode(torch::jit::Module& module, const ModelSpec& spec);

}  // namespace alignscope::core
