// The model format: every architecture variant meets the contract, survives a save/load round trip
// bit for bit, and every kind of bad file is refused with a clear message.
#include "HostileModels.h"
#include "TinyModel.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/model/ModelBuilder.h"
#include "core/model/TorchModel.h"

#include <gtest/gtest.h>

#include <limits>
#include <caffe2/serialize/inline_container.h>
#include <torch/script.h>

#include <filesystem>
#include <fstream>
#include <array>
#include <cmath>
#include <random>

using namespace alignscope;
using core::ModelSpec;

namespace {

std::string loadError(const std::string& path) {
    try {
        core::Model::load(path);
    } catch (const core::Error& e) {
        return e.what();
    }
    return "";
}

void writeBytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

struct Variant {
    ModelSpec::Cell cell;
    ModelSpec::Attention attention;
    bool bidirectional;
    ModelSpec::Decoder decoder = ModelSpec::Decoder::Bahdanau;
};

class EveryArchitecture : public ::testing::TestWithParam<Variant> {};

}  // namespace

TEST_P(EveryArchitecture, SavedAndReloadedModelGivesIdenticalOutputs) {
    const auto v = GetParam();
    auto model = tests::tinyModel(tests::tinySpec(v.cell, v.attention, v.bidirectional, v.decoder));
    tests::TempDir dir;
    model.save(dir.path("m.pt"));
    auto loaded = core::Model::load(dir.path("m.pt"));
    EXPECT_EQ(loaded.metadata()["architecture"], model.metadata()["architecture"]);
    EXPECT_EQ(loaded.sourceVocabulary().tokens(), model.sourceVocabulary().tokens());
    EXPECT_EQ(loaded.parameterCount(), model.parameterCount());

    core::DecodingSession a(model, "the red car is big ."), b(loaded, "the red car is big .");
    core::SessionOptions o;
    for (int i = 0; i < 6; ++i) {
        const auto& ra = a.step();
        const auto& rb = b.step();
        ASSERT_EQ(ra.tokenId, rb.tokenId);
        ASSERT_EQ(ra.alpha, rb.alpha);
        ASSERT_EQ(ra.logProb, rb.logProb);
        ASSERT_EQ(ra.state, rb.state);
        ASSERT_EQ(ra.extras, rb.extras);
        if (a.finished()) break;
    }
    EXPECT_EQ(model.attentionIsUniform(), v.attention == ModelSpec::Attention::None);
}

// The code takes matrix-vector products at batch 1 and matrix products otherwise: one sentence
// alone must get the numbers it gets as a row of a padded batch.
TEST_P(EveryArchitecture, BatchOfOneEqualsItsRowInAPaddedBatch) {
    const auto v = GetParam();
    auto model = tests::tinyModel(tests::tinySpec(v.cell, v.attention, v.bidirectional, v.decoder));
    const auto& tm = model.torch();
    torch::InferenceMode guard;
    auto src = torch::tensor({5, 6, 7, 8, 3, 9, 10, 3, 0, 0}, torch::kLong).reshape({2, 5});
    auto len = torch::tensor({int64_t{5}, int64_t{3}}, torch::kLong);
    const auto batch = tm.encode(src, len);
    const auto alone = tm.encode(src.slice(0, 1, 2).slice(1, 0, 3), len.slice(0, 1, 2));
    EXPECT_TRUE(torch::allclose(alone.enc[0], batch.enc[1].slice(0, 0, 3), 1e-5, 1e-6));
    auto sb = batch.state, sa = alone.state;
    auto yb = torch::tensor({int64_t{2}, int64_t{2}}, torch::kLong), ya = torch::tensor({int64_t{2}}, torch::kLong);
    for (int t = 0; t < 4; ++t) {
        const auto db = tm.step(yb, sb, batch), da = tm.step(ya, sa, alone);
        EXPECT_TRUE(torch::allclose(da.logProbs[0], db.logProbs[1], 1e-5, 1e-5)) << "step " << t;
        EXPECT_TRUE(torch::allclose(da.alpha[0], db.alpha[1].slice(0, 0, 3), 1e-5, 1e-6)) << "step " << t;
        EXPECT_TRUE(torch::allclose(da.state[0], db.state[1], 1e-5, 1e-6)) << "step " << t;
        yb = db.logProbs.argmax(1);
        ya = yb.slice(0, 1, 2);
        sb = db.state;
        sa = da.state;
    }
}

