#include "core/training/Corpus.h"
#include "core/Error.h"

#include <gtest/gtest.h>

#include <set>

using alignscope::core::Corpus;
using alignscope::core::Error;

TEST(Corpus, ReadsPairsAndIgnoresAThirdColumn) {
    auto c = Corpus::parse("Go.\tVa !\nHi.\tSalut !\tCC-BY 2.0 (France) Attribution\n\n", "t", Corpus::OnBadLine::Reject);
    ASSERT_EQ(c.pairs().size(), 2u);
    EXPECT_EQ(c.pairs()[1].target, "Salut !");
    EXPECT_EQ(c.pairs()[1].line, 2);
}

TEST(Corpus, BadLinesAreRejectedWithTheirLineNumber) {
    const std::string text = "Go.\tVa !\nno tab here\nHi.\tSalut \xff!\n";
    try {
        Corpus::parse(text, "corpus.tsv", Corpus::OnBadLine::Reject);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("corpus.tsv:2: missing tab"), std::string::npos) << e.what();
    }
}

TEST(Corpus, BadLinesCanBeSkippedAndAreReported) {
    const std::string text = "Go.\tVa !\nno tab here\nHi.\tSalut \xff!\n\tempty source\nOk.\tD'accord.\n";
    auto c = Corpus::parse(text, "t", Corpus::OnBadLine::Skip);
    ASSERT_EQ(c.pairs().size(), 2u);
    ASSERT_EQ(c.problems().size(), 3u);
    EXPECT_EQ(c.problems()[0].line, 2);
    EXPECT_EQ(c.problems()[1].line, 3);
    EXPECT_NE(c.problems()[1].reason.find("UTF-8"), std::string::npos);
    EXPECT_EQ(c.problems()[2].line, 4);
}

// A side with nothing visible (no-break spaces, zero-width characters, line separators) is as empty
// as a side of no characters: translate's blank-line rule (issue 59, invisible-lines-exported).
TEST(Corpus, ASideWithNothingVisibleIsEmpty) {
    const std::string text = "Go.\tVa !\n\xC2\xA0\xE2\x80\x8B\tVa !\nGo.\t\xE2\x80\xA8\tCC-BY\nOk.\tD'accord.\n";
    auto c = Corpus::parse(text, "t", Corpus::OnBadLine::Skip);
    ASSERT_EQ(c.pairs().size(), 2u);
    ASSERT_EQ(c.problems().size(), 2u);
    EXPECT_EQ(c.problems()[0].line, 2);
    EXPECT_EQ(c.problems()[0].reason, "empty source or target (nothing visible)");
    EXPECT_EQ(c.problems()[1].line, 3);
}

TEST(Corpus, SplitKeepsEveryTranslationOfASourceTogether) {
    std::string text;
    for (int i = 0; i < 300; ++i)
        for (int k = 0; k < 3; ++k) text += "sentence " + std::to_string(i) + "\ttranslation " + std::to_string(k) + "\n";
    auto c = Corpus::parse(text, "t", Corpus::OnBadLine::Reject);
    const auto s = c.split(0.1, 0.2, 5);
    std::set<std::string> train, test;
    for (const auto& p : s.train) train.insert(p.source);
    for (const auto& p : s.test) test.insert(p.source);
    for (const auto& src : test) EXPECT_EQ(train.count(src), 0u) << src;
    EXPECT_EQ(s.test.size() % 3, 0u);
    EXPECT_NEAR(static_cast<double>(s.test.size()) / 900, 0.2, 0.07);
    const auto again = c.split(0.1, 0.2, 5);
    EXPECT_EQ(again.test.size(), s.test.size());
}
