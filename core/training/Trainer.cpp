#include "core/training/Trainer.h"

#include "core/text/SentencePieceModel.h"
#include "core/text/Tokenizer.h"
#include "core/training/TrainingTimeline.h"

#include "core/platform/AtomicFile.h"
#include "core/platform/FileDigest.h"
#include "core/Error.h"
#include "core/training/TrainingBatch.h"
#include "core/evaluation/Evaluator.h"
#include "core/model/ModelBuilder.h"
#include "core/runtime/Runtime.h"
#include "core/model/TorchModel.h"
#include "core/text/JsonText.h"

#include <torch/torch.h>

#include <algorithm>
#include <optional>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <random>

namespace alignscope::core {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

struct Example {
    std::vector<int64_t> src;                          // ends with </s>
    std::vector<int64_t> tgt;                          // without </s>
    std::optional<GuidedAlignment::TokenLinks> guide;  // guided alignment: none where unmatched
};

// `guided`: with each row's guidance (GuidedAlignment), for guided_loss.
TrainingBatch makeBatch(const std::vector<Example>& data, const std::vector<size_t>& rows, bool guided = false) {
    std::vector<std::vector<int64_t>> sources, targets;
    std::vector<const GuidedAlignment::TokenLinks*> guides;
    for (auto r : rows) {
        sources.push_back(data[r].src);
        targets.push_back(data[r].tgt);
        if (guided) guides.push_back(data[r].guide ? &*data[r].guide : nullptr);
    }
    return TrainingBatch::make(sources, targets, guides);
}

// LibTorch's serialisation into memory, then to disk through AtomicFile (see TorchModel::save).
template <typename T>
void saveTorch(const T& value, const fs::path& path) {
    std::ostringstream bytes;
    torch::save(value, bytes);
    AtomicFile::write(path.string(), bytes.str());
}

}  // namespace

struct Trainer::Impl {
    TrainingOptions o;
    std::vector<std::string> problems;
    Corpus::Split split;
    std::shared_ptr<TorchModel> model;
    std::vector<Example> train, valid;
    std::unique_ptr<torch::optim::Adam> optimizer;
    std::optional<GuidedAlignment> guided;  // --guided-alignment
    size_t guidedPairs = 0;                 // training pairs with token links

    // Progress, all in the checkpoint.
    int64_t step = 0;
    int epoch = 0;
    int64_t batchInEpoch = 0;
    std::vector<double> history;
    double bestValidation = std::numeric_limits<double>::infinity();
    double bestBleu = 0;
    double learningRate = 0;
    double trainSeconds = 0;       // all runs together
    nlohmann::json continuedFrom;  // with initFrom: the starting model's own training (null otherwise)
    std::string corpusDigest;      // SHA-256 of the corpus file, in the record: a later run knows its data
    torch::Tensor rngState;        // dropout randomness: restored into LibTorch's generator when a run starts

    fs::path checkpointDir() const { return o.checkpointDir.empty() ? fs::path(o.outputPath + ".ckpt") : fs::path(o.checkpointDir); }

    std::vector<Example> toExamples(const std::vector<SentencePair>& pairs) const {
        std::vector<Example> out;
        for (const auto& p : pairs) {
            const auto s = model->sourceTokenizer().tokenize(p.source);
            const auto t = model->targetTokenizer().tokenize(p.target);
            if (s.empty() || t.empty() || static_cast<int>(s.size()) > o.maxLength || static_cast<int>(t.size()) > o.maxLength) continue;
            Example e;
            if (guided) e.guide = guided->tokenLinks(p, s, t);
            for (const auto& tok : s) e.src.push_back(model->sourceVocabulary().id(tok.text));
            e.src.push_back(Vocabulary::kEos);
            for (const auto& tok : t) e.tgt.push_back(model->targetVocabulary().id(tok.text));
            out.push_back(std::move(e));
        }
        return out;
    }

