#pragma once
#include "core/attribution/AttributionMethod.h"

namespace alignscope::core {

// Each source token erased in turn (the sentence one token shorter), the same target forced: the
// score is how much the chosen token's log-probability drops without it, log p(y|x) − log p(y|x\i).
// Works for every model (encode and step only); the S shortened sources run as batches.
class OcclusionAttribution : public AttributionMethod {
public:
    std::string name() const override { return "occlusion"; }
    std::string description() const override;
    bool signedScores() const override { return true; }
    void compute(const AttributionRequest& request, Attribution& out) const override;
};

}  // namespace alignscope::core
