// Hard links, their symmetrisation and their scoring against gold (torch-free).
#include "core/alignment/AerComparison.h"
#include "core/alignment/AlignmentErrorRate.h"
#include "core/alignment/LinkExtraction.h"
#include "core/alignment/LinkSet.h"
#include "core/Error.h"

#include <gtest/gtest.h>

using namespace alignscope::core;
using Links = LinkExtraction::Links;

TEST(LinkSet, ReadsSureAndPossibleLinksInEitherNotation) {
    const auto l = LinkSet::parse("0-0 1p2 2?1 3-3 3p3");
    EXPECT_EQ(l.sure, (std::set<LinkSet::Link>{{0, 0}, {3, 3}}));
    EXPECT_EQ(l.possible, (std::set<LinkSet::Link>{{1, 2}, {2, 1}})) << "a link given both ways is sure";
    EXPECT_EQ(l.pharaoh(), "0-0 1p2 2p1 3-3");
    EXPECT_EQ(l.maxSource(), 3);
    EXPECT_EQ(l.maxTarget(), 3);
    EXPECT_EQ(LinkSet::parse("1-1 2p3", true).pharaoh(), "0-0 1p2");
    EXPECT_EQ(LinkSet::parse("").size(), 0u);
}

TEST(LinkSet, RefusesMalformedLinksAndZeroWhenOneBased) {
    for (const char* bad : {"0-x", "1-", "-2", "3", "1:2", "0--1", "1-2-3", "99999999999-1"}) {
        try {
            LinkSet::parse(std::string("0-0 ") + bad);
            ADD_FAILURE() << bad;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "' is not a link"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(LinkSet::parse("0-1", true), Error);
}

TEST(LinkSet, CountsWordsBetweenUnicodeSpaces) {
    EXPECT_EQ(LinkSet::wordCount("As-tu faim ?"), 3u);
    EXPECT_EQ(LinkSet::wordCount("As-tu faim\u202f?"), 3u) << "a narrow no-break space separates words";
    EXPECT_EQ(LinkSet::wordCount("  a\t b  "), 2u);
    EXPECT_EQ(LinkSet::wordCount(""), 0u);
}

TEST(AlignmentErrorRate, FollowsOchAndNey) {
    // S = {0-0, 1-1}, P = S + {2-1}; A = {0-0, 2-1, 2-2}: |A∩S| = 1, |A∩P| = 2.
    AlignmentErrorRate score;
    score.add(LinkSet::parse("0-0 1-1 2p1"), {{0, 0}, {2, 1}, {2, 2}});
    EXPECT_NEAR(score.aer(), 1.0 - 3.0 / 5.0, 1e-12);
    EXPECT_NEAR(score.precision(), 2.0 / 3.0, 1e-12);
    EXPECT_NEAR(score.recall(), 1.0 / 2.0, 1e-12);
    // A perfect second sentence: counts are summed over sentences, not averaged.
    score.add(LinkSet::parse("0-0 1-1"), {{0, 0}, {1, 1}});
    EXPECT_NEAR(score.aer(), 1.0 - 7.0 / 9.0, 1e-12);
    EXPECT_EQ(score.sentences(), 2);
    EXPECT_EQ(score.possibleLinks(), 5);
    AlignmentErrorRate empty;
    EXPECT_EQ(empty.aer(), 0.0);
}

TEST(LinkExtraction, ArgmaxThresholdAndWordMerge) {
    // source words: "the" | "red-car" (pieces red, -car) | </s>; target: "la" "voiture" </s>
    const std::vector<std::vector<float>> m = {{0.7f, 0.2f, 0.05f, 0.05f}, {0.1f, 0.35f, 0.45f, 0.1f}, {0.0f, 0.1f, 0.0f, 0.9f}};
    const std::vector<int> sw = {0, 1, 1, -1}, tw = {0, 1, -1};
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::Argmax), (Links{{0, 0}, {1, 1}}));
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::Threshold, 0.15f), (Links{{0, 0}, {1, 0}, {1, 1}}));
    // Signed scores: only the positive part counts as mass.
    EXPECT_EQ(LinkExtraction::extract({{-5.0f, 1.0f, 1.0f, 0.0f}}, sw, {0}, LinkExtraction::Rule::Threshold, 0.5f), (Links{{1, 0}}));
    const auto words = LinkExtraction::mergeToWords(m, sw, tw);
    ASSERT_EQ(words.size(), 2u);
    ASSERT_EQ(words[0].size(), 2u);
    EXPECT_FLOAT_EQ(words[1][1], 0.8f) << "a source word's pieces are summed";
    const auto rows = LinkExtraction::mergeToWords({{1.0f, 0.0f}, {0.0f, 1.0f}}, {0, 1}, {0, 0});
    EXPECT_FLOAT_EQ(rows[0][0], 0.5f) << "a target word's pieces are averaged";
    // A model's own padding column (past the source words) is never linked.
    EXPECT_EQ(LinkExtraction::extract({{0.3f, 0.1f, 0.6f}}, {0, 1}, {0}, LinkExtraction::Rule::Argmax), (Links{{0, 0}}));
}

