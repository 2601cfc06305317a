// Core speed (no widgets), measured beside the same model in PyTorch eager: scripts/bench.sh runs
// this binary and scripts/bench_reference.py and prints one table (docs/performance.md).
//
//   ModelLoad                  Model::load: read, widen float16, check the contract (probe run)
//   Encode/tokens:N            TorchModel::encode of an N-token source (</s> included), batch 1
//   DecoderStep/src_tokens:N   one TorchModel::step at batch 1 (the model's own `step`: attention,
//                              GRU cell, readout, vocabulary projection, log_softmax); the source is
//                              encoded once, outside the timing, and every iteration is one step
//                              from the same inputs
//   SessionStep/src_tokens:N   what the app's Step runs: DecodingSession::step (the model's step
//                              plus top-k candidates and the copies a StepRecord keeps), then a
//                              back(), which only pops two vectors
//   Greedy10Words              tokenise + encode + greedy decode to </s> of a 10-word sentence
//   Beam5_10Words              the same with beam search, width 5
//   Attribution/method:M       one step's attribution (Attributor::attribute, steps = {10}) of the
//                              greedy translation of a 20-token source: M = 0 attention, 1
//                              gradient × input, 2 integrated gradients at 16 points (fixed, no
//                              adaptive refinement), 3 occlusion; the target prefix of 10 tokens is
//                              run again inside each call, as the app's step does
//   Pairs2400/translate        greedy translation of 2,400 sources (the 300 pairs of
//                              docs/alignment-gold/pairs.tsv, eight times, or the pairs of
//                              $ALIGNSCOPE_BENCH_PAIRS, source<TAB>target) through BatchDecoder, as
//                              `alignscope-cli translate` runs it: its default batch, one worker a
//                              core with one BLAS thread each; counter sentences_per_second
//   Pairs2400/align            the forced alignment of the same 2,400 pairs with their reference
//                              targets through core::Aligner (attention, argmax links), as
//                              `alignscope-cli align` runs it. The two rows are issue 45's "align at
//                              least 1.5x greedy translate" in one run without the process start,
//                              which both commands pay (docs/performance-corpus.md)
//   TrainingUpdate             one update on a fixed synthetic batch of 64 pairs of 8-11 words: the
//                              model's TorchScript `loss` (dropout 0.2, label smoothing 0.1),
//                              backward, gradient clipping at 1, Adam, as core/Trainer.cpp does
//
// Threads as the app uses them: inference with 1 BLAS thread or every core, whichever the app's
// chooser timed faster for each kind of call (core/runtime/BlasThreadChooser.h), training with 2
// (OpenBLAS's pool; LibTorch's intra-op pool stays at 1, see core/runtime/Runtime.h). The model is $ALIGNSCOPE_BENCH_MODEL,
// else the bundled en-fr model. Run with --benchmark_format=json for the script; the inputs
// (token ids, batch) are recorded in the JSON context so the reference can be checked to use the
// same ones.
#include "core/runtime/BlasThreadChooser.h"
#include "core/alignment/Aligner.h"
#include "core/attribution/Attributor.h"
#include "core/decoding/BatchDecoder.h"
#include "core/decoding/DecodingSession.h"
#include "core/decoding/EncodedSource.h"
#include "core/model/Model.h"
#include "core/runtime/Runtime.h"
#include "core/decoding/SearchStrategy.h"
#include "core/model/TorchModel.h"
#include "core/training/TrainingBatch.h"
#include "core/text/Vocabulary.h"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace alignscope;

