#include "core/model/ArchitectureSummary.h"

#include "core/model/ModelSpec.h"

namespace alignscope::core {
namespace {

template <typename T>
T read(const nlohmann::json& object, const char* key, T fallback) {
    if (!object.is_object() || !object.contains(key)) return fallback;
    try {
        return object[key].get<T>();
    } catch (const nlohmann::json::exception&) {
        return fallback;  // a mistyped description key only loses its label
    }
}

}  // namespace

ArchitectureSummary ArchitectureSummary::fromMetadata(const nlohmann::json& m) {
    ArchitectureSummary a;
    if (!m.is_object()) return a;
    const auto own = m.value("architecture", nlohmann::json());
    if (own.is_object()) {  // AlignScope's own models
        try {
            const auto spec = ModelSpec::fromJson(own);
            a.encoderCell = a.decoderCell = ModelSpec::cellName(spec.cell);
            a.bidirectional = spec.bidirectional;
            a.attention = ModelSpec::attentionName(spec.attention);
            a.conditionalDecoder = spec.decoder == ModelSpec::Decoder::Conditional;
        } catch (const std::exception&) {  // a damaged description only loses its labels
        }
    }
    const auto encoder = m.value("encoder", nlohmann::json());
    a.encoderCell = read<std::string>(encoder, "cell", a.encoderCell);
    a.encoderLayers = read<int>(encoder, "layers", a.encoderLayers);
    a.bidirectional = read<bool>(encoder, "bidirectional", a.bidirectional);
    const auto decoder = m.value("decoder", nlohmann::json());
    a.decoderCell = read<std::string>(decoder, "cell", a.decoderCell);
    a.decoderLayers = read<int>(decoder, "layers", a.decoderLayers);
    a.inputFeeding = read<bool>(decoder, "input_feeding", a.inputFeeding);
    const auto attention = m.value("attention", nlohmann::json());
    if (attention.is_object()) {
        a.attention = read<std::string>(attention, "kind", a.attention);
        a.attentionBias = read<bool>(attention, "bias", a.attentionBias);
        a.attentionAfterCell = read<std::string>(attention, "when", "before_cell") == "after_cell";
    } else if (attention.is_string()) {
        a.attention = attention.get<std::string>();
    }
    if (read<bool>(m, "alpha_is_uniform", false)) a.attention = "none";
    return a;
}

}  // namespace alignscope::core