TEST(LinkExtraction, OneDecisionPerTargetWord) {
    // target word 0 is three pieces peaking on three different source words: argmax over the
    // averaged row links it once, to the word the row as a whole weighs most (source 1: 0.4 + 0.3
    // + 0.35 against 0.6 + 0.1 + 0.1 for source 0), where reading each piece gave three links.
    const std::vector<std::vector<float>> m = {{0.6f, 0.4f, 0.0f, 0.0f}, {0.1f, 0.3f, 0.6f, 0.0f}, {0.1f, 0.35f, 0.0f, 0.55f}};
    const std::vector<int> sw = {0, 1, 2, -1}, tw = {0, 0, 0};
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::Argmax), (Links{{1, 0}}));
    // a threshold reads the same merged row: 0.35 of the mass on source 1, 0.27 on 0, 0.2 on 2
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::Threshold, 0.25f), (Links{{0, 0}, {1, 0}}));
    // a word whose row peaks on </s> (tokens of no word) stays unaligned
    EXPECT_TRUE(LinkExtraction::extract({{0.2f, 0.1f, 0.0f, 0.7f}}, sw, {0}, LinkExtraction::Rule::Argmax).empty());
}

TEST(LinkExtraction, ArgmaxBothWaysAddsEachSourceWordsPeak) {
    // "the red car" -> "la voiture rouge": rouge's row peaks on car (0.45 against red's 0.4), so
    // rows alone never link red; red's column peaks on rouge. Rows {0-0, 2-1, 2-2}, columns
    // {0-0, 1-2, 2-1}; grow-diag-final-and from their intersection {0-0, 2-1} adds 2-2, then 1-2.
    const std::vector<std::vector<float>> m = {{0.8f, 0.05f, 0.1f, 0.05f}, {0.05f, 0.1f, 0.8f, 0.05f}, {0.05f, 0.4f, 0.45f, 0.1f}};
    const std::vector<int> sw = {0, 1, 2, -1}, tw = {0, 1, 2};
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::Argmax), (Links{{0, 0}, {2, 1}, {2, 2}}));
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::ArgmaxBothWays), (Links{{0, 0}, {1, 2}, {2, 1}, {2, 2}}));
    EXPECT_EQ(LinkExtraction::ruleNamed("argmax-both-ways"), LinkExtraction::Rule::ArgmaxBothWays);
    // A column compares target words by their averaged rows: word 0's two pieces give source 1
    // 0.3 each (0.6 summed), word 1 gives it 0.5, so source 1's peak is word 1.
    const auto pieces =
        LinkExtraction::extract({{0.7f, 0.3f}, {0.7f, 0.3f}, {0.5f, 0.5f}}, {0, 1}, {0, 0, 1}, LinkExtraction::Rule::ArgmaxBothWays);
    EXPECT_EQ(pieces, (Links{{0, 0}, {0, 1}, {1, 1}}));
}

// A row that peaks on </s> (the pooled column of no word) links nothing with argmax and its best
// source word with argmax-skip-eos; rows that peak on a word link it with both.
TEST(LinkExtraction, ArgmaxSkipEosLinksTheBestWordOfARowThatPeaksOnEos) {
    const std::vector<std::vector<float>> m = {{0.7f, 0.1f, 0.2f}, {0.1f, 0.3f, 0.6f}, {0.05f, 0.15f, 0.8f}};
    const std::vector<int> sw = {0, 1, -1}, tw = {0, 1, 1};  // target word 1 in two pieces: (0.15, 0.225, 0.7) averaged
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::Argmax), (Links{{0, 0}}));
    EXPECT_EQ(LinkExtraction::extract(m, sw, tw, LinkExtraction::Rule::ArgmaxSkipEos), (Links{{0, 0}, {1, 1}}));
    EXPECT_EQ(LinkExtraction::ruleNamed("argmax-skip-eos"), LinkExtraction::Rule::ArgmaxSkipEos);
    // No source word at all (a source of </s> only): nothing to link.
    EXPECT_TRUE(LinkExtraction::extract({{1.0f}}, {-1}, {0}, LinkExtraction::Rule::ArgmaxSkipEos).empty());
}

