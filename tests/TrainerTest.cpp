// Training through the model's own TorchScript loss: a tiny model learns a task whose true
// alignment is known, and an interrupted run resumes onto the same loss trajectory.
#include "TinyModel.h"

#include "core/DecodingSession.h"
#include "core/Error.h"
#include "core/Trainer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

using namespace alignscope;

namespace {

// Reversal: "c a e" -> "e a c". Target token j comes from source position n-1-j.
std::string reversalCorpus(const std::string& path, int pairs, uint32_t seed) {
    std::mt19937 rng(seed);
    std::ofstream out(path);
    for (int i = 0; i < pairs; ++i) {
        const int n = 3 + static_cast<int>(rng() % 4);
        std::vector<std::string> w;
        for (int k = 0; k < n; ++k) w.push_back(std::string(1, static_cast<char>('a' + rng() % 8)));
        for (int k = 0; k < n; ++k) out << (k ? " " : "") << w[static_cast<size_t>(k)];
        out << '\t';
        for (int k = n - 1; k >= 0; --k) out << w[static_cast<size_t>(k)] << (k ? " " : "");
        out << '\n';
    }
    return path;
}

core::TrainingOptions reversalOptions(const tests::TempDir& dir) {
    core::TrainingOptions o;
    o.corpusPath = reversalCorpus(dir.path("reverse.tsv"), 2000, 11);
    o.outputPath = dir.path("reverse.pt");
    o.spec.embeddingSize = 16;
    o.spec.encoderHidden = 32;
    o.spec.decoderHidden = 32;
    o.spec.attentionSize = 16;
    o.spec.readoutSize = 16;
    o.sourceMinCount = 1;
    o.targetMinCount = 1;
    o.targetElision = false;
    o.dropout = 0;
    o.labelSmoothing = 0;
    o.batchSize = 32;
    o.learningRate = 0.01;
    o.validationFraction = 0.05;
    o.testFraction = 0;
    o.validationBleuSentences = 0;
    o.checkpointMinutes = 1000;
    o.threads = 1;
    return o;
}

}  // namespace

TEST(Trainer, TinyModelLearnsReversalAndItsAlignment) {
    tests::TempDir dir;
    auto o = reversalOptions(dir);
    o.maxSteps = 500;
    core::Trainer trainer(o);
    trainer.prepare();
    const auto result = trainer.run(nullptr);
    ASSERT_TRUE(result.completed);
    ASSERT_EQ(result.lossHistory.size(), 500u);
    const double first = (result.lossHistory[0] + result.lossHistory[1] + result.lossHistory[2]) / 3;
    const double last = (result.lossHistory[497] + result.lossHistory[498] + result.lossHistory[499]) / 3;
    EXPECT_LT(last, first / 4) << "loss must fall";

    auto model = core::Model::load(o.outputPath);
    std::mt19937 rng(99);  // fresh sentences, not the training ones
    int right = 0, total = 0;
    for (int i = 0; i < 100; ++i) {
        const int n = 3 + static_cast<int>(rng() % 4);
        std::string src, tgt;
        std::vector<std::string> w;
        for (int k = 0; k < n; ++k) w.push_back(std::string(1, static_cast<char>('a' + rng() % 8)));
        for (int k = 0; k < n; ++k) src += (k ? " " : "") + w[static_cast<size_t>(k)];
        for (int k = n - 1; k >= 0; --k) tgt += w[static_cast<size_t>(k)] + (k ? " " : "");
        core::DecodingSession s(model, src);
        s.alignTo(tgt);
        for (int j = 0; j < n; ++j) {
            const auto& alpha = s.steps()[static_cast<size_t>(j)].alpha;
            const auto peak = std::max_element(alpha.begin(), alpha.end()) - alpha.begin();
            right += peak == n - 1 - j;
            ++total;
        }
    }
    EXPECT_GE(static_cast<double>(right) / total, 0.95) << right << " of " << total;
}

TEST(Trainer, ResumedRunFollowsTheSameLossTrajectory) {
    tests::TempDir dir;
    auto o = reversalOptions(dir);
    o.maxSteps = 24;
    core::Trainer whole(o);
    whole.prepare();
    const auto full = whole.run(nullptr);

    tests::TempDir dir2;
    auto o2 = reversalOptions(dir2);
    o2.maxSteps = 24;
    std::atomic<bool> stop{false};
    {
        core::Trainer first(o2);
        first.prepare();
        const auto part = first.run([&](const core::TrainingProgress& p) { stop = p.step >= 10; }, &stop);
        ASSERT_FALSE(part.completed);
        ASSERT_EQ(part.steps, 10);
    }
    o2.resume = true;
    core::Trainer second(o2);
    second.prepare();
    const auto resumed = second.run(nullptr);
    ASSERT_TRUE(resumed.completed);
    ASSERT_EQ(resumed.lossHistory.size(), full.lossHistory.size());
    for (size_t i = 0; i < full.lossHistory.size(); ++i)
        EXPECT_EQ(resumed.lossHistory[i], full.lossHistory[i]) << "step " << i;
}

TEST(Trainer, SameSeedGivesTheSameModel) {
    tests::TempDir a, b;
    auto oa = reversalOptions(a), ob = reversalOptions(b);
    oa.maxSteps = ob.maxSteps = 8;
    oa.dropout = ob.dropout = 0.3;  // dropout masks must repeat too
    core::Trainer ta(oa), tb(ob);
    ta.prepare();
    tb.prepare();
    EXPECT_EQ(ta.run(nullptr).lossHistory, tb.run(nullptr).lossHistory);
}

TEST(Trainer, BadOptionsAndMissingCheckpointAreClearErrors) {
    tests::TempDir dir;
    auto o = reversalOptions(dir);
    o.outputPath = "/nonexistent-folder/m.pt";
    EXPECT_THROW(core::Trainer(o).prepare(), core::Error);
    o = reversalOptions(dir);
    o.resume = true;
    try {
        core::Trainer(o).prepare();
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("no checkpoint"), std::string::npos);
    }
}

TEST(Trainer, BeamSearchOnAWellTrainedModelDoesNotCutTranslationsShort) {
    // Regression: beams used to finish hypotheses on end tokens ranked below the beam width and
    // stop once `width` of those had piled up ("g f c" -> "c" with width 2).
    tests::TempDir dir;
    auto o = reversalOptions(dir);
    o.maxSteps = 500;
    core::Trainer trainer(o);
    trainer.prepare();
    trainer.run(nullptr);
    auto model = core::Model::load(o.outputPath);
    std::mt19937 rng(123);
    for (int width : {2, 3, 5}) {
        int same = 0, total = 0;
        for (int i = 0; i < 60; ++i) {
            const int n = 3 + static_cast<int>(rng() % 4);
            std::string src;
            for (int k = 0; k < n; ++k) src += std::string(k ? " " : "") + static_cast<char>('a' + rng() % 8);
            core::DecodingSession s(model, src);
            core::SearchOptions greedy, beam;
            beam.beamWidth = width;
            const auto g = s.search(greedy).front();
            const auto b = s.search(beam).front();
            ASSERT_EQ(b.ids.size(), b.alpha.size());
            same += b.ids == g.ids;
            ++total;
        }
        EXPECT_GE(same, total - 1) << "width " << width << ": " << same << " of " << total << " equal to greedy";
    }
}