    // Sub-word vocabularies: SentencePiece models trained on the training split (one for both
    // sides with jointPieces), their pieces the vocabularies, so no word is ever unknown.
    void buildSentencePieceModel() {
        std::vector<std::string> sources, targets;
        for (const auto& p : split.train) {
            sources.push_back(p.source);
            targets.push_back(p.target);
        }
        Tokenizer srcTok, tgtTok;
        if (o.jointPieces) {
            auto both = sources;
            both.insert(both.end(), targets.begin(), targets.end());
            srcTok = tgtTok = Tokenizer::sentencePiece(SentencePieceModel::train(both, o.pieces));
        } else {
            srcTok = Tokenizer::sentencePiece(SentencePieceModel::train(sources, o.pieces));
            tgtTok = Tokenizer::sentencePiece(SentencePieceModel::train(targets, o.pieces));
        }
        buildWith(Vocabulary(srcTok.pieces()), Vocabulary(tgtTok.pieces()), srcTok, tgtTok);
    }

    // Another model's tokenizers and vocabularies, unchanged: a comparison model (no attention, a
    // different size) that reads and writes the same pieces as the one it is compared with.
    void buildModelWithTokenizersOf(const std::string& path) {
        const auto donor = TorchModel::load(path);
        buildWith(donor->sourceVocabulary(), donor->targetVocabulary(), donor->sourceTokenizer(), donor->targetTokenizer());
    }

    // A model trained on from where it stands. Adam's moments are not in a model file, so the optimiser
    // starts afresh; they rebuild within a few hundred updates. The starting model's training record
    // is kept in the new one's (training.continued_from), so a chain of runs stays one recipe.
    void continueModel(const std::string& path) {
        model = TorchModel::load(path);
        auto meta = model->metadata();
        continuedFrom = meta.contains("training") && meta["training"].is_object() ? meta["training"] : nlohmann::json::object();
        continuedFrom["model"] = fs::path(path).filename().string();
        if (meta.contains("scores")) continuedFrom["scores"] = meta["scores"];
        if (meta.contains("guided_alignment")) continuedFrom["guided_alignment"] = meta["guided_alignment"];
        if (!o.name.empty()) {
            meta["name"] = o.name;
            model->setMetadata(meta);
        }
    }

    // A model file saved by this same run (the same corpus bytes, batch size, length limit and seed)
    // goes on at the update it was saved at, in the same data order, as --resume would but with a
    // fresh optimiser: a run whose checkpoint went with its machine repeats no batch. Returns
    // whether it does; a model of other data or settings starts at update 0.
    bool continuePosition() {
        const auto& r = continuedFrom;
        auto same = [&](const char* key, const nlohmann::json& mine) { return r.contains(key) && r[key] == mine; };
        if (!same("corpus_sha256", corpusDigest) || !same("batch_size", o.batchSize) || !same("max_length", o.maxLength) ||
            !same("seed", o.seed) || !r.contains("steps") || !r["steps"].is_number_integer() || r["steps"].get<int64_t>() < 0)
            return false;
        step = r["steps"].get<int64_t>();
        epoch = static_cast<int>(step / batchesPerEpoch());
        batchInEpoch = step % batchesPerEpoch();
        return true;
    }

    void buildModel() {
        if (!o.initFrom.empty()) return continueModel(o.initFrom);
        if (!o.tokenizerFrom.empty()) return buildModelWithTokenizersOf(o.tokenizerFrom);
        if (o.tokenizer == "sentencepiece") return buildSentencePieceModel();
        if (o.tokenizer != "word") throw Error("unknown tokenizer '" + o.tokenizer + "' (word or sentencepiece)");
        Tokenizer::Settings srcSettings, tgtSettings;
        srcSettings.splitElision = o.sourceElision;
        tgtSettings.splitElision = o.targetElision;
        const Tokenizer srcTok(srcSettings), tgtTok(tgtSettings);
        std::map<std::string, int64_t> srcCounts, tgtCounts;
        for (const auto& p : split.train) {
            const auto s = srcTok.tokenize(p.source);
            const auto t = tgtTok.tokenize(p.target);
            if (static_cast<int>(s.size()) > o.maxLength || static_cast<int>(t.size()) > o.maxLength) continue;
            for (const auto& tok : s) ++srcCounts[tok.text];
            for (const auto& tok : t) ++tgtCounts[tok.text];
        }
        buildWith(Vocabulary::fromCounts(srcCounts, o.sourceMinCount, o.sourceVocabSize),
                  Vocabulary::fromCounts(tgtCounts, o.targetMinCount, o.targetVocabSize), srcTok, tgtTok);
    }

