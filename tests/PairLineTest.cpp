// The "source ||| target" lines that `align` and `export` read.
#include "core/Error.h"
#include "core/text/PairLine.h"

#include <gtest/gtest.h>

using alignscope::core::Error;
using alignscope::core::PairLine;

TEST(PairLine, ASentenceAloneHasNoTarget) {
    const auto p = PairLine::parse("the red car");
    EXPECT_EQ(p.source, "the red car");
    EXPECT_FALSE(p.target.has_value());
}

TEST(PairLine, APairIsSplitAndItsTargetTrimmed) {
    const auto p = PairLine::parse(" the red car |||  la voiture rouge ");
    EXPECT_EQ(p.source, "the red car");
    EXPECT_EQ(p.target, "la voiture rouge");
}

TEST(PairLine, TheSourceTextOfAnyLineIsThere) {
    EXPECT_EQ(PairLine::sourceText("  a house ||| b ||| c"), "a house");
    EXPECT_EQ(PairLine::sourceText("a house"), "a house");
}

TEST(PairLine, EmptySidesAndASecondSeparatorAreRefused) {
    EXPECT_THROW(PairLine::parse(" ||| le chat"), Error);
    EXPECT_THROW(PairLine::parse("the cat |||   "), Error);
    EXPECT_THROW(PairLine::parse("a ||| b ||| c"), Error);
}
