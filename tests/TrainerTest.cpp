// Training through the model's own TorchScript loss: a tiny model learns a task whose true
// alignment is known, and an interrupted run resumes onto the same loss trajectory.
#include "TinyModel.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"
#include "core/training/Trainer.h"
#include "core/training/TrainingTimeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>

using namespace alignscope;

namespace {

// The reversal model trained for 500 steps, once per test process: the tests that need a well
// trained model share it.
struct TrainedReversal {
    tests::TempDir dir;
    core::TrainingOptions options = tests::reversalTraining(dir);
    core::TrainingResult result;
    TrainedReversal() {
        options.maxSteps = 500;
        result = tests::trainToEnd(options);
    }
};

const TrainedReversal& trainedReversal() {
    static const TrainedReversal trained;
    return trained;
}

}  // namespace

TEST(Trainer, TinyModelLearnsReversalAndItsAlignment) {
    const auto& result = trainedReversal().result;
    const auto& o = trainedReversal().options;
    ASSERT_TRUE(result.completed);
    ASSERT_EQ(result.lossHistory.size(), 500u);
    const double first = (result.lossHistory[0] + result.lossHistory[1] + result.lossHistory[2]) / 3;
    const double last = (result.lossHistory[497] + result.lossHistory[498] + result.lossHistory[499]) / 3;
    EXPECT_LT(last, first / 4) << "loss must fall";

    auto model = core::Model::load(o.outputPath);
    int right = 0, total = 0;
    for (const auto& pair : tests::reversalPairs(100, 99)) {  // fresh sentences, not the training ones
        core::DecodingSession s(model, pair.source);
        s.alignTo(pair.target);
        const int n = static_cast<int>(s.sourceLength()) - 1;
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
    auto o = tests::reversalTraining(dir);
    o.maxSteps = 24;
    const auto full = tests::trainToEnd(o);

    tests::TempDir dir2;
    auto o2 = tests::reversalTraining(dir2);
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
    const auto resumed = tests::trainToEnd(o2);
    ASSERT_TRUE(resumed.completed);
    ASSERT_EQ(resumed.lossHistory.size(), full.lossHistory.size());
    for (size_t i = 0; i < full.lossHistory.size(); ++i) EXPECT_EQ(resumed.lossHistory[i], full.lossHistory[i]) << "step " << i;
}

std::string contentOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Trainer, ResumingAFinishedRunSaysSoAndChangesNothing) {
    tests::TempDir dir;
    auto o = tests::reversalTraining(dir);
    o.maxSteps = 4;
    { ASSERT_TRUE(tests::trainToEnd(o).completed); }
    const auto state = contentOf(o.outputPath + ".ckpt/state.json");
    o.resume = true;
    core::Trainer again(o);
    again.prepare();
    try {
        again.run(nullptr);
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("already done 4 of its 4 updates"), std::string::npos) << e.what();
    }
    EXPECT_EQ(contentOf(o.outputPath + ".ckpt/state.json"), state) << "the checkpoint is untouched";
}

TEST(Trainer, OptionsOutOfRangeAndAFolderAsOutputAreRefusedBeforeTraining) {
    tests::TempDir dir;
    for (auto change : std::vector<std::function<void(core::TrainingOptions&)>>{
             [](auto& o) { o.dropout = 1.5; }, [](auto& o) { o.labelSmoothing = -0.1; },
             [](auto& o) { o.learningRate = std::numeric_limits<double>::infinity(); }, [](auto& o) { o.clipNorm = -1; },
             [](auto& o) { o.maxSteps = -3; }, [&](auto& o) { o.outputPath = dir.root(); }}) {
        auto o = tests::reversalTraining(dir);
        change(o);
        EXPECT_THROW(core::Trainer(o).prepare(), core::Error);
    }
}

TEST(Trainer, SameSeedGivesTheSameModel) {
    tests::TempDir a, b;
    auto oa = tests::reversalTraining(a), ob = tests::reversalTraining(b);
    oa.maxSteps = ob.maxSteps = 8;
    oa.dropout = ob.dropout = 0.3;  // dropout masks must repeat too
    EXPECT_EQ(tests::trainToEnd(oa).lossHistory, tests::trainToEnd(ob).lossHistory);
}

