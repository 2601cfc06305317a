#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace alignscope::core {

// Token <-> id table. Ids 0..3 are always the special tokens, in both vocabularies of a model,
// so the model file needs only one set of special ids.
class Vocabulary {
public:
    static constexpr int64_t kPad = 0;
    static constexpr int64_t kUnk = 1;
    static constexpr int64_t kBos = 2;
    static constexpr int64_t kEos = 3;
    static const std::vector<std::string>& specialTokens();  // "<pad>", "<unk>", "<s>", "</s>"

    Vocabulary();  // only the special tokens
    // Throws Error when the list does not start with the special tokens or repeats a token.
    explicit Vocabulary(std::vector<std::string> tokens);

    // Most frequent tokens first (ties by token text, so the result is deterministic);
    // keeps tokens seen at least `minCount` times, at most `maxSize` entries in all (0: no cap).
    static Vocabulary fromCounts(const std::map<std::string, int64_t>& counts, int64_t minCount, int64_t maxSize);

    int64_t size() const { return static_cast<int64_t>(tokens_.size()); }
    int64_t id(const std::string& token) const;  // kUnk when absent
    bool contains(const std::string& token) const { return index_.count(token) != 0; }
    const std::string& token(int64_t id) const;  // "<unk>" for an out-of-range id
    const std::vector<std::string>& tokens() const { return tokens_; }

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, int64_t> index_;
};

}  // namespace alignscope::core