// A trained model keeps the code it was written with; rewriting it with this version's code keeps
// every number and every attribute.
TEST_P(EveryArchitecture, RewrittenCodeKeepsWeightsAndOutputs) {
    const auto v = GetParam();
    auto model = tests::tinyModel(tests::tinySpec(v.cell, v.attention, v.bidirectional, v.decoder));
    const core::Model rewritten(core::ModelBuilder::rewriteCode(model.torch()));
    EXPECT_EQ(rewritten.parameterCount(), model.parameterCount());
    EXPECT_EQ(rewritten.sourceVocabulary().tokens(), model.sourceVocabulary().tokens());
    EXPECT_EQ(rewritten.targetTokenizer().toJson(), model.targetTokenizer().toJson());
    EXPECT_EQ(rewritten.metadata()["architecture"], model.metadata()["architecture"]);
    EXPECT_TRUE(rewritten.metadata().contains("code_written_by"));
    core::DecodingSession a(model, "the red car is big ."), b(rewritten, "the red car is big .");
    for (int i = 0; i < 5 && !a.finished(); ++i) {
        const auto& ra = a.step();
        const auto& rb = b.step();
        ASSERT_EQ(ra.tokenId, rb.tokenId);
        for (size_t j = 0; j < ra.alpha.size(); ++j) EXPECT_NEAR(ra.alpha[j], rb.alpha[j], 1e-6);
        EXPECT_NEAR(ra.logProb, rb.logProb, 1e-5);
    }
}

// `loss` computes the readout and the vocabulary only at real target positions: a padded batch
// must sum to what its sentences give alone.
TEST_P(EveryArchitecture, LossOfAPaddedBatchIsTheSumOfItsSentences) {
    const auto v = GetParam();
    auto model = tests::tinyModel(tests::tinySpec(v.cell, v.attention, v.bidirectional, v.decoder));
    auto& module = model.torchShared()->module();
    torch::NoGradGuard noGrad;
    const auto src = torch::tensor({5, 6, 7, 8, 3, 9, 10, 3, 0, 0}, torch::kLong).reshape({2, 5});
    const auto len = torch::tensor({int64_t{5}, int64_t{3}}, torch::kLong);
    const auto tgtIn = torch::tensor({2, 4, 5, 6, 2, 7, 0, 0}, torch::kLong).reshape({2, 4});
    const auto tgtOut = torch::tensor({4, 5, 6, 3, 7, 3, 0, 0}, torch::kLong).reshape({2, 4});
    auto loss = [&](const torch::Tensor& s, const torch::Tensor& l, const torch::Tensor& ti, const torch::Tensor& to) {
        auto out = module.get_method("loss")({s, l, ti, to, 0.0, 0.1}).toTuple();
        return std::array<double, 3>{out->elements()[0].toTensor().item<double>(), out->elements()[1].toTensor().item<double>(),
                                     out->elements()[2].toTensor().item<double>()};
    };
    const auto both = loss(src, len, tgtIn, tgtOut);
    const auto first = loss(src.slice(0, 0, 1), len.slice(0, 0, 1), tgtIn.slice(0, 0, 1), tgtOut.slice(0, 0, 1));
    const auto second = loss(src.slice(0, 1, 2).slice(1, 0, 3), len.slice(0, 1, 2), tgtIn.slice(0, 1, 2).slice(1, 0, 2),
                             tgtOut.slice(0, 1, 2).slice(1, 0, 2));
    EXPECT_EQ(both[2], 6.0);  // real target tokens, </s> included
    for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(both[i], first[i] + second[i], 1e-4 * std::abs(both[i])) << i;
    auto unsmoothed = module.get_method("loss")({src, len, tgtIn, tgtOut, 0.0, 0.0}).toTuple();
    EXPECT_NEAR(unsmoothed->elements()[0].toTensor().item<double>(), both[1], 1e-4 * both[1]) << "without smoothing the loss is the NLL";
}

