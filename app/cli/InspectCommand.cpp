#include "cli/Commands.h"

#include "core/model/Model.h"
#include "core/model/ModelLanguages.h"
#include "core/runtime/BlasKernels.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <iostream>

namespace alignscope::cli {

Command addInspectCommand(CLI::App& app) {
    struct Options {
        std::string model;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("inspect", "Show a model's metadata and check its contract");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr-subword model)");
    c->add_flag("--json", o->json, "Print JSON");
    return [o, c]() -> int {
        if (!*c) return -1;
        auto model = core::Model::load(o->model.empty() ? core::Runtime::defaultModelPath() : o->model);
        const auto languages = core::ModelLanguages::of(model);
        if (o->json) {
            nlohmann::json j = {{"file", model.origin()},
                                {"name", model.name()},
                                {"source_language", languages.source},
                                {"target_language", languages.target},
                                {"contract", "meets AlignScope model format v" + std::to_string(model.formatVersion())},
                                {"format_version", model.formatVersion()},
                                {"max_length", model.maxLength()},
                                {"source_tokenizer", model.sourceTokenizer().describe()},
                                {"target_tokenizer", model.targetTokenizer().describe()},
                                {"source_vocabulary", model.sourceVocabulary().size()},
                                {"target_vocabulary", model.targetVocabulary().size()},
                                {"parameters", model.parameterCount()},
                                {"encoder_output_size", model.encoderOutputSize()},
                                {"state_size", model.stateSize()},
                                {"metadata", model.metadata()},
                                {"blas", core::Runtime::blasDescription()},
                                {"blas_kernels", core::BlasKernels::name()},
                                {"threads", core::Runtime::threads()},
                                {"non_finite_weights", model.nonFiniteWeights()}};
            std::cout << core::JsonText::dump(j, 2) << '\n';
            return 0;
        }
        // The load refuses NaN or inf in any weight (TorchModel::checkContract), naming the parameters.
        std::cout << "file:              " << model.origin() << '\n'
                  << "name:              " << model.name() << '\n'
                  << "languages:         "
                  << (languages.source.empty() && languages.target.empty() ? std::string("not declared")
                                                                           : languages.source + " -> " + languages.target)
                  << '\n'
                  << "contract:          meets AlignScope model format v" << model.formatVersion() << '\n'
                  << "weights:           all finite\n"
                  << "tokenizers:        " << model.sourceTokenizer().describe() << " -> " << model.targetTokenizer().describe() << '\n'
                  << "max length:        "
                  << (model.maxLength() > 0 ? std::to_string(model.maxLength()) + " (declared)" : std::string("2 x source + 10")) << '\n'
                  << "source vocabulary: " << model.sourceVocabulary().size() << '\n'
                  << "target vocabulary: " << model.targetVocabulary().size() << '\n'
                  << "parameters:        " << model.parameterCount() << '\n'
                  << "encoder output E:  " << model.encoderOutputSize() << '\n'
                  << "decoder state D:   " << model.stateSize() << '\n'
                  << "BLAS:              " << core::Runtime::blasDescription() << '\n'
                  << "threads:           " << core::Runtime::threads() << '\n'
                  << "metadata:\n"
                  << core::JsonText::dump(model.metadata(), 2) << '\n';
        return 0;
    };
}

}  // namespace alignscope::cli
