#include "cli/DecodingModel.h"

#include "core/runtime/Runtime.h"

#include <iostream>

namespace alignscope::cli {

core::Model loadDecodingModel(const std::string& path, int maxLengthOption) {
    auto model = core::Model::load(path.empty() ? core::Runtime::defaultModelPath() : path);
    if (model.targetVocabulary().eos() < 0) {
        const std::string cap = maxLengthOption > 0     ? std::to_string(maxLengthOption) + " tokens (--max-len)"
                                : model.maxLength() > 0 ? std::to_string(model.maxLength()) + " tokens (its max_length)"
                                                        : std::string("2 x source + 10 tokens");
        std::cerr << "note: the model '" << model.origin()
                  << "' has no end-of-sentence token in its target vocabulary: every translation runs to its cap of " << cap << '\n';
    }
    return model;
}

}  // namespace alignscope::cli
