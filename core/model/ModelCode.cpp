#include "core/model/ModelCode.h"

#include "core/Error.h"

#include <regex>

namespace alignscope::core {
namespace {

// python/alignscope/model_code.py, whole (core/CMakeLists.txt writes it into this literal).
const char* const kModelCodeFile =
#include "ModelCodeText.inc"
    ;

const char* const kMarker = "# --- TorchScript methods: everything below is compiled as it stands ---";

}  // namespace

const std::string& modelCodeSource() {
    static const std::string code = [] {
        const std::string file = kModelCodeFile;
        const auto at = file.rfind(kMarker);
        if (at == std::string::npos) throw Error("internal error: python/alignscope/model_code.py has lost its marker line");
        return file.substr(at + std::string(kMarker).size());
    }();
    return code;
}

void defineModelCode(torch::jit::Module& module, const ModelSpec& spec) {
    using A = ModelSpec::Attention;
    const std::pair<const char*, bool> constants[] = {{"lstm", spec.cell == ModelSpec::Cell::LSTM},
                                                      {"bidirectional", spec.bidirectional},
                                                      {"attention_additive", spec.attention == A::Additive},
                                                      {"attention_general", spec.attention == A::General},
                                                      {"attention_dot", spec.attention == A::Dot},
                                                      {"attention_none", spec.attention == A::None},
                                                      {"tied", spec.tieOutput},
                                                      {"conditional", spec.decoder == ModelSpec::Decoder::Conditional}};
    // `self.<constant>` becomes a literal, so TorchScript compiles only the taken branches
    // (python/alignscope/scripted.py does the same to the same text).
    std::string code = modelCodeSource();
    for (const auto& [name, value] : constants)
        code = std::regex_replace(code, std::regex(std::string("self\\.") + name + "\\b"), value ? "True" : "False");
    try {
        module.define(code);
    } catch (const std::exception& e) {
        throw Error(std::string("internal error: model code does not compile: ") + e.what());
    }
}

}  // namespace alignscope::core
