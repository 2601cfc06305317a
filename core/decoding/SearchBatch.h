#pragma once
// Core-internal (LibTorch types): the sentences one search steps together.
#include "core/model/TorchModel.h"
#include "core/text/TokenizedSentence.h"

#include <vector>

namespace alignscope::core {

// Sentences encoded together, one row each, padded to the longest (CTranslate2's translate_batch).
struct SearchBatch {
    EncoderOutput encoded;               // [B,...]
    std::vector<int64_t> sourceLengths;  // [B] alpha columns each row keeps (the rest is padding, weight 0)
    std::vector<int> limits;             // [B] most target tokens of each row, </s> included
    // [B] teacher forcing along the row's target (its tokens, then </s>), or null: search freely.
    // Only GreedySearch follows a target (a beam has nothing to search along a given one).
    std::vector<const TokenizedSentence*> targets;

    size_t size() const { return sourceLengths.size(); }
};

}  // namespace alignscope::core
