#pragma once
#include <string>

namespace alignscope::core {

class Model;

// The languages a model's metadata declares ("source_language", "target_language": ISO 639 codes
// such as "en" or "de"), so that the app's axes, the exports and `inspect` name them; empty where a
// file declares none (the front ends then say "source" and "target" alone).
struct ModelLanguages {
    std::string source;
    std::string target;

    // Throws Error naming the model's file when a declaration is not two or three lower-case letters.
    static ModelLanguages of(const Model& model);
    static bool isCode(const std::string& code);
};

}  // namespace alignscope::core
