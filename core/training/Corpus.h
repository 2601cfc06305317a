#pragma once
#include "core/text/SentencePair.h"

#include <string>
#include <vector>

namespace alignscope::core {

// A tab-separated parallel corpus (`source<TAB>target` per line), read whole.
class Corpus {
public:
    enum class OnBadLine { Skip, Reject };  // what a malformed line does

    struct Problem {
        long line;           // 1-based
        std::string reason;  // "missing tab", "invalid UTF-8 at byte 12", ...
    };

    // Throws Error when the file cannot be read, or (Reject) at the first bad line, naming it.
    // `maxSideCharacters` > 0: a line whose source or target has more characters is bad too (a
    // trainer passes the tokenizer's limit, so the line is named, or skipped, before tokenizing).
    static Corpus read(const std::string& path, OnBadLine policy, size_t maxSideCharacters = 0);
    // Same from text in memory (tests, stdin).
    static Corpus parse(const std::string& text, const std::string& name, OnBadLine policy, size_t maxSideCharacters = 0);

    const std::string& name() const { return name_; }
    const std::vector<SentencePair>& pairs() const { return pairs_; }
    const std::vector<Problem>& problems() const { return problems_; }  // skipped lines
    long lines() const { return lines_; }                               // lines of the file, blank ones included

    // Deterministic split by source sentence: every pair of one source sentence lands in the same
    // part, so a held-out sentence is unseen in training with all its translations.
    struct Split {
        std::vector<SentencePair> train, validation, test;
    };
    Split split(double validationFraction, double testFraction, uint64_t seed) const;

    // Pairs as a corpus file (source<TAB>target per line), put in place whole (AtomicFile).
    static void writeTsv(const std::string& path, const std::vector<SentencePair>& pairs);

private:
    std::string name_;
    std::vector<SentencePair> pairs_;
    std::vector<Problem> problems_;
    long lines_ = 0;
};

}  // namespace alignscope::core
