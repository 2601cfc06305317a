#include "core/EncodedSource.h"

namespace alignscope::core {

EncodedSource::EncodedSource(Model model, TokenizedSentence sentence)
    : model_(std::move(model)), sentence_(std::move(sentence)) {
    torch::InferenceMode guard;
    const auto n = static_cast<int64_t>(sentence_.ids.size());
    auto src = torch::from_blob(sentence_.ids.data(), {1, n}, torch::kLong).clone();
    output_ = model_.torch().encode(src, torch::full({1}, n, torch::kLong));
}

}  // namespace alignscope::core
