// Attribution methods: what each one promises (completeness for integrated gradients, the
// directional derivative for gradient × input, a rerun without the token for occlusion, the
// decoder's own alphas for attention), for free decoding and teacher forcing, on every architecture.
#include "HostileModels.h"
#include "TinyModel.h"

#include "core/attribution/AttributionAgreement.h"
#include "core/attribution/Attributor.h"
#include "core/attribution/ForcedPass.h"
#include "core/attribution/GradientAttribution.h"
#include "core/decoding/Alignment.h"
#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace alignscope;

namespace {

core::Model datesModel() { return core::Model::load(core::Runtime::modelsDirectory() + "/lesson-dates.pt"); }

// The target a free greedy decoding chose, as a hypothesis with its words.
struct Decoded {
    core::TokenizedSentence source;
    core::Hypothesis target;
    std::vector<int> words;
};

Decoded greedy(const core::Model& model, const std::string& text) {
    core::DecodingSession session(model, text);
    auto h = session.search(core::SearchOptions{}).front();
    return {model.tokenizeSource(text), h, model.targetWords(h.ids)};
}

Decoded forced(const core::Model& model, const std::string& source, const std::string& target) {
    core::DecodingSession session(model, source);
    session.alignTo(target);
    core::Hypothesis h;
    h.ids = session.targetIds();
    h.tokens = session.alignment().targetTokens();
    return {model.tokenizeSource(source), h, model.targetWords(h.ids)};
}

// log p(target[t] | target[<t], embeddings x) for t < T: the model run directly on embeddings.
std::vector<float> logProbsFromEmbeddings(const core::Model& model, const torch::Tensor& x, const std::vector<int64_t>& target) {
    torch::NoGradGuard noGrad;
    const auto& tm = model.torch();
    const auto encoded = tm.encodeEmbedded(x, torch::full({x.size(0)}, x.size(1), torch::kLong));
    const auto pass = core::ForcedPass::run(tm, encoded, target, static_cast<int64_t>(target.size()));
    std::vector<float> out;
    for (const auto& lp : pass.logProbs) out.push_back(lp[0].item<float>());
    return out;
}

}  // namespace

TEST(Attribution, MethodsAreRegisteredByNameAndAnUnknownOneIsNamed) {
    const auto names = core::Attributor::methods();
    for (const char* n : {"attention", "grad-x-input", "integrated-gradients", "occlusion", "attention-x-occlusion"})
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    try {
        core::Attributor::method("saliency");
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("unknown attribution method 'saliency' (methods: attention, grad-x-input"), std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(core::Attributor::method("occlusion").description().empty());
}

TEST(Attribution, GaussLobattoNodesIntegratePolynomialsExactly) {
    for (int n : {2, 3, 16, 32, 128}) {
        std::vector<double> nodes, weights;
        core::GradientAttribution::quadrature(n, nodes, weights);
        ASSERT_EQ(nodes.size(), static_cast<size_t>(n));
        EXPECT_EQ(nodes.front(), 0.0);  // the baseline and the input are nodes: f(x') and f(x) come with the batch
        EXPECT_EQ(nodes.back(), 1.0);
        EXPECT_NEAR(std::accumulate(weights.begin(), weights.end(), 0.0), 1.0, 1e-12) << n;
        for (int k : {1, n - 1, 2 * n - 3}) {  // exact up to degree 2n - 3
            double integral = 0;
            for (size_t i = 0; i < nodes.size(); ++i) integral += weights[i] * std::pow(nodes[i], k);
            EXPECT_NEAR(integral, 1.0 / (k + 1), 1e-12) << n << " points, x^" << k;
        }
        for (size_t i = 1; i < nodes.size(); ++i) EXPECT_LT(nodes[i - 1], nodes[i]);
    }
    // The trapezoid rule is the 2-point case; 1 point cannot hold both ends.
    std::vector<double> nodes, weights;
    core::GradientAttribution::quadrature(2, nodes, weights);
    EXPECT_EQ(weights, (std::vector<double>{0.5, 0.5}));
    EXPECT_THROW(core::GradientAttribution::quadrature(1, nodes, weights), core::Error);
}

TEST(Attribution, IntegratedGradientsAreCompleteWithinFivePercent) {
    // Scores of a step sum to f(x) − f(baseline), for free decoding and for teacher forcing; on this
    // small model some paths turn sharply, and those steps take more than the 16 points.
    const auto model = datesModel();
    for (const auto& d :
         {greedy(model, "the fifth of march , 1998"), forced(model, "5 march 1998", "1998-03-05"), greedy(model, "june 3 1944")}) {
        for (const char* baseline : {"zero", "pad"}) {
            core::Attributor::Options options;
            options.baseline = baseline;
            const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, "integrated-gradients", options);
            ASSERT_EQ(a.scores.size(), d.target.ids.size());
            ASSERT_EQ(a.baselineLogProbs.size(), a.scores.size());
            ASSERT_EQ(a.rowPoints.size(), a.scores.size());
            for (size_t r = 0; r < a.scores.size(); ++r) {
                const double sum = std::accumulate(a.scores[r].begin(), a.scores[r].end(), 0.0);
                const double change = a.logProbs[r] - a.baselineLogProbs[r];
                EXPECT_NEAR(sum, change, std::max(0.05 * std::abs(change), 1e-3))
                    << baseline << " step " << r + 1 << " of " << d.target.tokens.size();
            }
        }
    }
}

