#pragma once
#include "core/decoding/Alignment.h"
#include "core/decoding/Hypothesis.h"
#include "core/decoding/SearchStrategy.h"
#include "core/model/Model.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace alignscope::core {

// Many sentences decoded together, as CTranslate2's translate_batch does: sorted by length into
// batches of up to maxBatch, padded, encoded in one call and stepped together (finished rows
// leave the batch), results handed back in the input order. Greedy decoding, beam search
// (options.beamWidth > 1: every sentence's open prefixes in one decoder batch, one Beam each, as
// BeamSearch keeps one), or teacher forcing along a given target (whatever the beam width). The same tokens as
// one sentence at a time, and alphas within 1e-5: the
// contract gives padding no weight, so only the floating-point order of a batched matrix product
// differs. A sentence the model fails on is decoded again alone, so its error is its own.
// Threading: const; several threads may run batches with one decoder. With workers > 1, run()
// decodes that many batches at once on threads of its own (the same results): on N cores, N
// batches with one BLAS thread each beat one batch with N (Runtime::setThreads(1) first).
class BatchDecoder {
public:
    explicit BatchDecoder(Model model, int maxBatch = 32, int workers = 1);

    struct Item {
        std::string source;
        std::optional<std::string> target;  // teacher forcing along it
    };
    struct Result {
        std::string error;             // non-empty: the sentence failed (a message for "line N: ...")
        TokenizedSentence source;      // as the model saw it
        TokenizedSentence target;      // teacher forcing: the target's tokens
        Hypothesis hypothesis;         // the best: ids, tokens, alpha [T][S] (S: this sentence's columns), logProb
        std::vector<int> targetWords;  // [T] word of each target token: the given target's, else the translation's
        std::string translation;       // readable text of the hypothesis
        Alignment alignment() const;
    };

    // One result per item, in order. Uses options.beamWidth, lengthPenalty, maxLength (0: the
    // model's or 2S+10), cancelled and progress (reached() at each of the batch's steps).
    std::vector<Result> run(const std::vector<Item>& items, const SearchOptions& options = {}) const;
    int maxBatch() const { return maxBatch_; }
    int workers() const { return workers_; }

    // Sentences per batch where the caller names none: the vocabulary projection is most of a step
    // and OpenBLAS packs its weight again on every call, so more rows a call pay that off; a beam
    // has beamWidth rows a sentence already (docs/performance.md, "Why the code is as it is").
    static int defaultBatch(int beamWidth) { return beamWidth > 1 ? 32 : 256; }
    // Lines a caller hands run() at once: four batches a worker. Batches go longest first to
    // whichever worker is free, so the workers end a chunk nearly together (with one batch a
    // worker, one waited for the other at every chunk). Memory stays bounded by the chunk.
    static size_t chunkLines(int batch, int workers) {
        return static_cast<size_t>(std::max(1, batch)) * static_cast<size_t>(std::max(1, workers)) * 4;
    }

private:
    void runBatch(std::vector<Result>& results, const std::vector<size_t>& rows, const std::vector<Item>& items,
                  const SearchOptions& options) const;

    Model model_;
    int maxBatch_;
    int workers_;
};

}  // namespace alignscope::core
