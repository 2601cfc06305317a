#include "core/training/TrainingOptions.h"

#include <filesystem>

namespace alignscope::core {
namespace fs = std::filesystem;

nlohmann::json TrainingOptions::toJson() const {
    return {{"corpus", corpusName.empty() ? fs::path(corpusPath).filename().string() : corpusName},
            {"corpus_licence", corpusLicence},
            {"max_length", maxLength},
            {"source_min_count", sourceMinCount},
            {"target_min_count", targetMinCount},
            {"source_vocab_size", sourceVocabSize},
            {"target_vocab_size", targetVocabSize},
            {"dropout", dropout},
            {"label_smoothing", labelSmoothing},
            {"batch_size", batchSize},
            {"learning_rate", learningRate},
            {"clip_norm", clipNorm},
            {"epochs", epochs},
            {"max_steps", maxSteps},
            {"seed", seed},
            {"threads", threads},
            {"validation_fraction", validationFraction},
            {"test_fraction", testFraction},
            {"half", half},
            {"snapshots", snapshots},
            {"tokenizer", tokenizer},
            {"pieces", tokenizer == "sentencepiece" ? nlohmann::json(pieces) : nlohmann::json(nullptr)},
            {"joint_pieces", jointPieces},
            {"tokenizer_from", tokenizerFrom.empty() ? nlohmann::json(nullptr) : nlohmann::json(tokenizerFrom)},
            {"init_from", initFrom.empty() ? nlohmann::json(nullptr) : nlohmann::json(initFrom)},
            {"recipe", recipe}};
}

}  // namespace alignscope::core
