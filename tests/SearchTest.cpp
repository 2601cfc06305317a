// Greedy and beam search share one interface; width 1 is exactly greedy.
#include "TinyModel.h"

#include "core/decoding/BeamSearch.h"
#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/decoding/GreedySearch.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace alignscope;

TEST(Search, BeamWidthOneEqualsGreedy) {
    for (auto cell : {core::ModelSpec::Cell::GRU, core::ModelSpec::Cell::LSTM}) {
        auto model = tests::tinyModel(tests::tinySpec(cell));
        for (const char* text : {"the red car", "a small house is big !", "zorglub"}) {  // "": refused as blank (DecodingSessionTest)
            core::DecodingSession s(model, text);
            core::SearchOptions one;
            const auto greedy = s.search(core::GreedySearch(), one);
            const auto beam = s.search(core::BeamSearch(), one);
            ASSERT_EQ(greedy.size(), 1u);
            ASSERT_EQ(beam.size(), 1u);
            EXPECT_EQ(beam[0].ids, greedy[0].ids) << text;
            EXPECT_EQ(beam[0].alpha, greedy[0].alpha) << text;
            EXPECT_EQ(beam[0].logProb, greedy[0].logProb) << text;
            // and a session stepping greedily agrees with the search
            s.runToEnd();
            EXPECT_EQ(s.targetIds(), greedy[0].ids) << text;
        }
    }
}

TEST(Search, BeamKeepsEveryHypothesisAlignment) {
    core::DecodingSession s(tests::tinyModel(), "the red car is big .");
    core::SearchOptions o;
    o.beamWidth = 4;
    const auto hyps = s.search(o);
    ASSERT_FALSE(hyps.empty());
    ASSERT_LE(hyps.size(), 4u);
    for (size_t i = 0; i < hyps.size(); ++i) {
        const auto& h = hyps[i];
        ASSERT_EQ(h.alpha.size(), h.ids.size());
        ASSERT_EQ(h.tokens.size(), h.ids.size());
        for (const auto& row : h.alpha) {
            ASSERT_EQ(row.size(), 7u);
            EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0), 1.0, 1e-5);
        }
        if (i > 0) EXPECT_GE(hyps[i - 1].score, h.score);
    }
}

TEST(Search, BeamFindsAtLeastAsProbableAnOutputAsGreedyWithoutLengthPenalty) {
    auto model = tests::tinyModel();
    for (const char* text : {"the red car", "a house", "small small small"}) {
        core::DecodingSession s(model, text);
        core::SearchOptions o;
        o.maxLength = 6;
        o.lengthPenalty = 0;
        const auto greedy = s.search(o);
        o.beamWidth = 5;
        const auto beam = s.search(o);
        if (greedy[0].finished) EXPECT_GE(beam[0].logProb, greedy[0].logProb - 1e-5) << text;
    }
}

TEST(Search, CancellationStopsWithAnError) {
    core::DecodingSession s(tests::tinyModel(), "the red car");
    core::SearchOptions o;
    o.beamWidth = 3;
    o.cancelled = [] { return true; };
    EXPECT_THROW(s.search(o), core::Error);
    EXPECT_THROW(core::SearchStrategy::create(0), core::Error);
}
