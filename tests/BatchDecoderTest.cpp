// Batched decoding gives what one sentence at a time gives: the same tokens, alphas within 1e-5,
// in the input order, with each failing sentence's own error.
#include "TinyModel.h"

#include "core/alignment/SoftAlignment.h"
#include "core/decoding/BatchDecoder.h"
#include "core/decoding/DecodingSession.h"
#include "core/runtime/Runtime.h"
#include "core/model/TorchModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace alignscope;

namespace {

void expectClose(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t t = 0; t < a.size(); ++t) {
        ASSERT_EQ(a[t].size(), b[t].size()) << what << " row " << t;
        for (size_t i = 0; i < a[t].size(); ++i) EXPECT_NEAR(a[t][i], b[t][i], 1e-5) << what << " row " << t << " column " << i;
    }
}

}  // namespace

TEST(BatchDecoder, GreedyBatchesGiveTheTokensAndAlphasOfOneAtATime) {
    const auto model = core::Model::load(core::Runtime::modelsDirectory() + "/lesson-dates.pt");
    const std::vector<std::string> sources = {"the fifth of march , 1998",
                                              "5 march 1998",
                                              "march 5 , 2001",
                                              "the twenty-first of december , 1975",
                                              "1 jan 2000",
                                              "june 3 1944",
                                              "7/8/09"};
    std::vector<core::BatchDecoder::Item> items;
    for (const auto& s : sources) items.push_back({s, std::nullopt});
    for (int batch : {1, 3, 32}) {
        const auto results = core::BatchDecoder(model, batch).run(items);
        ASSERT_EQ(results.size(), sources.size());
        for (size_t i = 0; i < sources.size(); ++i) {
            core::DecodingSession session(model, sources[i]);
            const auto one = session.search(core::SearchOptions{}).front();
            ASSERT_TRUE(results[i].error.empty()) << results[i].error;
            EXPECT_EQ(results[i].hypothesis.ids, one.ids) << sources[i] << " batch " << batch;
            expectClose(results[i].hypothesis.alpha, one.alpha, sources[i]);
            EXPECT_NEAR(results[i].hypothesis.logProb, one.logProb, 1e-4);
            EXPECT_EQ(results[i].translation, model.detokenize(one.ids));
        }
    }
}

TEST(BatchDecoder, BeamBatchesGiveTheHypothesesOfOneAtATime) {
    // en-fr, whose beams differ from its greedy output, and the dates model; sentences of mixed lengths.
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {"en-fr.pt",
         {"I think that he is right.", "Tom went home.", "She has forgiven him for everything.", "Go!",
          "The agreement on the European Economic Area was signed in August 1992.", "We should talk about it tomorrow."}},
        {"lesson-dates.pt", {"the fifth of march , 1998", "5 march 1998", "june 3 1944", "7/8/09"}}};
    for (const auto& [file, sources] : cases) {
        const auto model = core::Model::load(core::Runtime::modelsDirectory() + "/" + file);
        std::vector<core::BatchDecoder::Item> items;
        for (const auto& s : sources) items.push_back({s, std::nullopt});
        for (int width : {2, 5}) {
            core::SearchOptions options;
            options.beamWidth = width;
            for (int batch : {1, 3, 32}) {
                const auto results = core::BatchDecoder(model, batch).run(items, options);
                ASSERT_EQ(results.size(), sources.size());
                for (size_t i = 0; i < sources.size(); ++i) {
                    const auto what = file + ": '" + sources[i] + "' beam " + std::to_string(width) + " batch " + std::to_string(batch);
                    const auto one = core::DecodingSession(model, sources[i]).search(options).front();
                    ASSERT_TRUE(results[i].error.empty()) << results[i].error;
                    EXPECT_EQ(results[i].hypothesis.tokens, one.tokens) << what;
                    expectClose(results[i].hypothesis.alpha, one.alpha, what);
                    EXPECT_NEAR(results[i].hypothesis.logProb, one.logProb, 1e-4) << what;
                    EXPECT_NEAR(results[i].hypothesis.score, one.score, 1e-4) << what;
                    EXPECT_EQ(results[i].hypothesis.finished, one.finished) << what;
                }
            }
        }
    }
}

