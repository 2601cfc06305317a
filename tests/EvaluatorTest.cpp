// Evaluation: a tiny model trained on reversal scores high BLEU on fresh reversal data; sources with
// several targets are one segment with several references; sentences land in their length bucket.
#include "TinyModel.h"

#include "core/Error.h"
#include "core/evaluation/Evaluator.h"
#include "core/training/Trainer.h"

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <memory>
#include <random>

using namespace alignscope;

namespace {

// Reversal: "c a e" -> "e a c", words of one letter from a..h, 3 to 6 of them.
// One trained reversal model for the whole suite (a few seconds of training).
class TrainedReversal : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = std::make_unique<tests::TempDir>();
        auto o = tests::reversalTraining(*dir_);
        o.maxSteps = 600;
        ASSERT_TRUE(tests::trainToEnd(o).completed);
        model_ = std::make_unique<core::Model>(core::Model::load(o.outputPath));
    }
    static void TearDownTestSuite() {
        model_.reset();
        dir_.reset();
    }
    static std::unique_ptr<tests::TempDir> dir_;
    static std::unique_ptr<core::Model> model_;
};

std::unique_ptr<tests::TempDir> TrainedReversal::dir_;
std::unique_ptr<core::Model> TrainedReversal::model_;

}  // namespace

TEST_F(TrainedReversal, GreedyAndBeamScoreHighOnFreshData) {
    ASSERT_TRUE(model_);
    core::EvaluationOptions o;
    o.beamWidth = 3;
    const auto test = tests::reversalPairs(150, 99);  // not the training seed
    size_t calls = 0;
    const auto r = core::Evaluator(*model_, o).evaluate(test, "fresh", [&](const core::EvaluationProgress&) { ++calls; });
    ASSERT_EQ(r.searches.size(), 2u);
    EXPECT_EQ(r.searches[0].name, "greedy");
    EXPECT_EQ(r.searches[1].name, "beam 3");
    EXPECT_EQ(calls, 2 * r.sources.size());
    for (const auto& s : r.searches) {
        RecordProperty(s.name + " BLEU", std::to_string(s.corpus.bleu));  // in --gtest_output reports
        EXPECT_GT(s.corpus.bleu, 90.0) << s.name;
        EXPECT_GT(s.corpus.brevityPenalty, 0.95) << s.name;
        EXPECT_EQ(s.hypotheses.size(), r.sources.size());
        EXPECT_GT(s.sentencesPerSecond, 0.0);
    }
    EXPECT_NE(r.tokenization.find("lower-cased"), std::string::npos) << r.tokenization;
}

TEST_F(TrainedReversal, SameSourceWithTwoTargetsIsOneSegmentWithTwoReferences) {
    ASSERT_TRUE(model_);
    // Each source twice: once with its reversal, once with a wrong target. As one segment with two
    // references the right reference matches in full; as two segments BLEU would halve.
    std::vector<core::SentencePair> test;
    for (const auto& p : tests::reversalPairs(60, 5)) {
        test.push_back(p);
        test.push_back({p.source, "x y z", p.line});
    }
    core::EvaluationOptions o;
    o.beamWidth = 1;
    const auto r = core::Evaluator(*model_, o).evaluate(test);
    ASSERT_EQ(r.searches.size(), 1u);
    EXPECT_EQ(r.pairs, 120u);
    EXPECT_EQ(r.pairsUsed, 120u);
    EXPECT_EQ(r.searches[0].corpus.segments, r.sources.size());
    EXPECT_LE(r.sources.size(), 60u);
    for (auto n : r.referenceCounts) EXPECT_GE(n, 2u);
    EXPECT_GT(r.searches[0].corpus.bleu, 90.0);
}

