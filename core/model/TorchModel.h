#pragma once
// Core-internal: the LibTorch side of a model. Nothing outside core/ includes this header
// (tests excepted); the public handle is Model.
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include <torch/script.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

// What `encode` returns (docs/model-format.md).
struct EncoderOutput {
    torch::Tensor enc;    // [B,S,E] float, zero on padded positions
    torch::Tensor state;  // [B,D]   initial decoder state
    torch::Tensor mask;   // [B,S]   bool, true on real positions
    torch::Tensor keys;   // [B,...] model-private precomputation, handed back to `step` unchanged
    // Rows `index` of every tensor (beam search reorders and repeats hypotheses this way).
    EncoderOutput select(const torch::Tensor& index) const;
};

// What `step` returns.
struct DecoderOutput {
    torch::Tensor logProbs;                       // [B,V] (stepBest without log-probabilities: undefined)
    std::vector<int64_t> best;                    // [B] stepBest only: each row's most likely token
    torch::Tensor state;                          // [B,D]
    torch::Tensor alpha;                          // [B,S], or [B,S+1] with the model's own padding as the last column (attendsPadding)
    torch::Tensor context;                        // [B,E]
    std::map<std::string, torch::Tensor> extras;  // optional named outputs, first dim B
};

// A loaded TorchScript model whose contract has been checked. Immutable after construction except
// through module() (the trainer's access); encode/step may run from several threads at once.
class TorchModel {
public:
    static constexpr int64_t kFormatVersion = 2;  // v1 files open unchanged

    // Checks the contract; throws Error listing every problem, prefixed by `origin` (a path).
    TorchModel(torch::jit::Module module, std::string origin);
    // Throws Error with a clear message for a missing, unreadable, corrupt or non-conforming file,
    // and for one that crashes, hangs or exhausts LibTorch's reader: the archive is checked first
    // (ModelArchive), then read and probed in a child process with limits (IsolatedRun).
    static std::shared_ptr<TorchModel> load(const std::string& path);

    // Both throw NonFiniteOutput when the model's numbers come out NaN (step: "at step
    // `stepNumber`", counted from 1; 0 leaves it out), Error for a result off the contract.
    EncoderOutput encode(const torch::Tensor& src, const torch::Tensor& srcLen) const;  // [B,S], [B]
    DecoderOutput step(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc, int64_t stepNumber = 0) const;

    // The optional methods embed_source / encode_embedded (docs/model-format.md): gradient
    // attributions differentiate with respect to the source embeddings. Both run with autograd on
    // when the caller's mode has it on.
    bool encodesEmbedded() const { return encodesEmbedded_; }
    torch::Tensor embedSource(const torch::Tensor& src) const;                                // [B,S] -> x [B,S,M]
    EncoderOutput encodeEmbedded(const torch::Tensor& x, const torch::Tensor& srcLen) const;  // [B,S,M], [B]

    // step, and each row's most likely token in `best` (the first of equal maxima, as argmax picks
    // it). With `logProbs` false the distribution may be skipped: a model with the optional method
    // step_logits (docs/model-format.md) returns its scores before log_softmax, and d.logProbs is
    // left undefined. Throws as step does (a row of scores whose maximum is NaN or inf is refused).
    DecoderOutput stepBest(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc, bool logProbs,
                           int64_t stepNumber = 0) const;
    bool stepsLogits() const { return stepsLogits_; }

    // The optional method advance (docs/model-format.md): step's state without log_probs.
    bool advances() const { return advances_; }
    torch::Tensor advance(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc,
                          int64_t stepNumber = 0) const;  // [B], [B,D] -> [B,D]

    // The optional method force_attention (docs/model-format.md): a teacher-forced pass's alphas and
    // decoder states without the output distribution, all steps in one call. yPrev [B,T] holds the
    // token each step reads, lengths [B] each row's steps (at most T); alpha [B,T,S] and state
    // [B,T,D], 0 past a row's length. Not used for a model that attends its own padding.
    bool forcesAttention() const { return forcesAttention_; }
    struct ForcedPassOutput {
        torch::Tensor alpha;  // [B,T,S]
        torch::Tensor state;  // [B,T,D]
    };
    ForcedPassOutput forceAttention(const torch::Tensor& yPrev, const torch::Tensor& lengths, const EncoderOutput& enc) const;