TEST(BatchDecoder, WorkersDecodeBatchesAtOnceWithTheSameResults) {
    const auto model = core::Model::load(core::Runtime::modelsDirectory() + "/en-fr.pt");
    const std::vector<std::string> sources = {"I think that he is right.",
                                              "Tom went home.",
                                              "She has forgiven him for everything.",
                                              "Go!",
                                              "We should talk about it tomorrow.",
                                              "The cat is black.",
                                              "Where is the station?"};
    std::vector<core::BatchDecoder::Item> items;
    for (const auto& s : sources) items.push_back({s, std::nullopt});
    items.push_back({"Tom went home.", std::string("Tom est rentré à la maison.")});
    for (int width : {1, 3}) {
        core::SearchOptions options;
        options.beamWidth = width;
        const auto alone = core::BatchDecoder(model, 2, 1).run(items, options);
        const auto together = core::BatchDecoder(model, 2, 3).run(items, options);
        ASSERT_EQ(together.size(), items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            ASSERT_TRUE(together[i].error.empty()) << together[i].error;
            EXPECT_EQ(together[i].hypothesis.tokens, alone[i].hypothesis.tokens) << items[i].source << " beam " << width;
            expectClose(together[i].hypothesis.alpha, alone[i].hypothesis.alpha, items[i].source);
        }
    }
}

// A caller that reads tokens only (translate, evaluate: returnScores false) lets greedy batches skip
// the distribution: a model with step_logits (AlignScope's own, as built here) returns its scores
// before log_softmax, one without (lesson-dates, written before it) its log-probabilities; the
// tokens are the same either way, and the same as one sentence at a time.
TEST(BatchDecoder, GreedyWithoutScoresGivesTheSameTokens) {
    const auto tiny = tests::tinyModel();
    const auto dates = core::Model::load(core::Runtime::modelsDirectory() + "/lesson-dates.pt");
    ASSERT_TRUE(tiny.torch().stepsLogits());
    ASSERT_FALSE(dates.torch().stepsLogits());
    const std::vector<std::pair<const core::Model*, std::vector<std::string>>> cases = {
        {&tiny, {"the red car", "a house", "the red house near a car", "car"}},
        {&dates, {"the fifth of march , 1998", "5 march 1998", "june 3 1944", "7/8/09"}}};
    for (const auto& [model, sources] : cases) {
        std::vector<core::BatchDecoder::Item> items;
        for (const auto& s : sources) items.push_back({s, std::nullopt});
        core::SearchOptions tokensOnly;
        tokensOnly.returnScores = false;
        const auto scored = core::BatchDecoder(*model, 3).run(items);
        const auto unscored = core::BatchDecoder(*model, 3).run(items, tokensOnly);
        for (size_t i = 0; i < items.size(); ++i) {
            ASSERT_TRUE(unscored[i].error.empty()) << unscored[i].error;
            EXPECT_EQ(unscored[i].hypothesis.ids, scored[i].hypothesis.ids) << sources[i];
            core::DecodingSession session(*model, sources[i]);
            EXPECT_EQ(unscored[i].hypothesis.ids, session.search(core::SearchOptions{}).front().ids) << sources[i];
            expectClose(unscored[i].hypothesis.alpha, scored[i].hypothesis.alpha, sources[i]);
            EXPECT_EQ(unscored[i].hypothesis.logProb, 0.0f);
            EXPECT_LT(scored[i].hypothesis.logProb, 0.0f);
        }
    }
}

TEST(BatchDecoder, ABeamLeavesTeacherForcedItemsForcedAndStillSearchesTheOthers) {
    const auto model = core::Model::load(core::Runtime::modelsDirectory() + "/en-fr.pt");
    core::SearchOptions beam;
    beam.beamWidth = 4;
    const std::vector<core::BatchDecoder::Item> items = {{"I think that he is right.", std::nullopt},
                                                         {"Tom went home.", std::string("Tom est rentré à la maison.")},
                                                         {"She has forgiven him for everything.", std::nullopt}};
    const auto results = core::BatchDecoder(model, 8).run(items, beam);
    ASSERT_EQ(results.size(), 3u);
    for (size_t i : {size_t{0}, size_t{2}})
        EXPECT_EQ(results[i].hypothesis.tokens, core::DecodingSession(model, items[i].source).search(beam).front().tokens)
            << items[i].source;
    core::DecodingSession forced(model, items[1].source);
    forced.alignTo(*items[1].target);
    EXPECT_EQ(results[1].alignment().targetTokens(), forced.alignment().targetTokens());
    expectClose(results[1].hypothesis.alpha, forced.alignment().weights(), "forced");
}

