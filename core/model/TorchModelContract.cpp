// TorchModel's contract check: the methods, attributes and descriptions a model file must have,
// and the probe that runs them (docs/model-format.md).
#include "core/model/TorchModel.h"

#include "core/model/TorchModelChecks.h"
#include "core/text/Utf8.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/platform/FileDigest.h"
#include "core/platform/IsolatedRun.h"
#include "core/model/AttributeJson.h"
#include "core/model/ModelArchive.h"
#include "core/runtime/BlasThreadChooser.h"
#include "core/runtime/Runtime.h"

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

void TorchModel::checkContract() {
    std::vector<std::string> problems;
    auto intAttr = [&](const char* name) -> int64_t {
        if (!module_.hasattr(name)) {
            problems.push_back(std::string("missing attribute '") + name + "' (int)");
            return -1;
        }
        auto v = module_.attr(name);
        if (!v.isInt()) {
            problems.push_back(std::string("attribute '") + name + "' must be an int");
            return -1;
        }
        return v.toInt();
    };
    auto strAttr = [&](const char* name) -> std::string {
        if (!module_.hasattr(name)) {
            problems.push_back(std::string("missing attribute '") + name + "' (str)");
            return {};
        }
        auto v = module_.attr(name);
        if (!v.isString()) {
            problems.push_back(std::string("attribute '") + name + "' must be a str");
            return {};
        }
        return v.toStringRef();
    };
    auto listAttr = [&](const char* name) -> std::vector<std::string> {
        std::vector<std::string> out;
        if (!module_.hasattr(name)) {
            problems.push_back(std::string("missing attribute '") + name + "' (List[str])");
            return out;
        }
        auto v = module_.attr(name);
        if (!v.isList()) {
            problems.push_back(std::string("attribute '") + name + "' must be a List[str]");
            return out;
        }
        for (const auto& item : v.toListRef()) {
            if (!item.isString()) {
                problems.push_back(std::string("attribute '") + name + "' must hold only strings");
                return {};
            }
            // Every token is printed and written as JSON: one that is not UTF-8 is refused here, by id.
            if (const long bad = utf8::invalidOffset(item.toStringRef()); bad >= 0) {
                problems.push_back(std::string("attribute '") + name + "' token " + std::to_string(out.size()) +
                                   " is not valid UTF-8 (bad byte at offset " + std::to_string(bad) + ")");
                return {};
            }
            out.push_back(item.toStringRef());
        }
        return out;
    };
    // Format 2 stores JSON in these attributes; an empty string stands for "{}" in format 1 files
    // only (and for metadata). Null: an empty attribute, reported here.
    auto jsonAttr = [&](const char* name, size_t maxBytes = AttributeJson::kMaxBytes) -> nlohmann::json {
        const auto text = strAttr(name);
        if (text.empty()) {
            if (formatVersion_ < 2 || std::string(name) == "metadata") return nlohmann::json::object();
            problems.push_back(std::string("attribute '") + name + "' is empty (format 2 stores its JSON there)");
            return nullptr;
        }
        try {
            return AttributeJson::parse(text, maxBytes);
        } catch (const Error& e) {
            problems.push_back(std::string("attribute '") + name + "' " + e.what());
            return nlohmann::json::object();
        }
    };

    const auto version = formatVersion_ = intAttr("format_version");
    if (version == 0 || version < -1) problems.push_back("format_version must be 1 or more");
    if (version > kFormatVersion)
        problems.push_back("format_version " + std::to_string(version) + " is newer than this AlignScope reads (" +
                           std::to_string(kFormatVersion) + ")");
    auto src = listAttr("src_vocab");
    auto tgt = listAttr("tgt_vocab");
    metadata_ = jsonAttr("metadata");
    if (!metadata_.is_object()) {
        problems.push_back("attribute 'metadata' must be a JSON object");
        metadata_ = nlohmann::json::object();
    }
    auto srcTok = jsonAttr("src_tokenizer", AttributeJson::kMaxTokenizerBytes);
    auto tgtTok = jsonAttr("tgt_tokenizer", AttributeJson::kMaxTokenizerBytes);
    // Format v1: the specials are ids 0..3 of both vocabularies; v2 declares them per vocabulary.
    SpecialIds srcSpecials, tgtSpecials;
    bool specialsKnown = true;
    if (version == 1) {
        const char* names[4] = {"pad_id", "unk_id", "bos_id", "eos_id"};
        const int64_t expected[4] = {Vocabulary::kPad, Vocabulary::kUnk, Vocabulary::kBos, Vocabulary::kEos};
        for (int i = 0; i < 4; ++i) {
            const bool present = module_.hasattr(names[i]) && module_.attr(names[i]).isInt();
            if (intAttr(names[i]) != expected[i] && present) {
                problems.push_back(
                    "special ids must be pad=0 unk=1 bos=2 eos=3 in a format 1 file "
                    "(format 2 declares them per vocabulary: src_specials, tgt_specials)");
                break;
            }
        }
        srcSpecials = tgtSpecials = SpecialIds{Vocabulary::kPad, Vocabulary::kUnk, Vocabulary::kBos, Vocabulary::kEos};
    } else if (version >= 2) {
        for (auto [name, slot] : {std::pair<const char*, SpecialIds*>{"src_specials", &srcSpecials}, {"tgt_specials", &tgtSpecials}}) {
            const auto json = jsonAttr(name);
            if (json.is_null()) {
                specialsKnown = false;
                continue;
            }
            try {
                *slot = SpecialIds::fromJson(json);
            } catch (const Error& e) {
                problems.push_back(std::string("attribute '") + name + "': " + e.what());
                specialsKnown = false;
            }
        }
    }
    // Lengths within what decoding and the views can hold: a model without a target eos decodes to
    // its max_length every time, and 100,000 steps took 10 s and 672 MB a line.
    auto metaInt = [&](const char* key, int64_t& slot) {
        if (!metadata_.contains(key) || metadata_[key].is_null()) return;
        if (!metadata_[key].is_number_integer() || metadata_[key].get<int64_t>() < kMinDeclaredLength ||
            metadata_[key].get<int64_t>() > kMaxDeclaredLength)
            problems.push_back(std::string("metadata '") + key + "' must be an integer from " + std::to_string(kMinDeclaredLength) +
                               " to " + std::to_string(kMaxDeclaredLength));
        else slot = metadata_[key].get<int64_t>();
    };
    auto metaBool = [&](const char* key, bool& slot) {
        if (!metadata_.contains(key) || metadata_[key].is_null()) return;
        if (!metadata_[key].is_boolean()) problems.push_back(std::string("metadata '") + key + "' must be true or false");
        else slot = metadata_[key].get<bool>();
    };
    if (version >= 2) {  // format 1 files open as they always did
        metaInt("max_length", maxLength_);
        metaInt("max_source_length", maxSourceLength_);
        metaBool("source_eos", sourceEos_);
        metaBool("attends_padding", attendsPadding_);
        checkDescriptions(problems);
    }
    try {
        if (version == 1) {
            if (!src.empty()) srcVocab_ = Vocabulary(src);
            if (!tgt.empty()) tgtVocab_ = Vocabulary(tgt);
        } else if (specialsKnown) {
            if (!src.empty()) srcVocab_ = Vocabulary(src, srcSpecials);
            if (!tgt.empty()) tgtVocab_ = Vocabulary(tgt, tgtSpecials);
        }
    } catch (const Error& e) {
        problems.push_back(e.what());
    }
    for (auto [name, json, slot] : {std::tuple<const char*, const nlohmann::json*, Tokenizer*>{"src_tokenizer", &srcTok, &srcTokenizer_},
                                    {"tgt_tokenizer", &tgtTok, &tgtTokenizer_}}) {
        if (json->is_null()) continue;
        // Format 2 names the kind: a description without one is not silently the word tokenizer.
        if (version >= 2 && json->is_object() && !json->contains("kind")) {
            problems.push_back(std::string("attribute '") + name + "' has no \"kind\" (word, whitespace, char or sentencepiece)");
            continue;
        }
        try {
            *slot = Tokenizer::fromJson(*json);
        } catch (const Error& e) {
            problems.push_back(std::string("attribute '") + name + "': " + e.what());
        }
    }
    if (sourceEos_ && srcVocab_.eos() < 0 && problems.empty())
        problems.push_back("sources end in </s> (metadata source_eos) but the source vocabulary has no eos");
    for (const char* method : {"encode", "step"}) {
        if (!module_.find_method(method)) problems.push_back(std::string("missing method '") + method + "'");
    }
    const bool embeds = module_.find_method("embed_source").has_value();
    const bool encodesEmbedded = module_.find_method("encode_embedded").has_value();
    if (embeds != encodesEmbedded)
        problems.push_back(std::string("has method '") + (embeds ? "embed_source" : "encode_embedded") + "' without '" +
                           (embeds ? "encode_embedded" : "embed_source") + "' (gradient attribution needs both)");
    encodesEmbedded_ = embeds && encodesEmbedded;
    advances_ = module_.find_method("advance").has_value();
    stepsLogits_ = module_.find_method("step_logits").has_value();
    forcesAttention_ = module_.find_method("force_attention").has_value() && !attendsPadding_;
    // NaN or inf in a weight may leave the probe's numbers finite (tanh of -inf is -1) and every
    // translation wrong: refused whatever the probe says.
    for (const auto& w : nonFiniteWeights_) problems.push_back("non-finite weights: " + w);
    if (problems.empty()) probe(problems);
    if (!problems.empty()) {
        std::string message = "'" + origin_ + "' does not meet the AlignScope model contract (docs/model-format.md):";
        for (const auto& p : problems) message += "\n  - " + p;
        throw Error(message);
    }
}

