#pragma once
// Core-internal (LibTorch types).
#include "core/model/TorchModel.h"

#include <cstdint>
#include <vector>

namespace alignscope::core {

// A batch of encoded sources stepped together along one given target (teacher forcing), every
// row reading the same y_<t. Keeps autograd's graph when the caller's mode records one.
struct ForcedPass {
    std::vector<torch::Tensor> logProbs;  // [steps] of [B]: log p(target[t] | target[<t], row's source)
    std::vector<torch::Tensor> alphas;    // [steps] of [B,S'] (S' = S + 1 where the model attends its padding)

    // Runs steps 0..steps-1 of `targetIds` [T] (steps <= T). With `needed` (ascending step
    // indices), the other steps only advance the state where the model has `advance`, and their
    // logProbs and alphas are left undefined.
    static ForcedPass run(const TorchModel& model, const EncoderOutput& encoded, const std::vector<int64_t>& targetIds, int64_t steps,
                          const std::vector<int>* needed = nullptr);
    // Runs up to the last of `needed` (ascending; empty: no step), the others only advanced.
    static ForcedPass through(const TorchModel& model, const EncoderOutput& encoded, const std::vector<int64_t>& targetIds,
                              const std::vector<int>& needed);
    // One source [S] encoded (batch 1) and run through `needed`, as through() does.
    static ForcedPass ofSource(const TorchModel& model, const std::vector<int64_t>& sourceIds, const std::vector<int64_t>& targetIds,
                               const std::vector<int>& needed);
};

}  // namespace alignscope::core
