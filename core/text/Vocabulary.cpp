#include "core/text/Vocabulary.h"

#include "core/Error.h"

#include <algorithm>

namespace alignscope::core {

SpecialIds SpecialIds::fromJson(const nlohmann::json& json) {
    if (!json.is_object()) throw Error("special ids must be a JSON object like {\"pad\": 0, \"eos\": 3}");
    SpecialIds s;
    for (const auto& [key, value] : json.items()) {
        int64_t* slot = key == "pad" ? &s.pad : key == "unk" ? &s.unk : key == "bos" ? &s.bos : key == "eos" ? &s.eos : nullptr;
        if (!slot) throw Error("unknown special token '" + key + "' (pad, unk, bos or eos)");
        if (value.is_null()) continue;
        if (!value.is_number_integer()) throw Error("special id '" + key + "' must be an integer or null");
        *slot = value.get<int64_t>();
        if (*slot < 0) throw Error("special id '" + key + "' is negative (" + std::to_string(*slot) + ")");
    }
    return s;
}

nlohmann::json SpecialIds::toJson() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [key, id] : {std::pair{"pad", pad}, {"unk", unk}, {"bos", bos}, {"eos", eos}})
        if (id != kNone) j[key] = id;
    return j;
}

const std::vector<std::string>& Vocabulary::specialTokens() {
    static const std::vector<std::string> specials = {"<pad>", "<unk>", "<s>", "</s>"};
    return specials;
}

Vocabulary::Vocabulary() : Vocabulary(specialTokens()) {}

Vocabulary::Vocabulary(std::vector<std::string> tokens) : Vocabulary(std::move(tokens), SpecialIds{kPad, kUnk, kBos, kEos}) {
    const auto& specials = specialTokens();
    if (tokens_.size() < specials.size() || !std::equal(specials.begin(), specials.end(), tokens_.begin()))
        throw Error("vocabulary must start with <pad>, <unk>, <s>, </s>");
}

Vocabulary::Vocabulary(std::vector<std::string> tokens, SpecialIds specials) : tokens_(std::move(tokens)), specials_(specials) {
    if (tokens_.empty()) throw Error("vocabulary is empty");
    std::vector<std::pair<const char*, int64_t>> named = {
        {"pad", specials_.pad}, {"unk", specials_.unk}, {"bos", specials_.bos}, {"eos", specials_.eos}};
    for (size_t i = 0; i < named.size(); ++i) {
        const auto [name, id] = named[i];
        if (id == SpecialIds::kNone) continue;
        if (id < 0 || id >= size())
            throw Error(std::string("special id ") + name + " = " + std::to_string(id) + " is outside the vocabulary (0.." +
                        std::to_string(size() - 1) + ")");
        for (size_t j = 0; j < i; ++j)
            if (named[j].second == id)
                throw Error(std::string("special ids ") + named[j].first + " and " + name + " are both " + std::to_string(id));
    }
    for (size_t i = 0; i < tokens_.size(); ++i)
        if (!index_.emplace(tokens_[i], static_cast<int64_t>(i)).second) throw Error("vocabulary lists '" + tokens_[i] + "' twice");
}

Vocabulary Vocabulary::fromCounts(const std::map<std::string, int64_t>& counts, int64_t minCount, int64_t maxSize) {
    std::vector<std::pair<std::string, int64_t>> items;
    for (const auto& [token, count] : counts) {
        const auto& sp = specialTokens();
        if (count >= minCount && std::find(sp.begin(), sp.end(), token) == sp.end()) items.emplace_back(token, count);
    }
    std::sort(items.begin(), items.end(),
              [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    std::vector<std::string> tokens = specialTokens();
    for (const auto& item : items) {
        if (maxSize > 0 && static_cast<int64_t>(tokens.size()) >= maxSize) break;
        tokens.push_back(item.first);
    }
    return Vocabulary(std::move(tokens));
}

bool Vocabulary::isSpecial(int64_t id) const {
    return id != SpecialIds::kNone && (id == specials_.pad || id == specials_.unk || id == specials_.bos || id == specials_.eos);
}

int64_t Vocabulary::id(const std::string& token) const {
    const auto it = index_.find(token);
    return it == index_.end() ? specials_.unk : it->second;
}

const std::string& Vocabulary::token(int64_t id) const {
    static const std::string unknown = "<unk>";
    if (id < 0 || id >= size()) return specials_.unk >= 0 ? tokens_[static_cast<size_t>(specials_.unk)] : unknown;
    return tokens_[static_cast<size_t>(id)];
}

}  // namespace alignscope::core
