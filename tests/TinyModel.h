#pragma once
#include "core/Model.h"
#include "core/ModelSpec.h"

#include <string>

namespace alignscope::tests {

// Small, untrained but real models, made by the tests themselves: a few dozen tokens, widths of
// 8-16, built through the same ModelBuilder as every model.
core::ModelSpec tinySpec(core::ModelSpec::Cell cell = core::ModelSpec::Cell::GRU,
                         core::ModelSpec::Attention attention = core::ModelSpec::Attention::Additive,
                         bool bidirectional = true);
core::Model tinyModel(const core::ModelSpec& spec = tinySpec());

// A fresh temporary folder, removed when the object goes.
class TempDir {
public:
    TempDir();
    ~TempDir();
    std::string path(const std::string& name) const;
    const std::string& root() const { return root_; }

private:
    std::string root_;
};

}  // namespace alignscope::tests
