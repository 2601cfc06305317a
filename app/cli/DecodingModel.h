#pragma once
#include "core/model/Model.h"

#include <string>

namespace alignscope::cli {

// The model a decoding command (translate, align, trace, export, evaluate, compare) loads: `path`,
// or the bundled default when empty. A model whose target vocabulary has no end-of-sentence token
// writes every translation to its length cap (the option, its max_length, else 2 x source + 10):
// the command says so once, on stderr, rather than on every line. Throws core::Error as Model::load.
core::Model loadDecodingModel(const std::string& path, int maxLengthOption = 0);

}  // namespace alignscope::cli
