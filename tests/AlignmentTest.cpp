#include "core/alignment/SoftAlignment.h"
#include "core/decoding/Alignment.h"
#include "core/Error.h"

#include <gtest/gtest.h>

using alignscope::core::Alignment;
using alignscope::core::SoftAlignment;

TEST(Alignment, PharaohLinksPeakAndMergePieces) {
    // source words: "the red-car" split as the | red | - | car, plus </s>
    // target: "la voiture rouge </s>"
    Alignment a(
        {"the", "red", "-", "car", "</s>"}, {0, 1, 1, 1, -1}, {"la", "voiture", "rouge", "</s>"}, {0, 1, 2, -1},
        {{0.7f, 0.1f, 0.0f, 0.1f, 0.1f}, {0.1f, 0.1f, 0.0f, 0.7f, 0.1f}, {0.1f, 0.6f, 0.1f, 0.1f, 0.1f}, {0.0f, 0.0f, 0.0f, 0.1f, 0.9f}});
    EXPECT_EQ(SoftAlignment::attentionPharaoh(a), "0-0 1-1 1-2");
    const auto j = SoftAlignment::attentionJson(a);
    EXPECT_EQ(j["alpha"].size(), 4u);
    EXPECT_EQ(j["source_tokens"][3], "car");
    EXPECT_EQ(j["links"], "0-0 1-1 1-2");
}

TEST(Alignment, PeakOnEndOfSentenceGivesNoLink) {
    Alignment a({"hi", "</s>"}, {0, -1}, {"salut"}, {0}, {{0.2f, 0.8f}});
    EXPECT_EQ(SoftAlignment::attentionPharaoh(a), "");
}

TEST(Alignment, InconsistentShapesAreRefused) { EXPECT_THROW(Alignment({"a"}, {0}, {"b"}, {0}, {{0.5f, 0.5f}}), alignscope::core::Error); }

TEST(Alignment, AModelsOwnPaddingColumnNeverTakesALink) {
    // The Keras course model's softmax covers its padding: its share is the last column.
    // Both target characters are one word: one link for it, read off their averaged row (0.2, 0.15),
    // where the padding column (0.65) would have won and left the word unaligned.
    Alignment a({"3", "m", "<padding>"}, {0, 1, -1}, {"0", "5"}, {0, 0}, {{0.3f, 0.1f, 0.6f}, {0.1f, 0.2f, 0.7f}});
    EXPECT_EQ(SoftAlignment::attentionPharaoh(a), "0-0");
}