    const std::string& origin() const { return origin_; }
    const Vocabulary& sourceVocabulary() const { return srcVocab_; }
    const Vocabulary& targetVocabulary() const { return tgtVocab_; }
    const Tokenizer& sourceTokenizer() const { return srcTokenizer_; }
    const Tokenizer& targetTokenizer() const { return tgtTokenizer_; }
    const nlohmann::json& metadata() const { return metadata_; }
    void setMetadata(nlohmann::json metadata);  // also rewrites the attribute inside the module
    // Declared by the file's metadata (docs/model-format.md); 0 / true / false where it declares nothing.
    int64_t formatVersion() const { return formatVersion_; }          // 1 or 2
    int64_t maxLength() const { return maxLength_; }                  // decoder steps the model was made for
    int64_t maxSourceLength() const { return maxSourceLength_; }      // longest source it takes, </s> included
    bool sourceEos() const { return sourceEos_; }                     // sources end in the source vocabulary's eos
    bool attendsPadding() const { return attendsPadding_; }           // alpha's last column is its own padding's mass
    int64_t encoderOutputSize() const { return encoderOutputSize_; }  // E
    int64_t stateSize() const { return stateSize_; }                  // D
    int64_t parameterCount() const;
    // "name: k of n values are NaN or infinite" for each such parameter; empty for a sound model.
    const std::vector<std::string>& nonFiniteWeights() const { return nonFiniteWeights_; }

    torch::jit::Module& module() { return module_; }
    const torch::jit::Module& module() const { return module_; }
    // Writes atomically (temporary file, then rename); `half` stores weights as float16.
    void save(const std::string& path, bool half) const;

private:
    // torch::jit::load, preparation and the contract, in this process (load runs it in a child first).
    static std::shared_ptr<TorchModel> loadInProcess(const std::string& path);
    void findNonFiniteWeights();
    void checkContract();
    void probe(std::vector<std::string>& problems);
    void checkDescriptions(std::vector<std::string>& problems) const;
    // Runs one of the model's methods; its exceptions become Error "failed in its <method> code<at>: cause".
    c10::IValue callMethod(const char* method, std::vector<c10::IValue> args, const std::string& at = std::string()) const;
    // step or step_logits (`method`), whose [B,V] scores are under the key `scores` ("log_probs" or
    // "logits"), called and checked; the scores go to logProbs either way.
    DecoderOutput runStep(const char* method, const char* scores, const torch::Tensor& yPrev, const torch::Tensor& state,
                          const EncoderOutput& enc, int64_t stepNumber) const;
    // encode's or encode_embedded's result checked for a batch of [B,S] (`method` names it).
    EncoderOutput checkedEncoderOutput(const c10::IValue& out, int64_t B, int64_t S, const char* method) const;

    mutable torch::jit::Module module_;  // jit methods are not const-callable
    std::string origin_;
    Vocabulary srcVocab_, tgtVocab_;
    Tokenizer srcTokenizer_, tgtTokenizer_;
    nlohmann::json metadata_;
    int64_t encoderOutputSize_ = 0;
    int64_t stateSize_ = 0;
    int64_t formatVersion_ = 0;
    int64_t maxLength_ = 0;
    int64_t maxSourceLength_ = 0;
    bool sourceEos_ = true;
    bool attendsPadding_ = false;
    bool encodesEmbedded_ = false;
    bool advances_ = false;
    bool stepsLogits_ = false;
    bool forcesAttention_ = false;
    std::vector<std::string> nonFiniteWeights_;
    bool probing_ = false;  // during the constructor's probe, which checks shapes itself
};

}  // namespace alignscope::core
