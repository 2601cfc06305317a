#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace alignscope::core {

// Ids of a vocabulary's special tokens; kNone where the vocabulary has no such token (the Keras
// course model has no bos or eos, the PyTorch tutorial's no pad or unk).
struct SpecialIds {
    static constexpr int64_t kNone = -1;
    int64_t pad = kNone, unk = kNone, bos = kNone, eos = kNone;

    // Format v2's {"pad": 0, "unk": 1, ...}: absent or null keys are kNone. Throws Error for other keys or types.
    static SpecialIds fromJson(const nlohmann::json& json);
    nlohmann::json toJson() const;
};

// Token <-> id table with the ids of its special tokens. AlignScope's own models put the specials
// first, as ids 0..3 (kPad..kEos), in both vocabularies; files in format v2 may put them anywhere.
class Vocabulary {
public:
    static constexpr int64_t kPad = 0;  // AlignScope's own layout (and every v1 file)
    static constexpr int64_t kUnk = 1;
    static constexpr int64_t kBos = 2;
    static constexpr int64_t kEos = 3;
    static const std::vector<std::string>& specialTokens();  // "<pad>", "<unk>", "<s>", "</s>"

    Vocabulary();  // only the special tokens
    // AlignScope's layout: throws Error when the list does not start with the special tokens or repeats a token.
    explicit Vocabulary(std::vector<std::string> tokens);
    // Any layout: throws Error when a special id is out of range, two specials share an id, or a token repeats.
    Vocabulary(std::vector<std::string> tokens, SpecialIds specials);

    // Most frequent tokens first (ties by token text, so the result is deterministic);
    // keeps tokens seen at least `minCount` times, at most `maxSize` entries in all (0: no cap).
    static Vocabulary fromCounts(const std::map<std::string, int64_t>& counts, int64_t minCount, int64_t maxSize);

    int64_t size() const { return static_cast<int64_t>(tokens_.size()); }
    const SpecialIds& specials() const { return specials_; }
    int64_t pad() const { return specials_.pad; }
    int64_t unk() const { return specials_.unk; }
    int64_t bos() const { return specials_.bos; }
    int64_t eos() const { return specials_.eos; }
    // The id fed as y_0 at the first decoder step: bos, or 0 for a model that has none (and ignores it).
    int64_t startId() const { return specials_.bos >= 0 ? specials_.bos : 0; }
    // The id that fills padded batch positions: pad, or 0 (models rely on the lengths then).
    int64_t paddingId() const { return specials_.pad >= 0 ? specials_.pad : 0; }
    bool isSpecial(int64_t id) const;

    int64_t id(const std::string& token) const;  // unk when absent (SpecialIds::kNone without an unk)
    bool contains(const std::string& token) const { return index_.count(token) != 0; }
    const std::string& token(int64_t id) const;  // "<unk>" for an out-of-range id
    const std::vector<std::string>& tokens() const { return tokens_; }

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, int64_t> index_;
    SpecialIds specials_;
};

}  // namespace alignscope::core
