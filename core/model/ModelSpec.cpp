#include "core/model/ModelSpec.h"

#include "core/Error.h"

#include <algorithm>

namespace alignscope::core {

void ModelSpec::validate() const {
    auto positive = [](int64_t v, const char* name) {
        if (v <= 0 || v > 8192) throw Error(std::string(name) + " must be between 1 and 8192");
    };
    positive(embeddingSize, "embedding size");
    positive(encoderHidden, "encoder hidden size");
    positive(decoderHidden, "decoder hidden size");
    positive(attentionSize, "attention size");
    positive(readoutSize, "readout size");
    if (tieOutput && readoutSize != embeddingSize) throw Error("a tied output layer needs readout size == embedding size");
    if (attention == Attention::Dot && decoderHidden != encoderOutputSize())
        throw Error("dot attention needs decoder hidden size == encoder output size (" + std::to_string(encoderOutputSize()) + ")");
}

std::string ModelSpec::cellName(Cell cell) { return cell == Cell::GRU ? "gru" : "lstm"; }

std::string ModelSpec::attentionName(Attention a) {
    switch (a) {
    case Attention::Additive:
        return "additive";
    case Attention::Dot:
        return "dot";
    case Attention::General:
        return "general";
    case Attention::None:
        return "none";
    }
    return "additive";
}

std::string ModelSpec::decoderName(Decoder d) { return d == Decoder::Conditional ? "conditional" : "bahdanau"; }

ModelSpec::Decoder ModelSpec::parseDecoder(const std::string& name) {
    if (name == "bahdanau") return Decoder::Bahdanau;
    if (name == "conditional") return Decoder::Conditional;
    throw Error("unknown decoder '" + name + "' (bahdanau or conditional)");
}

ModelSpec::Cell ModelSpec::parseCell(const std::string& name) {
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), ::tolower);
    if (n == "gru") return Cell::GRU;
    if (n == "lstm") return Cell::LSTM;
    throw Error("unknown cell '" + name + "' (gru or lstm)");
}

ModelSpec::Attention ModelSpec::parseAttention(const std::string& name) {
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), ::tolower);
    if (n == "additive" || n == "bahdanau") return Attention::Additive;
    if (n == "dot") return Attention::Dot;
    if (n == "general") return Attention::General;
    if (n == "none") return Attention::None;
    throw Error("unknown attention '" + name + "' (additive, dot, general or none)");
}

nlohmann::json ModelSpec::toJson() const {
    return {{"cell", cellName(cell)},
            {"bidirectional", bidirectional},
            {"attention", attentionName(attention)},
            {"embedding_size", embeddingSize},
            {"encoder_hidden", encoderHidden},
            {"decoder_hidden", decoderHidden},
            {"attention_size", attentionSize},
            {"readout_size", readoutSize},
            {"tie_output", tieOutput},
            {"decoder", decoderName(decoder)},
            {"encoder_output_size", encoderOutputSize()},
            {"state_size", stateSize()}};
}

ModelSpec ModelSpec::fromJson(const nlohmann::json& j) {
    ModelSpec s;
    s.cell = parseCell(j.value("cell", cellName(s.cell)));
    s.bidirectional = j.value("bidirectional", s.bidirectional);
    s.attention = parseAttention(j.value("attention", attentionName(s.attention)));
    s.embeddingSize = j.value("embedding_size", s.embeddingSize);
    s.encoderHidden = j.value("encoder_hidden", s.encoderHidden);
    s.decoderHidden = j.value("decoder_hidden", s.decoderHidden);
    s.attentionSize = j.value("attention_size", s.attentionSize);
    s.readoutSize = j.value("readout_size", s.readoutSize);
    s.tieOutput = j.value("tie_output", s.tieOutput);
    s.decoder = parseDecoder(j.value("decoder", decoderName(s.decoder)));  // absent: files before the choice
    return s;
}

}  // namespace alignscope::core
