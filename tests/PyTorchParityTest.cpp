// Models from PyTorch (the Python package python/alignscope): AlignScope loads the exported file and computes
// what the eager PyTorch model computes: alpha and log-probs within 1e-5 at every step, and the same
// training loss. A model AlignScope built itself means the same thing to the PyTorch reference.
// Needs Debian's /usr/bin/python3 with python3-torch; skipped with a message where it is absent.
#include "CommandRunner.h"
#include "TinyModel.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/model/TorchModel.h"
#include "core/text/SentencePieceModel.h"
#include "core/training/TrainingBatch.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sys/wait.h>

using namespace alignscope;
using nlohmann::json;

namespace {

const std::string kPython = "/usr/bin/python3";  // the PATH python may lack torch
// `python3 -m alignscope`, the package from this source tree.
const std::string kAlignScopePython =
    "PYTHONPATH=" + tests::shellQuoted(std::string(ALIGNSCOPE_SOURCE_DIR) + "/python") + " " + kPython + " -m alignscope";
constexpr double kTolerance = 1e-5;

struct Run {
    int exitCode;
    std::string out;
};

std::string quoted(const std::string& path) { return tests::shellQuoted(path); }

Run run(const std::string& command) {
    const auto r = tests::runCommand(command);
    return {r.exitCode, r.output};
}

bool haveTorch() {
    static const bool ok = run(kPython + " -c \"import torch\"").exitCode == 0;
    return ok;
}

#define SKIP_WITHOUT_TORCH() \
    if (!haveTorch()) GTEST_SKIP() << "python3-torch is not installed (apt-get install python3-torch): PyTorch parity not checked"

json readJson(const std::string& path) {
    std::ifstream in(path);
    return json::parse(in);
}

std::vector<float> toVector(const torch::Tensor& t) {
    auto c = t.contiguous().to(torch::kFloat);
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

// Every element within kTolerance; reports the first few offenders only.
void expectClose(const std::vector<float>& got, const json& want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    int reported = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const double w = want[i].get<double>();
        if (std::abs(got[i] - w) > kTolerance && reported++ < 3)
            ADD_FAILURE() << what << "[" << i << "]: AlignScope " << got[i] << ", PyTorch " << w;
    }
}

// Teacher-forces the reference's target through the model's raw encode/step by id, so the
// comparison does not depend on tokenisation, and compares full rows.
void expectMatchesReference(const core::Model& model, const json& ref) {
    torch::InferenceMode guard;
    const auto srcIds = ref["source_ids"].get<std::vector<int64_t>>();
    const auto S = static_cast<int64_t>(srcIds.size());
    auto src = torch::tensor(srcIds, torch::kLong).unsqueeze(0);
    auto enc = model.torch().encode(src, torch::tensor({S}, torch::kLong));
    expectClose(toVector(enc.state[0]), ref["initial_state"], "initial state");
    auto state = enc.state;
    const auto& steps = ref["steps"];
    ASSERT_EQ(steps.size(), ref["target_ids"].size());
    for (size_t t = 0; t < steps.size(); ++t) {
        const auto& r = steps[t];
        const auto yPrev = r["y_prev"].get<int64_t>();
        auto out = model.torch().step(torch::tensor({yPrev}, torch::kLong), state, enc);
        const auto at = " at step " + std::to_string(t);
        expectClose(toVector(out.alpha[0]), r["alpha"], "alpha" + at);
        expectClose(toVector(out.logProbs[0]), r["log_probs"], "log_probs" + at);
        expectClose(toVector(out.context[0]), r["context"], "context" + at);
        state = out.state;
    }
}

// The training entry point `loss` (what AlignScope's trainer calls) on the same pair, no dropout.
void expectLossMatchesReference(const core::Model& model, const json& ref) {
    torch::NoGradGuard noGrad;
    const auto& want = ref["loss"];
    auto src = torch::tensor(ref["source_ids"].get<std::vector<int64_t>>(), torch::kLong).unsqueeze(0);
    auto tgt = ref["target_ids"].get<std::vector<int64_t>>();
    std::vector<int64_t> tgtIn{core::Vocabulary::kBos};
    tgtIn.insert(tgtIn.end(), tgt.begin(), tgt.end() - 1);
    auto out = model.torchShared()
                   ->module()
                   .get_method("loss")({src, torch::tensor({src.size(1)}, torch::kLong), torch::tensor(tgtIn, torch::kLong).unsqueeze(0),
                                        torch::tensor(tgt, torch::kLong).unsqueeze(0), 0.0, want["smoothing"].get<double>()})
                   .toTuple();
    const auto& el = out->elements();
    const double n = want["n_tokens"].get<double>();
    EXPECT_EQ(el[2].toTensor().item<double>(), n);
    // A sum of n terms, each within the step tolerance.
    EXPECT_NEAR(el[0].toTensor().item<double>(), want["loss_sum"].get<double>(), n * kTolerance);
    EXPECT_NEAR(el[1].toTensor().item<double>(), want["nll_sum"].get<double>(), n * kTolerance);
}

// Guided alignment's entry point `guided_loss` on the same pair, with the reference's token links made
// into guidance by the C++ trainer's own batch (TrainingBatch), as training feeds it.
void expectGuidedLossMatchesReference(const core::Model& model, const json& ref) {
    torch::NoGradGuard noGrad;
    const auto& want = ref["guided_loss"];
    auto tgt = ref["target_ids"].get<std::vector<int64_t>>();
    tgt.pop_back();  // </s>: the batch adds it
    core::GuidedAlignment::TokenLinks links;
    for (const auto& l : want["guide"]) links.emplace_back(l[0].get<int>(), l[1].get<int>());
    const auto b = core::TrainingBatch::make({ref["source_ids"].get<std::vector<int64_t>>()}, {tgt}, {&links});
    auto out = model.torchShared()
                   ->module()
                   .get_method("guided_loss")(
                       {b.src, b.srcLen, b.tgtIn, b.tgtOut, 0.0, want["smoothing"].get<double>(), b.guidance, want["weight"].get<double>()})
                   .toTuple();
    const auto& el = out->elements();
    EXPECT_EQ(el[2].toTensor().item<double>(), want["n_tokens"].get<double>());
    EXPECT_EQ(b.guidedSteps, static_cast<int64_t>(ref["target_ids"].size()));
    EXPECT_GT(want["ce_sum"].get<double>(), 0.0);
    for (const auto& [i, key] : {std::pair<size_t, const char*>{0, "loss_sum"}, {1, "nll_sum"}, {3, "ce_sum"}})
        EXPECT_NEAR(el[i].toTensor().item<double>(), want[key].get<double>(), 1e-4) << key;
}

// The same through the public session, from text: tokenisation must give the reference's ids.
void expectSessionMatchesReference(const core::Model& model, const json& ref) {
    core::DecodingSession session(model, ref["source_text"].get<std::string>());
    ASSERT_EQ(session.source().ids, ref["source_ids"].get<std::vector<int64_t>>());
    expectClose(session.initialState(), ref["initial_state"], "session initial state");
    session.alignTo(ref["target_text"].get<std::string>());
    const auto& steps = session.steps();
    ASSERT_EQ(steps.size(), ref["steps"].size());
    for (size_t t = 0; t < steps.size(); ++t) {
        const auto& r = ref["steps"][t];
        const auto token = r["token"].get<int64_t>();
        EXPECT_EQ(steps[t].tokenId, token) << "step " << t;
        expectClose(steps[t].alpha, r["alpha"], "session alpha at step " + std::to_string(t));
        EXPECT_NEAR(steps[t].logProb, r["log_probs"][token].get<double>(), kTolerance) << "step " << t;
    }
}

struct Variant {
    const char* name;
    const char* args;  // architecture flags of `python3 -m alignscope demo`
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }  // readable test names in ctest

class PyTorchExport : public ::testing::TestWithParam<Variant> {
protected:
    // Exports the demo model of this variant; model.pt and reference.json land in dir.
    void exportDemo(const std::string& args) {
        const auto r = run(kAlignScopePython + " demo --out " + quoted(dir.root()) + " " + args);
        ASSERT_EQ(r.exitCode, 0) << r.out;
    }
    tests::TempDir dir;
};

}  // namespace

