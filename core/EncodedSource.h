#pragma once
// Core-internal (LibTorch types): a source sentence encoded once, shared by every search over it.
#include "core/Model.h"
#include "core/TorchModel.h"

namespace alignscope::core {

class EncodedSource {
public:
    // Encodes `sentence` (ids ending in </s>) with `model`, batch 1.
    EncodedSource(Model model, TokenizedSentence sentence);

    const Model& model() const { return model_; }
    const TokenizedSentence& sentence() const { return sentence_; }
    const EncoderOutput& output() const { return output_; }  // batch 1
    int64_t length() const { return static_cast<int64_t>(sentence_.size()); }  // S

private:
    Model model_;
    TokenizedSentence sentence_;
    EncoderOutput output_;
};

}  // namespace alignscope::core
