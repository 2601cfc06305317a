#include "core/Error.h"
#include "core/Vocabulary.h"

#include <gtest/gtest.h>

using alignscope::core::Error;
using alignscope::core::Vocabulary;

TEST(Vocabulary, SpecialTokensComeFirst) {
    Vocabulary v;
    EXPECT_EQ(v.size(), 4);
    EXPECT_EQ(v.token(Vocabulary::kEos), "</s>");
    EXPECT_EQ(v.id("anything"), Vocabulary::kUnk);
    EXPECT_EQ(v.token(999), "<unk>");
}

TEST(Vocabulary, FromCountsIsDeterministicAndCapped) {
    std::map<std::string, int64_t> counts = {{"b", 5}, {"a", 5}, {"c", 9}, {"rare", 1}};
    auto v = Vocabulary::fromCounts(counts, 2, 0);
    EXPECT_EQ(v.tokens(), (std::vector<std::string>{"<pad>", "<unk>", "<s>", "</s>", "c", "a", "b"}));
    EXPECT_EQ(Vocabulary::fromCounts(counts, 1, 5).size(), 5);
}

TEST(Vocabulary, RejectsBadLists) {
    EXPECT_THROW(Vocabulary(std::vector<std::string>{"a", "b"}), Error);
    EXPECT_THROW(Vocabulary(std::vector<std::string>{"<pad>", "<unk>", "<s>", "</s>", "x", "x"}), Error);
}