INSTANTIATE_TEST_SUITE_P(
    Variants, EveryArchitecture,
    ::testing::Values(Variant{ModelSpec::Cell::GRU, ModelSpec::Attention::Additive, true},
                      Variant{ModelSpec::Cell::LSTM, ModelSpec::Attention::Additive, true},
                      Variant{ModelSpec::Cell::GRU, ModelSpec::Attention::Dot, true},
                      Variant{ModelSpec::Cell::LSTM, ModelSpec::Attention::General, false},
                      Variant{ModelSpec::Cell::GRU, ModelSpec::Attention::None, true},
                      Variant{ModelSpec::Cell::GRU, ModelSpec::Attention::Additive, true, ModelSpec::Decoder::Conditional},
                      Variant{ModelSpec::Cell::LSTM, ModelSpec::Attention::Dot, true, ModelSpec::Decoder::Conditional}),
    [](const ::testing::TestParamInfo<Variant>& info) {
        return ModelSpec::cellName(info.param.cell) + "_" + ModelSpec::attentionName(info.param.attention) +
               (info.param.bidirectional ? "_bi" : "_uni") + (info.param.decoder == ModelSpec::Decoder::Conditional ? "_conditional" : "");
    });

// What the conditional decoder changes: its attention at a step reads the token given to that
// step (the word just written); Bahdanau's comes from the state before it, whatever the token.
TEST(ModelFile, OnlyTheConditionalDecodersAttentionReadsThePreviousToken) {
    for (const auto decoder : {ModelSpec::Decoder::Bahdanau, ModelSpec::Decoder::Conditional}) {
        auto model = tests::tinyModel(tests::tinySpec(ModelSpec::Cell::GRU, ModelSpec::Attention::Additive, true, decoder));
        const auto& tm = model.torch();
        torch::InferenceMode guard;
        const auto src = torch::tensor({5, 6, 7, 8, 3}, torch::kLong).reshape({1, 5});
        const auto encoded = tm.encode(src, torch::tensor({int64_t{5}}, torch::kLong));
        const auto a = tm.step(torch::tensor({int64_t{4}}, torch::kLong), encoded.state, encoded);
        const auto b = tm.step(torch::tensor({int64_t{9}}, torch::kLong), encoded.state, encoded);
        const double change = (a.alpha - b.alpha).abs().max().item<double>();
        if (decoder == ModelSpec::Decoder::Bahdanau) EXPECT_EQ(change, 0.0) << "Bahdanau's alpha_t comes from s_{t-1} alone";
        else EXPECT_GT(change, 1e-4) << "the conditional decoder attends after reading y_{t-1}";
        EXPECT_EQ(model.metadata()["architecture"]["decoder"], ModelSpec::decoderName(decoder));
    }
    EXPECT_THROW(ModelSpec::parseDecoder("luong"), core::Error);
    EXPECT_EQ(ModelSpec::fromJson({{"cell", "gru"}}).decoder, ModelSpec::Decoder::Bahdanau) << "files before the choice";
}

TEST(ModelFile, HalfPrecisionFileIsSmallerAndLoadsAsFloat) {
    auto model = tests::tinyModel();
    tests::TempDir dir;
    model.save(dir.path("full.pt"));
    model.save(dir.path("half.pt"), true);
    auto half = core::Model::load(dir.path("half.pt"));
    EXPECT_EQ(half.metadata()["stored_dtype"], "float16");
    core::DecodingSession a(model, "the car"), b(half, "the car");
    const auto& ra = a.step();
    const auto& rb = b.step();
    ASSERT_EQ(ra.alpha.size(), rb.alpha.size());
    for (size_t i = 0; i < ra.alpha.size(); ++i) EXPECT_NEAR(ra.alpha[i], rb.alpha[i], 1e-2);
}

