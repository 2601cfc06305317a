#include "core/model/TorchModel.h"

#include "core/model/TorchModelChecks.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/platform/FileDigest.h"
#include "core/platform/IsolatedRun.h"
#include "core/model/AttributeJson.h"
#include "core/model/ModelArchive.h"
#include "core/runtime/BlasThreadChooser.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <torch/torch.h>

#include <torch/version.h>

#include <cctype>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <sstream>

namespace alignscope::core {
using namespace torch_model;

EncoderOutput EncoderOutput::select(const torch::Tensor& index) const {
    return {enc.index_select(0, index), state.index_select(0, index), mask.index_select(0, index), keys.index_select(0, index)};
}

TorchModel::TorchModel(torch::jit::Module module, std::string origin) : module_(std::move(module)), origin_(std::move(origin)) {
    Runtime::initialize();
    // A model is for inference until a trainer says otherwise (Trainer turns these back on): with
    // weights that record gradients, TorchScript's differentiable graphs compute every weight's
    // gradient in an attribution's backward pass too, doubling its cost for nothing.
    for (auto p : module_.parameters()) p.requires_grad_(false);
    findNonFiniteWeights();
    checkContract();
}

// NaN or inf in a weight poisons every sentence that reaches it; listed by parameter for inspect,
// and named when the probe's numbers come out non-finite.
void TorchModel::findNonFiniteWeights() {
    torch::NoGradGuard noGrad;
    for (const auto& p : module_.named_parameters()) {
        if (!p.value.is_floating_point()) continue;
        const int64_t bad = countNonFinite(p.value);
        if (bad > 0)
            nonFiniteWeights_.push_back(p.name + ": " + std::to_string(bad) + " of " + std::to_string(p.value.numel()) +
                                        " values are NaN or infinite");
    }
}

EncoderOutput TorchModel::encode(const torch::Tensor& src, const torch::Tensor& srcLen) const {
    return checkedEncoderOutput(callMethod("encode", {src, srcLen}), src.size(0), src.size(1), "encode");
}

// LibTorch's exceptions from the model's own code become one line naming the file and the method.
c10::IValue TorchModel::callMethod(const char* method, std::vector<c10::IValue> args, const std::string& at) const {
    Runtime::initialize();
    long long inputElements = 0;
    for (const auto& a : args)
        if (a.isTensor()) inputElements += a.toTensor().numel();
    const auto threads = BlasThreadChooser::shared().call(method, inputElements);
    try {
        return module_.get_method(method)(std::move(args));
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        throw Error("the model '" + origin_ + "' failed in its " + method + " code" + at + ": " + causeOf(e));
    }
}

torch::Tensor TorchModel::embedSource(const torch::Tensor& src) const {
    const auto out = callMethod("embed_source", {src});
    if (!out.isTensor()) throw Error("the model '" + origin_ + "': embed_source must return a tensor");
    auto x = out.toTensor();
    if (x.dim() != 3 || x.size(0) != src.size(0) || x.size(1) != src.size(1) || !x.is_floating_point())
        throw Error("the model '" + origin_ + "' broke its contract in embed_source: x " + shapeOf(x) + " for a source of " + shapeOf(src));
    return x.to(torch::kFloat);
}

EncoderOutput TorchModel::encodeEmbedded(const torch::Tensor& x, const torch::Tensor& srcLen) const {
    return checkedEncoderOutput(callMethod("encode_embedded", {x, srcLen}), x.size(0), x.size(1), "encode_embedded");
}

torch::Tensor TorchModel::advance(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc,
                                  int64_t stepNumber) const {
    const std::string at = atStep(stepNumber);
    const auto out = callMethod("advance", {yPrev, state, enc.enc, enc.keys, enc.mask}, at);
    if (!out.isTensor() || out.toTensor().sizes() != state.sizes())
        throw Error("the model '" + origin_ + "' broke its contract" + at + ": advance must return a state of the shape it was given");
    auto next = out.toTensor();
    if (next.is_floating_point() && !allFinite(next))
        throw NonFiniteOutput("the model '" + origin_ + "' produced NaN" + at + " (in its state)");
    return next;
}

TorchModel::ForcedPassOutput TorchModel::forceAttention(const torch::Tensor& yPrev, const torch::Tensor& lengths,
                                                        const EncoderOutput& enc) const {
    const auto out = callMethod("force_attention", {yPrev, lengths, enc.state, enc.enc, enc.keys, enc.mask});
    if (!out.isGenericDict()) throw Error("force_attention must return a Dict[str, Tensor]");
    ForcedPassOutput f;
    for (const auto& item : out.toGenericDict()) {
        if (!item.key().isString() || !item.value().isTensor()) throw Error("force_attention must return a Dict[str, Tensor]");
        if (item.key().toStringRef() == "alpha") f.alpha = item.value().toTensor();
        else if (item.key().toStringRef() == "state") f.state = item.value().toTensor();
    }
    if (!f.alpha.defined() || !f.state.defined()) throw Error("force_attention's result needs 'alpha' and 'state'");
    const int64_t B = yPrev.size(0), T = yPrev.size(1);
    if (!probing_ &&
        (f.alpha.dim() != 3 || f.alpha.size(0) != B || f.alpha.size(1) != T || f.alpha.size(2) != enc.enc.size(1) || f.state.dim() != 3 ||
         f.state.size(0) != B || f.state.size(1) != T || !f.alpha.is_floating_point() || !f.state.is_floating_point()))
        throw Error("the model '" + origin_ + "' broke its contract in force_attention: alpha " + shapeOf(f.alpha) + ", state " +
                    shapeOf(f.state) + " for [B,T] = [" + std::to_string(B) + ", " + std::to_string(T) + "] and a source of " +
                    std::to_string(enc.enc.size(1)));
    if (f.alpha.is_floating_point() && f.alpha.scalar_type() != torch::kFloat) f.alpha = f.alpha.to(torch::kFloat);
    if (f.alpha.is_floating_point() && !allFinite(f.alpha))
        throw NonFiniteOutput("the model '" + origin_ + "' produced NaN in force_attention (in its attention weights)");
    return f;
}

EncoderOutput TorchModel::checkedEncoderOutput(const c10::IValue& out, int64_t B, int64_t S, const char* method) const {
    const std::string name(method);
    if (!out.isTuple() || out.toTupleRef().elements().size() != 4) throw Error(name + " must return a tuple (enc, state, mask, keys)");
    const auto& el = out.toTupleRef().elements();
    for (const auto& v : el)
        if (!v.isTensor()) throw Error(name + " must return four tensors");
    EncoderOutput e{el[0].toTensor(), el[1].toTensor(), el[2].toTensor(), el[3].toTensor()};
    // Shapes the callers rely on, for every sentence (the probe saw one): enc [B,S,E], state [B,...], mask [B,S].
    if (!probing_ && (e.enc.dim() != 3 || e.enc.size(0) != B || e.enc.size(1) != S ||
                      (encoderOutputSize_ > 0 && e.enc.size(2) != encoderOutputSize_) || e.state.dim() < 1 || e.state.size(0) != B ||
                      e.mask.dim() != 2 || e.mask.size(0) != B || e.mask.size(1) != S || e.keys.dim() < 1 || e.keys.size(0) != B))
        throw Error("the model '" + origin_ + "' broke its contract in " + name + ": enc " + shapeOf(e.enc) + ", state " +
                    shapeOf(e.state) + ", mask " + shapeOf(e.mask) + " for a source of [B,S] = [" + std::to_string(B) + ", " +
                    std::to_string(S) + "]");
    if (e.enc.is_floating_point() && e.enc.scalar_type() != torch::kFloat) e.enc = e.enc.to(torch::kFloat);
    for (const auto& [what, t] : {std::pair<const char*, const torch::Tensor&>{"encoder states", e.enc}, {"initial state", e.state}})
        if (t.is_floating_point() && !allFinite(t))
            throw NonFiniteOutput("the model '" + origin_ + "' produced NaN or inf in its " + std::string(what) + " (" + name + ")");
    return e;
}

DecoderOutput TorchModel::step(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc, int64_t stepNumber) const {
    return runStep("step", "log_probs", yPrev, state, enc, stepNumber);
}

DecoderOutput TorchModel::stepBest(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc, bool logProbs,
                                   int64_t stepNumber) const {
    const bool logits = !logProbs && stepsLogits_;
    auto d = logits ? runStep("step_logits", "logits", yPrev, state, enc, stepNumber) : step(yPrev, state, enc, stepNumber);
    // The first column holding the row's maximum. Why not argmax: over [128, 11,611] it took 2.4 ms
    // against 0.1 ms for amax, whose maximum a scan then finds, stopping there (ids run from the
    // most frequent token, so it stops early).
    const auto scores = d.logProbs.contiguous();
    const auto maxima = scores.amax(1).contiguous();  // [B]
    if (logits && !soundRows(maxima))
        throw NonFiniteOutput("the model '" + origin_ + "' produced NaN" + atStep(stepNumber) + " (in its logits)");
    const float* p = scores.data_ptr<float>();
    const float* m = maxima.data_ptr<float>();
    const int64_t B = scores.size(0), V = scores.size(1);
    d.best.resize(static_cast<size_t>(B));
    for (int64_t b = 0; b < B; ++b) {
        const float* row = p + b * V;
        int64_t i = 0;
        while (i < V && row[i] != m[b]) ++i;
        d.best[static_cast<size_t>(b)] = i;
    }
    if (logits) d.logProbs = torch::Tensor();
    return d;
}

DecoderOutput TorchModel::runStep(const char* method, const char* scores, const torch::Tensor& yPrev, const torch::Tensor& state,
                                  const EncoderOutput& enc, int64_t stepNumber) const {
    const std::string at = atStep(stepNumber);
    const std::string name(method), scoresKey(scores);
    const auto out = callMethod(method, {yPrev, state, enc.enc, enc.keys, enc.mask}, at);
    if (!out.isGenericDict()) throw Error(name + " must return a Dict[str, Tensor]");
    DecoderOutput d;
    torch::Tensor padding;  // [B]
    for (const auto& item : out.toGenericDict()) {
        if (!item.key().isString() || !item.value().isTensor()) throw Error(name + " must return a Dict[str, Tensor]");
        const auto& key = item.key().toStringRef();
        const auto t = item.value().toTensor();
        if (key == scoresKey) d.logProbs = t;
        else if (key == "state") d.state = t;
        else if (key == "alpha") d.alpha = t;
        else if (key == "context") d.context = t;
        else if (key == "alpha_padding") padding = t;
        else d.extras.emplace(key, t);
    }
    for (const auto& [key, t] :
         {std::pair<const char*, torch::Tensor&>{scores, d.logProbs}, {"state", d.state}, {"alpha", d.alpha}, {"context", d.context}})
        if (!t.defined()) throw Error(name + "'s result has no '" + key + "'");
    if (attendsPadding_) {
        // One more column: the mass on the model's own padding, shown and exported, never renormalised away.
        if (!padding.defined() || padding.dim() != 1 || padding.size(0) != d.alpha.size(0))
            throw Error(name + " must return \"alpha_padding\" [B] (the model's metadata says it attends over its padding)");
        d.alpha = torch::cat({d.alpha, padding.unsqueeze(1).to(d.alpha.dtype())}, 1);
    }
    // Every caller reads these as float rows of the shapes below: a model that returns anything else
    // for some sentence only (a shape that depends on the length) is refused there, by step.
    const int64_t B = yPrev.size(0), A = enc.enc.size(1) + (attendsPadding_ ? 1 : 0);
    auto broke = [&](const std::string& what) { throw Error("the model '" + origin_ + "' broke its contract" + at + ": " + what); };
    for (auto* t : {&d.logProbs, &d.alpha, &d.context, &d.state}) {
        if (probing_) break;  // the probe checks these itself, listing every problem
        if (!t->is_floating_point()) broke(name + " returned a tensor that is not floating point");
        if (t->scalar_type() != torch::kFloat) *t = t->to(torch::kFloat);
    }
    if (probing_) {
    } else if (d.logProbs.dim() != 2 || d.logProbs.size(0) != B || d.logProbs.size(1) != tgtVocab_.size())
        broke(scoresKey + " is " + shapeOf(d.logProbs) + ", not [B,V] = [" + std::to_string(B) + ", " + std::to_string(tgtVocab_.size()) +
              "]");
    else if (d.alpha.dim() != 2 || d.alpha.size(0) != B || d.alpha.size(1) != A)
        broke("alpha is " + shapeOf(d.alpha) + ", not [B,S] = [" + std::to_string(B) + ", " + std::to_string(A) + "]");
    else if (d.state.sizes() != state.sizes()) broke("state is " + shapeOf(d.state) + ", not " + shapeOf(state) + " as given");
    else if (encoderOutputSize_ > 0 && (d.context.dim() != 2 || d.context.size(0) != B || d.context.size(1) != encoderOutputSize_))
        broke("context is " + shapeOf(d.context) + ", not [B,E]");
    // A NaN here would come out as an empty translation or a made-up alignment. -inf is a fair
    // log-probability (a token the model rules out); NaN, +inf or a row with nothing finite is not.
    // (stepBest checks logits' maxima itself, from the maxima it needs anyway.)
    if (scoresKey == "log_probs" && d.logProbs.is_floating_point() && !soundRows(d.logProbs.detach().amax(-1)))
        throw NonFiniteOutput("the model '" + origin_ + "' produced NaN" + at + " (in its log-probabilities)");
    if (d.alpha.is_floating_point() && !allFinite(d.alpha))
        throw NonFiniteOutput("the model '" + origin_ + "' produced NaN" + at + " (in its attention weights)");
    if (d.context.is_floating_point() && !allFinite(d.context))
        throw NonFiniteOutput("the model '" + origin_ + "' produced NaN" + at + " (in its context vector)");
    return d;
}

void TorchModel::setMetadata(nlohmann::json metadata) {
    metadata_ = std::move(metadata);
    module_.setattr("metadata", JsonText::dump(metadata_));
}

int64_t TorchModel::parameterCount() const {
    int64_t n = 0;
    for (const auto& p : module_.parameters()) n += p.numel();
    return n;
}

void TorchModel::save(const std::string& path, bool half) const {
    AtomicFile::checkWritable(path);
    // Serialised in memory first: LibTorch's file writer finishes the archive in its destructor
    // and aborts the process when that fails (a full disk); AtomicFile reports it instead.
    std::ostringstream bytes;
    try {
        // A copy, so saving never changes the module other threads may be decoding with.
        auto copy = module_.deepcopy();
        // Files keep trainable weights, as PyTorch writes them (a Python trainer reads them as they are).
        for (auto p : copy.parameters()) p.requires_grad_(true);
        auto meta = metadata_;
        meta["stored_dtype"] = half ? "float16" : "float32";
        copy.setattr("metadata", JsonText::dump(meta));
        if (half) castFloating(copy, torch::kHalf);
        copy.save(bytes);
    } catch (const std::exception& e) {
        throw Error("cannot write model to '" + path + "': " + wholeMessage(e));
    }
    AtomicFile::write(path, bytes.str());
}

}  // namespace alignscope::core