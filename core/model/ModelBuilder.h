#pragma once
#include "core/model/ModelSpec.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace alignscope::core {

class Model;
class TorchModel;

// Writes a freshly initialised model in the one model format from an architecture description.
// The weights are random (seeded by spec.seed); the trainer fills them.
class ModelBuilder {
public:
    struct Input {
        ModelSpec spec;                                           // architecture
        Vocabulary sourceVocabulary;                              // source tokens, specials first
        Vocabulary targetVocabulary;                              // target tokens, specials first
        Tokenizer sourceTokenizer;                                // how source text becomes tokens
        Tokenizer targetTokenizer;                                // how target text becomes tokens
        std::string name = "untrained";                           // model name shown in tools
        nlohmann::json extraMetadata = nlohmann::json::object();  // merged into the metadata
    };

    // Throws Error for an inconsistent spec.
    static std::shared_ptr<TorchModel> build(const Input& input);

    // The same model with this version's TorchScript code: weights, vocabularies, tokenizers and
    // metadata are `model`'s. The code lives inside each file, so a model trained by an older
    // version keeps that version's code (and speed) until rewritten. Throws Error when `model` has
    // no "architecture" metadata, when its parameters do not match that architecture's, or when
    // the rewritten model's outputs differ from the original's by more than 1e-4 (encode and four
    // steps of a padded batch and of one sentence alone; `loss` on the batch, where both have it).
    static std::shared_ptr<TorchModel> rewriteCode(const TorchModel& model);
    static Model rewriteCode(const Model& model);  // the same, for callers outside core (update-code)
};

}  // namespace alignscope::core