TEST_P(PyTorchExport, AlphaAndLogProbsEqualEagerPyTorch) {
    SKIP_WITHOUT_TORCH();
    ASSERT_NO_FATAL_FAILURE(exportDemo(GetParam().args));
    const auto ref = readJson(dir.path("reference.json"));

    // What `alignscope-cli inspect` does: load and check the contract.
    std::unique_ptr<core::Model> model;
    try {
        model = std::make_unique<core::Model>(core::Model::load(dir.path("model.pt")));
    } catch (const core::Error& e) {
        FAIL() << "the exported model is refused: " << e.what();
    }
    EXPECT_EQ(model->name(), "pytorch-demo");
    EXPECT_EQ(model->metadata()["architecture"], ref["architecture"]);
    EXPECT_EQ(model->encoderOutputSize(), ref["architecture"]["encoder_output_size"].get<int64_t>());
    EXPECT_EQ(model->stateSize(), ref["architecture"]["state_size"].get<int64_t>());

    expectMatchesReference(*model, ref);
    expectSessionMatchesReference(*model, ref);
    expectLossMatchesReference(*model, ref);
    expectGuidedLossMatchesReference(*model, ref);
}

INSTANTIATE_TEST_SUITE_P(Variants, PyTorchExport,
                         ::testing::Values(Variant{"GruAdditiveBidirectional", ""},
                                           Variant{"LstmGeneralUnidirectional", "--cell lstm --attention general --unidirectional"},
                                           Variant{"GruDot", "--attention dot"},
                                           Variant{"GruAdditiveConditional", "--decoder conditional"}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(PyTorchExportPadding, PaddedBatchGivesZeroAlphaOnPaddingAndSameRowsAsAlone) {
    SKIP_WITHOUT_TORCH();
    tests::TempDir dir;
    const auto r = run(kAlignScopePython + " demo --out " + quoted(dir.root()));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto model = core::Model::load(dir.path("model.pt"));
    const auto& m = model.torch();

    torch::InferenceMode guard;
    auto src = torch::tensor({4, 5, 6, 9, 10, 12, 3, 7, 8, 3, 0, 0, 0, 0}, torch::kLong).view({2, 7});
    auto batch = m.encode(src, torch::tensor({7, 3}, torch::kLong));
    auto alone = m.encode(src.slice(0, 1, 2).slice(1, 0, 3), torch::tensor({3}, torch::kLong));
    EXPECT_TRUE(torch::equal(batch.enc[1].slice(0, 3), torch::zeros({4, batch.enc.size(2)})));
    EXPECT_TRUE(torch::allclose(batch.enc[1].slice(0, 0, 3), alone.enc[0], 0, 1e-6));

    auto yBatch = torch::full({2}, core::Vocabulary::kBos, torch::kLong);
    auto yAlone = torch::full({1}, core::Vocabulary::kBos, torch::kLong);
    auto sBatch = batch.state, sAlone = alone.state;
    for (int t = 0; t < 4; ++t) {
        auto b = m.step(yBatch, sBatch, batch);
        auto a = m.step(yAlone, sAlone, alone);
        EXPECT_TRUE(torch::equal(b.alpha[1].slice(0, 3), torch::zeros({4}))) << "step " << t << ": " << b.alpha[1];
        EXPECT_TRUE(torch::allclose(b.alpha[1].slice(0, 0, 3), a.alpha[0], 0, 1e-6)) << "step " << t;
        EXPECT_TRUE(torch::allclose(b.logProbs[1], a.logProbs[0], 0, kTolerance)) << "step " << t;
        EXPECT_NEAR(b.alpha.sum(1)[0].item<double>(), 1.0, 1e-5);
        yBatch = b.logProbs.argmax(1);
        yAlone = yBatch.slice(0, 1, 2);
        sBatch = b.state;
        sAlone = a.state;
    }
}

// The other direction: a model AlignScope built (core/ModelBuilder.cpp) read into the eager
// PyTorch reference computes the same numbers, so both sides implement one model.
TEST(PyTorchReference, AlignScopeBuiltModelEqualsEagerPyTorch) {
    SKIP_WITHOUT_TORCH();
    tests::TempDir dir;
    const auto model = tests::tinyModel();
    model.save(dir.path("tiny.pt"));
    const auto r =
        run(kAlignScopePython + " reference --model " + quoted(dir.path("tiny.pt")) + " --out " + quoted(dir.path("reference.json")));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto ref = readJson(dir.path("reference.json"));
    EXPECT_EQ(ref["source_ids"].size(), model.tokenizeSource(ref["source_text"].get<std::string>()).size());
    expectMatchesReference(model, ref);
    expectSessionMatchesReference(model, ref);
    expectLossMatchesReference(model, ref);
    expectGuidedLossMatchesReference(model, ref);
}

// One SentencePiece settings file, two trainers: the C++ core and the Python package train the
// same model (byte for byte) from the same sentences.
TEST(SentencePieceTraining, CppAndPythonTrainTheSameModel) {
    if (run(kPython + " -c \"import sentencepiece\"").exitCode != 0)
        GTEST_SKIP() << "python3-sentencepiece is not installed: the Python trainer's pieces are not checked";
    tests::TempDir dir;
    std::vector<std::string> sentences;
    std::ofstream text(dir.path("sentences.txt"));
    const char* words[] = {"The",    "agreement", "on",     "the",  "European", "Area",   "was",
                           "signed", "in",        "August", "1992", "Tom",      "Berlin", "café"};
    for (int i = 0; i < 400; ++i) {
        std::string s;
        for (int k = 0; k < 7; ++k) s += std::string(k ? " " : "") + words[(i * 7 + k * 3 + i / 5) % 14];
        sentences.push_back(s);
        text << s << '\n';
    }
    text.close();
    const auto cpp = core::SentencePieceModel::train(sentences, 320);
    const auto r = run("cd " + quoted(dir.root()) + " && PYTHONPATH=" + tests::shellQuoted(std::string(ALIGNSCOPE_SOURCE_DIR) + "/python") +
                       " " + kPython +
                       " -c \"import sys; from alignscope.subwords import train_pieces; "
                       "open('py.model', 'wb').write(train_pieces(open('sentences.txt', encoding='utf-8').read().splitlines(), 320))\"");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    std::ifstream in(dir.path("py.model"), std::ios::binary);
    const std::string python((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(cpp.size(), python.size());
    EXPECT_TRUE(cpp == python) << "the two trainers' SentencePiece models differ";
}
