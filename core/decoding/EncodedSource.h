#pragma once
// Core-internal (LibTorch types): a source sentence encoded once, shared by every search over it.
#include "core/model/Model.h"
#include "core/model/TorchModel.h"

namespace alignscope::core {

class EncodedSource {
public:
    // Encodes `sentence` (ids as Model::tokenizeSource gives them) with `model`, batch 1.
    EncodedSource(Model model, TokenizedSentence sentence);

    const Model& model() const { return model_; }
    const TokenizedSentence& sentence() const { return sentence_; }
    const EncoderOutput& output() const { return output_; }  // batch 1
    // S: the columns of alpha (the source tokens, and the padding column of a model that attends its padding).
    int64_t length() const { return static_cast<int64_t>(sentence_.size()); }

private:
    Model model_;
    TokenizedSentence sentence_;
    EncoderOutput output_;
};

}  // namespace alignscope::core
