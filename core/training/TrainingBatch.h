#pragma once
// Core-internal (LibTorch tensors): what one call of a model's `loss` takes. The trainer and the
// training benchmark build their batches here, so both feed `loss` the same way.
#include "core/training/GuidedAlignment.h"

#include <torch/script.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <cstdint>
#include <vector>

namespace alignscope::core {

struct TrainingBatch {
    torch::Tensor src;         // [B,S] long, source ids ending with </s>, 0-padded
    torch::Tensor srcLen;      // [B]   long, tokens of each source, </s> included
    torch::Tensor tgtIn;       // [B,T] long, <s> then the target, 0-padded
    torch::Tensor tgtOut;      // [B,T] long, the target then </s>, 0-padded
    int64_t targetTokens = 0;  // real target tokens, </s> included (padding not counted)
    torch::Tensor guidance;    // [B,T,S] float, guided alignment: each guided target step's wanted
                               // attention, uniform over its linked source tokens; 0 rows elsewhere
                               // (undefined: no guidance)
    int64_t guidedSteps = 0;   // target steps with guidance

    // `sources` end with </s>; `targets` have neither <s> nor </s> (both are added). Same size.
    // `guides`, when not empty, holds each row's token links (nullptr: that row unguided).
    static TrainingBatch make(const std::vector<std::vector<int64_t>>& sources, const std::vector<std::vector<int64_t>>& targets,
                              const std::vector<const GuidedAlignment::TokenLinks*>& guides = {});

    struct Losses {
        double nllPerToken = 0;            // before the update
        double attentionCrossEntropy = 0;  // guided batches: summed over the guided steps
    };

    // One update on this batch: the model's TorchScript `loss` (mean over real target tokens),
    // or with guidance its `guided_loss` (plus guidedWeight x the attention's cross-entropy
    // against the guidance), backward, the gradient norm capped at `clipNorm` (0: no cap), one
    // optimizer step.
    Losses train(torch::jit::Module& model, torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& parameters,
                 double dropout, double labelSmoothing, double clipNorm, double guidedWeight = 0) const;
};

}  // namespace alignscope::core
