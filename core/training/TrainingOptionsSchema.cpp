#include "core/training/TrainingOptionsSchema.h"

#include <stdexcept>

namespace alignscope::core {

namespace {
// python/alignscope/training_options.json, whole (core/CMakeLists.txt writes it into this literal).
const char* const kSchemaFile =
#include "TrainingOptionsText.inc"
    ;

const nlohmann::json& option(const std::string& name) {
    const auto& all = TrainingOptionsSchema::options();
    const auto found = all.find(name);
    if (found == all.end()) throw std::out_of_range("training_options.json has no option '" + name + "'");
    return *found;
}
}  // namespace

const nlohmann::json& TrainingOptionsSchema::options() {
    static const nlohmann::json schema = nlohmann::json::parse(kSchemaFile).at("options");
    return schema;
}

double TrainingOptionsSchema::number(const std::string& name) { return option(name).at("default").get<double>(); }

std::string TrainingOptionsSchema::flags(const std::string& name) {
    std::string joined;
    for (const auto& flag : option(name).at("flags")) joined += (joined.empty() ? "" : ",") + flag.get<std::string>();
    return joined;
}

std::string TrainingOptionsSchema::help(const std::string& name) { return option(name).at("help").get<std::string>(); }

}  // namespace alignscope::core