    // The untrained model of the options' architecture, seed and name over these vocabularies.
    void buildWith(Vocabulary sourceVocabulary, Vocabulary targetVocabulary, const Tokenizer& sourceTokenizer,
                   const Tokenizer& targetTokenizer) {
        ModelBuilder::Input in;
        in.spec = o.spec;
        in.spec.seed = o.seed;
        in.sourceVocabulary = std::move(sourceVocabulary);
        in.targetVocabulary = std::move(targetVocabulary);
        in.sourceTokenizer = sourceTokenizer;
        in.targetTokenizer = targetTokenizer;
        in.name = o.name.empty() ? fs::path(o.outputPath).stem().string() : o.name;
        model = ModelBuilder::build(in);
    }

    std::vector<torch::Tensor> parameters() const {
        std::vector<torch::Tensor> ps;
        for (const auto& p : model->module().parameters()) ps.push_back(p);
        return ps;
    }

    // Batches of one epoch: shuffled, then grouped by length so little is padding, then the
    // batches shuffled; fixed by (seed, epoch), so a resumed run sees the same order.
    std::vector<std::vector<size_t>> batchesOf(int e) const {
        std::mt19937_64 rng(o.seed * 1000003ull + static_cast<uint64_t>(e));
        std::vector<size_t> order(train.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return std::make_pair(train[a].src.size(), train[a].tgt.size()) < std::make_pair(train[b].src.size(), train[b].tgt.size());
        });
        std::vector<std::vector<size_t>> batches;
        for (size_t i = 0; i < order.size(); i += static_cast<size_t>(o.batchSize))
            batches.emplace_back(order.begin() + static_cast<long>(i),
                                 order.begin() + static_cast<long>(std::min(order.size(), i + static_cast<size_t>(o.batchSize))));
        std::shuffle(batches.begin(), batches.end(), rng);
        return batches;
    }

    int64_t batchesPerEpoch() const {
        return static_cast<int64_t>((train.size() + static_cast<size_t>(o.batchSize) - 1) / static_cast<size_t>(o.batchSize));
    }

    double validationLoss() {
        torch::NoGradGuard noGrad;
        double nll = 0, tokens = 0;
        for (size_t i = 0; i < valid.size(); i += static_cast<size_t>(o.batchSize)) {
            std::vector<size_t> rows;
            for (size_t j = i; j < std::min(valid.size(), i + static_cast<size_t>(o.batchSize)); ++j) rows.push_back(j);
            auto b = makeBatch(valid, rows);
            auto out = model->module().get_method("loss")({b.src, b.srcLen, b.tgtIn, b.tgtOut, 0.0, 0.0}).toTuple();
            nll += out->elements()[1].toTensor().item<double>();
            tokens += out->elements()[2].toTensor().item<double>();
        }
        return tokens > 0 ? nll / tokens : 0.0;
    }

    // Greedy corpus BLEU on the first validation sources, scored exactly as `evaluate` scores.
    double validationBleu() {
        if (o.validationBleuSentences <= 0 || split.validation.empty()) return 0;
        EvaluationOptions eo;
        eo.beamWidth = 1;
        eo.maxSentences = static_cast<size_t>(o.validationBleuSentences);
        return Evaluator(Model(model), eo).evaluate(split.validation).searches.front().corpus.bleu;
    }

    void saveModel(double tokensPerSecond) {
        auto meta = model->metadata();
        if (!o.sourceLanguage.empty()) meta["source_language"] = o.sourceLanguage;
        if (!o.targetLanguage.empty()) meta["target_language"] = o.targetLanguage;
        meta["training"] = o.toJson();
        meta["training"]["steps"] = step;
        meta["training"]["epochs_done"] = static_cast<double>(step) / static_cast<double>(std::max<int64_t>(1, batchesPerEpoch()));
        meta["training"]["train_pairs"] = train.size();
        meta["training"]["validation_pairs"] = valid.size();
        meta["training"]["test_pairs"] = split.test.size();
        meta["training"]["train_seconds"] = trainSeconds;
        meta["training"]["target_tokens_per_second"] = tokensPerSecond;
        meta["training"]["threads"] = Runtime::threads();
        meta["training"]["corpus_sha256"] = corpusDigest;
        if (!continuedFrom.is_null()) meta["training"]["continued_from"] = continuedFrom;
        if (valid.empty()) meta["scores"] = nlohmann::json::object();  // nothing was measured
        else meta["scores"] = {{"validation_nll_per_token", bestValidation}, {"validation_greedy_bleu", bestBleu}};
        model->setMetadata(meta);
        model->save(o.outputPath, o.half);
    }

    void writeCheckpoint() {
        const auto dir = checkpointDir();
        const auto tmp = fs::path(dir.string() + ".tmp");
        std::error_code ec;
        fs::remove_all(tmp, ec);
        fs::create_directories(tmp, ec);
        if (ec) throw Error("cannot create checkpoint folder '" + tmp.string() + "': " + ec.message());
        model->save((tmp / "model.pt").string(), false);
        saveTorch(*optimizer, tmp / "optimizer.pt");
        saveTorch(at::detail::getDefaultCPUGenerator().get_state(), tmp / "rng.pt");
        nlohmann::json state = {{"step", step},
                                {"epoch", epoch},
                                {"batch_in_epoch", batchInEpoch},
                                {"history", history},
                                {"best_validation", std::isfinite(bestValidation) ? bestValidation : -1.0},
                                {"best_bleu", bestBleu},
                                {"learning_rate", learningRate},
                                {"train_seconds", trainSeconds},
                                {"options", o.toJson()},
                                {"continued_from", continuedFrom},
                                {"guided_alignment", guided ? guided->record() : nlohmann::json()}};
        AtomicFile::write((tmp / "state.json").string(), JsonText::dump(state, 1));
        const auto old = fs::path(dir.string() + ".old");
        fs::remove_all(old, ec);
        if (fs::exists(dir)) fs::rename(dir, old);
        fs::rename(tmp, dir);
        fs::remove_all(old, ec);
    }

    void readCheckpoint() {
        const auto dir = checkpointDir();
        if (!fs::exists(dir / "state.json")) throw Error("no checkpoint to resume in '" + dir.string() + "'");
        model = TorchModel::load((dir / "model.pt").string());
        std::ifstream in(dir / "state.json");
        const auto state = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
        if (state.is_discarded() || !state.is_object() || !state.contains("options") || !state.contains("history"))
            throw Error("the checkpoint in '" + dir.string() + "' is damaged (state.json); train without --resume to start again");
        const auto saved = state["options"];
        const auto now = o.toJson();
        for (const char* key : {"seed", "batch_size", "max_length", "corpus", "threads"})
            if (saved[key] != now[key])
                throw Error(std::string("--resume: option '") + key + "' differs from the checkpoint's (" + saved[key].dump() +
                            "); resume with the same command" +
                            (std::string(key) == "max_length"
                                 ? " (a run begun when --max-len defaulted to 15 resumes with --max-len 15 given; docs/trainers.md)"
                                 : ""));
        // The links are part of the data: other links (or none) would continue another run.
        const auto savedLinks = state.value("guided_alignment", nlohmann::json());
        const auto links = [](const nlohmann::json& r) { return r.is_object() ? r.value("links_sha256", "") : ""; };
        if (links(savedLinks) != (guided ? links(guided->record()) : ""))
            throw Error("--resume: the --guided-alignment links differ from the checkpoint's (" +
                        (savedLinks.is_object() ? savedLinks.dump() : std::string("none")) +
                        "); resume with the same command, or start a new --checkpoint-dir");
        step = state["step"];
        epoch = state["epoch"];
        batchInEpoch = state["batch_in_epoch"];
        history = state["history"].get<std::vector<double>>();
        bestValidation =
            state["best_validation"].get<double>() < 0 ? std::numeric_limits<double>::infinity() : state["best_validation"].get<double>();
        bestBleu = state["best_bleu"];
        learningRate = state["learning_rate"];
        trainSeconds = state["train_seconds"];
        continuedFrom = state.value("continued_from", nlohmann::json());
    }

    void setLearningRate(double lr) {
        learningRate = lr;
        for (auto& g : optimizer->param_groups()) static_cast<torch::optim::AdamOptions&>(g.options()).lr(lr);
    }
};

