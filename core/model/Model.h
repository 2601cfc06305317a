#pragma once
#include "core/model/ArchitectureSummary.h"
#include "core/text/TokenizedSentence.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

class TorchModel;

// A loaded model whose file met the contract of docs/model-format.md. A cheap handle: copies share
// one immutable model, and any number of sessions may use it, from any threads.
class Model {
public:
    static constexpr size_t kMaxSourceTokens = 1000;  // longer input is refused with a message

    // Throws Error with a message for the user: missing, unreadable, corrupt or non-conforming file.
    static Model load(const std::string& path);
    explicit Model(std::shared_ptr<TorchModel> model);

    std::string name() const;           // metadata "name", else the file name
    const std::string& origin() const;  // file path it was loaded from
    const nlohmann::json& metadata() const;
    // The model of the other direction this one declares (metadata "reverse_model": a file name
    // beside this file), for the rules that join two directions; empty when none is declared.
    // Throws Error naming this file when the entry is not a plain file name.
    std::string reverseModelPath() const;
    const Vocabulary& sourceVocabulary() const;
    const Vocabulary& targetVocabulary() const;
    const Tokenizer& sourceTokenizer() const;
    const Tokenizer& targetTokenizer() const;
    int64_t encoderOutputSize() const;  // E
    int64_t stateSize() const;          // D
    int64_t parameterCount() const;
    // "name: k of n values are NaN or infinite" per parameter; empty for a sound model.
    const std::vector<std::string>& nonFiniteWeights() const;
    bool attentionIsUniform() const;                            // models without attention report uniform alpha
    ArchitectureSummary architecture() const;                   // what the metadata declares, for panels
    int64_t formatVersion() const;                              // of the file: 1 or 2
    int64_t maxLength() const;                                  // decoder steps the file declares (0: none declared)
    bool encodesEmbedded() const;                               // has embed_source / encode_embedded: gradient attributions work
    bool attendsPadding() const;                                // alpha rows end with one column: the model's own padding
    static constexpr const char* kPaddingColumn = "<padding>";  // that column's label
    // Whether a session's source columns end with that column (every view asks before treating the
    // last column as a source token).
    static bool endsWithPaddingColumn(const std::vector<std::string>& sourceTokens) {
        return !sourceTokens.empty() && sourceTokens.back() == kPaddingColumn;
    }

    // Throws Error for invalid UTF-8, more tokens than the model takes (kMaxSourceTokens, or its
    // declared max_source_length), or a token outside a vocabulary that has no unknown-word token.
    // Ends with the source eos where the model's sources have one.
    TokenizedSentence tokenizeSource(const std::string& text) const;
    TokenizedSentence tokenizeTarget(const std::string& text) const;
    // Readable text of target ids (eos, bos and padding dropped), by the target tokenizer's decoder.
    std::string detokenize(const std::vector<int64_t>& targetIds) const;
    // [T] for each target id, the word of detokenize(targetIds) it is written in; -1 for </s>.
    std::vector<int> targetWords(const std::vector<int64_t>& targetIds) const;

    void save(const std::string& path, bool half = false) const;

    const TorchModel& torch() const { return *model_; }  // core-internal
    const std::shared_ptr<TorchModel>& torchShared() const { return model_; }

private:
    bool isWritten(int64_t targetId) const;  // false for the target's eos, bos and pad

    std::shared_ptr<TorchModel> model_;
};

}  // namespace alignscope::core