TEST(Trainer, BadOptionsAndMissingCheckpointAreClearErrors) {
    tests::TempDir dir;
    auto o = tests::reversalTraining(dir);
    o.outputPath = "/nonexistent-folder/m.pt";
    EXPECT_THROW(core::Trainer(o).prepare(), core::Error);
    o = tests::reversalTraining(dir);
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
    ASSERT_TRUE(trainedReversal().result.completed);
    auto model = core::Model::load(trainedReversal().options.outputPath);
    for (int width : {2, 3, 5}) {
        int same = 0, total = 0;
        for (const auto& pair : tests::reversalPairs(60, 123)) {
            core::DecodingSession s(model, pair.source);
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

TEST(TrainingTimeline, StepsAreLogUniformDistinctAndEndAtTheLastUpdate) {
    EXPECT_EQ(core::TrainingTimeline::logUniformSteps(4, 30), (std::vector<int64_t>{1, 3, 10, 30}));
    EXPECT_EQ(core::TrainingTimeline::logUniformSteps(5, 3), (std::vector<int64_t>{1, 2, 3}));
    EXPECT_EQ(core::TrainingTimeline::logUniformSteps(1, 7), (std::vector<int64_t>{7}));
    EXPECT_TRUE(core::TrainingTimeline::logUniformSteps(0, 7).empty());
    const auto many = core::TrainingTimeline::logUniformSteps(20, 10000);
    ASSERT_EQ(many.size(), 20u);
    for (size_t i = 1; i < many.size(); ++i) EXPECT_LT(many[i - 1], many[i]);
}

TEST(TrainingTimeline, TrainWritesSnapshotsAViewerCanOpen) {
    tests::TempDir dir;
    tests::trainReversalRun(dir, 30, 4);
    const auto timeline = core::TrainingTimeline::open(dir.root());
    ASSERT_EQ(timeline.snapshots().size(), 4u);
    std::vector<int64_t> steps;
    for (const auto& s : timeline.snapshots()) steps.push_back(s.step);
    EXPECT_EQ(steps, (std::vector<int64_t>{1, 3, 10, 30}));
    EXPECT_EQ(timeline.loss().size(), 30u) << "the training loss of every update";
    for (const auto& s : timeline.snapshots()) {
        const auto model = core::Model::load(timeline.folder() + "/" + s.file);
        EXPECT_EQ(model.metadata()["training"]["steps"].get<int64_t>(), s.step) << s.file;
    }
    // The last snapshot is the last weights: it translates as the run left it.
    EXPECT_GT(timeline.snapshots().front().loss, timeline.snapshots().back().loss);
}

TEST(TrainingTimeline, AFolderWithoutARunOrWithABadIndexIsNamed) {
    tests::TempDir dir;
    try {
        core::TrainingTimeline::open(dir.root());
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("holds no training run"), std::string::npos) << e.what();
    }
    std::ofstream(dir.path("x.timeline.json"))
        << "{\"format\": \"alignscope-timeline\", \"snapshots\": [{\"step\": 1, \"file\": \"../evil.pt\"}]}";
    try {
        core::TrainingTimeline::open(dir.root());
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("outside its folder"), std::string::npos) << e.what();
    }
    std::ofstream(dir.path("x.timeline.json"))
        << "{\"format\": \"alignscope-timeline\", \"snapshots\": [{\"step\": 1, \"file\": \"gone.pt\"}]}";
    try {
        core::TrainingTimeline::open(dir.path("x.timeline.json"));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("none of their files"), std::string::npos) << e.what();
    }
    std::ofstream(dir.path("x.timeline.json")) << "not json";
    EXPECT_THROW(core::TrainingTimeline::open(dir.root()), core::Error);
}

