// Two models' alignments on one pair of axes (the compare view): token by token where the models
// read the source alike, merged to words where they do not; differences only where targets agree.
#include "TinyModel.h"

#include "core/alignment/AlignmentComparison.h"
#include "core/alignment/LinkExtraction.h"
#include "core/alignment/LinkSet.h"
#include "core/alignment/SoftAlignment.h"
#include "core/decoding/BatchDecoder.h"
#include "core/evaluation/ModelScorecard.h"
#include "core/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

using namespace alignscope;
using Side = core::AlignmentComparison::Side;

TEST(AlignmentComparison, SameTokensCompareTokenByTokenWhereTargetsAgree) {
    const core::Alignment a({"the", "car", "</s>"}, {0, 1, -1}, {"la", "voiture", "</s>"}, {0, 1, -1},
                            {{0.7f, 0.2f, 0.1f}, {0.1f, 0.8f, 0.1f}, {0.0f, 0.1f, 0.9f}});
    // B attends its own padding column (dropped: A has none) and says "auto" where A says "voiture".
    const core::Alignment b({"the", "car", "</s>", "<padding>"}, {0, 1, -1, -1}, {"la", "auto", "</s>"}, {0, 1, -1},
                            {{0.5f, 0.4f, 0.1f, 0.0f}, {0.2f, 0.7f, 0.1f, 0.0f}, {0.1f, 0.1f, 0.8f, 0.0f}});
    const auto c = core::AlignmentComparison::compare("the car", {"A", "la voiture", {}, {}}, a, {"B", "la auto", {}, {}}, b);
    EXPECT_FALSE(c.wordLevel());
    EXPECT_EQ(c.columns(), (std::vector<std::string>{"the", "car", "</s>"}));
    EXPECT_EQ(c.a().rows, (std::vector<std::string>{"la", "voiture", "</s>"}));
    EXPECT_EQ(c.b().rows, (std::vector<std::string>{"la", "auto", "</s>"}));
    EXPECT_EQ(c.rowAgrees(), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(c.agreeingRows(), 2u);
    EXPECT_NEAR(c.difference()[0][0], 0.2f, 1e-6);
    EXPECT_NEAR(c.difference()[0][1], -0.2f, 1e-6);
    EXPECT_NEAR(c.difference()[2][2], 0.1f, 1e-6);
    for (float d : c.difference()[1]) EXPECT_TRUE(std::isnan(d)) << "no difference where the targets differ";
    EXPECT_NEAR(c.largestAbsoluteDifference(), 0.2, 1e-6);
    EXPECT_NEAR(c.meanAbsoluteDifference(), (0.2 + 0.2 + 0.0 + 0.1 + 0.0 + 0.1) / 6, 1e-6);
    const auto json = c.toJson();
    EXPECT_EQ(json["level"], "tokens");
    EXPECT_TRUE(json["difference"][1].is_null());
    EXPECT_EQ(json["b"]["alpha"][0].size(), 3u) << "the padding column is not compared";
}

TEST(AlignmentComparison, DifferentTokenizersMeetOnWords) {
    // A reads pieces ("▁ca" "r" make one word), B whole words; targets differ only in case.
    const core::Alignment a({"▁the", "▁ca", "r", "</s>"}, {0, 1, 1, -1}, {"▁La", "▁voi", "ture", "</s>"}, {0, 1, 1, -1},
                            {{0.6f, 0.2f, 0.1f, 0.1f}, {0.0f, 0.5f, 0.3f, 0.2f}, {0.1f, 0.4f, 0.4f, 0.1f}, {0, 0, 0, 1}});
    const core::Alignment b({"the", "car", "</s>"}, {0, 1, -1}, {"la", "voiture", "</s>"}, {0, 1, -1},
                            {{0.9f, 0.1f, 0.0f}, {0.3f, 0.6f, 0.1f}, {0, 0, 1}});
    const auto c = core::AlignmentComparison::compare("the car", {"A", "La voiture", {}, {}}, a, {"B", "la voiture", {}, {}}, b);
    ASSERT_TRUE(c.wordLevel());
    EXPECT_EQ(c.columns(), (std::vector<std::string>{"the", "car"}));
    EXPECT_EQ(c.a().rows, (std::vector<std::string>{"La", "voiture"}));
    EXPECT_EQ(c.b().rows, (std::vector<std::string>{"la", "voiture"}));
    // The merge every word view uses: a word's columns summed, its rows averaged.
    EXPECT_NEAR(c.a().weights[0][1], 0.2f + 0.1f, 1e-6);
    EXPECT_NEAR(c.a().weights[1][1], ((0.5f + 0.3f) + (0.4f + 0.4f)) / 2, 1e-6);
    EXPECT_EQ(c.rowAgrees(), (std::vector<bool>{true, true})) << "words compare without case";
    EXPECT_NEAR(c.difference()[0][0], 0.6f - 0.9f, 1e-6);
    EXPECT_EQ(c.toJson()["level"], "words");
}

TEST(AlignmentComparison, SameTokensMergeToWordsWhenAskedFor) {
    // Both read the same pieces (View → Words, `compare --words`): one word's pieces become one column and row.
    const core::Alignment a({"▁the", "▁ca", "r", "</s>"}, {0, 1, 1, -1}, {"▁la", "▁voi", "ture", "</s>"}, {0, 1, 1, -1},
                            {{0.6f, 0.2f, 0.1f, 0.1f}, {0.0f, 0.5f, 0.3f, 0.2f}, {0.1f, 0.4f, 0.4f, 0.1f}, {0, 0, 0, 1}});
    const auto tokens = core::AlignmentComparison::compare("the car", {"A", "la voiture", {}, {}}, a, {"B", "la voiture", {}, {}}, a);
    EXPECT_FALSE(tokens.wordLevel());
    EXPECT_EQ(tokens.columns().size(), 4u);
    const auto c = core::AlignmentComparison::compare("the car", {"A", "la voiture", {}, {}}, a, {"B", "la voiture", {}, {}}, a, true);
    ASSERT_TRUE(c.wordLevel());
    EXPECT_TRUE(c.sameTokens());
    EXPECT_EQ(c.columns(), (std::vector<std::string>{"the", "car"}));
    EXPECT_EQ(c.a().rows, (std::vector<std::string>{"la", "voiture"}));
    EXPECT_NEAR(c.a().weights[1][1], ((0.5f + 0.3f) + (0.4f + 0.4f)) / 2, 1e-6);
    EXPECT_EQ(c.agreeingRows(), 2u);
    EXPECT_EQ(c.largestAbsoluteDifference(), 0.0);
    const auto json = c.toJson();
    EXPECT_EQ(json["level"], "words");
    EXPECT_EQ(json["same_tokens"], true);
}

// A model scored against its own output: BLEU 100 and AER 0, through the same paths the compare
// view and `compare --test` use.
TEST(ModelScorecard, AModelAgainstItsOwnTranslationsAndLinks) {
    const auto model = tests::tinyModel();
    const std::vector<std::string> sources = {"the red car", "a small house .", "the car"};
    const core::BatchDecoder decoder(model, 4);
    std::vector<core::BatchDecoder::Item> items;
    for (const auto& s : sources) items.push_back({s, std::nullopt});
    const auto translated = decoder.run(items);
    std::vector<core::SentencePair> pairs;
    for (size_t k = 0; k < sources.size(); ++k) {
        ASSERT_TRUE(translated[k].error.empty()) << translated[k].error;
        // BLEU counts 4-grams: a hypothesis shorter than four words would leave nothing to count.
        if (core::LinkSet::wordCount(translated[k].translation) < 4) continue;
        pairs.push_back({sources[k], translated[k].translation, static_cast<long>(k + 1)});
    }
    ASSERT_FALSE(pairs.empty());
    std::vector<core::LinkSet> gold;
    items.clear();
    for (const auto& p : pairs) items.push_back({p.source, p.target});
    for (const auto& r : decoder.run(items)) {
        core::LinkSet links;
        for (const auto& l : core::SoftAlignment::fromAttention(r.alignment()).links(core::LinkExtraction::Rule::Argmax))
            links.sure.insert(l);
        gold.push_back(links);
    }
    const auto card = core::ModelScorecard::score(model, pairs, "test.tsv", gold, "gold.txt");
    EXPECT_NEAR(card.bleu, 100.0, 1e-9);
    EXPECT_EQ(card.segments, pairs.size());
    ASSERT_TRUE(card.hasAer);
    EXPECT_NEAR(card.aer, 0.0, 1e-9);
    EXPECT_NEAR(card.precision, 100.0, 1e-9);
    EXPECT_EQ(card.search, "greedy");
    EXPECT_EQ(core::ModelScorecard::score(model, pairs, "test.tsv", {}, "", 3).search, "beam 3");

    // Gold links that do not fit: named by file and line.
    gold.back().sure.insert({40, 0});
    try {
        core::ModelScorecard::score(model, pairs, "test.tsv", gold, "gold.txt");
        FAIL() << "a link outside its pair was scored";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("gold.txt:" + std::to_string(pairs.size())), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("' on 'test.tsv': "), std::string::npos) << "names the model and the test: " << e.what();
    }
    gold.pop_back();
    EXPECT_THROW(core::ModelScorecard::score(model, pairs, "test.tsv", gold, "gold.txt"), core::Error) << "one line short";
}

TEST(LinkSet, ReadsAFileOfLinksNamingABadLine) {
    tests::TempDir dir;
    std::ofstream(dir.path("links.txt")) << "0-0 1p1\n\n2-x\n";
    try {
        core::LinkSet::readFile(dir.path("links.txt"));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("links.txt:3"), std::string::npos) << e.what();
    }
    std::ofstream(dir.path("good.txt")) << "0-0 1p1\n\n";
    const auto sets = core::LinkSet::readFile(dir.path("good.txt"));
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].sure.size(), 1u);
    EXPECT_EQ(sets[0].possible.size(), 1u);
    EXPECT_EQ(core::LinkSet::words("a\u00a0b  c"), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_THROW(core::LinkSet::readFile(dir.path("missing.txt")), core::Error);
}
