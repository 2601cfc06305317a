#pragma once
#include "core/ModelSpec.h"

#include <string>

namespace alignscope::core {

// The TorchScript code of a model built from `spec`: the methods of the model contract
// (docs/model-format.md: encode, step) plus the training entry point `loss`. The code is stored
// inside the model file, so a model decodes the same way wherever it is loaded.
std::string torchScriptSource(const ModelSpec& spec);

}  // namespace alignscope::core