TEST_F(TrainedReversal, OneSentenceAtATimeScoresAsBatchesDo) {
    ASSERT_TRUE(model_);
    const auto test = tests::reversalPairs(40, 17);
    core::EvaluationOptions batched;
    batched.beamWidth = 3;
    core::EvaluationOptions single = batched;
    single.batch = 1;
    const auto a = core::Evaluator(*model_, batched).evaluate(test);
    const auto b = core::Evaluator(*model_, single).evaluate(test);
    ASSERT_EQ(a.searches.size(), 2u);
    ASSERT_EQ(b.searches.size(), 2u);
    for (size_t s = 0; s < 2; ++s) {
        EXPECT_EQ(a.searches[s].hypotheses, b.searches[s].hypotheses) << a.searches[s].name;
        EXPECT_DOUBLE_EQ(a.searches[s].corpus.bleu, b.searches[s].corpus.bleu) << a.searches[s].name;
    }
}

TEST(Evaluator, GroupsBySourceAsTheModelSeesIt) {
    const auto model = tests::tinyModel();
    core::EvaluationOptions o;
    o.beamWidth = 2;
    o.maxLength = 4;
    const std::vector<core::SentencePair> test = {
        {"the red car", "la voiture rouge", 1}, {"a house", "une maison", 2}, {"The  red car", "une voiture rouge", 3}};
    const auto r = core::Evaluator(model, o).evaluate(test, "t");
    ASSERT_EQ(r.sources.size(), 2u);
    EXPECT_EQ(r.sources[0], "the red car");  // first spelling kept
    EXPECT_EQ(r.referenceCounts, (std::vector<size_t>{2, 1}));
    EXPECT_EQ(r.sourceLengths, (std::vector<int>{3, 2}));
    for (const auto& s : r.searches) EXPECT_EQ(s.corpus.segments, 2u);

    const auto j = r.toJson();
    EXPECT_EQ(j["sentences"], 2);
    EXPECT_EQ(j["references"], 3);
    EXPECT_EQ(j["searches"][1]["name"], "beam 2");
    EXPECT_EQ(j["searches"][0]["buckets"][0]["sentences"], 2);
    EXPECT_TRUE(j["searches"][0]["buckets"][1]["bleu"].is_null());  // empty bucket: no score
    EXPECT_EQ(j["searches"][0]["precisions"].size(), 4u);
}

// --tokenize 13a scores the detokenised text: a model against its own translations as references
// is 100 whatever its tokenizer; upper-case references lower a lower-casing model's cased score and
// not its lower-cased one.
TEST_F(TrainedReversal, ThirteenAScoresTheDetokenisedTextCasedOrNot) {
    core::EvaluationOptions o;
    o.beamWidth = 1;
    o.tokenize = "13a";
    std::vector<core::SentencePair> own = {{"c a e", "x", 1}, {"b d f h", "x", 2}, {"g a", "x", 3}};
    const auto first = core::Evaluator(*model_, o).evaluate(own, "t");
    for (size_t i = 0; i < own.size(); ++i) {
        own[i].target = first.searches[0].hypotheses[i];
        ASSERT_FALSE(own[i].target.empty());
    }
    const auto self = core::Evaluator(*model_, o).evaluate(own, "own");
    EXPECT_DOUBLE_EQ(self.searches[0].corpus.bleu, 100.0);
    EXPECT_NE(self.tokenization.find("13a"), std::string::npos);
    auto shouted = own;
    for (auto& p : shouted)
        for (auto& c : p.target) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_DOUBLE_EQ(core::Evaluator(*model_, o).evaluate(shouted, "shouted").searches[0].corpus.bleu, 0.0);
    o.lowercase = true;
    EXPECT_DOUBLE_EQ(core::Evaluator(*model_, o).evaluate(shouted, "shouted").searches[0].corpus.bleu, 100.0);
    o.tokenize = "words";
    EXPECT_THROW(core::Evaluator(*model_, o).evaluate(own, "own"), core::Error);
}

