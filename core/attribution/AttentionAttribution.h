#pragma once
#include "core/attribution/AttributionMethod.h"

namespace alignscope::core {

// The attention weights alpha_t themselves, teacher-forced along the target, so attention can be
// compared, exported and scored through the same entry as the other methods. Columns are the source
// tokens (a model that attends its own padding leaves that column's mass out).
class AttentionAttribution : public AttributionMethod {
public:
    std::string name() const override { return "attention"; }
    std::string description() const override;
    bool signedScores() const override { return false; }
    void compute(const AttributionRequest& request, Attribution& out) const override;
};

}  // namespace alignscope::core