TEST(Attribution, IntegratedGradientsAreCompleteOnEveryArchitecture) {
    using Spec = core::ModelSpec;
    for (auto cell : {Spec::Cell::GRU, Spec::Cell::LSTM})
        for (auto attention : {Spec::Attention::Additive, Spec::Attention::General, Spec::Attention::Dot, Spec::Attention::None}) {
            const auto model = tests::tinyModel(tests::tinySpec(cell, attention, attention != Spec::Attention::Dot));
            ASSERT_TRUE(model.encodesEmbedded());
            const auto d = forced(model, "the red car", "la voiture rouge");
            core::Attributor::Options options;
            options.points = 32;
            const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, "integrated-gradients", options);
            for (size_t r = 0; r < a.scores.size(); ++r) {
                const double sum = std::accumulate(a.scores[r].begin(), a.scores[r].end(), 0.0);
                const double change = a.logProbs[r] - a.baselineLogProbs[r];
                EXPECT_NEAR(sum, change, std::max(0.05 * std::abs(change), 1e-4))
                    << static_cast<int>(cell) << "/" << static_cast<int>(attention);
            }
        }
}

TEST(Attribution, GradientTimesInputIsTheDerivativeAlongTheInput) {
    // Σ_i grad_i · x_i = d/dε f((1 + ε) x) at ε = 0: checked by a central difference.
    const auto model = datesModel();
    const auto d = greedy(model, "march 5 , 2001");
    const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, "grad-x-input");
    torch::NoGradGuard noGrad;
    const auto x = model.torch().embedSource(torch::tensor(d.source.ids, torch::kLong).unsqueeze(0));
    const double eps = 1e-3;
    const auto up = logProbsFromEmbeddings(model, x * (1 + eps), d.target.ids);
    const auto down = logProbsFromEmbeddings(model, x * (1 - eps), d.target.ids);
    for (size_t r = 0; r < a.scores.size(); ++r) {
        const double sum = std::accumulate(a.scores[r].begin(), a.scores[r].end(), 0.0);
        const double derivative = (up[r] - down[r]) / (2 * eps);
        EXPECT_NEAR(sum, derivative, std::max(0.02 * std::abs(derivative), 2e-2)) << "step " << r + 1;
    }
}

TEST(Attribution, OcclusionIsTheDropInLogProbabilityWithoutTheToken) {
    const auto model = datesModel();
    const auto d = forced(model, "5 march 1998", "1998-03-05");
    const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, "occlusion");
    ASSERT_EQ(a.scores.size(), d.target.ids.size());
    const auto& tm = model.torch();
    torch::NoGradGuard noGrad;
    const auto run = [&](std::vector<int64_t> ids) {
        const auto n = static_cast<int64_t>(ids.size());
        const auto encoded = tm.encode(torch::tensor(ids, torch::kLong).unsqueeze(0), torch::tensor({n}, torch::kLong));
        return core::ForcedPass::run(tm, encoded, d.target.ids, static_cast<int64_t>(d.target.ids.size()));
    };
    const auto whole = run(d.source.ids);
    for (size_t i = 0; i < d.source.ids.size(); ++i) {
        auto without = d.source.ids;
        without.erase(without.begin() + static_cast<long>(i));
        const auto pass = run(without);
        for (size_t t = 0; t < d.target.ids.size(); ++t)
            EXPECT_NEAR(a.scores[t][i], whole.logProbs[t][0].item<float>() - pass.logProbs[t][0].item<float>(), 1e-4)
                << "token " << i << " step " << t;
    }
}

// Long attributions keep a watchdog away: a gradient method beats with every row (and every row
// integrated again with more points), occlusion with every batch of erased sources.
TEST(Attribution, MethodsBeatAsTheyGoSoATimeLimitCountsSilence) {
    const auto model = datesModel();
    const auto d = forced(model, "the fifth of march , 1998", "1998-03-05");
    for (const std::string method : {"integrated-gradients", "grad-x-input", "occlusion"}) {
        core::DecodingProgress progress;
        core::Attributor::Options options;
        options.progress = &progress;
        const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, method, options);
        EXPECT_GE(progress.beats.load(), method == "occlusion" ? 1u : a.scores.size()) << method;
    }
}

TEST(Attribution, AttentionIsTheDecodersOwnAlphas) {
    const auto model = datesModel();
    core::DecodingSession session(model, "the fifth of march , 1998");
    session.alignTo("1998-03-05");
    const auto alignment = session.alignment();
    const auto d = forced(model, "the fifth of march , 1998", "1998-03-05");
    const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, "attention");
    ASSERT_EQ(a.scores.size(), alignment.weights().size());
    for (size_t t = 0; t < a.scores.size(); ++t)
        for (size_t i = 0; i < a.scores[t].size(); ++i) EXPECT_NEAR(a.scores[t][i], alignment.weights()[t][i], 1e-5);
    EXPECT_FALSE(a.signedScores);
}

