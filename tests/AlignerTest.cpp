// The one alignment pipeline (core/alignment/Aligner): batched or one pair at a time, each link
// rule, the reverse models a rule needs, and a pair's failure kept to its own result.
#include "TinyModel.h"

#include "core/alignment/SoftAlignment.h"
#include "core/Error.h"
#include "core/alignment/Aligner.h"
#include "core/model/ModelCache.h"
#include "core/decoding/Alignment.h"
#include "core/decoding/DecodingSession.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace alignscope;

namespace {

const std::vector<core::Aligner::Pair> kPairs = {
    {"the red car", "the car is red"}, {"a small house", "a house"}, {"the big house is red", "the house is big and red"}};

core::Aligner::Options rule(const std::string& links, int batch = 4) {
    core::Aligner::Options o;
    o.links = links;
    o.batch = batch;
    o.json = true;
    return o;
}

std::set<std::pair<int, int>> asSet(const core::LinkExtraction::Links& links) { return {links.begin(), links.end()}; }

}  // namespace

TEST(Aligner, AttentionArgmaxGivesTheSessionsLinksBatchedOrOneAtATime) {
    const auto model = tests::tinyModel();
    const auto one = core::Aligner({model}, {}, rule("argmax", 1)).align(kPairs);
    const auto batched = core::Aligner({model}, {}, rule("argmax", 4)).align(kPairs);
    for (size_t i = 0; i < kPairs.size(); ++i) {
        core::DecodingSession session(model, kPairs[i].source);
        session.alignTo(kPairs[i].target);
        ASSERT_TRUE(one[i].error.empty()) << one[i].error;
        ASSERT_TRUE(batched[i].error.empty()) << batched[i].error;
        EXPECT_EQ(one[i].pharaoh(), core::SoftAlignment::attentionPharaoh(session.alignment()));
        EXPECT_EQ(batched[i].pharaoh(), core::SoftAlignment::attentionPharaoh(session.alignment()));
        // The alignment's own JSON, as `align --format json` has always printed it for this rule.
        EXPECT_EQ(one[i].json.at("links"), core::SoftAlignment::attentionPharaoh(session.alignment()));
        EXPECT_FALSE(batched[i].json.contains("link_rule"));
        ASSERT_EQ(batched[i].forward.size(), 1u);
        EXPECT_EQ(batched[i].forward[0].matrix().size(), session.alignment().weights().size());
    }
}

TEST(Aligner, RulesThatJoinTwoDirectionsNestAsTheyShould) {
    const auto model = tests::tinyModel();
    std::vector<std::vector<core::Aligner::Result>> byRule;
    for (const char* links : {"intersection", "grow-diag-final-and", "union"})
        byRule.push_back(core::Aligner({model}, {model}, rule(links)).align(kPairs));
    for (size_t i = 0; i < kPairs.size(); ++i) {
        const auto meet = asSet(byRule[0][i].links), grown = asSet(byRule[1][i].links), both = asSet(byRule[2][i].links);
        EXPECT_TRUE(std::includes(grown.begin(), grown.end(), meet.begin(), meet.end())) << kPairs[i].source;
        EXPECT_TRUE(std::includes(both.begin(), both.end(), grown.begin(), grown.end())) << kPairs[i].source;
        ASSERT_EQ(byRule[2][i].backward.size(), 1u);
        EXPECT_EQ(byRule[2][i].json.at("link_rule"), "union");
        EXPECT_TRUE(byRule[2][i].json.contains("reverse"));
    }
    const auto agreed = core::Aligner({model}, {model}, rule("agreement-intersection")).align(kPairs);
    for (size_t i = 0; i < kPairs.size(); ++i) {
        const auto words = agreed[i].forward[0].wordMatrix();
        for (const auto& [s, t] : agreed[i].links) {
            EXPECT_LT(static_cast<size_t>(t), words.size());
            EXPECT_LT(static_cast<size_t>(s), words[0].size());
        }
    }
}

TEST(Aligner, ChoosesAndLoadsTheReverseModelsInOnePlace) {
    const auto model = tests::tinyModel();
    const auto reverse = tests::tinyReverseModel();
    int loads = 0;
    const auto load = [&](const std::string&) {
        ++loads;
        return reverse;
    };
    EXPECT_EQ(core::Aligner::reverseModels({model}, {}, "argmax", load).size(), 0u);
    EXPECT_EQ(core::Aligner::reverseModels({model}, {"given.pt"}, "union", load).size(), 1u);
    EXPECT_EQ(loads, 1);
    try {
        core::Aligner::reverseModels({model}, {}, "agreement-union", load);
        FAIL() << "a model that declares no reverse model";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("declares no reverse model"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(model.origin()), std::string::npos) << e.what();
    }
    EXPECT_THROW(core::Aligner::reverseModels({model}, {"given.pt"}, "argmax", load), core::Error);
    EXPECT_THROW(core::Aligner({model}, {}, rule("union")), core::Error);
    EXPECT_THROW(core::Aligner({model}, {}, rule("no-such-rule")), core::Error);
}

TEST(Aligner, APairThatCannotBeAlignedFailsAloneInItsPlace) {
    const auto model = tests::tinyModel();
    for (int batch : {1, 4}) {
        const auto results = core::Aligner({model}, {}, rule("argmax", batch))
                                 .align({{"the car", "the car"}, {"  ", "the car"}, {"bad \xff byte", "car"}, {"the car", ""}});
        EXPECT_TRUE(results[0].error.empty()) << results[0].error;
        EXPECT_EQ(results[1].error, "the source side is empty");
        EXPECT_NE(results[2].error.find("not valid UTF-8"), std::string::npos) << results[2].error;
        EXPECT_EQ(results[3].error, "the target side is empty");
    }
}

TEST(SoftAlignment, AModelsPaddingColumnIsNoSourceWordAndNeverLinked) {
    // Two source tokens and </s>, then the model's own padding column, which holds each row's peak.
    const core::Alignment alignment({"a", "b", "</s>", core::Model::kPaddingColumn}, {0, 1, -1, -1}, {"x", "y"}, {0, 1},
                                    {{0.3f, 0.1f, 0.0f, 0.6f}, {0.1f, 0.2f, 0.1f, 0.6f}});
    const auto soft = core::SoftAlignment::fromAttention(alignment);
    EXPECT_EQ(soft.sourceWords(), (std::vector<int>{0, 1, -1}));
    EXPECT_EQ(soft.matrix()[0].size(), 4u);  // the column stays in the matrix, for views that show it
    EXPECT_EQ(core::SoftAlignment::pharaoh(soft.links(core::LinkExtraction::Rule::Argmax)), "0-0 1-1");
    EXPECT_EQ(soft.wordMatrix()[0].size(), 2u);
}

// The reverse models a link rule reads are loaded once by path; a failure is remembered where the
// cache says so (a batch), and tried again where not (the app, where the file may appear).
TEST(ModelCache, LoadsAPathOnceAndRemembersFailuresOnlyWhenAsked) {
    tests::TempDir dir;
    const std::string path = dir.path("reverse.pt");
    core::ModelCache app, batch(/*rememberFailures=*/true);
    EXPECT_THROW(app.load(path), core::Error);
    EXPECT_THROW(batch.load(path), core::Error);
    tests::tinyReverseModel().save(path);
    const auto first = app.load(path);
    EXPECT_EQ(&app.load(path).torch(), &first.torch()) << "the same loaded model, not a second load";
    try {
        batch.load(path);
        FAIL() << "a remembered failure";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    }
}
