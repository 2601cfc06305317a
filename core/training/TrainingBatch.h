#pragma once
// Core-internal (LibTorch tensors): what one call of a model's `loss` takes. The trainer and the
// training benchmark build their batches here, so both feed `loss` the same way.
#include <torch/script.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <cstdint>
#include <vector>

namespace alignscope::core {

struct TrainingBatch {
    torch::Tensor src;          // [B,S] long, source ids ending with </s>, 0-padded
    torch::Tensor srcLen;       // [B]   long, tokens of each source, </s> included
    torch::Tensor tgtIn;        // [B,T] long, <s> then the target, 0-padded
    torch::Tensor tgtOut;       // [B,T] long, the target then </s>, 0-padded
    int64_t targetTokens = 0;   // real target tokens, </s> included (padding not counted)

    // `sources` end with </s>; `targets` have neither <s> nor </s> (both are added). Same size.
    static TrainingBatch make(const std::vector<std::vector<int64_t>>& sources,
                              const std::vector<std::vector<int64_t>>& targets);

    // One update on this batch: the model's TorchScript `loss` (mean over real target tokens),
    // backward, the gradient norm capped at `clipNorm` (0: no cap), one optimizer step. Returns the
    // batch's NLL per target token (before the update).
    double train(torch::jit::Module& model, torch::optim::Optimizer& optimizer,
                 const std::vector<torch::Tensor>& parameters, double dropout, double labelSmoothing,
                 double clipNorm) const;
};

}  // namespace alignscope::core
