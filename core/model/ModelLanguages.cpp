#include "core/model/ModelLanguages.h"

#include "core/Error.h"
#include "core/model/Model.h"

#include <algorithm>

namespace alignscope::core {
namespace {

std::string declared(const Model& model, const char* key) {
    const auto& meta = model.metadata();
    const auto entry = meta.find(key);
    if (entry == meta.end()) return {};
    const std::string code = entry->is_string() ? entry->get<std::string>() : std::string();
    if (!ModelLanguages::isCode(code))
        throw Error("'" + model.origin() + "' declares a " + key + " that is not a language code such as \"en\" or \"de\"");
    return code;
}

}  // namespace

bool ModelLanguages::isCode(const std::string& code) {
    return (code.size() == 2 || code.size() == 3) && std::all_of(code.begin(), code.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

ModelLanguages ModelLanguages::of(const Model& model) { return {declared(model, "source_language"), declared(model, "target_language")}; }

}  // namespace alignscope::core
