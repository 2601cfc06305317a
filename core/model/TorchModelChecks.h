#pragma once
#include "ModelCheckLimits.h"  // generated from python/alignscope/model_checks.json
// Checks and messages that TorchModel's three parts share: its loading (TorchModelLoading.cpp),
// its contract check (TorchModelContract.cpp) and its calls (TorchModel.cpp). Internal to core/model.
#include <torch/torch.h>

#include <exception>
#include <string>

namespace alignscope::core::torch_model {

// The whole of an error's message (a TorchScript error's cause is on its last lines), without
// LibTorch's C++ backtrace.
inline std::string wholeMessage(const std::exception& e) {
    const auto* c10error = dynamic_cast<const c10::Error*>(&e);
    std::string why = c10error ? c10error->what_without_backtrace() : e.what();
    while (!why.empty() && std::isspace(static_cast<unsigned char>(why.back()))) why.pop_back();
    return why;
}

// The line that says what went wrong: a TorchScript error ends with its cause ("RuntimeError: ...")
// after the traceback.
inline std::string causeOf(const std::exception& e) {
    const std::string whole = wholeMessage(e);
    const auto end = whole.find_last_not_of(" \n");
    if (end == std::string::npos) return "no reason given";
    const auto start = whole.rfind('\n', end);
    return whole.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

inline std::string shapeOf(const torch::Tensor& t) {
    std::ostringstream os;
    os << t.sizes();
    return os.str();
}

// Finite-value checks in one pass over a float tensor, without the temporaries LibTorch's isfinite
// and all() allocate (every weight at load, a fifth of a command's start-up; states, alphas and
// contexts at every step). Other types and layouts go through LibTorch's ops.
inline bool plainFloat(const torch::Tensor& t) { return t.scalar_type() == torch::kFloat && t.is_contiguous(); }

inline int64_t countNonFinite(const torch::Tensor& t) {
    if (!plainFloat(t)) return (~torch::isfinite(t)).sum().item<int64_t>();
    const float* v = t.data_ptr<float>();
    int64_t bad = 0;
    for (int64_t i = 0, n = t.numel(); i < n; ++i) bad += !std::isfinite(v[i]);
    return bad;
}

inline bool allFinite(const torch::Tensor& t) { return countNonFinite(t) == 0; }

// -inf is a fair log-probability or logit (a token the model rules out); NaN, +inf or a row with
// nothing finite is not: exactly the rows whose maximum (which propagates NaN) is not finite. One
// reduction: isnan, isposinf and isfinite().any() over [B,V] took 8 ms a step for a beam of 5 x 32
// sentences. `maxima` [B]: the rows' amax.
inline bool soundRows(const torch::Tensor& maxima) { return torch::isfinite(maxima).all().item<bool>(); }

// Bounds on metadata max_length and max_source_length.
inline constexpr int64_t kMinDeclaredLength = model_checks::kMinDeclaredLength;
inline constexpr int64_t kMaxDeclaredLength = model_checks::kMaxDeclaredLength;

// " at step N" for messages; nothing for 0 (no step number given).
inline std::string atStep(int64_t stepNumber) { return stepNumber > 0 ? " at step " + std::to_string(stepNumber) : std::string(); }

// Casts the floating tensors only: an integer buffer (a converted model's id map, say) keeps its
// type, which Module::to(dtype) would not. Files may store float16 weights; compute is float32.
inline void castFloating(torch::jit::Module& module, torch::ScalarType type) {
    torch::NoGradGuard noGrad;
    for (auto m : module.modules())
        for (const auto& a : m.named_attributes(/*recurse=*/false)) {
            if (!a.value.isTensor()) continue;
            const auto t = a.value.toTensor();
            if (!t.defined() || !t.is_floating_point() || t.scalar_type() == type) continue;
            m.setattr(a.name, t.to(type).detach().requires_grad_(t.requires_grad()));
        }
}

}  // namespace alignscope::core::torch_model
