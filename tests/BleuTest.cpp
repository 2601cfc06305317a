// BLEU against examples worked by hand.
#include "core/evaluation/Bleu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using alignscope::core::Bleu;

namespace {

Bleu::Tokens words(const std::string& s) {
    std::istringstream in(s);
    Bleu::Tokens out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

}  // namespace

TEST(Bleu, PerfectMatchIs100) {
    Bleu b;
    b.add(words("le chat est sur le tapis"), {words("le chat est sur le tapis")});
    EXPECT_DOUBLE_EQ(b.score(), 100.0);
}

TEST(Bleu, ClippedPrecisionsByHand) {
    // Papineni et al.'s example: "the the the the the the the" against "the cat is on the mat":
    // unigram precision is clipped to 2/7.
    Bleu b;
    b.add(words("the the the the the the the"), {words("the cat is on the mat"), words("there is a cat on the mat")});
    EXPECT_NEAR(b.precision(1), 2.0 / 7.0, 1e-12);
    EXPECT_EQ(b.score(), 0.0);  // no bigram matches: BLEU is 0 without smoothing
}

TEST(Bleu, MultiReferenceTakesTheBestCountPerNgram) {
    // hypothesis: a b c d (4 tokens); ref1: a b x y; ref2: x b c d
    // 1-grams: a(ref1) b c d(ref2) -> 4/4; 2-grams: ab(ref1) bc cd(ref2) -> 3/3;
    // 3-grams: abc no, bcd(ref2) -> 1/2; 4-grams: abcd no -> 0/1 => BLEU 0
    Bleu b;
    b.add(words("a b c d"), {words("a b x y"), words("x b c d")});
    EXPECT_NEAR(b.precision(1), 1.0, 1e-12);
    EXPECT_NEAR(b.precision(2), 1.0, 1e-12);
    EXPECT_NEAR(b.precision(3), 0.5, 1e-12);
    EXPECT_NEAR(b.precision(4), 0.0, 1e-12);
    // a second segment that matches fully: totals 1: 9/9, 2: 7/7, 3: 4/5, 4: 2/3
    b.add(words("e f g h i"), {words("e f g h i")});
    EXPECT_NEAR(b.precision(3), 4.0 / 5.0, 1e-12);
    EXPECT_NEAR(b.precision(4), 2.0 / 3.0, 1e-12);
    const double expected = 100.0 * std::exp((std::log(1.0) + std::log(1.0) + std::log(0.8) + std::log(2.0 / 3.0)) / 4);
    EXPECT_NEAR(b.score(), expected, 1e-9);
}

TEST(Bleu, BrevityPenaltyUsesTheClosestReferenceLength) {
    // hypothesis 4 tokens; references of 6 and 9 tokens: closest is 6 -> BP = exp(1 - 6/4)
    Bleu b;
    b.add(words("a b c d"), {words("a b c d e f"), words("a b c d e f g h i")});
    EXPECT_NEAR(b.brevityPenalty(), std::exp(1.0 - 6.0 / 4.0), 1e-12);
    EXPECT_NEAR(b.score(), 100.0 * std::exp(1.0 - 6.0 / 4.0), 1e-9);
    // a longer hypothesis is not penalised
    Bleu c;
    c.add(words("a b c d e f g"), {words("a b c d e f")});
    EXPECT_DOUBLE_EQ(c.brevityPenalty(), 1.0);
}

TEST(Bleu, EqualDistanceReferenceLengthsPreferTheShorter) {
    // hypothesis 5; references 4 and 6 are equally close: the shorter (4) counts -> no penalty
    Bleu b;
    b.add(words("a b c d e"), {words("a b c d"), words("a b c d e f")});
    EXPECT_EQ(b.referenceLength(), 4u);
    EXPECT_DOUBLE_EQ(b.brevityPenalty(), 1.0);
}

// sacrebleu's 13a tokenisation, worked through its rules by hand: symbols split off, '.' and ','
// split unless between digits, '-' split after a digit, apostrophes and other scripts untouched.
TEST(Bleu, Tokenize13aFollowsSacrebleusRules) {
    EXPECT_EQ(Bleu::tokenize13a("Hello, world! It's 3.5 dollars."), words("Hello , world ! It's 3.5 dollars ."));
    EXPECT_EQ(Bleu::tokenize13a("L'accord fut signé en août 1992."), words("L'accord fut signé en août 1992 ."));
    EXPECT_EQ(Bleu::tokenize13a("1,000 (e.g.) 10-20 x-y \"q\" a/b"), words("1,000 ( e . g . ) 10 - 20 x-y \" q \" a / b"));
    EXPECT_EQ(Bleu::tokenize13a("Tom &amp; Marie, à Berlin."), words("Tom & Marie , à Berlin ."));
    EXPECT_EQ(Bleu::tokenize13a("Élise EST Là.", true), words("élise est là ."));
    EXPECT_TRUE(Bleu::tokenize13a("   ").empty());
}
