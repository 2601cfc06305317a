#include "cli/Commands.h"
#include "cli/ProgressBar.h"
#include "core/Error.h"
#include "core/model/ModelLanguages.h"
#include "core/training/Corpus.h"
#include "core/platform/AtomicFile.h"

#include "core/runtime/Runtime.h"
#include "core/training/Trainer.h"
#include "core/training/TrainingOptionsSchema.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <vector>

namespace alignscope::cli {
namespace {

std::atomic<bool> interrupted{false};

// Feeds the trainer's progress to the one progress line: events on their own lines.
class TrainingProgressLine {
public:
    explicit TrainingProgressLine(bool shown) : bar_(ProgressBar::IntoLog::EveryHalfMinute, shown) {}
    void operator()(const core::TrainingProgress& p) {
        if (!p.event.empty()) {
            bar_.print("step " + std::to_string(p.step) + ": " + p.event);
            return;
        }
        char detail[160];
        if (p.attentionCrossEntropy)  // the Python trainer's words for the same number
            std::snprintf(detail, sizeof detail, "epoch %d  loss %.3f  attention ce/guided token %.3f  %.0f tok/s", p.epoch + 1, p.loss,
                          *p.attentionCrossEntropy, p.tokensPerSecond);
        else std::snprintf(detail, sizeof detail, "epoch %d  loss %.3f  %.0f tok/s", p.epoch + 1, p.loss, p.tokensPerSecond);
        bar_.update(p.step, p.totalSteps, "steps", detail);
    }

private:
    ProgressBar bar_;
};

}  // namespace

Command addTrainCommand(CLI::App& app, const std::string& commandLine) {
    struct Options {
        core::TrainingOptions t;
        std::string cell = "gru", attention = "additive", decoder = "bahdanau";
        bool unidirectional = false, skipBad = false, untied = false, noProgress = false;
        int64_t minCount = core::TrainingOptionsSchema::integer("min_count"), maxVocab = core::TrainingOptionsSchema::integer("max_vocab");
    };
    auto o = std::make_shared<Options>();
    auto& t = o->t;
    auto* c = app.add_subcommand("train", "Train a model on a tab-separated corpus (source<TAB>target)");
    // An option the Python trainer shares: its flags, default and help from training_options.json.
    const auto shared = [c](const std::string& name, auto& value) {
        return c->add_option(core::TrainingOptionsSchema::flags(name), value, core::TrainingOptionsSchema::help(name))
            ->capture_default_str();
    };
    c->add_option("--corpus", t.corpusPath, "Corpus file: source<TAB>target per line")->required();
    c->add_option("-o,--out", t.outputPath, "Model file to write")->required();
    c->add_option("--name", t.name, "Model name (default: output file stem)");
    c->add_option("--corpus-name", t.corpusName, "Corpus name recorded in the model");
    c->add_option("--corpus-licence", t.corpusLicence, "Corpus licence and attribution recorded in the model");
    c->add_flag("--skip-bad-lines", o->skipBad, "Skip malformed corpus lines (default: stop at the first)");
    shared("max_len", t.maxLength)->check(CLI::Range(1, 1000));
    auto* minCount = shared("min_count", o->minCount)->check(CLI::Range(1, 1000000));
    auto* maxVocab = shared("max_vocab", o->maxVocab)->check(CLI::NonNegativeNumber);
    auto* srcMin = c->add_option("--src-min-count", t.sourceMinCount, "Source vocabulary: minimum token count (default: --min-count)");
    auto* tgtMin = c->add_option("--tgt-min-count", t.targetMinCount, "Target vocabulary: minimum token count (default: --min-count)");
    auto* srcCap = c->add_option("--src-vocab", t.sourceVocabSize, "Source vocabulary cap (0: none; default: --max-vocab)");
    auto* tgtCap = c->add_option("--tgt-vocab", t.targetVocabSize, "Target vocabulary cap (0: none; default: --max-vocab)");
    auto* srcEl = c->add_option("--src-elision", t.sourceElision, "Split elisions (l'homme) on the source side");
    auto* tgtEl = c->add_option("--tgt-elision", t.targetElision,
                                "Split elisions (l'homme) on the target side (default: "
                                "yes, or, with --target-language, for languages that elide: fr, it, ca)");
    // Two or three lower-case letters, as ModelLanguages reads them back.
    const CLI::Validator languageCode(
        [](std::string& code) {
            return core::ModelLanguages::isCode(code) ? std::string() : "'" + code + "' is not a language code such as en or de";
        },
        "CODE");
    auto* srcLanguage = c->add_option("--source-language", t.sourceLanguage, "Source language code (en), written to the model's metadata")
                            ->check(languageCode);
    auto* tgtLanguage = c->add_option("--target-language", t.targetLanguage, "Target language code (de), written to the model's metadata")
                            ->check(languageCode);
    auto* tokenizer =
        c->add_option("--tokenizer", t.tokenizer,
                      "word (lower-cased words, vocabularies by count) or sentencepiece (cased sub-words trained on the training "
                      "split: digits split, byte fallback, never <unk>)")
            ->check(CLI::IsMember({"word", "sentencepiece"}))
            ->capture_default_str();
    auto* vocabSize = shared("pieces", t.pieces)->check(CLI::Range(300, 1000000));
    vocabSize->description(vocabSize->get_description() +
                           ": the 256 byte pieces, 4 specials and every character of the corpus included, so a few hundred at least");
    auto* joint = c->add_flag("--joint", t.jointPieces, "--tokenizer sentencepiece: one model and vocabulary for both sides");
    auto* tokenizerFrom = c->add_option("--tokenizer-from", t.tokenizerFrom,
                                        "Take the tokenizers and vocabularies of this model file as they are (a model to compare "
                                        "with it, such as one without attention, reads and writes the same pieces)")
                              ->check(CLI::ExistingFile);
    for (auto* ownVocabulary : {tokenizer, vocabSize, joint, minCount, maxVocab, srcMin, tgtMin, srcCap, tgtCap, srcEl, tgtEl})
        tokenizerFrom->excludes(ownVocabulary);
    // --decoder is checked against --init-from when the command runs, to name where the warm start is.
    auto* decoder = c->add_option("--decoder", o->decoder,
                                  "bahdanau (attention from the state before the previous word is read) or conditional "
                                  "(the cell reads the previous word, then attends, then a second cell reads the "
                                  "context; Sennrich et al. 2017)")
                        ->check(CLI::IsMember({"bahdanau", "conditional"}));
    std::vector<CLI::Option*> architecture = {
        c->add_option("--cell", o->cell, "gru or lstm")->check(CLI::IsMember({"gru", "lstm"})),
        c->add_option("--attention", o->attention, "additive, dot, general or none")
            ->check(CLI::IsMember({"additive", "dot", "general", "none"})),
        c->add_flag("--unidirectional", o->unidirectional, "Encoder reads left to right only"),
        c->add_option("--embedding", t.spec.embeddingSize, "Embedding size"),
        c->add_option("--encoder-hidden", t.spec.encoderHidden, "Encoder hidden size per direction"),
        c->add_option("--decoder-hidden", t.spec.decoderHidden, "Decoder hidden size"),
        c->add_option("--attention-size", t.spec.attentionSize, "Additive attention width"),
        c->add_option("--readout", t.spec.readoutSize, "Readout size (= embedding size to tie the output layer)"),
        c->add_flag("--untied", o->untied, "Separate output projection instead of the target embeddings")};
    auto* initFrom = c->add_option("--init-from", t.initFrom,
                                   "Train this model file on from where it stands: its tokenizers, vocabularies, "
                                   "architecture and weights, with a fresh optimiser (a run whose checkpoint is gone, "
                                   "or more training on other data); its training is kept in the new model's metadata")
                         ->check(CLI::ExistingFile);
    for (auto* own : {tokenizer, vocabSize, joint, minCount, maxVocab, srcMin, tgtMin, srcCap, tgtCap, srcEl, tgtEl, tokenizerFrom})
        initFrom->excludes(own);
    for (auto* own : architecture) initFrom->excludes(own);
    auto* guided = c->add_option("--guided-alignment", t.guidedAlignment,
                                 "Guided alignment: Pharaoh word links (i-j; ipj taken as a link), line k for corpus line "
                                 "k, over the whitespace-separated words of each side (python3 -m alignscope guide writes "
                                 "them). Each target token's attention is trained toward the tokens of the source words "
                                 "linked to its word, </s> toward </s>; unlinked words are not guided");
    shared("guided_weight", t.guidedWeight)->needs(guided);
    shared("dropout", t.dropout)->check(CLI::Range(0.0, 0.99));
    shared("smoothing", t.labelSmoothing)->check(CLI::Range(0.0, 0.99));
    shared("batch_size", t.batchSize)->check(CLI::Range(1, 4096));
    shared("lr", t.learningRate)->check(CLI::PositiveNumber);
    shared("clip", t.clipNorm)->check(CLI::NonNegativeNumber);
    shared("epochs", t.epochs)->check(CLI::Range(1, 1000));
    c->add_option("--steps", t.maxSteps, "Stop after this many updates (0: epochs decide)");
    shared("seed", t.seed)->description(core::TrainingOptionsSchema::help("seed") + ", and the split");
    c->add_option("--train-threads", t.threads, "BLAS threads for training")->check(CLI::Range(1, 64));
    c->add_option("--valid-fraction", t.validationFraction, "Share of source sentences for validation");
    c->add_option("--test-fraction", t.testFraction, "Share of source sentences held out for testing");
    c->add_option("--test-out", t.testSplitPath, "Write the held-out test pairs to this TSV file");
    c->add_option("--valid-bleu", t.validationBleuSentences, "Greedy BLEU on this many validation sources");
    c->add_option("--checkpoint-dir", t.checkpointDir, "Checkpoint folder (default: OUT.ckpt)");
    c->add_option("--checkpoint-minutes", t.checkpointMinutes, "Minutes between checkpoints");
    c->add_flag("--no-progress", o->noProgress,
                "No progress line on stderr (a bar on a terminal, a line every 30 s into a log); checkpoints and "
                "validations still print");
    c->add_flag("--resume", t.resume, "Continue from the checkpoint");
    c->add_flag("--half", t.half, "Store weights as float16 (half the file size)");
    shared("snapshots", t.snapshots)->check(CLI::Range(0, 1000));
    return [o, c, decoder, commandLine, srcEl, tgtEl, srcLanguage, tgtLanguage, srcMin, tgtMin, srcCap, tgtCap]() -> int {
        if (!*c) return -1;
        auto t = o->t;
        // --min-count and --max-vocab for both sides; a side's own flag wins.
        if (srcMin->count() == 0) t.sourceMinCount = o->minCount;
        if (tgtMin->count() == 0) t.targetMinCount = o->minCount;
        if (srcCap->count() == 0) t.sourceVocabSize = o->maxVocab;
        if (tgtCap->count() == 0) t.targetVocabSize = o->maxVocab;
        // Elisions are split only in languages that write them (l'homme), unless the flags say otherwise.
        const auto elides = [](const std::string& code) { return code == "fr" || code == "it" || code == "ca"; };
        if (srcLanguage->count() > 0 && srcEl->count() == 0) t.sourceElision = elides(t.sourceLanguage);
        if (tgtLanguage->count() > 0 && tgtEl->count() == 0) t.targetElision = elides(t.targetLanguage);
        if (!t.initFrom.empty() && decoder->count() > 0)
            throw core::Error("--init-from '" + t.initFrom +
                              "' trains that model's own decoder here: leave out --decoder "
                              "(a Bahdanau model's weights moved into the conditional decoder is the Python trainer's "
                              "warm start: python3 -m alignscope train --init-from MODEL --decoder conditional)");
        t.spec.cell = core::ModelSpec::parseCell(o->cell);
        t.spec.attention = core::ModelSpec::parseAttention(o->attention);
        t.spec.decoder = core::ModelSpec::parseDecoder(o->decoder);
        t.spec.bidirectional = !o->unidirectional;
        t.spec.tieOutput = !o->untied;
        t.onBadLine = o->skipBad ? core::Corpus::OnBadLine::Skip : core::Corpus::OnBadLine::Reject;
        t.recipe = commandLine;
        std::signal(SIGINT, [](int) { interrupted = true; });
        std::signal(SIGTERM, [](int) { interrupted = true; });
        core::Trainer trainer(t);
        std::cerr << "reading " << t.corpusPath << " ...\n";
        trainer.prepare();
        for (const auto& p : trainer.corpusProblems()) std::cerr << "skipped " << p << '\n';
        std::cerr << "pairs: " << trainer.trainingPairs() << " train, " << trainer.validationPairs() << " validation, "
                  << trainer.testPairs() << " test (held out); BLAS threads " << core::Runtime::threads() << "; "
                  << core::Runtime::blasDescription() << "\n";
        if (!t.guidedAlignment.empty())
            std::cerr << "guided alignment: " << trainer.guidedPairs() << " of " << trainer.trainingPairs()
                      << " training pairs have links matched to their tokens (the others train unguided; weight " << t.guidedWeight
                      << ")\n";
        if (!t.initFrom.empty() && !t.resume) {
            if (trainer.startingStep() > 0)
                std::cerr << "going on from update " << trainer.startingStep() << ", where this same run saved '" << t.initFrom
                          << "' (same corpus, batch size, length limit and seed), with a fresh optimiser\n";
            else
                std::cerr << "training '" << t.initFrom
                          << "' on from update 0 of this run (its record is of other data "
                             "or settings), with a fresh optimiser\n";
        }
        core::TrainingResult result;
        {
            TrainingProgressLine progress(!o->noProgress);
            result = trainer.run(std::ref(progress), &interrupted);
        }
        if (!result.completed) {
            std::cerr << "interrupted at step " << result.steps << "; checkpoint saved. Continue with the same command and --resume\n";
            return 130;
        }
        std::cerr << "done: " << result.steps << " steps, ";
        if (trainer.validationPairs() == 0) std::cerr << "no validation pairs (the model is the last update's), ";
        else
            std::cerr << "best validation NLL/token " << result.validationLoss << ", greedy validation BLEU " << result.validationBleu
                      << ", ";
        std::cerr << static_cast<long>(result.tokensPerSecond) << " target tokens/s; model " << result.modelPath << '\n';
        return 0;
    };
}

// The split `train` makes (by source sentence, from a stable hash and the seed), written out: held-out
// pairs for a corpus that several models are trained and measured on (docs: models/en-fr.md).
Command addSplitCommand(CLI::App& app) {
    struct Options {
        std::string corpus, trainOut, validOut, testOut;
        double validFraction = 0.01, testFraction = 0.02;
        uint64_t seed = 1;
        bool skipBad = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("split", "Write the train/validation/test split train --seed makes of a corpus (by source sentence)");
    c->add_option("--corpus", o->corpus, "Corpus file: source<TAB>target per line")->required();
    c->add_option("--valid-fraction", o->validFraction, "Share of source sentences for validation")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    c->add_option("--test-fraction", o->testFraction, "Share of source sentences held out for testing")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    c->add_option("--seed", o->seed, "The split's seed (train --seed uses the same)")->capture_default_str();
    c->add_option("--train-out", o->trainOut, "Write the training pairs here (TSV)");
    c->add_option("--valid-out", o->validOut, "Write the validation pairs here (TSV)");
    c->add_option("--test-out", o->testOut, "Write the held-out test pairs here (TSV)");
    c->add_flag("--skip-bad-lines", o->skipBad, "Skip malformed corpus lines (default: stop at the first)");
    return [o, c]() -> int {
        if (!*c) return -1;
        if (o->trainOut.empty() && o->validOut.empty() && o->testOut.empty())
            throw core::Error("split writes nothing without --train-out, --valid-out or --test-out");
        if (o->validFraction + o->testFraction >= 1.0) throw core::Error("--valid-fraction and --test-fraction leave nothing to train on");
        for (const auto* path : {&o->trainOut, &o->validOut, &o->testOut})
            if (!path->empty()) core::AtomicFile::checkWritable(*path);
        const auto corpus = core::Corpus::read(o->corpus, o->skipBad ? core::Corpus::OnBadLine::Skip : core::Corpus::OnBadLine::Reject);
        const auto split = corpus.split(o->validFraction, o->testFraction, o->seed);
        if (!o->trainOut.empty()) core::Corpus::writeTsv(o->trainOut, split.train);
        if (!o->validOut.empty()) core::Corpus::writeTsv(o->validOut, split.validation);
        if (!o->testOut.empty()) core::Corpus::writeTsv(o->testOut, split.test);
        std::cerr << o->corpus << ": " << split.train.size() << " training, " << split.validation.size() << " validation, "
                  << split.test.size() << " test pairs";
        if (!corpus.problems().empty()) std::cerr << " (" << corpus.problems().size() << " malformed lines skipped)";
        std::cerr << '\n';
        return 0;
    };
}

}  // namespace alignscope::cli
