#include "TinyModel.h"

#include "core/training/Trainer.h"

#include "core/model/ModelBuilder.h"
#include "core/text/SentencePieceModel.h"

#include <filesystem>
#include <fstream>
#include <random>

namespace alignscope::tests {

core::ModelSpec tinySpec(core::ModelSpec::Cell cell, core::ModelSpec::Attention attention, bool bidirectional,
                         core::ModelSpec::Decoder decoder) {
    core::ModelSpec s;
    s.cell = cell;
    s.attention = attention;
    s.bidirectional = bidirectional;
    s.decoder = decoder;
    s.embeddingSize = 8;
    s.encoderHidden = 8;
    s.decoderHidden = attention == core::ModelSpec::Attention::Dot ? s.encoderOutputSize() : 12;
    s.attentionSize = 8;
    s.readoutSize = 8;
    s.tieOutput = true;
    s.seed = 7;
    return s;
}

namespace {

core::Model tinyModelOfDirection(const core::ModelSpec& spec, bool reverse) {
    core::ModelBuilder::Input in;
    in.spec = spec;
    std::vector<std::string> src = core::Vocabulary::specialTokens(), tgt = src;
    for (const char* w : {"the", "red", "car", "a", "house", "is", "big", "small", ".", "?", "!", ","}) src.push_back(w);
    for (const char* w : {"la", "voiture", "rouge", "une", "maison", "est", "grande", "petite", ".", "?", "l'"}) tgt.push_back(w);
    core::Tokenizer::Settings fr;
    fr.splitElision = true;
    in.sourceVocabulary = core::Vocabulary(reverse ? tgt : src);
    in.targetVocabulary = core::Vocabulary(reverse ? src : tgt);
    (reverse ? in.sourceTokenizer : in.targetTokenizer) = core::Tokenizer(fr);
    in.name = reverse ? "tiny-test-reverse" : "tiny-test";
    return core::Model(core::ModelBuilder::build(in));
}

}  // namespace

core::Model tinyModel(const core::ModelSpec& spec) { return tinyModelOfDirection(spec, false); }

core::Model tinyReverseModel() { return tinyModelOfDirection(tinySpec(), true); }

core::Model tinyPieceModel() {
    // Pieces trained on a few sentences: short words stay whole, longer ones split.
    std::vector<std::string> english, french;
    const char* en[] = {"the red car", "a small house", "the big house is red", "a car is small", "the house"};
    const char* fr[] = {"la voiture rouge", "une petite maison", "la grande maison est rouge", "une voiture est petite", "la maison"};
    for (int k = 0; k < 40; ++k) {
        english.emplace_back(en[k % 5]);
        french.emplace_back(fr[k % 5]);
    }
    core::ModelBuilder::Input in;
    in.spec = tinySpec();
    in.sourceTokenizer = core::Tokenizer::sentencePiece(core::SentencePieceModel::train(english, 290));
    in.targetTokenizer = core::Tokenizer::sentencePiece(core::SentencePieceModel::train(french, 290));
    in.sourceVocabulary = core::Vocabulary(in.sourceTokenizer.pieces());
    in.targetVocabulary = core::Vocabulary(in.targetTokenizer.pieces());
    in.name = "tiny-pieces";
    return core::Model(core::ModelBuilder::build(in));
}

std::vector<core::SentencePair> reversalPairs(int count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<core::SentencePair> out;
    for (int i = 0; i < count; ++i) {
        const int n = 3 + static_cast<int>(rng() % 4);
        std::vector<std::string> w;
        for (int k = 0; k < n; ++k) w.push_back(std::string(1, static_cast<char>('a' + rng() % 8)));
        core::SentencePair p;
        for (int k = 0; k < n; ++k) p.source += (k ? " " : "") + w[static_cast<size_t>(k)];
        for (int k = n - 1; k >= 0; --k) p.target += w[static_cast<size_t>(k)] + (k ? " " : "");
        p.line = i + 1;
        out.push_back(p);
    }
    return out;
}

core::TrainingOptions smallTraining(const std::string& corpus, const std::string& output, int64_t width) {
    core::TrainingOptions o;
    o.corpusPath = corpus;
    o.outputPath = output;
    o.spec.embeddingSize = width;
    o.spec.encoderHidden = 2 * width;
    o.spec.decoderHidden = 2 * width;
    o.spec.attentionSize = width;
    o.spec.readoutSize = width;
    o.sourceMinCount = 1;
    o.targetMinCount = 1;
    o.dropout = 0;
    o.labelSmoothing = 0;
    o.validationBleuSentences = 0;
    o.checkpointMinutes = 1000;
    o.threads = 1;
    return o;
}

core::TrainingOptions reversalTraining(const TempDir& dir) {
    {
        std::ofstream out(dir.path("reverse.tsv"));
        for (const auto& p : reversalPairs(2000, 11)) out << p.source << '\t' << p.target << '\n';
    }
    auto o = smallTraining(dir.path("reverse.tsv"), dir.path("reverse.pt"), 16);
    o.targetElision = false;
    o.batchSize = 32;
    o.learningRate = 0.01;
    o.validationFraction = 0.05;
    o.testFraction = 0;
    return o;
}

TempDir::TempDir() {
    std::random_device rd;
    root_ = (std::filesystem::temp_directory_path() / ("alignscope-test-" + std::to_string(rd()))).string();
    std::filesystem::create_directories(root_);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(root_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(root_, ec);
}

std::string TempDir::path(const std::string& name) const { return (std::filesystem::path(root_) / name).string(); }

core::TrainingResult trainToEnd(const core::TrainingOptions& options) {
    core::Trainer trainer(options);
    trainer.prepare();
    return trainer.run(nullptr);
}

void trainReversalRun(const TempDir& dir, int64_t steps, int snapshots) {
    auto o = reversalTraining(dir);
    o.maxSteps = steps;
    o.snapshots = snapshots;
    trainToEnd(o);
}

}  // namespace alignscope::tests
