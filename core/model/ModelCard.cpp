#include "core/model/ModelCard.h"

#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include <cctype>

namespace alignscope::core {

std::vector<std::pair<std::string, std::string>> ModelCard::facts(const Model& model) {
    const auto a = model.architecture();
    std::string decoder = a.decoderCell;
    for (auto& c : decoder) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    decoder += a.conditionalDecoder   ? " (conditional: attends from s'_t)"
               : a.attentionAfterCell ? " (Luong's order: attends from s_t)"
                                      : " (Bahdanau's order: attends from s_{t-1})";
    std::string encoder = a.encoderCell;
    for (auto& c : encoder) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (a.bidirectional) encoder = "bidirectional " + encoder;
    const auto file = model.origin().substr(model.origin().find_last_of('/') + 1);
    std::vector<std::pair<std::string, std::string>> card = {
        {"name", model.name()},
        {"file", file},
        {"encoder", encoder + ", E = " + std::to_string(model.encoderOutputSize())},
        {"decoder", decoder + ", D = " + std::to_string(model.stateSize())},
        {"attention", model.attentionIsUniform() ? "none (alpha shown uniform)" : a.attention},
        {"source tokenizer", model.sourceTokenizer().describe()},
        {"target tokenizer", model.targetTokenizer().describe()},
        {"vocabularies",
         std::to_string(model.sourceVocabulary().size()) + " source, " + std::to_string(model.targetVocabulary().size()) + " target"},
        {"parameters", std::to_string(model.parameterCount())},
        {"model format", "v" + std::to_string(model.formatVersion())}};
    const auto& m = model.metadata();
    for (const char* key : {"description", "languages", "training"})
        if (m.contains(key) && m[key].is_string()) card.emplace_back(key, m[key].get<std::string>());
    return card;
}

}  // namespace alignscope::core
