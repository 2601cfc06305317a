#include "core/alignment/SoftAlignment.h"

#include "core/attribution/Attribution.h"
#include "core/decoding/Alignment.h"
#include "core/model/Model.h"

namespace alignscope::core {

SoftAlignment SoftAlignment::fromAttention(const Alignment& alignment) {
    SoftAlignment s;
    s.matrix_ = alignment.weights();
    s.sourceWords_ = sourceWordsOf(alignment.sourceTokens(), alignment.sourceWords());
    s.targetWords_ = alignment.targetWords();
    return s;
}

SoftAlignment SoftAlignment::fromAttribution(const Attribution& attribution) {
    SoftAlignment s;
    s.matrix_ = attribution.matrix();
    s.sourceWords_ = sourceWordsOf(attribution.sourceTokens, attribution.sourceWords);
    s.targetWords_ = attribution.targetWords;
    return s;
}

std::vector<int> SoftAlignment::sourceWordsOf(const std::vector<std::string>& tokens, const std::vector<int>& words) {
    std::vector<int> out = words;
    if (Model::endsWithPaddingColumn(tokens) && out.size() == tokens.size()) out.pop_back();
    return out;
}

SoftAlignment::Matrix SoftAlignment::wordMatrix() const { return LinkExtraction::mergeToWords(matrix_, sourceWords_, targetWords_); }

LinkExtraction::Links SoftAlignment::links(LinkExtraction::Rule rule, float threshold) const {
    return LinkExtraction::extract(matrix_, sourceWords_, targetWords_, rule, threshold);
}

std::string SoftAlignment::pharaoh(const LinkExtraction::Links& links) {
    std::string out;
    for (const auto& [s, t] : links) {
        if (!out.empty()) out += ' ';
        out += std::to_string(s) + "-" + std::to_string(t);
    }
    return out;
}

std::string SoftAlignment::attentionPharaoh(const Alignment& alignment) {
    return pharaoh(fromAttention(alignment).links(LinkExtraction::Rule::Argmax));
}

nlohmann::json SoftAlignment::attentionJson(const Alignment& alignment) {
    auto j = alignment.toJson();
    j["links"] = attentionPharaoh(alignment);
    return j;
}

}  // namespace alignscope::core
