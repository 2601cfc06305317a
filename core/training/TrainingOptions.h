#pragma once
#include "core/training/Corpus.h"
#include "core/model/ModelSpec.h"
#include "core/training/TrainingOptionsSchema.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace alignscope::core {

// Everything a training run depends on. The same options, data and thread count give the same model.
// The defaults of the options the Python trainer shares are training_options.json's (TrainingOptionsSchema).
struct TrainingOptions {
    std::string corpusPath;                                                 // source<TAB>target lines
    std::string corpusName;                                                 // for the model card/metadata (default: file name)
    std::string corpusLicence;                                              // e.g. "CC BY 2.0 FR (Tatoeba via manythings.org)"
    Corpus::OnBadLine onBadLine = Corpus::OnBadLine::Reject;                // malformed corpus lines
    int maxLength = TrainingOptionsSchema::integer("max_len");              // pairs with more tokens on either side are left out
    int64_t sourceMinCount = TrainingOptionsSchema::integer("min_count");   // vocabulary: minimum count of a source token
    int64_t targetMinCount = TrainingOptionsSchema::integer("min_count");   // ... of a target token
    int64_t sourceVocabSize = TrainingOptionsSchema::integer("max_vocab");  // vocabulary cap, specials included (0: none)
    int64_t targetVocabSize = TrainingOptionsSchema::integer("max_vocab");
    std::string sourceLanguage;                                                     // ISO 639 codes ("en", "de") for the model's metadata,
    std::string targetLanguage;                                                     // where front ends name them; empty: not declared
    bool sourceElision = false;                                                     // split "l'homme" -> "l'" "homme" on the source side
    bool targetElision = true;                                                      // ... on the target side (the default unless a target
                                                                                    // language that does not elide is declared)
    std::string tokenizer = "word";                                                 // "word" (AlignScope's, lower-cased words) or
                                                                                    // "sentencepiece" (trained here: cased sub-words)
    int pieces = TrainingOptionsSchema::integer("pieces");                          // sentencepiece: pieces per vocabulary
    bool jointPieces = false;                                                       // sentencepiece: one model for both sides
    std::string tokenizerFrom;                                                      // a model file whose tokenizers and vocabularies are
                                                                                    // taken as they are (tokenizer and counts then unused):
                                                                                    // two models that read and write the same pieces
    std::string initFrom;                                                           // a model file trained on from where it stands: its
                                                                                    // tokenizers, vocabularies, architecture and weights,
                                                                                    // a fresh optimiser (a run whose checkpoint is gone,
                                                                                    // or more training on other data)
    ModelSpec spec;                                                                 // architecture
    double dropout = TrainingOptionsSchema::number("dropout");                      // on embeddings and readout
    double labelSmoothing = TrainingOptionsSchema::number("smoothing");             // share of the loss spread over the vocabulary
    int batchSize = TrainingOptionsSchema::integer("batch_size");                   // sentence pairs per update
    double learningRate = TrainingOptionsSchema::number("lr");                      // Adam
    double clipNorm = TrainingOptionsSchema::number("clip");                        // gradient norm cap (0: none)
    int epochs = TrainingOptionsSchema::integer("epochs");                          // passes over the training split
    int64_t maxSteps = 0;                                                           // stop after this many updates (0: epochs decide)
    uint64_t seed = static_cast<uint64_t>(TrainingOptionsSchema::integer("seed"));  // initialisation, data order, dropout, split
    int threads = 2;                                                                // LibTorch intra-op threads
    double validationFraction = 0.01;                                               // share of source sentences for validation
    double testFraction = 0.02;                                                     // share of source sentences held out for testing
    int validationBleuSentences = 500;                                              // greedy BLEU on this many validation sources (0: none)
    std::string outputPath;                                                         // model file written (best validation loss)
    std::string checkpointDir;                                                      // default: outputPath + ".ckpt"
    double checkpointMinutes = 5;                                                   // time between checkpoints
    bool resume = false;                                                            // continue from checkpointDir
    bool half = false;                                                              // store weights as float16 (half the size)
    std::string name;                                                               // model name (default: output file stem)
    std::string testSplitPath;                                                      // write the held-out test pairs here (TSV), if set
    std::string recipe;                                                             // the command line, recorded in the metadata
    std::string guidedAlignment;                                                    // Pharaoh word links, line k for corpus line k:
                                                                                    // attention trained toward them (GuidedAlignment)
    double guidedWeight = TrainingOptionsSchema::number("guided_weight");           // weight of the attention's cross-entropy against them
    int snapshots = TrainingOptionsSchema::integer("snapshots");                    // model files spaced log-uniformly over the updates
                                                                                    // (TrainingTimeline): how alignment forms

    nlohmann::json toJson() const;  // recorded in the model's metadata and the checkpoint
};

}  // namespace alignscope::core