// --tokenizer sentencepiece: cased sub-words trained on the training split, the pieces the
// vocabulary, byte fallback for anything else, so no sentence ever meets <unk>.
TEST(Trainer, SentencePieceTrainingKeepsCaseAndNeverProducesUnk) {
    tests::TempDir dir;
    {
        std::ofstream out(dir.path("cased.tsv"));
        const char* names[] = {"Tom", "Mary", "Berlin", "Paris"};
        for (int i = 0; i < 600; ++i)
            out << names[i % 4] << " saw " << names[(i / 4) % 4] << " in " << 1990 + i % 30 << ".\t" << names[i % 4] << " a vu "
                << names[(i / 4) % 4] << " en " << 1990 + i % 30 << ".\n";
    }
    auto o = tests::smallTraining(dir.path("cased.tsv"), dir.path("pieces.pt"), 8);
    o.tokenizer = "sentencepiece";
    o.pieces = 400;
    o.maxLength = 40;
    o.maxSteps = 3;
    o.testFraction = 0;
    tests::trainToEnd(o);
    const auto model = core::Model::load(dir.path("pieces.pt"));
    EXPECT_EQ(model.sourceTokenizer().kind(), core::Tokenizer::Kind::SentencePiece);
    EXPECT_EQ(model.targetTokenizer().kind(), core::Tokenizer::Kind::SentencePiece);
    EXPECT_EQ(model.sourceVocabulary().tokens(), model.sourceTokenizer().pieces()) << "the pieces are the vocabulary";
    EXPECT_NE(model.sourceTokenizer().toJson(), model.targetTokenizer().toJson()) << "one model a side unless --joint";
    EXPECT_EQ(model.metadata()["training"]["tokenizer"], "sentencepiece");
    // Case kept, digits split, and characters never seen spelled as bytes, not <unk>.
    const std::string text = "Tom saw Zoë in 1992 €";
    const auto source = model.tokenizeSource(text);
    for (size_t i = 0; i < source.size(); ++i) EXPECT_FALSE(source.unknown[i]) << source.tokens[i];
    std::vector<std::string> pieces;
    for (const auto& t : model.sourceTokenizer().tokenize(text)) pieces.push_back(t.text);
    EXPECT_TRUE(std::any_of(pieces.begin(), pieces.end(), [](const std::string& p) { return p.find('T') != std::string::npos; }))
        << "case kept";
    EXPECT_NE(std::find(pieces.begin(), pieces.end(), "9"), pieces.end()) << "digits split";
    EXPECT_EQ(model.sourceTokenizer().detokenize(pieces), text) << "byte pieces decode back to the characters";
    core::DecodingSession session(model, text);
    session.runToEnd();
    EXPECT_EQ(session.translation().find("<unk>"), std::string::npos);

    // --joint: one model for both sides.
    o.jointPieces = true;
    o.outputPath = dir.path("joint.pt");
    o.checkpointDir = dir.path("joint.ckpt");
    tests::trainToEnd(o);
    const auto shared = core::Model::load(dir.path("joint.pt"));
    EXPECT_EQ(shared.sourceTokenizer().toJson(), shared.targetTokenizer().toJson());
    EXPECT_EQ(shared.sourceVocabulary().tokens(), shared.targetVocabulary().tokens());
}

// --tokenizer-from: a comparison model (here without attention, on other data) reads and writes the
// donor's pieces, not pieces trained afresh on its own corpus; the metadata says where they came from.
TEST(Trainer, TokenizerFromTakesAnotherModelsPiecesAndVocabulariesAsTheyAre) {
    tests::TempDir dir;
    {
        std::ofstream donorCorpus(dir.path("donor.tsv")), otherCorpus(dir.path("other.tsv"));
        for (int i = 0; i < 300; ++i) donorCorpus << "Anna reads book " << i % 17 << ".\tAnna lit le livre " << i % 17 << ".\n";
        for (int i = 0; i < 300; ++i) otherCorpus << "Zebra " << i % 5 << " runs.\tLe zèbre " << i % 5 << " court.\n";
    }
    auto o = tests::smallTraining(dir.path("donor.tsv"), dir.path("donor.pt"), 8);
    o.tokenizer = "sentencepiece";
    o.pieces = 350;
    o.maxLength = 40;
    o.maxSteps = 2;
    o.testFraction = 0;
    tests::trainToEnd(o);

    auto c = tests::smallTraining(dir.path("other.tsv"), dir.path("plain.pt"), 8);
    c.tokenizerFrom = dir.path("donor.pt");
    c.spec.attention = core::ModelSpec::Attention::None;
    c.maxLength = 40;
    c.maxSteps = 2;
    c.testFraction = 0;
    tests::trainToEnd(c);
    const auto donor = core::Model::load(dir.path("donor.pt"));
    const auto plain = core::Model::load(dir.path("plain.pt"));
    EXPECT_EQ(plain.sourceTokenizer().toJson(), donor.sourceTokenizer().toJson());
    EXPECT_EQ(plain.targetTokenizer().toJson(), donor.targetTokenizer().toJson());
    EXPECT_EQ(plain.sourceVocabulary().tokens(), donor.sourceVocabulary().tokens());
    EXPECT_EQ(plain.targetVocabulary().tokens(), donor.targetVocabulary().tokens());
    EXPECT_EQ(plain.metadata()["training"]["tokenizer_from"], dir.path("donor.pt"));
    EXPECT_TRUE(plain.attentionIsUniform()) << "trained without attention, as asked";
}

