// The step-by-step engine: alpha is a distribution over real positions only, padding changes
// nothing, back is exact, forcing continues from the forced token, and bad input never crashes.
#include "TinyModel.h"

#include "core/decoding/Alignment.h"
#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/model/TorchModel.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace alignscope;

namespace {

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void expectSameStep(const core::StepRecord& a, const core::StepRecord& b) {
    EXPECT_EQ(a.tokenId, b.tokenId);
    EXPECT_EQ(a.logProb, b.logProb);
    EXPECT_EQ(a.alpha, b.alpha);
    EXPECT_EQ(a.context, b.context);
    EXPECT_EQ(a.previousState, b.previousState);
    EXPECT_EQ(a.state, b.state);
    EXPECT_EQ(a.extras, b.extras);
    ASSERT_EQ(a.candidates.size(), b.candidates.size());
    for (size_t i = 0; i < a.candidates.size(); ++i) {
        EXPECT_EQ(a.candidates[i].id, b.candidates[i].id);
        EXPECT_EQ(a.candidates[i].probability, b.candidates[i].probability);
    }
}

}  // namespace

TEST(DecodingSession, EveryAlphaRowSumsToOne) {
    for (auto attention : {core::ModelSpec::Attention::Additive, core::ModelSpec::Attention::Dot, core::ModelSpec::Attention::General,
                           core::ModelSpec::Attention::None}) {
        core::DecodingSession s(tests::tinyModel(tests::tinySpec(core::ModelSpec::Cell::GRU, attention)), "the red car is big .");
        s.runToEnd();
        ASSERT_FALSE(s.steps().empty());
        for (const auto& step : s.steps()) {
            ASSERT_EQ(step.alpha.size(), 7u);
            EXPECT_NEAR(sum(step.alpha), 1.0, 1e-5);
        }
    }
}

TEST(DecodingSession, PaddedBatchEqualsEachSentenceAloneAndAlphaIsZeroOnPadding) {
    auto model = tests::tinyModel(tests::tinySpec(core::ModelSpec::Cell::LSTM));
    const auto& tm = model.torch();
    torch::InferenceMode guard;
    const std::vector<std::vector<int64_t>> sentences = {{4, 5, 6, 3}, {7, 3}, {4, 8, 9, 10, 11, 12, 3}};
    const int64_t S = 7;
    auto src = torch::zeros({3, S}, torch::kLong);
    auto len = torch::zeros({3}, torch::kLong);
    for (int64_t b = 0; b < 3; ++b) {
        for (size_t i = 0; i < sentences[b].size(); ++i) src[b][static_cast<int64_t>(i)] = sentences[b][i];
        len[b] = static_cast<int64_t>(sentences[b].size());
    }
    auto batch = tm.encode(src, len);
    auto y = torch::full({3}, core::Vocabulary::kBos, torch::kLong);
    auto stepped = tm.step(y, batch.state, batch);
    for (int64_t b = 0; b < 3; ++b) {
        const int64_t n = len[b].item<int64_t>();
        auto alone = tm.encode(src.slice(1, 0, n).slice(0, b, b + 1).clone(), len.slice(0, b, b + 1).clone());
        EXPECT_TRUE(torch::allclose(batch.enc[b].slice(0, 0, n), alone.enc[0], 1e-6, 1e-6)) << "sentence " << b;
        EXPECT_TRUE(torch::all(batch.enc[b].slice(0, n) == 0).item<bool>());
        EXPECT_TRUE(torch::allclose(batch.state[b], alone.state[0], 1e-6, 1e-6));
        auto one = tm.step(y.slice(0, 0, 1), alone.state, alone);
        EXPECT_TRUE(torch::allclose(stepped.alpha[b].slice(0, 0, n), one.alpha[0], 1e-6, 1e-6));
        EXPECT_TRUE(torch::all(stepped.alpha[b].slice(0, n) == 0).item<bool>()) << "padding must get exactly 0";
        EXPECT_NEAR(stepped.alpha[b].sum().item<double>(), 1.0, 1e-5);
        EXPECT_TRUE(torch::allclose(stepped.logProbs[b], one.logProbs[0], 1e-5, 1e-5));
    }
}

TEST(DecodingSession, StepBackStepIsBitIdentical) {
    core::DecodingSession s(tests::tinyModel(), "a small house .");
    s.step();
    s.step();
    const core::StepRecord third = s.step();
    EXPECT_TRUE(s.back());
    EXPECT_EQ(s.steps().size(), 2u);
    expectSameStep(third, s.step());
    // and all the way back to the start
    while (s.back()) {
    }
    EXPECT_TRUE(s.steps().empty());
    EXPECT_FALSE(s.back());
}

TEST(DecodingSession, ResetKeepsTheEncodingAndRestarts) {
    core::DecodingSession s(tests::tinyModel(), "the car");
    const core::StepRecord first = s.step();
    s.step();
    s.reset();
    EXPECT_TRUE(s.steps().empty());
    expectSameStep(first, s.step());
}