Trainer::Trainer(TrainingOptions options) : d_(std::make_unique<Impl>()) { d_->o = std::move(options); }
Trainer::~Trainer() = default;

size_t Trainer::trainingPairs() const { return d_->train.size(); }
size_t Trainer::validationPairs() const { return d_->valid.size(); }
size_t Trainer::testPairs() const { return d_->split.test.size(); }
size_t Trainer::guidedPairs() const { return d_->guidedPairs; }
const std::vector<std::string>& Trainer::corpusProblems() const { return d_->problems; }

void Trainer::prepare() {
    auto& o = d_->o;
    if (o.outputPath.empty()) throw Error("no output model file given");
    if (o.batchSize < 1 || o.epochs < 1 || o.maxLength < 1 || !(o.learningRate > 0) || !std::isfinite(o.learningRate))
        throw Error("batch size, epochs, max length and learning rate must be positive (and finite)");
    if (o.validationFraction < 0 || o.testFraction < 0 || o.validationFraction + o.testFraction >= 1)
        throw Error("validation and test fractions must be >= 0 and leave data to train on");
    if (!(o.dropout >= 0 && o.dropout < 1)) throw Error("dropout must be in [0, 1)");
    if (!(o.labelSmoothing >= 0 && o.labelSmoothing < 1)) throw Error("label smoothing must be in [0, 1)");
    if (!(o.clipNorm >= 0) || !std::isfinite(o.clipNorm)) throw Error("the gradient norm cap must be >= 0 (0: none)");
    if (o.maxSteps < 0 || o.sourceVocabSize < 0 || o.targetVocabSize < 0 || o.validationBleuSentences < 0 || !(o.checkpointMinutes >= 0))
        throw Error("steps, vocabulary caps, validation BLEU sentences and checkpoint minutes must not be negative");
    // Before any work: a run that cannot write its model would be lost at the end.
    AtomicFile::checkWritable(o.outputPath);
    if (!o.testSplitPath.empty()) AtomicFile::checkWritable(o.testSplitPath);
    o.spec.validate();
    Runtime::setThreads(o.threads);
    Runtime::reuseFreedMemory();

    const auto corpus = Corpus::read(o.corpusPath, o.onBadLine, Tokenizer::kMaxLineCharacters);
    d_->corpusDigest = FileDigest::sha256(o.corpusPath);
    for (const auto& p : corpus.problems()) d_->problems.push_back("line " + std::to_string(p.line) + ": " + p.reason);
    d_->split = corpus.split(o.validationFraction, o.testFraction, o.seed);
    if (d_->split.train.empty()) throw Error("the corpus has no training pairs");
    if (!o.testSplitPath.empty()) Corpus::writeTsv(o.testSplitPath, d_->split.test);
    if (!o.guidedAlignment.empty()) {
        d_->guided = GuidedAlignment::read(o.guidedAlignment, o.guidedWeight);
        d_->guided->checkLinesOf(corpus);
    }

    if (o.resume) d_->readCheckpoint();
    else d_->buildModel();
    d_->train = d_->toExamples(d_->split.train);
    d_->guidedPairs =
        static_cast<size_t>(std::count_if(d_->train.begin(), d_->train.end(), [](const Example& e) { return e.guide.has_value(); }));
    d_->valid = d_->toExamples(d_->split.validation);
    if (d_->train.empty()) throw Error("no training pair is within --max-len " + std::to_string(o.maxLength) + " tokens");
    const bool goesOnFromTheModel = !o.resume && !o.initFrom.empty() && d_->continuePosition();
    if (goesOnFromTheModel && o.snapshots > 0)
        throw Error("'" + o.initFrom + "' was saved by this same run at update " + std::to_string(d_->step) +
                    ", which goes on from there; its loss curve before that is not in the model file, so "
                    "--snapshots cannot draw the run's timeline: leave it out");

    if (!d_->model->module().find_method("loss"))
        throw Error("'" + d_->model->origin() +
                    "' has no 'loss' method, so it cannot be trained here "
                    "(AlignScope's own models and those the Python package alignscope exports or trains have one)");
    if (d_->guided) {
        if (!d_->model->module().find_method("guided_loss"))
            throw Error("'" + d_->model->origin() +
                        "' has no 'guided_loss' method (its code predates guided alignment), "
                        "so --guided-alignment cannot train it: `alignscope-cli update-code '" +
                        d_->model->origin() +
                        "' -o NEW.pt` rewrites it with this version's code (same weights); then train --init-from NEW.pt");
        // Every file this run writes (model, snapshots, checkpoint) says what guided its attention.
        auto meta = d_->model->metadata();
        meta["guided_alignment"] = d_->guided->record();
        d_->model->setMetadata(meta);
    } else if (d_->model->metadata().contains("guided_alignment")) {
        auto meta = d_->model->metadata();  // a guided model trained on without links: in continued_from only
        meta.erase("guided_alignment");
        d_->model->setMetadata(meta);
    }
    for (auto& p : d_->parameters()) p.requires_grad_(true);
    d_->optimizer = std::make_unique<torch::optim::Adam>(d_->parameters(), torch::optim::AdamOptions(o.learningRate));
    if (o.resume) {
        const auto dir = d_->checkpointDir();
        torch::Tensor rng;
        try {
            torch::load(*d_->optimizer, (dir / "optimizer.pt").string());
            torch::load(rng, (dir / "rng.pt").string());
        } catch (const std::exception& e) {
            throw Error("the checkpoint in '" + dir.string() + "' is damaged (optimizer.pt or rng.pt): " + firstLine(e.what()) +
                        "; train without --resume to start again");
        }
        d_->rngState = rng;
        d_->setLearningRate(d_->learningRate);
    } else {
        d_->learningRate = o.learningRate;
        torch::manual_seed(o.seed);
        d_->rngState = at::detail::getDefaultCPUGenerator().get_state();
    }
}

