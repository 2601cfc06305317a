#include "core/decoding/DecodingSession.h"

#include "core/decoding/Alignment.h"
#include "core/decoding/EncodedSource.h"
#include "core/Error.h"

#include <optional>

namespace alignscope::core {
namespace {

std::vector<float> toVector(const torch::Tensor& t) {
    auto c = t.contiguous().to(torch::kFloat);
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace

struct DecodingSession::Impl {
    SessionOptions options;
    std::string text;
    EncodedSource encoded;
    std::vector<float> encoderStates;   // [S*E]
    std::vector<float> initialState;    // [D]
    std::vector<torch::Tensor> states;  // [T+1] of [1,D]: states[t] is the input of step t
    std::vector<StepRecord> steps;
    std::optional<TokenizedSentence> target;  // teacher forcing: the target step() follows

    // The source's tokens, then a report that encoding starts: a watchdog tells a tokenizer that
    // never finishes from model code that does (as BatchDecoder reports before its encode).
    static TokenizedSentence tokenized(const Model& model, const std::string& text, DecodingProgress* progress) {
        auto tokens = model.tokenizeSource(text);
        if (progress) progress->reached(0);
        return tokens;
    }

    Impl(Model model, const std::string& text, SessionOptions o)
        : options(o), text(text), encoded(model, tokenized(model, text, o.progress)) {
        encoderStates = toVector(encoded.output().enc[0]);
        // The padding column (a model attending its own padding) has no encoder state: zeros.
        encoderStates.resize(static_cast<size_t>(encoded.length() * encoded.output().enc.size(2)), 0.0f);
        initialState = toVector(encoded.output().state[0]);
        states.push_back(encoded.output().state);
    }
};

DecodingSession::DecodingSession(Model model, const std::string& source, SessionOptions options)
    : d_(std::make_unique<Impl>(std::move(model), source, options)) {}
DecodingSession::~DecodingSession() = default;
DecodingSession::DecodingSession(DecodingSession&&) noexcept = default;
DecodingSession& DecodingSession::operator=(DecodingSession&&) noexcept = default;

const Model& DecodingSession::model() const { return d_->encoded.model(); }
const SessionOptions& DecodingSession::options() const { return d_->options; }
const TokenizedSentence& DecodingSession::source() const { return d_->encoded.sentence(); }
const std::string& DecodingSession::sourceText() const { return d_->text; }
int64_t DecodingSession::sourceLength() const { return d_->encoded.length(); }
int64_t DecodingSession::encoderStateSize() const { return d_->encoded.output().enc.size(2); }
const std::vector<float>& DecodingSession::encoderStates() const { return d_->encoderStates; }
const std::vector<float>& DecodingSession::initialState() const { return d_->initialState; }
const std::vector<StepRecord>& DecodingSession::steps() const { return d_->steps; }

int DecodingSession::maxLength() const {
    SearchOptions o;
    o.maxLength = d_->options.maxLength;
    return o.lengthLimit(sourceLength(), model().maxLength());
}

bool DecodingSession::finished() const {
    // A followed target ends with its last token, then </s> where the model has one; it decides
    // the length, not the cap.
    if (d_->target) return d_->steps.size() >= d_->target->size() + (model().targetVocabulary().eos() >= 0 ? 1 : 0);
    return (!d_->steps.empty() && d_->steps.back().tokenId == model().targetVocabulary().eos()) ||
           static_cast<int>(d_->steps.size()) >= maxLength();
}

const StepRecord& DecodingSession::step() {
    if (!d_->target || finished()) return advance(-1, nullptr);
    const size_t k = d_->steps.size();
    if (k < d_->target->size()) return advance(d_->target->ids[k], &d_->target->tokens[k]);
    return advance(model().targetVocabulary().eos(), nullptr);
}

const StepRecord& DecodingSession::force(int64_t tokenId) {
    if (tokenId < 0 || tokenId >= model().targetVocabulary().size())
        throw Error("token id " + std::to_string(tokenId) + " is not in the target vocabulary");
    d_->target.reset();  // a what-if leaves the given target
    return advance(tokenId, nullptr);
}

const StepRecord& DecodingSession::advance(int64_t forcedId, const std::string* forcedText) {
    if (finished()) throw Error("the translation is complete: go back or reset to continue");
    torch::InferenceMode guard;
    const auto& vocab = model().targetVocabulary();
    const int64_t prev = d_->steps.empty() ? vocab.startId() : d_->steps.back().tokenId;
    const auto& before = d_->states.back();
    const auto stepNumber = static_cast<int64_t>(d_->steps.size()) + 1;
    if (d_->options.progress) d_->options.progress->reached(stepNumber);
    auto out = model().torch().step(torch::full({1}, prev, torch::kLong), before, d_->encoded.output(), stepNumber);
    auto logProbs = out.logProbs[0];

    StepRecord r;
    r.forced = forcedId >= 0;
    r.tokenId = r.forced ? forcedId : logProbs.argmax().item<int64_t>();
    r.token = forcedText ? *forcedText : vocab.token(r.tokenId);
    r.logProb = logProbs[r.tokenId].item<float>();
    const int64_t k = std::min<int64_t>(std::max(1, d_->options.topK), logProbs.size(0));
    auto [values, indices] = logProbs.topk(k);
    for (int64_t i = 0; i < k; ++i) {
        const auto id = indices[i].item<int64_t>();
        r.candidates.push_back({id, vocab.token(id), std::exp(values[i].item<float>())});
    }
    r.alpha = toVector(out.alpha[0]);
    if (d_->options.keepLogProbs) r.logProbs = toVector(logProbs);
    r.context = toVector(out.context[0]);
    r.previousState = toVector(before[0]);
    r.state = toVector(out.state[0]);
    for (const auto& [name, t] : out.extras)
        if (t.dim() >= 1 && t.size(0) == 1) r.extras[name] = toVector(t[0]);

    d_->states.push_back(out.state);
    d_->steps.push_back(std::move(r));
    return d_->steps.back();
}

bool DecodingSession::back() {
    if (d_->steps.empty()) return false;
    d_->steps.pop_back();
    d_->states.pop_back();
    return true;
}

void DecodingSession::runToEnd() {
    while (!finished()) step();
}

void DecodingSession::reset() {
    d_->steps.clear();
    d_->states.resize(1);
}

void DecodingSession::followTarget(const std::string& target, int steps) {
    auto t = model().tokenizeTarget(target);  // throws before anything changes
    reset();
    d_->target = std::move(t);
    for (int k = 0; (steps < 0 || k < steps) && !finished(); ++k) step();
}

void DecodingSession::stopFollowing() { d_->target.reset(); }

const TokenizedSentence* DecodingSession::followedTarget() const { return d_->target ? &*d_->target : nullptr; }

void DecodingSession::alignTo(const std::string& target) { followTarget(target, -1); }

std::vector<Hypothesis> DecodingSession::search(const SearchOptions& options) const {
    return search(*SearchStrategy::create(options.beamWidth), options);
}

std::vector<Hypothesis> DecodingSession::search(const SearchStrategy& strategy, const SearchOptions& options) const {
    return strategy.search(d_->encoded, options);
}

std::vector<int64_t> DecodingSession::targetIds() const {
    std::vector<int64_t> ids;
    for (const auto& s : d_->steps) ids.push_back(s.tokenId);
    return ids;
}

std::string DecodingSession::translation() const { return model().detokenize(targetIds()); }

Alignment DecodingSession::alignment() const {
    std::vector<std::string> tokens;
    // A followed target's words are the user's; decoded tokens belong to the words of translation().
    std::vector<int> words = d_->target ? d_->target->words : model().targetWords(targetIds());
    words.resize(d_->steps.size(), -1);
    std::vector<std::vector<float>> rows;
    for (const auto& s : d_->steps) {
        tokens.push_back(s.token);
        rows.push_back(s.alpha);
    }
    return Alignment(source().tokens, source().words, std::move(tokens), std::move(words), std::move(rows));
}

}  // namespace alignscope::core