TEST(DecodingSession, ForcedTokenIsEmittedAndDecodingContinuesFromIt) {
    auto model = tests::tinyModel();
    core::DecodingSession s(model, "the red car");
    const auto maison = model.targetVocabulary().id("maison");
    const auto& forced = s.force(maison);
    EXPECT_TRUE(forced.forced);
    EXPECT_EQ(forced.token, "maison");
    const auto& next = s.step();
    EXPECT_FALSE(next.forced);
    EXPECT_EQ(s.targetIds().front(), maison);
    // The step after the forced token starts from the state the forced step produced.
    EXPECT_EQ(next.previousState, s.steps()[0].state);
    EXPECT_NE(s.translation().find("maison"), std::string::npos);
    EXPECT_THROW(s.force(-1), core::Error);
    EXPECT_THROW(s.force(model.targetVocabulary().size()), core::Error);
}

TEST(DecodingSession, RunToEndStopsAtEndOfSentenceOrTheCap) {
    core::SessionOptions o;
    o.maxLength = 5;
    core::DecodingSession s(tests::tinyModel(), "the red car", o);
    s.runToEnd();
    EXPECT_TRUE(s.finished());
    EXPECT_LE(s.steps().size(), 5u);
    EXPECT_THROW(s.step(), core::Error);
    EXPECT_TRUE(s.back());
    EXPECT_NO_THROW(s.step());
}

TEST(DecodingSession, TeacherForcingGivesOneRowPerTargetTokenPlusEnd) {
    core::DecodingSession s(tests::tinyModel(), "the red car");
    s.alignTo("La voiture rouge");
    ASSERT_EQ(s.steps().size(), 4u);
    EXPECT_EQ(s.steps()[0].token, "la");
    EXPECT_EQ(s.steps()[3].tokenId, core::Vocabulary::kEos);
    for (const auto& st : s.steps()) EXPECT_TRUE(st.forced);
    const auto a = s.alignment();
    EXPECT_EQ(a.targetWords(), (std::vector<int>{0, 1, 2, -1}));
    // unknown target words are kept as the user wrote them
    s.alignTo("zorglub rouge");
    EXPECT_EQ(s.steps()[0].token, "zorglub");
    EXPECT_EQ(s.steps()[0].tokenId, core::Vocabulary::kUnk);
}

// Nothing visible is a blank line (translate prints one), never a sentence decoded over </s> alone
// into a made-up translation (issue 59, invisible-lines-exported).
TEST(DecodingSession, AnEmptyOrInvisibleSentenceIsRefusedAsBlank) {
    for (const std::string text : {"", "  ", "\xE2\x80\xA8\xE2\x80\xA8", "\xC2\xA0\xE2\x80\x8B\xE2\x81\xA0\xEF\xBB\xBF"}) {
        try {
            core::DecodingSession s(tests::tinyModel(), text);
            ADD_FAILURE() << "decoded '" << text << "'";
        } catch (const core::Error& e) {
            EXPECT_EQ(std::string(e.what()),
                      "the sentence has nothing visible to translate (only spaces, line separators or invisible characters)");
        }
    }
}

TEST(DecodingSession, OnlyUnknownWordsAreMarkedAndStillDecode) {
    core::DecodingSession s(tests::tinyModel(), "zorglub blurf");
    EXPECT_EQ(s.source().unknown, (std::vector<bool>{true, true, false}));
    EXPECT_EQ(s.source().tokens[0], "zorglub");
    s.runToEnd();
    EXPECT_TRUE(s.finished());
}

TEST(DecodingSession, FiveHundredWordSentenceWorks) {
    std::string text;
    for (int i = 0; i < 500; ++i) text += (i % 2 ? "red " : "car ");
    core::SessionOptions o;
    o.maxLength = 8;
    core::DecodingSession s(tests::tinyModel(), text, o);
    EXPECT_EQ(s.sourceLength(), 501);
    EXPECT_EQ(s.encoderStates().size(), static_cast<size_t>(501 * s.encoderStateSize()));
    s.runToEnd();
    for (const auto& st : s.steps()) EXPECT_NEAR(sum(st.alpha), 1.0, 1e-5);
}

TEST(DecodingSession, OverlongAndInvalidInputAreClearErrors) {
    auto model = tests::tinyModel();
    std::string huge;
    for (int i = 0; i < 1200; ++i) huge += "car ";
    EXPECT_THROW(core::DecodingSession(model, huge), core::Error);
    try {
        core::DecodingSession(model, std::string("the \xc3\x28 car"));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos);
    }
}

TEST(DecodingSession, StepReportsCandidatesAndExtras) {
    core::SessionOptions o;
    o.topK = 3;
    core::DecodingSession s(tests::tinyModel(), "the red car", o);
    const auto& r = s.step();
    ASSERT_EQ(r.candidates.size(), 3u);
    EXPECT_EQ(r.candidates[0].id, r.tokenId);
    EXPECT_GE(r.candidates[0].probability, r.candidates[1].probability);
    EXPECT_NEAR(std::log(r.candidates[0].probability), r.logProb, 1e-5);
    ASSERT_EQ(r.extras.count("energies"), 1u);
    EXPECT_EQ(r.extras.at("energies").size(), 4u);
    EXPECT_EQ(r.context.size(), static_cast<size_t>(s.encoderStateSize()));
    EXPECT_EQ(r.previousState, s.initialState());
}