// --init-from: a model file is trained on from its own weights: the first update's loss is the
// trained model's, not a fresh one's; its pieces and architecture are kept; its training record is
// kept beside the new run's, through a resume too. Other settings (here the batch size) make a new
// run, which counts its updates from 0.
TEST(Trainer, InitFromTrainsAModelFileOnFromWhereItStands) {
    const auto& trained = trainedReversal();
    tests::TempDir dir;
    auto fresh = tests::reversalTraining(dir);
    fresh.maxSteps = 1;
    const double freshFirst = tests::trainToEnd(fresh).lossHistory.at(0);

    core::TrainingOptions c = tests::smallTraining(trained.options.corpusPath, dir.path("more.pt"), 4);
    c.initFrom = trained.options.outputPath;
    c.batchSize = 16;
    c.validationFraction = 0.05;
    c.testFraction = 0;
    c.learningRate = 1e-4;
    c.maxSteps = 1;
    core::Trainer first(c);
    first.prepare();
    EXPECT_EQ(first.startingStep(), 0) << "another batch size: another run";
    EXPECT_LT(first.run(nullptr).lossHistory.at(0), freshFirst / 4) << "the first update starts from the trained weights";

    c.maxSteps = 2;
    c.resume = true;
    const auto resumed = tests::trainToEnd(c);
    EXPECT_EQ(resumed.lossHistory.size(), 2u);
    const auto before = core::Model::load(trained.options.outputPath);
    const auto more = core::Model::load(dir.path("more.pt"));
    EXPECT_EQ(more.sourceVocabulary().tokens(), before.sourceVocabulary().tokens());
    EXPECT_EQ(more.targetVocabulary().tokens(), before.targetVocabulary().tokens());
    EXPECT_EQ(more.metadata()["architecture"], before.metadata()["architecture"]) << "width 4 asked, the model's 16 kept";
    const auto& record = more.metadata()["training"];
    EXPECT_EQ(record["steps"], 2);
    EXPECT_EQ(record["init_from"], trained.options.outputPath);
    EXPECT_EQ(record["continued_from"]["model"], "reverse.pt");
    EXPECT_EQ(record["continued_from"]["steps"], 500);
}

// A model file saved by this same run (same corpus bytes, batch size, length limit and seed), its
// checkpoint gone, goes on at the update it was saved at: the data order continues, no batch is
// repeated, and the updates count on; a run past its end, or one asked for snapshots, is refused.
TEST(Trainer, InitFromAModelOfTheSameRunGoesOnAtItsUpdate) {
    const auto& trained = trainedReversal();
    tests::TempDir dir;
    auto c = trained.options;
    c.initFrom = trained.options.outputPath;
    c.outputPath = dir.path("on.pt");
    c.checkpointDir = dir.path("on.ckpt");
    c.maxSteps = 503;
    core::Trainer on(c);
    on.prepare();
    EXPECT_EQ(on.startingStep(), 500);
    const auto result = on.run(nullptr);
    EXPECT_EQ(result.steps, 503);
    EXPECT_EQ(result.lossHistory.size(), 3u) << "this run's updates: the earlier curve is not in a model file";
    EXPECT_EQ(core::Model::load(c.outputPath).metadata()["training"]["steps"], 503);

    c.maxSteps = 400;
    core::Trainer past(c);
    past.prepare();
    EXPECT_THROW(past.run(nullptr), core::Error);
    c.maxSteps = 600;
    c.snapshots = 3;
    core::Trainer drawn(c);
    EXPECT_THROW(drawn.prepare(), core::Error);
}