namespace {

constexpr int kTrainingThreads = 2;  // TrainingOptions::threads' default

// The BLAS's own thread count (every core), read before anything sets it.
int cores() {
    static const int n = core::Runtime::threads();
    return n;
}

// As app/gui_main.cpp decodes: the chooser picks 1 or every core per kind of call.
void decodeAsTheApp() { core::BlasThreadChooser::shared().enable(cores()); }

void trainAsTheTrainer() {
    core::BlasThreadChooser::shared().enable(0);
    core::Runtime::setThreads(kTrainingThreads);
}

constexpr double kDropout = 0.2, kSmoothing = 0.1, kLearningRate = 1e-3, kClipNorm = 1.0;  // TrainingOptions
constexpr int kBatchPairs = 64;

// The 10-word sentence of the greedy and beam benchmarks (12 tokens with "." and </s>).
const char* const kSentence10 = "I think my little brother is very tired this evening.";

const std::string& modelPath() {
    static const std::string path = [] {
        const char* env = std::getenv("ALIGNSCOPE_BENCH_MODEL");
        return env && *env ? std::string(env) : core::Runtime::defaultModelPath();
    }();
    return path;
}

const core::Model& model() {
    static const core::Model m = core::Model::load(modelPath());
    return m;
}

// n - 1 words, so n tokens with </s>: the words of the GUI benchmark, repeated.
std::string sourceOf(int tokens) {
    static const char* words[] = {"the", "red", "car", "is", "very", "fast", "and", "my", "house", "small"};
    std::string s;
    for (int i = 0; i + 1 < tokens; ++i) s += std::string(i ? " " : "") + words[i % 10];
    return s;
}

std::string idsText(const std::vector<int64_t>& ids) {
    std::ostringstream os;
    for (size_t i = 0; i < ids.size(); ++i) os << (i ? " " : "") << ids[i];
    return os.str();
}

// The synthetic training batch. scripts/bench_reference.py builds the same one with the same
// generator (a 64-bit LCG, Knuth's MMIX constants, top 31 bits).
core::TrainingBatch syntheticBatch(int64_t sourceVocab, int64_t targetVocab) {
    uint64_t x = 2014;
    auto next = [&x] {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int64_t>(x >> 33);
    };
    std::vector<std::vector<int64_t>> srcs, tgts;
    for (int i = 0; i < kBatchPairs; ++i) {
        const int64_t ns = 8 + next() % 4, nt = 8 + next() % 4;
        std::vector<int64_t> s, t;
        for (int64_t j = 0; j < ns; ++j) s.push_back(4 + next() % (sourceVocab - 4));
        for (int64_t j = 0; j < nt; ++j) t.push_back(4 + next() % (targetVocab - 4));
        s.push_back(core::Vocabulary::kEos);
        srcs.push_back(std::move(s));
        tgts.push_back(std::move(t));
    }
    return core::TrainingBatch::make(srcs, tgts);
}

void ModelLoad(benchmark::State& state) {
    decodeAsTheApp();
    for (auto _ : state) benchmark::DoNotOptimize(core::Model::load(modelPath()));
}
BENCHMARK(ModelLoad)->Unit(benchmark::kMillisecond)->UseRealTime();

void Encode(benchmark::State& state) {
    decodeAsTheApp();
    const auto sentence = model().tokenizeSource(sourceOf(static_cast<int>(state.range(0))));
    torch::InferenceMode guard;
    const auto n = static_cast<int64_t>(sentence.size());
    auto src = torch::tensor(sentence.ids, torch::kLong).unsqueeze(0);
    auto len = torch::full({1}, n, torch::kLong);
    for (auto _ : state) benchmark::DoNotOptimize(model().torch().encode(src, len).enc.data_ptr<float>());
    state.counters["tokens"] = static_cast<double>(n);
}
BENCHMARK(Encode)->ArgName("tokens")->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime();

void DecoderStep(benchmark::State& state) {
    decodeAsTheApp();
    const core::EncodedSource source(model(), model().tokenizeSource(sourceOf(static_cast<int>(state.range(0)))));
    torch::InferenceMode guard;
    const auto& enc = source.output();
    const auto y = torch::full({1}, core::Vocabulary::kBos, torch::kLong);
    for (auto _ : state) {
        auto d = model().torch().step(y, enc.state, enc);
        benchmark::DoNotOptimize(d.logProbs.data_ptr<float>());
    }
    state.counters["src_tokens"] = static_cast<double>(source.length());
}
BENCHMARK(DecoderStep)->ArgName("src_tokens")->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime();

void SessionStep(benchmark::State& state) {
    decodeAsTheApp();
    core::DecodingSession session(model(), sourceOf(static_cast<int>(state.range(0))));
    for (auto _ : state) {
        benchmark::DoNotOptimize(session.step().logProb);
        session.back();
    }
}
BENCHMARK(SessionStep)->ArgName("src_tokens")->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime();

void Translate(benchmark::State& state, int beamWidth) {
    decodeAsTheApp();
    const auto strategy = core::SearchStrategy::create(beamWidth);
    core::SearchOptions options;
    options.beamWidth = beamWidth;
    size_t steps = 0;
    std::string text;
    for (auto _ : state) {
        const core::EncodedSource source(model(), model().tokenizeSource(kSentence10));
        const auto best = strategy->search(source, options);
        steps = best.front().ids.size();
        benchmark::DoNotOptimize(best.data());
        if (text.empty()) text = model().detokenize(best.front().ids);
    }
    state.counters["output_tokens"] = static_cast<double>(steps);  // </s> included
    state.SetLabel(text);
}
BENCHMARK_CAPTURE(Translate, Greedy10Words, 1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(Translate, Beam5_10Words, 5)->Unit(benchmark::kMillisecond)->UseRealTime();

// The held-out en-fr gold pairs (never trained on), repeated to the size of issue 45's measurement;
// or the `source<TAB>target` lines of $ALIGNSCOPE_BENCH_PAIRS, once (the issue's own Tatoeba pairs).
const std::vector<core::Aligner::Pair>& goldPairs() {
    static const std::vector<core::Aligner::Pair> pairs = [] {
        const char* env = std::getenv("ALIGNSCOPE_BENCH_PAIRS");
        const bool given = env && *env;
        const std::string path = given ? std::string(env) : std::string(ALIGNSCOPE_SOURCE_DIR) + "/docs/alignment-gold/pairs.tsv";
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot read " + path);
        std::vector<core::Aligner::Pair> once, all;
        for (std::string line; std::getline(in, line);) {
            const auto tab = line.find('\t');
            if (tab != std::string::npos) once.push_back({line.substr(0, tab), line.substr(tab + 1)});
        }
        for (int copy = 0; copy < (given ? 1 : 8); ++copy) all.insert(all.end(), once.begin(), once.end());
        return all;
    }();
    return pairs;
}

// As the CLI's startWorkers: one worker a core (at most 8), each with one BLAS thread.
int cliWorkers() {
    core::BlasThreadChooser::shared().enable(0);
    const int workers = std::min(8, cores());
    core::Runtime::setThreads(workers > 1 ? 1 : cores());
    return workers;
}

void Pairs2400(benchmark::State& state, bool align) {
    const auto& pairs = goldPairs();
    const int workers = cliWorkers();
    const core::BatchDecoder decoder(model(), core::BatchDecoder::defaultBatch(1), workers);
    core::Aligner::Options options;
    options.workers = workers;
    const core::Aligner aligner({model()}, {}, options);
    std::vector<core::BatchDecoder::Item> items;
    for (const auto& p : pairs) items.push_back({p.source, std::nullopt});
    size_t failed = 0;
    for (auto _ : state) {
        failed = 0;
        if (align) {
            for (const auto& r : aligner.align(pairs)) failed += !r.error.empty();
        } else {
            for (const auto& r : decoder.run(items)) failed += !r.error.empty();
        }
    }
    if (failed) state.SkipWithError((std::to_string(failed) + " pairs failed").c_str());
    state.counters["sentences_per_second"] =
        benchmark::Counter(static_cast<double>(pairs.size()) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["workers"] = workers;
}
BENCHMARK_CAPTURE(Pairs2400, translate, false)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(Pairs2400, align, true)->Unit(benchmark::kMillisecond)->UseRealTime();

void Attribution(benchmark::State& state) {
    static const char* methods[] = {"attention", "grad-x-input", "integrated-gradients", "occlusion"};
    decodeAsTheApp();
    const auto source = sourceOf(20);
    core::DecodingSession session(model(), source);
    core::SearchOptions search;
    search.maxLength = 24;
    auto target = session.search(search).front();
    while (target.ids.size() < 12) target.ids.push_back(target.ids.back()), target.tokens.push_back(target.tokens.back());
    const auto words = model().targetWords(target.ids);
    core::Attributor::Options options;
    options.steps = {10};
    options.points = 16;
    options.adaptive = false;
    const auto tokenized = model().tokenizeSource(source);
    for (auto _ : state)
        benchmark::DoNotOptimize(core::Attributor::attribute(model(), tokenized, target, words, methods[state.range(0)], options));
    state.SetLabel(methods[state.range(0)]);
}
BENCHMARK(Attribution)->ArgName("method")->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

void TrainingUpdate(benchmark::State& state) {
    trainAsTheTrainer();
    core::Runtime::reuseFreedMemory();                   // as Trainer::run; permanent, so this row runs last
    auto trained = core::TorchModel::load(modelPath());  // its own copy: training changes the weights
    auto& module = trained->module();
    std::vector<torch::Tensor> params;
    for (const auto& p : module.parameters()) {
        p.requires_grad_(true);
        params.push_back(p);
    }
    torch::optim::Adam adam(params, torch::optim::AdamOptions(kLearningRate));
    const auto b = syntheticBatch(trained->sourceVocabulary().size(), trained->targetVocabulary().size());
    torch::manual_seed(1);
    double nll = 0;
    for (auto _ : state) nll = b.train(module, adam, params, kDropout, kSmoothing, kClipNorm).nllPerToken;
    benchmark::DoNotOptimize(nll);
    state.counters["target_tokens"] = static_cast<double>(b.targetTokens);
    state.counters["target_tokens_per_s"] =
        benchmark::Counter(static_cast<double>(b.targetTokens) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    decodeAsTheApp();
}
BENCHMARK(TrainingUpdate)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
    try {
        cores();
        decodeAsTheApp();
        const auto& m = model();
        benchmark::AddCustomContext("alignscope_model", modelPath());
        benchmark::AddCustomContext("alignscope_blas", core::Runtime::blasDescription());
        benchmark::AddCustomContext("alignscope_inference_threads",
                                    "1 or " + std::to_string(cores()) +
                                        " OpenBLAS threads, chosen by timing (BlasThreadChooser), LibTorch intra-op " +
                                        std::to_string(torch::get_num_threads()));
        benchmark::AddCustomContext(
            "alignscope_training_threads",
            std::to_string(kTrainingThreads) + " OpenBLAS threads, LibTorch intra-op " + std::to_string(torch::get_num_threads()));
        for (int n : {10, 100})
            benchmark::AddCustomContext("alignscope_ids_src" + std::to_string(n), idsText(m.tokenizeSource(sourceOf(n)).ids));
        benchmark::AddCustomContext("alignscope_ids_sentence10", idsText(m.tokenizeSource(kSentence10).ids));
        const auto b = syntheticBatch(m.sourceVocabulary().size(), m.targetVocabulary().size());
        benchmark::AddCustomContext("alignscope_batch", std::to_string(kBatchPairs) + " pairs, src " + std::to_string(b.src.size(1)) +
                                                            " x tgt " + std::to_string(b.tgtIn.size(1)) + ", " +
                                                            std::to_string(b.targetTokens) + " target tokens, checksum " +
                                                            std::to_string(b.src.sum().item<int64_t>() + b.tgtOut.sum().item<int64_t>()));
    } catch (const std::exception& e) {
        std::cerr << "alignscope_core_benchmark: " << e.what() << '\n';
        return 1;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
