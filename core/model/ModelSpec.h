#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace alignscope::core {

// The architecture of an RNN encoder-decoder with attention, as Bahdanau et al. 2014 describe it:
// everything ModelBuilder needs to write a freshly initialised model file.
struct ModelSpec {
    enum class Cell { GRU, LSTM };
    enum class Attention { Additive, Dot, General, None };
    // Bahdanau: alpha_t from s_{t-1}, then s_t = cell([y_{t-1}; c_t], s_{t-1}). Conditional
    // (Sennrich et al. 2017's conditional GRU): s'_t = cell(y_{t-1}, s_{t-1}), alpha_t from s'_t,
    // s_t = cell2(c_t, s'_t). Why: Bahdanau's query has not read the word just written, so its
    // attention guesses where the next word aligns from the words before it (docs/alignment.md).
    enum class Decoder { Bahdanau, Conditional };

    Cell cell = Cell::GRU;                      // recurrent cell of encoder and decoder
    bool bidirectional = true;                  // encoder reads the source both ways
    Attention attention = Attention::Additive;  // None: fixed context = encoder's final state
    int64_t embeddingSize = 256;                // source and target embedding width
    int64_t encoderHidden = 256;                // per direction
    int64_t decoderHidden = 512;                // decoder state width (LSTM state holds h and c: twice this)
    int64_t attentionSize = 256;                // width of v in additive attention
    int64_t readoutSize = 256;                  // layer between decoder and vocabulary projection
    bool tieOutput = true;                      // reuse target embeddings as output projection (needs readout == embedding)
    Decoder decoder = Decoder::Bahdanau;        // where attention sits in the decoder step
    uint64_t seed = 1;                          // initialisation seed

    int64_t encoderOutputSize() const { return bidirectional ? 2 * encoderHidden : encoderHidden; }  // E
    int64_t stateSize() const { return cell == Cell::LSTM ? 2 * decoderHidden : decoderHidden; }     // D

    // Throws Error naming the first inconsistent field.
    void validate() const;

    nlohmann::json toJson() const;
    static ModelSpec fromJson(const nlohmann::json& json);

    static std::string cellName(Cell cell);
    static std::string attentionName(Attention attention);
    static std::string decoderName(Decoder decoder);
    static Cell parseCell(const std::string& name);            // "gru" | "lstm"
    static Attention parseAttention(const std::string& name);  // "additive" | "dot" | "general" | "none"
    static Decoder parseDecoder(const std::string& name);      // "bahdanau" | "conditional"
};

}  // namespace alignscope::core