// The architecture descriptions panels label and explain with (docs/model-format.md): a misspelt
// "when" would explain the steps in the wrong order, so each value is checked.
void TorchModel::checkDescriptions(std::vector<std::string>& problems) const {
    auto check = [&](const char* object, const char* key, bool (*valid)(const nlohmann::json&), const char* expected) {
        if (!metadata_.contains(object)) return;
        const auto& o = metadata_[object];
        if (!o.is_object()) {
            problems.push_back(std::string("metadata '") + object + "' must be an object");
            return;
        }
        if (o.contains(key) && !valid(o[key])) problems.push_back(std::string("metadata '") + object + "." + key + "' must be " + expected);
    };
    auto oneOf = [](const nlohmann::json& v, std::initializer_list<const char*> names) {
        if (!v.is_string()) return false;
        for (const char* n : names)
            if (v == n) return true;
        return false;
    };
    static auto isCell = [](const nlohmann::json& v) { return v.is_string() && (v == "gru" || v == "lstm" || v == "rnn"); };
    static auto isLayers = [](const nlohmann::json& v) { return v.is_number_integer() && v.get<int64_t>() >= 1 && v.get<int64_t>() <= 64; };
    static auto isBool = [](const nlohmann::json& v) { return v.is_boolean(); };
    check("encoder", "cell", +isCell, "\"gru\", \"lstm\" or \"rnn\"");
    check("encoder", "layers", +isLayers, "an integer from 1 to 64");
    check("encoder", "bidirectional", +isBool, "true or false");
    check("decoder", "cell", +isCell, "\"gru\", \"lstm\" or \"rnn\"");
    check("decoder", "layers", +isLayers, "an integer from 1 to 64");
    check("decoder", "input_feeding", +isBool, "true or false");
    check("attention", "bias", +isBool, "true or false");
    if (metadata_.contains("attention") && metadata_["attention"].is_object()) {
        const auto& a = metadata_["attention"];
        if (a.contains("kind") && !oneOf(a["kind"], {"additive", "mlp", "general", "dot", "none"}))
            problems.push_back("metadata 'attention.kind' must be \"additive\", \"mlp\", \"general\", \"dot\" or \"none\"");
        if (a.contains("when") && !oneOf(a["when"], {"before_cell", "after_cell"}))
            problems.push_back("metadata 'attention.when' must be \"before_cell\" or \"after_cell\"");
    } else if (metadata_.contains("attention") && !metadata_["attention"].is_string()) {
        problems.push_back("metadata 'attention' must be an object ({\"kind\", \"bias\", \"when\"})");
    }
}