TEST(Evaluator, SentencesLandInTheirSourceLengthBucket) {
    const auto model = tests::tinyModel();
    core::EvaluationOptions o;
    o.beamWidth = 1;
    o.maxLength = 3;
    auto words = [](int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += i ? " car" : "car";
        return s;
    };
    // "car ." is two tokens: punctuation is split off.
    std::vector<core::SentencePair> test;
    for (const auto& src : {words(1), words(4) + " .", words(6), words(10), words(11), words(16), words(30), words(31), words(45)})
        test.push_back({src, "voiture", 0});
    core::Evaluator evaluator(model, o);
    const auto labels = evaluator.buckets();
    ASSERT_EQ(labels.size(), 6u);
    EXPECT_EQ(labels[0].label, "1-5");
    EXPECT_EQ(labels[4].label, "21-30");
    EXPECT_EQ(labels[5].label, "31+");
    const auto r = evaluator.evaluate(test);
    EXPECT_EQ(r.sourceLengths, (std::vector<int>{1, 5, 6, 10, 11, 16, 30, 31, 45}));
    EXPECT_EQ(r.bucketSentences, (std::vector<size_t>{2, 2, 1, 1, 1, 2}));
    for (size_t b = 0; b < r.buckets.size(); ++b) EXPECT_EQ(r.searches[0].buckets[b].segments, r.bucketSentences[b]);
}

TEST(Evaluator, MaxSentencesKeepsTheFirstSourcesWithAllTheirReferences) {
    const auto model = tests::tinyModel();
    core::EvaluationOptions o;
    o.beamWidth = 1;
    o.maxLength = 3;
    o.maxSentences = 2;
    const std::vector<core::SentencePair> test = {
        {"the car", "la voiture", 1}, {"a house", "une maison", 2}, {"the red car", "la voiture rouge", 3}, {"the car", "une voiture", 4}};
    const auto r = core::Evaluator(model, o).evaluate(test);
    ASSERT_EQ(r.sources.size(), 2u);
    EXPECT_EQ(r.pairsUsed, 3u);
    EXPECT_EQ(r.referenceCounts, (std::vector<size_t>{2, 1}));
}

TEST(Evaluator, BadInputIsAClearError) {
    const auto model = tests::tinyModel();
    EXPECT_THROW(core::Evaluator(model).evaluate({}), core::Error);
    core::EvaluationOptions o;
    o.beamWidth = 0;
    EXPECT_THROW(core::Evaluator(model, o), core::Error);
    o = {};
    o.bucketBounds = {5, 5};
    EXPECT_THROW(core::Evaluator(model, o), core::Error);
    try {
        core::Evaluator(model).evaluate({{"the car", "la voiture", 1}, {"the \xff car", "la voiture", 2}}, "test.tsv");
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("test.tsv:2"), std::string::npos) << e.what();
    }
}

TEST(Evaluator, UnusablePairsAreLeftOutWhenAskedAndNamed) {
    const auto model = tests::tinyModel();
    core::EvaluationOptions o;
    o.beamWidth = 1;
    o.maxLength = 3;
    std::string tooLong;
    for (int i = 0; i < 1200; ++i) tooLong += "car ";
    const std::vector<core::SentencePair> test = {{"the car", "la voiture", 1}, {tooLong, "la voiture", 2}, {"a house", "une maison", 3}};
    EXPECT_THROW(core::Evaluator(model, o).evaluate(test, "test.tsv"), core::Error);
    o.skipUnusablePairs = true;
    const auto r = core::Evaluator(model, o).evaluate(test, "test.tsv");
    EXPECT_EQ(r.sources, (std::vector<std::string>{"the car", "a house"}));
    ASSERT_EQ(r.skipped.size(), 1u);
    EXPECT_EQ(r.skipped[0].rfind("test.tsv:2: ", 0), 0u) << r.skipped[0];
    EXPECT_THROW(core::Evaluator(model, o).evaluate({{tooLong, "la voiture", 1}}, "test.tsv"), core::Error)
        << "nothing left to score is an error, not BLEU 0";
}
