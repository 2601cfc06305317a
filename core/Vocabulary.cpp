#include "core/Vocabulary.h"

#include "core/Error.h"

#include <algorithm>

namespace alignscope::core {

const std::vector<std::string>& Vocabulary::specialTokens() {
    static const std::vector<std::string> specials = {"<pad>", "<unk>", "<s>", "</s>"};
    return specials;
}

Vocabulary::Vocabulary() : Vocabulary(specialTokens()) {}

Vocabulary::Vocabulary(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {
    const auto& specials = specialTokens();
    if (tokens_.size() < specials.size() || !std::equal(specials.begin(), specials.end(), tokens_.begin()))
        throw Error("vocabulary must start with <pad>, <unk>, <s>, </s>");
    for (size_t i = 0; i < tokens_.size(); ++i)
        if (!index_.emplace(tokens_[i], static_cast<int64_t>(i)).second)
            throw Error("vocabulary lists '" + tokens_[i] + "' twice");
}

Vocabulary Vocabulary::fromCounts(const std::map<std::string, int64_t>& counts, int64_t minCount, int64_t maxSize) {
    std::vector<std::pair<std::string, int64_t>> items;
    for (const auto& [token, count] : counts) {
        const auto& sp = specialTokens();
        if (count >= minCount && std::find(sp.begin(), sp.end(), token) == sp.end()) items.emplace_back(token, count);
    }
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::vector<std::string> tokens = specialTokens();
    for (const auto& item : items) {
        if (maxSize > 0 && static_cast<int64_t>(tokens.size()) >= maxSize) break;
        tokens.push_back(item.first);
    }
    return Vocabulary(std::move(tokens));
}

int64_t Vocabulary::id(const std::string& token) const {
    const auto it = index_.find(token);
    return it == index_.end() ? kUnk : it->second;
}

const std::string& Vocabulary::token(int64_t id) const {
    if (id < 0 || id >= size()) return tokens_[kUnk];
    return tokens_[static_cast<size_t>(id)];
}

}  // namespace alignscope::core
