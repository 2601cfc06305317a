#pragma once
#include "core/alignment/LinkExtraction.h"
#include "core/alignment/SoftAlignment.h"
#include "core/attribution/Attributor.h"
#include "core/model/Model.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace alignscope::core {

class BatchDecoder;

// Teacher-forced word alignment of sentence pairs: the soft matrix of a method (attention or an
// attribution) for each model of an ensemble, each direction where the link rule joins two, and
// the rule's hard links (docs/alignment.md). The one pipeline behind `align`, `compare`, the
// scorecard's AER, the app's link overlay and the exports.
// Threading: const; align() may run from several threads. Attention is batched by BatchDecoder
// (its workers decode batches at once); an attribution is a pair's own passes, so the workers take
// the pairs in turn.
class Aligner {
public:
    struct Options {
        std::string method = "attention";  // Attributor::methods()
        std::string links = "argmax";      // a LinkExtraction rule name ("agreement-intersection", ...)
        float threshold = 0.3f;            // links "threshold"
        int batch = 256;                   // pairs decoded together (BatchDecoder)
        int workers = 1;
        Attributor::Options attribution;            // points, baseline, adaptive, progress
        DecodingProgress* progress = nullptr;       // beaten at each decoder step and attribution row
        std::function<void(const char*)> entering;  // told what starts next (a literal: "attributing the pair")
        bool json = false;                          // Result::json holds what `align --format json` prints
    };
    struct Pair {
        std::string source, target;
    };
    struct Result {
        std::string error;                             // non-empty: the pair failed (a message for "line N: ...")
        LinkExtraction::Links links;                   // (source word, target word), sorted
        std::vector<SoftAlignment> forward, backward;  // one per member of each direction
        nlohmann::json json;                           // Options::json only
        std::string pharaoh() const { return SoftAlignment::pharaoh(links); }
    };

    // Throws Error for an unknown method or rule, reverse models a rule does not use, a rule that
    // needs them without any, or a model that lacks the methods the method needs.
    Aligner(std::vector<Model> models, std::vector<Model> reverseModels, Options options);
    ~Aligner();
    Aligner(Aligner&&) noexcept;
    Aligner& operator=(Aligner&&) noexcept;

    // Every link rule's name, as `align --links` and `export --links` take them.
    static const std::vector<std::string>& ruleNames();
    // Whether the rule `links` joins two directions (it needs reverse models).
    static bool joinsDirections(const std::string& links);
    // Throws Error when reverse models are given to a rule that reads one direction, or one has an empty name.
    static void checkReversePaths(const std::vector<std::string>& paths, const std::string& links);
    // Throws Error naming --reverse-model and the path for one that is not a regular file (a pipe,
    // a device, a folder), checked before anything opens it; the commands call it first.
    static void checkReverseFiles(const std::vector<std::string>& paths);
    // The reverse models for `links`: each of `paths`, or where none is given and the rule joins
    // two directions, each model's declared one (metadata reverse_model), every one loaded by
    // `load`. The one place a reverse model is chosen and loaded. Throws Error naming the model
    // that declares none, or paths given to a rule that reads one direction.
    static std::vector<Model> reverseModels(const std::vector<Model>& models, const std::vector<std::string>& paths,
                                            const std::string& links, const std::function<Model(const std::string&)>& load);

    // One result per pair, in order; a pair's own failure is its Result::error.
    std::vector<Result> align(const std::vector<Pair>& pairs) const;
    // Pairs a caller hands align() at once (memory bounded, the workers kept busy).
    size_t chunkPairs() const;

    const Options& options() const { return options_; }
    const std::vector<Model>& models() const { return models_; }
    const std::vector<Model>& reverses() const { return reverses_; }

private:
    // What `align --batch 1 --workers 1` has always done for attention argmax: one session a pair.
    bool stepsOneAtATime() const;
    Result alignInSession(const Pair& pair) const;
    // The pair's soft matrices, links and JSON from its decoded members.
    void finish(Result& result, std::vector<SoftAlignment>&& forward, std::vector<nlohmann::json>&& forwardJson,
                std::vector<SoftAlignment>&& backward, std::vector<nlohmann::json>&& backwardJson) const;

    std::vector<Model> models_, reverses_;
    Options options_;
    bool ensemble_ = false;
    std::vector<std::unique_ptr<BatchDecoder>> decoders_, reverseDecoders_;  // one a member
};

}  // namespace alignscope::core