TEST(LinkExtraction, IterMaxLinksMutualPeaksThenUnlinkedWords) {
    // Four words each side. Round 1: rows peak on sources 0,0,2,2, columns on targets 0,1,2,3
    // (first of equal peaks) -> mutual 0-0, 2-2. Round 2: a cell of two unlinked words whole, of
    // one linked word at half, of two linked words 0: row 1 peaks on source 1 (0.3 against 0.25
    // and 0.2), row 3 on source 3 (0.35 against 0.3 and 0.175); columns 1 and 3 peak on rows 1
    // and 3 -> 1-1 and 3-3 join.
    const std::vector<std::vector<float>> m = {
        {0.9f, 0.05f, 0.0f, 0.05f}, {0.5f, 0.3f, 0.0f, 0.2f}, {0.0f, 0.1f, 0.8f, 0.1f}, {0.0f, 0.3f, 0.35f, 0.35f}};
    const std::vector<int> w = {0, 1, 2, 3};
    EXPECT_EQ(LinkExtraction::extract(m, w, w, LinkExtraction::Rule::Argmax), (Links{{0, 0}, {0, 1}, {2, 2}, {2, 3}}));
    EXPECT_EQ(LinkExtraction::extract(m, w, w, LinkExtraction::Rule::IterMax), (Links{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
    EXPECT_EQ(LinkExtraction::ruleNamed("itermax"), LinkExtraction::Rule::IterMax);
    // A side of two words or fewer keeps the first round's mutual peaks only.
    EXPECT_EQ(LinkExtraction::extract({{0.9f, 0.1f}, {0.8f, 0.2f}}, {0, 1}, {0, 1}, LinkExtraction::Rule::IterMax), (Links{{0, 0}}));
}

TEST(LinkExtraction, GrowDiagFinalAndAsMosesDoesIt) {
    const Links forward = {{0, 0}, {1, 1}, {2, 3}, {3, 2}};
    const Links backward = {{0, 0}, {1, 1}, {1, 2}, {3, 3}, {4, 5}};
    EXPECT_EQ(LinkExtraction::symmetrize(forward, backward, LinkExtraction::Symmetrization::Intersection), (Links{{0, 0}, {1, 1}}));
    EXPECT_EQ(LinkExtraction::symmetrize(forward, backward, LinkExtraction::Symmetrization::Union).size(), 7u);
    // grow, neighbours in Moses' order (left, up, right, down, then diagonals): 1-2 touches 1-1 and
    // target 2 is unaligned → added; 2-3 (diagonal of 1-2, source 2 unaligned) → added; from 2-3,
    // 3-3 comes before 3-2 and takes source 3, so 3-2 then joins two aligned words and stays out.
    // final-and: 4-5, both words unaligned.
    EXPECT_EQ(LinkExtraction::symmetrize(forward, backward, LinkExtraction::Symmetrization::GrowDiagFinalAnd),
              (Links{{0, 0}, {1, 1}, {1, 2}, {2, 3}, {3, 3}, {4, 5}}));
    EXPECT_EQ(LinkExtraction::symmetrizationNamed("grow-diag-final-and"), LinkExtraction::Symmetrization::GrowDiagFinalAnd);
    EXPECT_THROW(LinkExtraction::ruleNamed("gdfa"), Error);
}

// Agreement: each direction's rows as shares, multiplied cell by cell; the peaks of the product.
TEST(LinkExtraction, AgreementReadsPeaksOfBothDirectionsMultiplied) {
    // Forward [target words][source words]: target 1 is torn between sources 1 and 2 (it leans to 1);
    // backward [source words][target words]: source 2 is sure of target 1, source 1 of target 2.
    const std::vector<std::vector<float>> forward = {{0.9f, 0.05f, 0.05f}, {0.0f, 0.55f, 0.45f}, {0.1f, 0.6f, 0.3f}};
    const std::vector<std::vector<float>> backward = {{1.0f, 0.0f, 0.0f}, {0.0f, 0.2f, 0.8f}, {0.0f, 0.9f, 0.1f}};
    // Plain argmax links: forward 0-0 1-1 1-2, backward (flipped) 0-0 1-2 2-1: target 1 disagrees.
    // The product: target 1 is 0.55*0.2 = 0.11 on source 1 against 0.45*0.9 = 0.405 on source 2.
    EXPECT_EQ(LinkExtraction::agree(forward, backward, LinkExtraction::Symmetrization::Intersection), (Links{{0, 0}, {1, 2}, {2, 1}}));
    // Negative scores are no share; a row without positive mass links nothing.
    EXPECT_EQ(LinkExtraction::agree({{-1.0f, 2.0f}, {0.0f, 0.0f}}, {{1.0f, 1.0f}, {3.0f, -1.0f}}, LinkExtraction::Symmetrization::Union),
              (Links{{1, 0}}));
    EXPECT_THROW(LinkExtraction::agree(forward, {{1.0f}}, LinkExtraction::Symmetrization::Union), Error);
    EXPECT_TRUE(LinkExtraction::isAgreement("agreement-grow-diag-final-and"));
    EXPECT_TRUE(LinkExtraction::isSymmetrization("agreement-intersection"));
    EXPECT_FALSE(LinkExtraction::isAgreement("grow-diag-final-and"));
    EXPECT_FALSE(LinkExtraction::isSymmetrization("agreement-argmax"));
    EXPECT_EQ(LinkExtraction::symmetrizationNamed("agreement-union"), LinkExtraction::Symmetrization::Union);
}

// An ensemble's word matrix: each member's rows as shares (positive part summing to 1), averaged,
// so a member with large raw scores weighs no more than one with small ones.
TEST(LinkExtraction, AverageOfMembersRowShares) {
    const std::vector<std::vector<float>> a = {{3.0f, 1.0f}, {-1.0f, 2.0f}};  // shares {.75 .25} {0 1}
    const std::vector<std::vector<float>> b = {{0.1f, 0.3f}, {0.5f, 0.5f}};   // shares {.25 .75} {.5 .5}
    const auto mean = LinkExtraction::average({a, b});
    ASSERT_EQ(mean.size(), 2u);
    EXPECT_FLOAT_EQ(mean[0][0], 0.5f);
    EXPECT_FLOAT_EQ(mean[0][1], 0.5f);
    EXPECT_FLOAT_EQ(mean[1][0], 0.25f);
    EXPECT_FLOAT_EQ(mean[1][1], 0.75f);
    EXPECT_EQ(LinkExtraction::average({a}), (std::vector<std::vector<float>>{{0.75f, 0.25f}, {0.0f, 1.0f}}));
    try {
        LinkExtraction::average({a, b, {{1.0f, 2.0f, 3.0f}}});
        ADD_FAILURE() << "a member of another shape was averaged";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("member 3 covers 1 x 3"), std::string::npos) << e.what();
    }
}

// Two aligners compared by a paired bootstrap over the pairs: the same aligner differs by nothing,
// a perfect one against one that links nothing by the whole AER in every resample.
TEST(AerComparison, PairedBootstrapOverSentencePairs) {
    std::vector<LinkSet> gold;
    for (int k = 0; k < 30; ++k) gold.push_back(LinkSet::parse("0-0 1-1 2p2 " + std::to_string(3 + k % 3) + "-3"));
    AerComparison same, apart, mixed;
    for (size_t k = 0; k < gold.size(); ++k) {
        const auto& g = gold[k];
        std::set<LinkSet::Link> perfect(g.sure.begin(), g.sure.end()), half{*g.sure.begin()};
        same.add(g, perfect, perfect);
        apart.add(g, perfect, {});
        // better on the first half of the pairs, worse on the second: no clear winner
        mixed.add(g, k < 15 ? perfect : half, k < 15 ? half : perfect);
    }
    const auto s = same.bootstrap(1000, 7);
    EXPECT_EQ(s.difference, 0.0);
    EXPECT_EQ(s.low, 0.0);
    EXPECT_EQ(s.high, 0.0);
    EXPECT_EQ(s.firstBetter, 0.0) << "a tie is not better";
    const auto a = apart.bootstrap(1000, 7);
    EXPECT_DOUBLE_EQ(a.first, 0.0);
    EXPECT_DOUBLE_EQ(a.second, 1.0);
    EXPECT_DOUBLE_EQ(a.high, -1.0);
    EXPECT_EQ(a.firstBetter, 1.0);
    const auto m = mixed.bootstrap(2000, 7);
    EXPECT_NEAR(m.difference, 0.0, 1e-12);
    EXPECT_LT(m.low, 0.0);
    EXPECT_GT(m.high, 0.0);
    EXPECT_GT(m.firstBetter, 0.2);
    EXPECT_LT(m.firstBetter, 0.8);
    const auto again = mixed.bootstrap(2000, 7);
    EXPECT_EQ(again.low, m.low) << "the same seed, the same interval";
    EXPECT_EQ(again.firstBetter, m.firstBetter);
    EXPECT_EQ(m.resamples, 2000);
}
