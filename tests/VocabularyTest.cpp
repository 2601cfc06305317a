#include "core/Error.h"
#include "core/text/Vocabulary.h"

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

TEST(Vocabulary, SpecialsMayBeAnywhereOrAbsent) {
    // d2l's Vocab sorts its reserved tokens among the words; the PyTorch tutorial has no pad or unk.
    auto specials = alignscope::core::SpecialIds::fromJson(nlohmann::json::parse(R"({"pad": 2, "unk": 3, "bos": 0, "eos": 1})"));
    Vocabulary v({"<bos>", "<eos>", "<pad>", "<unk>", "chat"}, specials);
    EXPECT_EQ(v.bos(), 0);
    EXPECT_EQ(v.startId(), 0);
    EXPECT_EQ(v.paddingId(), 2);
    EXPECT_EQ(v.id("chien"), 3);
    Vocabulary tutorial({"SOS", "EOS", "chat"}, alignscope::core::SpecialIds::fromJson(nlohmann::json::parse(R"({"bos": 0, "eos": 1})")));
    EXPECT_EQ(tutorial.unk(), alignscope::core::SpecialIds::kNone);
    EXPECT_EQ(tutorial.id("chien"), alignscope::core::SpecialIds::kNone);
    EXPECT_EQ(tutorial.paddingId(), 0);
    EXPECT_TRUE(tutorial.isSpecial(1));
    EXPECT_FALSE(tutorial.isSpecial(2));
}

TEST(Vocabulary, SpecialIdsAreCheckedInRangeDistinctAndNonNegative) {
    using alignscope::core::SpecialIds;
    auto message = [](auto make) {
        try {
            make();
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message([] {
                  Vocabulary({"a", "b"}, SpecialIds{0, 5, -1, -1});
              }).find("unk = 5 is outside the vocabulary"),
              std::string::npos);
    EXPECT_NE(message([] { Vocabulary({"a", "b"}, SpecialIds{1, -1, -1, 1}); }).find("pad and eos are both 1"), std::string::npos);
    EXPECT_NE(message([] { SpecialIds::fromJson(nlohmann::json::parse(R"({"eos": -3})")); }).find("negative"), std::string::npos);
    EXPECT_NE(message([] { SpecialIds::fromJson(nlohmann::json::parse(R"({"sep": 4})")); }).find("unknown special token 'sep'"),
              std::string::npos);
    EXPECT_NE(message([] { SpecialIds::fromJson(nlohmann::json::parse(R"({"eos": "3"})")); }).find("must be an integer"),
              std::string::npos);
}