int64_t Trainer::startingStep() const { return d_->step; }

TrainingResult Trainer::run(const std::function<void(const TrainingProgress&)>& progress, const std::atomic<bool>* stop) {
    auto& d = *d_;
    auto& o = d.o;
    if (!d.optimizer) throw Error("Trainer::run before prepare()");
    auto generator = at::detail::getDefaultCPUGenerator();
    generator.set_state(d.rngState);  // this run's dropout continues this trainer's own sequence
    const int64_t total = o.maxSteps > 0 ? o.maxSteps : o.epochs * d.batchesPerEpoch();
    // Validating again would find the same loss and halve the learning rate for nothing.
    if (d.step > 0 && d.step >= total)
        throw Error((o.resume ? std::string("the checkpoint's run") : "the run that saved '" + o.initFrom + "'") + " has already done " +
                    std::to_string(d.step) + " of its " + std::to_string(total) +
                    " updates; give a larger --epochs or --steps to train longer");
    const auto start = Clock::now();
    auto lastCheckpoint = start;
    int64_t tokens = 0, stepsThisRun = 0, guidedStepsThisRun = 0;
    double recent = 0, recentCrossEntropy = 0;
    auto report = [&](const std::string& event) {
        if (!progress) return;
        TrainingProgress p;
        p.step = d.step;
        p.totalSteps = total;
        p.epoch = d.epoch;
        p.loss = recent;
        if (guidedStepsThisRun > 0) p.attentionCrossEntropy = recentCrossEntropy;
        p.secondsElapsed = std::chrono::duration<double>(Clock::now() - start).count();
        p.tokensPerSecond = p.secondsElapsed > 0 ? static_cast<double>(tokens) / p.secondsElapsed : 0;
        p.event = event;
        progress(p);
    };
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    auto tokensPerSecond = [&] { return elapsed() > 0 ? static_cast<double>(tokens) / elapsed() : 0.0; };
    double secondsBefore = d.trainSeconds;
    auto validate = [&] {
        if (d.valid.empty()) {
            // Nothing to compare with: the latest model is the one kept, and the learning rate stays
            // (an NLL of 0 read as "no better" would halve it at every epoch).
            d.trainSeconds = secondsBefore + elapsed();
            d.saveModel(tokensPerSecond());
            report("no validation pairs: saved the latest model to " + o.outputPath);
            return;
        }
        const double loss = d.validationLoss();
        std::string event = "validation NLL/token " + std::to_string(loss);
        if (loss < d.bestValidation) {
            d.bestValidation = loss;
            d.bestBleu = d.validationBleu();
            d.trainSeconds = secondsBefore + elapsed();
            d.saveModel(tokensPerSecond());
            event += ", greedy BLEU " + std::to_string(d.bestBleu) + ", saved " + o.outputPath;
        } else {
            d.setLearningRate(d.learningRate * 0.5);  // plateau: halve the step size
            event += " (no better; learning rate now " + std::to_string(d.learningRate) + ")";
        }
        report(event);
    };
    auto checkpoint = [&] {
        d.rngState = at::detail::getDefaultCPUGenerator().get_state();
        d.trainSeconds = secondsBefore + elapsed();
        d.writeCheckpoint();
        lastCheckpoint = Clock::now();
        report("checkpoint written to " + d.checkpointDir().string());
    };

    // Every way out writes a checkpoint, so a stopped or finished run can be continued.
    auto finish = [&](bool completed) {
        checkpoint();
        TrainingResult result;
        result.completed = completed;
        result.steps = d.step;
        result.lossHistory = d.history;
        result.validationLoss = d.bestValidation;
        result.validationBleu = d.bestBleu;
        result.tokensPerSecond = tokensPerSecond();
        result.modelPath = o.outputPath;
        return result;
    };

    // Snapshots of the model as training goes (alignment forming), log-uniformly spaced: most of
    // the change comes early. The index beside them lists what exists, so a resumed run goes on.
    std::optional<TrainingTimeline> timeline;
    std::vector<int64_t> snapshotSteps;
    if (o.snapshots > 0) {
        timeline.emplace(TrainingTimeline::forModel(o.outputPath));
        timeline->keepUpTo(d.step);
        snapshotSteps = TrainingTimeline::logUniformSteps(o.snapshots, total);
    }
    auto snapshot = [&] {
        if (!timeline || !std::binary_search(snapshotSteps.begin(), snapshotSteps.end(), d.step)) return;
        auto meta = d.model->metadata();
        meta["training"] = o.toJson();
        meta["training"]["steps"] = d.step;
        d.model->setMetadata(meta);
        const auto path = timeline->snapshotPath(d.step);
        d.model->save(path, o.half);
        timeline->add(d.step, fs::path(path).filename().string(), recent, d.history);
        report("snapshot at update " + std::to_string(d.step) + " written to " + path);
    };

    bool validatedAtEnd = false;
    while (d.step < total) {
        const auto batches = d.batchesOf(d.epoch);
        while (d.batchInEpoch < static_cast<int64_t>(batches.size()) && d.step < total) {
            if (stop && stop->load()) return finish(false);
            auto b = makeBatch(d.train, batches[static_cast<size_t>(d.batchInEpoch)], d.guided.has_value());
            const auto losses = b.train(d.model->module(), *d.optimizer, d.parameters(), o.dropout, o.labelSmoothing, o.clipNorm,
                                        d.guided ? d.guided->weight() : 0.0);
            const double nll = losses.nllPerToken;
            d.history.push_back(nll);
            recent = stepsThisRun == 0 ? nll : 0.98 * recent + 0.02 * nll;
            if (b.guidedSteps > 0) {
                const double ce = losses.attentionCrossEntropy / static_cast<double>(b.guidedSteps);
                recentCrossEntropy = guidedStepsThisRun == 0 ? ce : 0.98 * recentCrossEntropy + 0.02 * ce;
                guidedStepsThisRun += b.guidedSteps;
            }
            tokens += b.targetTokens;
            ++d.step;
            ++d.batchInEpoch;
            ++stepsThisRun;
            validatedAtEnd = false;
            report("");
            snapshot();
            if (std::chrono::duration<double>(Clock::now() - lastCheckpoint).count() > o.checkpointMinutes * 60) checkpoint();
        }
        if (d.batchInEpoch >= static_cast<int64_t>(batches.size())) {
            validate();
            validatedAtEnd = true;
            ++d.epoch;
            d.batchInEpoch = 0;
            checkpoint();
        }
    }
    if (!validatedAtEnd) validate();
    // Reached with no file only when no validation loss was ever below infinity (every one NaN: a
    // diverged run): the last weights are kept, so there is a model to inspect.
    if (!fs::exists(o.outputPath)) d.saveModel(tokensPerSecond());
    return finish(true);
}

}  // namespace alignscope::core