// Where attention and occlusion agree: their positive parts multiplied, each row summing to 1; a
// row where they share nothing falls back to attention's.
TEST(Attribution, AttentionTimesOcclusionIsTheirNormalisedProduct) {
    const auto model = datesModel();
    for (const auto& d : {forced(model, "the fifth of march , 1998", "1998-03-05"), greedy(model, "march 5 , 1998")}) {
        const auto attention = core::Attributor::attribute(model, d.source, d.target, d.words, "attention");
        const auto occlusion = core::Attributor::attribute(model, d.source, d.target, d.words, "occlusion");
        const auto product = core::Attributor::attribute(model, d.source, d.target, d.words, "attention-x-occlusion");
        EXPECT_EQ(product.method, "attention-x-occlusion");
        EXPECT_FALSE(product.signedScores);
        ASSERT_EQ(product.scores.size(), attention.scores.size());
        EXPECT_EQ(product.logProbs, attention.logProbs);
        for (size_t t = 0; t < product.scores.size(); ++t) {
            std::vector<double> expected(attention.scores[t].size());
            double sum = 0;
            for (size_t i = 0; i < expected.size(); ++i)
                sum += expected[i] = attention.scores[t][i] * std::max(occlusion.scores[t][i], 0.0f);
            if (sum <= 0)
                for (size_t i = 0; i < expected.size(); ++i) sum += expected[i] = attention.scores[t][i];
            for (size_t i = 0; i < expected.size(); ++i)
                EXPECT_NEAR(product.scores[t][i], expected[i] / sum, 1e-5) << "step " << t << " token " << i;
            EXPECT_NEAR(std::accumulate(product.scores[t].begin(), product.scores[t].end(), 0.0), 1.0, 1e-5);
        }
    }
}

TEST(Attribution, OneStepGivesThatRowOfTheWholeTarget) {
    const auto model = datesModel();
    const auto d = greedy(model, "the fifth of march , 1998");
    for (const char* method : {"grad-x-input", "integrated-gradients", "occlusion", "attention"}) {
        const auto all = core::Attributor::attribute(model, d.source, d.target, d.words, method);
        core::Attributor::Options one;
        one.steps = {3};
        const auto row = core::Attributor::attribute(model, d.source, d.target, d.words, method, one);
        ASSERT_EQ(row.scores.size(), 1u) << method;
        EXPECT_EQ(row.steps, std::vector<int>{3});
        for (size_t i = 0; i < row.scores[0].size(); ++i) EXPECT_NEAR(row.scores[0][i], all.scores[3][i], 1e-4) << method;
        const auto m = row.matrix();
        EXPECT_EQ(m.size(), d.target.ids.size());
        EXPECT_EQ(m[0], std::vector<float>(d.source.ids.size(), 0.0f));
        const auto j = row.toJson();
        EXPECT_EQ(j["method"], method);
        EXPECT_EQ(j["scores"].size(), 1u);
    }
    core::Attributor::Options outside;
    outside.steps = {static_cast<int>(d.target.ids.size())};
    EXPECT_THROW(core::Attributor::attribute(model, d.source, d.target, d.words, "occlusion", outside), core::Error);
}

TEST(Attribution, GradientMethodsNameAModelWithoutEmbeddingMethodsAndOcclusionStillWorks) {
    tests::TempDir dir;
    const auto path = tests::writeHostileModel(dir.path("plain.pt"), tests::Misbehaviour::None);
    const auto model = core::Model::load(path);
    EXPECT_FALSE(model.encodesEmbedded());
    const auto d = forced(model, "a b c", "c b a");
    try {
        core::Attributor::attribute(model, d.source, d.target, d.words, "integrated-gradients");
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("lacks"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    const auto a = core::Attributor::attribute(model, d.source, d.target, d.words, "occlusion");
    EXPECT_EQ(a.scores.size(), d.target.ids.size());
}

TEST(AttributionAgreement, RankCorrelationTopTokenAndJensenShannon) {
    const std::vector<float> attention = {0.1f, 0.2f, 0.7f};
    auto same = core::AttributionAgreement::between(attention, {1.0f, 2.0f, 7.0f});
    EXPECT_NEAR(same.spearman, 1.0, 1e-12);
    EXPECT_TRUE(same.sameTop);
    EXPECT_NEAR(same.jensenShannon, 0.0, 1e-12);
    auto reversed = core::AttributionAgreement::between(attention, {3.0f, 2.0f, 1.0f});
    EXPECT_NEAR(reversed.spearman, -1.0, 1e-12);
    EXPECT_FALSE(reversed.sameTop);
    auto disjoint = core::AttributionAgreement::between({1.0f, 0.0f}, {0.0f, 1.0f});
    EXPECT_NEAR(disjoint.jensenShannon, 1.0, 1e-12);
}