TEST(ModelFile, MissingFileAndFolderAreNamed) {
    tests::TempDir dir;
    EXPECT_NE(loadError(dir.path("nope.pt")).find("does not exist"), std::string::npos);
    EXPECT_NE(loadError(dir.root()).find("is a folder"), std::string::npos);
}

TEST(ModelFile, RandomBytesAreRefused) {
    tests::TempDir dir;
    std::mt19937 rng(3);
    std::string junk(4096, '\0');
    for (auto& c : junk) c = static_cast<char>(rng());
    writeBytes(dir.path("random.pt"), junk);
    EXPECT_NE(loadError(dir.path("random.pt")).find("not a TorchScript model file"), std::string::npos);
    writeBytes(dir.path("zipjunk.pt"), "PK" + junk);
    EXPECT_NE(loadError(dir.path("zipjunk.pt")).find("'" + dir.path("zipjunk.pt") + "' is damaged or not a model file"), std::string::npos)
        << loadError(dir.path("zipjunk.pt"));
    writeBytes(dir.path("empty.pt"), "");
    EXPECT_FALSE(loadError(dir.path("empty.pt")).empty());
}

TEST(ModelFile, TruncatedFilesAreRefused) {
    auto model = tests::tinyModel();
    tests::TempDir dir;
    model.save(dir.path("m.pt"));
    const auto bytes = readBytes(dir.path("m.pt"));
    for (double fraction : {0.1, 0.5, 0.9, 0.99}) {
        writeBytes(dir.path("cut.pt"), bytes.substr(0, static_cast<size_t>(bytes.size() * fraction)));
        EXPECT_FALSE(loadError(dir.path("cut.pt")).empty()) << "fraction " << fraction;
    }
}

// A zip archive whole in itself, but one weight record holds half the bytes its tensor needs:
// LibTorch would load it and read past the record's end.
TEST(ModelFile, AWeightRecordCutShortIsRefused) {
    auto model = tests::tinyModel();
    tests::TempDir dir;
    model.save(dir.path("m.pt"));
    {
        caffe2::serialize::PyTorchStreamReader reader(dir.path("m.pt"));
        caffe2::serialize::PyTorchStreamWriter writer(dir.path("short.pt"));
        for (const auto& name : reader.getAllRecords()) {
            if (name == "version" || name == ".data/version") continue;  // the writer adds its own
            auto [data, size] = reader.getRecord(name);
            writer.writeRecord(name, data.get(), name == "data/0" ? size / 2 : size);
        }
        writer.writeEndOfFile();
    }
    EXPECT_NE(loadError(dir.path("short.pt")).find("is damaged"), std::string::npos) << loadError(dir.path("short.pt"));
    EXPECT_TRUE(loadError(dir.path("m.pt")).empty());
}

TEST(ModelFile, NonConformingModuleIsRefusedWithEveryProblemNamed) {
    torch::jit::Module m("__torch__.NotAlignScope");
    m.register_attribute("format_version", c10::IntType::get(), int64_t{1});
    m.define(R"(
def encode(self, src: Tensor, src_len: Tensor) -> Tensor:
    return src
)");
    tests::TempDir dir;
    m.save(dir.path("other.pt"));
    const auto message = loadError(dir.path("other.pt"));
    EXPECT_NE(message.find("does not meet the AlignScope model contract"), std::string::npos) << message;
    EXPECT_NE(message.find("missing attribute 'src_vocab'"), std::string::npos) << message;
    EXPECT_NE(message.find("missing method 'step'"), std::string::npos) << message;
}

