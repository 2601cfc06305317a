#pragma once
#include "core/model/Model.h"

#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// A model's facts in reading order (name, file, encoder, decoder, attention, tokenizers,
// vocabularies, parameters, format, and what its metadata says of itself): the card the app, the
// page and the notebook show beside a figure.
class ModelCard {
public:
    static std::vector<std::pair<std::string, std::string>> facts(const Model& model);
};

}  // namespace alignscope::core
