#pragma once
#include "core/model/Model.h"
#include "core/model/ModelSpec.h"
#include "core/text/SentencePair.h"
#include "core/training/Trainer.h"
#include "core/training/TrainingOptions.h"

#include <string>

namespace alignscope::tests {

// Small, untrained but real models, made by the tests themselves: a few dozen tokens, widths of
// 8-16, built through the same ModelBuilder as every model.
core::ModelSpec tinySpec(core::ModelSpec::Cell cell = core::ModelSpec::Cell::GRU,
                         core::ModelSpec::Attention attention = core::ModelSpec::Attention::Additive, bool bidirectional = true,
                         core::ModelSpec::Decoder decoder = core::ModelSpec::Decoder::Bahdanau);
core::Model tinyModel(const core::ModelSpec& spec = tinySpec());
// The same vocabularies and tokenizers swapped: a reverse model of tinyModel() (untrained).
core::Model tinyReverseModel();
// The same, reading and writing SentencePiece pieces (trained here on a few sentences).
core::Model tinyPieceModel();

// The reversal task, whose true alignment is known: "c a e" -> "e a c", so target token j comes
// from source position n-1-j. Sentences of 3-6 letters a-h, the same for the same seed.
std::vector<core::SentencePair> reversalPairs(int count, uint32_t seed);

// Options for the tests' small training runs: `corpus` to `output`, one thread, every token in the
// vocabulary, no dropout or label smoothing, no validation BLEU, no timed checkpoints; widths
// embedding/attention/readout = `width`, encoder and decoder = 2 * width.
core::TrainingOptions smallTraining(const std::string& corpus, const std::string& output, int64_t width);

// A Trainer on `options`, prepared and run to its end with no progress callback: its result.
core::TrainingResult trainToEnd(const core::TrainingOptions& options);

class TempDir;
// Options that train a tiny reversal model in a few seconds; the corpus (2,000 pairs) is written
// into `dir`, the model goes to dir/reverse.pt. Set maxSteps before training.
core::TrainingOptions reversalTraining(const TempDir& dir);
// Trains that reversal model for `steps` updates, writing `snapshots` snapshots beside it (train
// --snapshots): a training run for timeline tests, in dir.
void trainReversalRun(const TempDir& dir, int64_t steps, int snapshots);

// A fresh temporary folder, removed when the object goes.
class TempDir {
public:
    TempDir();
    ~TempDir();
    std::string path(const std::string& name) const;
    const std::string& root() const { return root_; }

private:
    std::string root_;
};

}  // namespace alignscope::tests