TEST(ModelFile, WrongOutputShapesAreNamed) {
    // Every attribute right, but a step whose log_probs and alpha have the wrong widths.
    torch::jit::Module m("__torch__.WrongShapes");
    tests::addFormat1Attributes(m, {"<pad>", "<unk>", "<s>", "</s>", "x", "y"});
    m.define(R"(
def encode(self, src: Tensor, src_len: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    B = src.size(0)
    S = src.size(1)
    return torch.zeros([B, S, 4]), torch.zeros([B, 3]), torch.ones([B, S]) > 0, torch.zeros([B, S, 4])

def step(self, y_prev: Tensor, state: Tensor, enc: Tensor, keys: Tensor, mask: Tensor) -> Dict[str, Tensor]:
    B = y_prev.size(0)
    return {"log_probs": torch.log_softmax(torch.zeros([B, 5]), 1), "state": state, "alpha": torch.ones([B, 1]), "context": torch.zeros([B, 4])}
)");
    tests::TempDir dir;
    m.save(dir.path("bad.pt"));
    const auto message = loadError(dir.path("bad.pt"));
    EXPECT_NE(message.find("log_probs must be [B,V] with V = 6"), std::string::npos) << message;
    EXPECT_NE(message.find("alpha must be [B,S]"), std::string::npos) << message;
}

TEST(ModelFile, UnwritablePathIsAClearError) {
    auto model = tests::tinyModel();
    try {
        model.save("/nonexistent-folder/m.pt");
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
    }
}

TEST(ModelFile, CodeRewriteRefusesParametersThatDoNotMatchTheArchitecture) {
    auto model = tests::tinyModel();
    auto meta = model.metadata();
    meta["architecture"]["attention_size"] = meta["architecture"]["attention_size"].get<int>() + 3;
    auto torchModel = model.torchShared();
    torchModel->setMetadata(meta);
    try {
        core::ModelBuilder::rewriteCode(*torchModel);
        FAIL() << "a model whose weights do not fit its architecture was rewritten";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("parameter 'att_W' has the wrong shape"), std::string::npos) << e.what();
    }
    meta.erase("architecture");
    torchModel->setMetadata(meta);
    EXPECT_THROW(core::ModelBuilder::rewriteCode(*torchModel), core::Error);
}

// Files written by the first version's code (torch.gru_cell / lstm_cell, addmm at every batch
// size; made with its `train --steps 3`): rewritten, they decode to the same tokens and alphas.
TEST(ModelFile, FirstVersionCodeIsRewrittenWithTheSameOutputs) {
    for (const char* name : {"old-code-gru-additive.pt", "old-code-gru-none.pt", "old-code-lstm-general-uni.pt"}) {
        SCOPED_TRACE(name);
        const auto old = core::Model::load(std::string(ALIGNSCOPE_TEST_DATA) + "/" + name);
        EXPECT_FALSE(old.metadata().contains("code_written_by"));
        const core::Model rewritten(core::ModelBuilder::rewriteCode(old.torch()));
        EXPECT_TRUE(rewritten.metadata().contains("code_written_by"));
        EXPECT_EQ(rewritten.metadata()["training"], old.metadata()["training"]);
        for (const char* sentence : {"march 3 , 1999", "12 june 2001"}) {
            core::DecodingSession a(old, sentence), b(rewritten, sentence);
            a.runToEnd();
            b.runToEnd();
            ASSERT_EQ(a.steps().size(), b.steps().size());
            for (size_t t = 0; t < a.steps().size(); ++t) {
                EXPECT_EQ(a.steps()[t].tokenId, b.steps()[t].tokenId);
                for (size_t i = 0; i < a.steps()[t].alpha.size(); ++i) EXPECT_NEAR(a.steps()[t].alpha[i], b.steps()[t].alpha[i], 1e-5);
            }
        }
    }
}

TEST(ModelFile, IntegerBuffersKeepTheirTypeWhenHalfWeightsAreWidened) {
    // A converted model may carry an id map; widening float16 weights must leave it an integer tensor.
    auto model = tests::tinyModel();
    auto torchModel = model.torchShared();
    torchModel->module().register_buffer("id_map", torch::tensor({7, 3, 5, 1, 0}, torch::kLong));
    tests::TempDir dir;
    model.save(dir.path("half.pt"), true);
    const auto loaded = core::Model::load(dir.path("half.pt"));
    const auto map = loaded.torch().module().attr("id_map").toTensor();
    EXPECT_EQ(map.scalar_type(), torch::kLong);
    EXPECT_TRUE(torch::equal(map, torch::tensor({7, 3, 5, 1, 0}, torch::kLong)));
    for (const auto& p : loaded.torch().module().parameters()) EXPECT_EQ(p.scalar_type(), torch::kFloat);
}

