#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace alignscope::core {

// The options both trainers share, from python/alignscope/training_options.json (embedded at build
// time; the Python trainer reads the same file): each one's flags, default and help, so that
// `alignscope-cli train` and `python3 -m alignscope train` cannot drift apart.
class TrainingOptionsSchema {
public:
    static const nlohmann::json& options();         // name -> {flags, type, default, help}
    static double number(const std::string& name);  // the option's default
    static int integer(const std::string& name) { return static_cast<int>(number(name)); }
    // The flags as CLI11 takes them ("--smoothing,--label-smoothing"), and the help line.
    static std::string flags(const std::string& name);
    static std::string help(const std::string& name);
};

}  // namespace alignscope::core
