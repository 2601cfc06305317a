#pragma once
#include "core/training/TrainingOptions.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace alignscope::core {

// Where a training run is, for a progress bar.
struct TrainingProgress {
    int64_t step = 0;                             // updates done
    int64_t totalSteps = 0;                       // updates planned
    int epoch = 0;                                // 0-based
    double loss = 0;                              // recent training NLL per target token
    std::optional<double> attentionCrossEntropy;  // guided alignment: recent cross-entropy between the
                                                  // attention and the links, per guided target token
    double tokensPerSecond = 0;                   // target tokens (with </s>) per second, this run
    double secondsElapsed = 0;                    // this run (not counting earlier runs before a resume)
    std::string event;                            // non-empty for notable moments: "checkpoint", "validation: ..."
};

struct TrainingResult {
    bool completed = false;           // false when stopped early (checkpoint written)
    int64_t steps = 0;                // updates done in all
    std::vector<double> lossHistory;  // [steps] training NLL per token of every update
    double validationLoss = 0;        // best NLL per token on the validation split
    double validationBleu = 0;        // greedy BLEU of the saved model on validation sources
    double tokensPerSecond = 0;       // this run
    std::string modelPath;            // written model (best validation loss)
};

// Trains a model of the one format on a parallel corpus through the model's own TorchScript
// `loss` method, so the trained weights mean exactly what the decoding code computes.
// Not thread-safe; `stop` may be set from another thread or a signal handler.
class Trainer {
public:
    explicit Trainer(TrainingOptions options);
    ~Trainer();

    // Reads and splits the corpus and builds (or, with resume, reloads) the model.
    // Throws Error for bad options, an unreadable corpus or a missing checkpoint.
    void prepare();
    size_t trainingPairs() const;
    size_t validationPairs() const;
    size_t testPairs() const;
    const std::vector<std::string>& corpusProblems() const;  // "line N: reason" of skipped lines
    // Guided alignment: training pairs whose links were matched to their tokens (the others train
    // unguided); 0 without --guided-alignment.
    size_t guidedPairs() const;
    // The update run() starts from: 0, a checkpoint's (resume), or that of a model file saved by
    // this same run (initFrom with the same corpus bytes, batch size, length limit and seed).
    int64_t startingStep() const;

    // Runs until the planned steps are done or *stop turns true (then writes a checkpoint).
    TrainingResult run(const std::function<void(const TrainingProgress&)>& progress, const std::atomic<bool>* stop = nullptr);

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace alignscope::core
