#include "core/decoding/EncodedSource.h"

namespace alignscope::core {

EncodedSource::EncodedSource(Model model, TokenizedSentence sentence) : model_(std::move(model)), sentence_(std::move(sentence)) {
    torch::InferenceMode guard;
    const auto n = static_cast<int64_t>(sentence_.ids.size());
    auto src = torch::from_blob(sentence_.ids.data(), {1, n}, torch::kLong).clone();
    output_ = model_.torch().encode(src, torch::full({1}, n, torch::kLong));
    if (model_.attendsPadding()) {
        // alpha has one more column, the model's own padding: the sentence gets a column to match.
        sentence_.tokens.push_back(Model::kPaddingColumn);
        sentence_.ids.push_back(-1);
        sentence_.unknown.push_back(false);
        sentence_.words.push_back(-1);
        sentence_.offsets.emplace_back(0, 0);
    }
}

}  // namespace alignscope::core