TEST(ModelFile, MisspeltArchitectureDescriptionsAndMetadataTypesAreRefused) {
    auto model = tests::tinyModel();
    auto meta = model.metadata();
    meta["attention"] = {{"kind", "additive"}, {"when", "after"}};
    meta["encoder"] = {{"layers", 0}};
    meta["max_length"] = "ten";
    meta["source_eos"] = 1;
    model.torchShared()->setMetadata(meta);
    tests::TempDir dir;
    model.save(dir.path("m.pt"));
    const auto message = loadError(dir.path("m.pt"));
    EXPECT_NE(message.find("'attention.when' must be \"before_cell\" or \"after_cell\""), std::string::npos) << message;
    EXPECT_NE(message.find("'encoder.layers' must be an integer from 1 to 64"), std::string::npos) << message;
    EXPECT_NE(message.find("'max_length' must be an integer"), std::string::npos) << message;
    EXPECT_NE(message.find("'source_eos' must be true or false"), std::string::npos) << message;
}

TEST(ModelFile, DeclaredMaxLengthIsTheDefaultCapAndMaxSourceLengthIsEnforced) {
    auto model = tests::tinyModel();  // untrained: decodes to the length cap
    auto meta = model.metadata();
    meta["max_length"] = 4;
    meta["max_source_length"] = 3;
    model.torchShared()->setMetadata(meta);
    tests::TempDir dir;
    model.save(dir.path("m.pt"));
    const auto loaded = core::Model::load(dir.path("m.pt"));
    core::DecodingSession session(loaded, "a b");
    EXPECT_EQ(session.maxLength(), 4);
    EXPECT_LE(session.search(core::SearchOptions{}).front().ids.size(), 4u);
    try {
        core::DecodingSession tooLong(loaded, "a b c");
        ADD_FAILURE() << "a source over max_source_length was accepted";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("at most 2 (its declared max_source_length)"), std::string::npos) << e.what();
    }
}

// The second fuzz campaign (../shared/fuzz/repro, "Campaign 2"): JSON attributes and weights that
// passed the load and broke later; each is now refused at load with its reason.
namespace {

// The tiny model's file with one string attribute replaced (in the saved module, since saving a
// Model writes its metadata again); returns the load's message.
std::string loadErrorWithAttribute(const tests::TempDir& dir, const char* name, const std::string& value) {
    tests::tinyModel().save(dir.path("tiny.pt"));
    auto module = torch::jit::load(dir.path("tiny.pt"));
    module.setattr(name, value);
    const auto path = dir.path(std::string(name) + ".pt");
    module.save(path);
    return loadError(path);
}

}  // namespace

// Campaign 3: every init_b value the largest finite float passed "all weights finite" and translated
// every line as nothing. The probe sees the decoder's state saturated at +-1 and refuses the file.
TEST(ModelFile, ASaturatedDecoderStateIsRefusedAtLoad) {
    tests::TempDir dir;
    tests::tinyModel().save(dir.path("tiny.pt"));
    auto module = torch::jit::load(dir.path("tiny.pt"));
    int changed = 0;
    {
        torch::NoGradGuard noGrad;
        for (const auto& p : module.named_parameters()) {
            if (p.name.size() < 6 || p.name.compare(p.name.size() - 6, 6, "init_b") != 0) continue;
            p.value.fill_(std::numeric_limits<float>::max());
            ++changed;
        }
    }
    ASSERT_GT(changed, 0) << "the tiny model has an init_b";
    module.save(dir.path("init_b.pt"));
    const auto message = loadError(dir.path("init_b.pt"));
    EXPECT_NE(message.find("every value of the decoder's initial state is +-1 (saturated"), std::string::npos) << message;
    EXPECT_EQ(loadError(dir.path("tiny.pt")), "") << "the model as it was loads";
}

