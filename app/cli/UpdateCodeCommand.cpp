#include "cli/Commands.h"

#include "core/model/Model.h"
#include "core/model/ModelBuilder.h"

#include <iostream>

namespace alignscope::cli {

Command addUpdateCodeCommand(CLI::App& app) {
    struct Options {
        std::string model;
        std::string out;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("update-code", "Rewrite a model's TorchScript code with this version's (same weights, checked)");
    c->add_option("model", o->model, "Model file written by AlignScope or the Python package alignscope (export, train)")->required();
    c->add_option("-o,--out", o->out, "File to write (may be the input file)")->required();
    return [o, c]() -> int {
        if (!*c) return -1;
        const auto model = core::Model::load(o->model);
        const auto rewritten = core::ModelBuilder::rewriteCode(model);
        // Keep the storage the file had: a float16 file stays float16.
        const bool half = model.metadata().value("stored_dtype", std::string()) == "float16";
        rewritten.save(o->out, half);
        std::cout << "wrote " << o->out << " (" << (half ? "float16" : "float32") << " weights; same outputs as " << o->model
                  << " within 1e-4)\n";
        return 0;
    };
}

}  // namespace alignscope::cli