TEST(BatchDecoder, TeacherForcedBatchesGiveTheAlignmentsOfOneAtATime) {
    const auto model = core::Model::load(core::Runtime::modelsDirectory() + "/lesson-dates.pt");
    const std::vector<std::pair<std::string, std::string>> pairs = {{"the fifth of march , 1998", "1998 - 03 - 05"},
                                                                    {"5 march 1998", "1998 - 03 - 05"},
                                                                    {"june 3 1944", "1944 - 06 - 03"},
                                                                    {"1 jan 2000", "2000 - 01 - 01 - 01"}};
    std::vector<core::BatchDecoder::Item> items;
    for (const auto& [s, t] : pairs) items.push_back({s, t});
    const auto results = core::BatchDecoder(model, 4).run(items);
    for (size_t i = 0; i < pairs.size(); ++i) {
        core::DecodingSession session(model, pairs[i].first);
        session.alignTo(pairs[i].second);
        const auto a = session.alignment(), b = results[i].alignment();
        EXPECT_EQ(b.targetTokens(), a.targetTokens());
        EXPECT_EQ(core::SoftAlignment::attentionPharaoh(b), core::SoftAlignment::attentionPharaoh(a)) << pairs[i].first;
        expectClose(b.weights(), a.weights(), pairs[i].first);
    }
}

// Alignment reads alphas only (returnScores false): a model with force_attention (AlignScope's own,
// as built here) runs the whole forced batch in one call, and its alphas are step's to the bit,
// rows of different lengths leaving the batch as the step loop drops them.
TEST(BatchDecoder, ForcedAttentionGivesTheStepLoopsAlphasBitForBit) {
    for (const auto& model :
         {tests::tinyModel(), tests::tinyModel(tests::tinySpec(core::ModelSpec::Cell::LSTM, core::ModelSpec::Attention::Dot, true,
                                                               core::ModelSpec::Decoder::Conditional))}) {
        ASSERT_TRUE(model.torch().forcesAttention());
        const std::vector<core::BatchDecoder::Item> items = {{"the red car", std::string("a house")},
                                                             {"a house", std::string("the red house near a car")},
                                                             {"the red house near a car", std::string("car")},
                                                             {"car", std::string("the car")}};
        core::SearchOptions alphasOnly;
        alphasOnly.returnScores = false;
        const auto stepped = core::BatchDecoder(model, 4).run(items);
        const auto forced = core::BatchDecoder(model, 4).run(items, alphasOnly);
        for (size_t i = 0; i < items.size(); ++i) {
            ASSERT_TRUE(forced[i].error.empty()) << forced[i].error;
            EXPECT_EQ(forced[i].hypothesis.ids, stepped[i].hypothesis.ids) << items[i].source;
            EXPECT_EQ(forced[i].hypothesis.tokens, stepped[i].hypothesis.tokens) << items[i].source;
            EXPECT_EQ(forced[i].hypothesis.alpha, stepped[i].hypothesis.alpha) << items[i].source;
            EXPECT_EQ(forced[i].hypothesis.finished, stepped[i].hypothesis.finished);
            EXPECT_EQ(forced[i].hypothesis.logProb, 0.0f);
        }
    }
    // A model without the method (lesson-dates, written before it) steps as before.
    const auto dates = core::Model::load(core::Runtime::modelsDirectory() + "/lesson-dates.pt");
    EXPECT_FALSE(dates.torch().forcesAttention());
    core::SearchOptions alphasOnly;
    alphasOnly.returnScores = false;
    const std::vector<core::BatchDecoder::Item> dated = {{"5 march 1998", std::string("1998 - 03 - 05")}};
    EXPECT_EQ(core::BatchDecoder(dates, 4).run(dated, alphasOnly)[0].hypothesis.alpha,
              core::BatchDecoder(dates, 4).run(dated)[0].hypothesis.alpha);
}

TEST(BatchDecoder, ASentenceThatCannotBeTokenisedFailsAloneInItsPlace) {
    const auto model = tests::tinyModel();
    std::vector<core::BatchDecoder::Item> items = {{"the cat", std::nullopt}, {"bad \xff byte", std::nullopt}, {"a dog", std::nullopt}};
    const auto results = core::BatchDecoder(model, 8).run(items);
    EXPECT_TRUE(results[0].error.empty());
    EXPECT_NE(results[1].error.find("not valid UTF-8"), std::string::npos) << results[1].error;
    EXPECT_TRUE(results[2].error.empty());
    EXPECT_FALSE(results[2].hypothesis.ids.empty());
}