TEST(ModelFile, LengthsOutsideTwoToAThousandAreRefused) {
    for (const auto& [key, value] : {std::pair<const char*, int>{"max_length", 100000}, {"max_source_length", 1}}) {
        auto model = tests::tinyModel();
        auto meta = model.metadata();
        meta[key] = value;
        model.torchShared()->setMetadata(meta);
        tests::TempDir dir;
        model.save(dir.path("m.pt"));
        const auto message = loadError(dir.path("m.pt"));
        EXPECT_NE(message.find(std::string("'") + key + "' must be an integer from 2 to 1000"), std::string::npos) << message;
    }
}

TEST(ModelFile, JsonAttributesAreReadWithinADepthAndASize) {
    tests::TempDir dir;
    std::string nested;
    for (int i = 0; i < 100000; ++i) nested += "{\"a\":";
    nested += "1" + std::string(100000, '}');
    auto message = loadErrorWithAttribute(dir, "metadata", nested);
    EXPECT_NE(message.find("attribute 'metadata' nests objects or lists deeper than 64 levels"), std::string::npos) << message;
    message = loadErrorWithAttribute(dir, "metadata", "{\"notes\": \"" + std::string(2 << 20, 'x') + "\"}");
    EXPECT_NE(message.find("attribute 'metadata' is 2 MiB; at most 1 MiB are read"), std::string::npos) << message;
}

TEST(ModelFile, TokenizerWithoutKindAndEmptySpecialsAreRefused) {
    tests::TempDir dir;
    auto message = loadErrorWithAttribute(dir, "src_tokenizer", R"({"lowercase": true})");
    EXPECT_NE(message.find("attribute 'src_tokenizer' has no \"kind\""), std::string::npos) << message;
    message = loadErrorWithAttribute(dir, "tgt_specials", "");
    EXPECT_NE(message.find("attribute 'tgt_specials' is empty"), std::string::npos) << message;
    message = loadErrorWithAttribute(dir, "src_tokenizer",
                                     R"({"kind": "word", "normalizers": [{"type": "replace", "pattern": "(a)\\1", "content": ""}]})");
    EXPECT_NE(message.find("normaliser pattern '(a)\\1'"), std::string::npos) << message;
    EXPECT_NE(message.find(dir.path("src_tokenizer.pt")), std::string::npos) << message;
}

TEST(ModelFile, NonFiniteWeightsAreRefusedEvenWhereTheProbeStaysFinite) {
    for (const float value : {-INFINITY, INFINITY}) {
        auto model = tests::tinyModel();
        std::string name;
        {
            torch::NoGradGuard noGrad;
            for (const auto& p : model.torchShared()->module().named_parameters()) {
                if (p.value.dim() != 1) continue;  // a bias, as init_b in the campaign's files
                name = p.name;
                p.value.fill_(value);
                break;
            }
        }
        ASSERT_FALSE(name.empty());
        tests::TempDir dir;
        model.save(dir.path("inf.pt"));
        const auto message = loadError(dir.path("inf.pt"));
        EXPECT_NE(message.find("non-finite weights: " + name + ":"), std::string::npos) << message;
    }
}

TEST(ModelFile, ATokenizerThatExpandsALineIsNamedWithItsFile) {
    tests::TempDir dir;
    auto model = tests::tinyModel();
    std::string content;
    for (int i = 0; i < 1000; ++i) content += "$&";
    const nlohmann::json tokenizer = {{"kind", "word"}, {"normalizers", {{{"type", "replace"}, {"pattern", "."}, {"content", content}}}}};
    model.torchShared()->module().setattr("src_tokenizer", tokenizer.dump());
    model.save(dir.path("expands.pt"));
    const auto loaded = core::Model::load(dir.path("expands.pt"));
    try {
        loaded.tokenizeSource("a b");
        ADD_FAILURE() << "the expansion was accepted";
    } catch (const core::Error& e) {
        EXPECT_EQ(std::string(e.what()), "the source tokenizer of '" + dir.path("expands.pt") +
                                             "' expands this line of 3 characters beyond 64 characters while normalising it");
    }
}