// A one-sentence probe and a padded batch of two: the methods must run and return what the
// contract says, and a padded row must get nothing from its padding.
void TorchModel::probe(std::vector<std::string>& problems) {
    probing_ = true;
    struct Done {
        bool& flag;
        ~Done() { flag = false; }
    } done{probing_};
    try {
        torch::InferenceMode guard;
        // An ordinary source token (the first id that is not special), then </s> where sources have one.
        int64_t word = 0;
        while (word < srcVocab_.size() - 1 && srcVocab_.isSpecial(word)) ++word;
        std::vector<int64_t> one = {word};
        if (sourceEos_) one.push_back(srcVocab_.eos());
        const int64_t S = static_cast<int64_t>(one.size());
        const int64_t A = attendsPadding_ ? S + 1 : S;  // alpha's columns
        IsolatedRun::note("running its encode on a test sentence");
        auto e = encode(torch::tensor(one, torch::kLong).unsqueeze(0), torch::tensor({S}, torch::kLong));
        if (e.enc.dim() != 3 || e.enc.size(0) != 1 || e.enc.size(1) != S)
            problems.push_back("encode: enc must be [B,S,E], got " + shapeOf(e.enc));
        if (e.state.dim() != 2 || e.state.size(0) != 1) problems.push_back("encode: state must be [B,D], got " + shapeOf(e.state));
        if (e.mask.dim() != 2 || e.mask.size(1) != S || e.mask.scalar_type() != torch::kBool)
            problems.push_back("encode: mask must be bool [B,S], got " + shapeOf(e.mask));
        if (e.keys.dim() < 1 || e.keys.size(0) != 1) problems.push_back("encode: keys must have batch first");
        if (!problems.empty()) return;
        encoderOutputSize_ = e.enc.size(2);
        stateSize_ = e.state.size(1);
        IsolatedRun::note("running its step on a test sentence");
        auto d = step(torch::tensor({tgtVocab_.startId()}, torch::kLong), e.state, e);
        if (d.logProbs.sizes() != torch::IntArrayRef({1, tgtVocab_.size()}))
            problems.push_back("step: log_probs must be [B,V] with V = " + std::to_string(tgtVocab_.size()) + ", got " +
                               shapeOf(d.logProbs));
        if (d.state.sizes() != e.state.sizes())
            problems.push_back("step: state must keep encode's shape " + shapeOf(e.state) + ", got " + shapeOf(d.state));
        if (d.alpha.sizes() != torch::IntArrayRef({1, A}))
            problems.push_back(attendsPadding_ ? "step: alpha must be [B,S] and alpha_padding [B] (metadata attends_padding)"
                                               : "step: alpha must be [B,S], got " + shapeOf(d.alpha));
        else if (!(std::abs(d.alpha.sum().item<double>() - 1.0) <= 1e-4))
            problems.push_back(attendsPadding_ ? "step: alpha and alpha_padding must sum to 1"
                                               : "step: alpha must sum to 1 (a model that attends over its own padding "
                                                 "declares attends_padding and returns alpha_padding: docs/model-format.md)");
        if (d.context.sizes() != torch::IntArrayRef({1, encoderOutputSize_}))
            problems.push_back("step: context must be [B,E], got " + shapeOf(d.context));
        if (problems.empty() && !(std::abs(d.logProbs.exp().sum().item<double>() - 1.0) <= 1e-3))
            problems.push_back("step: log_probs must be log-probabilities (they do not sum to 1)");
        if (!problems.empty()) return;
        // Finite numbers can still carry nothing: an initial state at +-1 everywhere (tanh saturated,
        // as when a bias is the largest float; a step's state may be anything, a counter say) and a
        // first step all but certain of </s> translate every line as nothing, which "all weights
        // finite" never shows.
        const auto saturated = [](const torch::Tensor& t) {
            return t.numel() > 1 && t.is_floating_point() && (t.abs() >= 1 - 1e-6).all().item<bool>();
        };
        if (saturated(e.state))
            problems.push_back(
                "on a test sentence every value of the decoder's initial state is +-1 (saturated: is a bias or weight far too large?)");
        const auto eos = tgtVocab_.eos();
        if (eos >= 0 && d.logProbs.argmax(1).item<int64_t>() == eos && d.logProbs[0][eos].item<double>() > std::log(0.99))
            problems.push_back("a test sentence decodes to nothing: its first step gives </s> a probability of " +
                               std::to_string(std::exp(d.logProbs[0][eos].item<double>())));
        if (!problems.empty()) return;
        if (encodesEmbedded_) {
            IsolatedRun::note("running its encode_embedded on a test sentence");
            const auto src = torch::tensor(one, torch::kLong).unsqueeze(0);
            const auto viaEmbeddings = encodeEmbedded(embedSource(src), torch::tensor({S}, torch::kLong));
            if (!torch::allclose(viaEmbeddings.enc, e.enc, 1e-4, 1e-5) || !torch::allclose(viaEmbeddings.state, e.state, 1e-4, 1e-5))
                problems.push_back("encode_embedded(embed_source(src)) must equal encode(src) (docs/model-format.md)");
        }
        if (advances_) {
            IsolatedRun::note("running its advance on a test sentence");
            const auto next = advance(torch::tensor({tgtVocab_.startId()}, torch::kLong), e.state, e);
            if (next.sizes() != d.state.sizes() || !torch::allclose(next, d.state, 1e-4, 1e-5))
                problems.push_back("advance must return the state step returns (docs/model-format.md)");
        }
        if (stepsLogits_) {
            IsolatedRun::note("running its step_logits on a test sentence");
            const auto l = runStep("step_logits", "logits", torch::tensor({tgtVocab_.startId()}, torch::kLong), e.state, e, 0);
            if (l.logProbs.sizes() != d.logProbs.sizes() ||
                !torch::allclose(torch::log_softmax(l.logProbs.to(torch::kFloat), 1), d.logProbs.to(torch::kFloat), 1e-4, 1e-5) ||
                l.state.sizes() != d.state.sizes() || !torch::allclose(l.state, d.state, 1e-4, 1e-5))
                problems.push_back(
                    "step_logits must return step's state, and logits whose log_softmax is step's log_probs "
                    "(docs/model-format.md)");
        }
        if (forcesAttention_) {
            IsolatedRun::note("running its force_attention on a test sentence");
            const auto start = torch::tensor({tgtVocab_.startId()}, torch::kLong);
            const auto f = forceAttention(start.unsqueeze(0), torch::tensor({int64_t{1}}, torch::kLong), e);
            if (f.alpha.dim() != 3 || f.alpha.size(0) != 1 || f.alpha.size(1) != 1 || f.state.dim() != 3 ||
                !torch::allclose(f.alpha[0], d.alpha, 1e-4, 1e-5) || !torch::allclose(f.state[0], d.state, 1e-4, 1e-5))
                problems.push_back("force_attention must return step's alpha and state at every step (docs/model-format.md)");
        }
        if (!problems.empty()) return;

        // A padded batch: the short sentence's padding must get exactly zero.
        std::vector<int64_t> two = {word, word};
        if (sourceEos_) two.push_back(srcVocab_.eos());
        const int64_t L = static_cast<int64_t>(two.size());
        auto pair = torch::full({2, L}, srcVocab_.paddingId(), torch::kLong);
        pair[0] = torch::tensor(two, torch::kLong);
        pair[1].slice(0, 0, S) = torch::tensor(one, torch::kLong);
        IsolatedRun::note("running encode and step on a padded test batch");
        auto b = encode(pair, torch::tensor({L, S}, torch::kLong));
        auto db = step(torch::full({2}, tgtVocab_.startId(), torch::kLong), b.state, b);
        if (b.mask[1][L - 1].item<bool>()) problems.push_back("encode: mask must be false on padding");
        if (!torch::all(b.enc[1][L - 1] == 0).item<bool>()) problems.push_back("encode: enc must be 0 on padding");
        if (db.alpha[1][L - 1].item<float>() != 0.0f) problems.push_back("step: alpha must be exactly 0 on padding");
    } catch (const NonFiniteOutput& e) {
        std::string p = std::string("on a test sentence, ") + e.what();
        for (const auto& w : nonFiniteWeights_) p += "\n  - non-finite weights: " + w;
        problems.push_back(p);
    } catch (const Error& e) {
        problems.push_back(e.what());
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        problems.push_back("the test sentence failed in the model's code: " + wholeMessage(e));
    }
}

}  // namespace alignscope::core
