#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace alignscope::core {

// What the panels say about a model's architecture, read from its metadata (docs/model-format.md):
// format 2's "encoder", "decoder" and "attention" keys, or the "architecture" of AlignScope's own
// models. Only what a file declares is claimed: an encoder is labelled fwd/bwd only when declared
// bidirectional.
struct ArchitectureSummary {
    std::string encoderCell = "rnn";  // "gru", "lstm", or "rnn" when the file does not say
    std::string decoderCell = "rnn";
    int encoderLayers = 1;
    int decoderLayers = 1;
    bool bidirectional = false;
    std::string attention = "additive";  // "additive", "mlp", "general", "dot" or "none"
    bool attentionBias = false;
    bool attentionAfterCell = false;  // Luong's order: s_t first, then alpha_t from s_t
    bool inputFeeding = false;        // the decoder's input includes the previous attentional vector
    bool conditionalDecoder = false;  // a first cell reads y_{t-1}, alpha_t from that state s'_t

    static ArchitectureSummary fromMetadata(const nlohmann::json& metadata);
};

}  // namespace alignscope::core
