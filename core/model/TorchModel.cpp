#include "core/model/TorchModel.h"

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
namespace {

// The whole of an error's message (a TorchScript error's cause is on its last lines), without
// LibTorch's C++ backtrace.
std::string wholeMessage(const std::exception& e) {
    const auto* c10error = dynamic_cast<const c10::Error*>(&e);
    std::string why = c10error ? c10error->what_without_backtrace() : e.what();
    while (!why.empty() && std::isspace(static_cast<unsigned char>(why.back()))) why.pop_back();
    return why;
}

// The line that says what went wrong: a TorchScript error ends with its cause ("RuntimeError: ...")
// after the traceback.
std::string causeOf(const std::exception& e) {
    const std::string whole = wholeMessage(e);
    const auto end = whole.find_last_not_of(" \n");
    if (end == std::string::npos) return "no reason given";
    const auto start = whole.rfind('\n', end);
    return whole.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

std::string shapeOf(const torch::Tensor& t) {
    std::ostringstream os;
    os << t.sizes();
    return os.str();
}

// Finite-value checks in one pass over a float tensor, without the temporaries LibTorch's isfinite
// and all() allocate (every weight at load, a fifth of a command's start-up; states, alphas and
// contexts at every step). Other types and layouts go through LibTorch's ops.
bool plainFloat(const torch::Tensor& t) { return t.scalar_type() == torch::kFloat && t.is_contiguous(); }

int64_t countNonFinite(const torch::Tensor& t) {
    if (!plainFloat(t)) return (~torch::isfinite(t)).sum().item<int64_t>();
    const float* v = t.data_ptr<float>();
    int64_t bad = 0;
    for (int64_t i = 0, n = t.numel(); i < n; ++i) bad += !std::isfinite(v[i]);
    return bad;
}

bool allFinite(const torch::Tensor& t) { return countNonFinite(t) == 0; }

// -inf is a fair log-probability or logit (a token the model rules out); NaN, +inf or a row with
// nothing finite is not: exactly the rows whose maximum (which propagates NaN) is not finite. One
// reduction: isnan, isposinf and isfinite().any() over [B,V] took 8 ms a step for a beam of 5 x 32
// sentences. `maxima` [B]: the rows' amax.
bool soundRows(const torch::Tensor& maxima) { return torch::isfinite(maxima).all().item<bool>(); }

// Bounds on metadata max_length and max_source_length.
constexpr int64_t kMinDeclaredLength = 2;
constexpr int64_t kMaxDeclaredLength = 1000;

// " at step N" for messages; nothing for 0 (no step number given).
std::string atStep(int64_t stepNumber) { return stepNumber > 0 ? " at step " + std::to_string(stepNumber) : std::string(); }

// Casts the floating tensors only: an integer buffer (a converted model's id map, say) keeps its
// type, which Module::to(dtype) would not. Files may store float16 weights; compute is float32.
void castFloating(torch::jit::Module& module, torch::ScalarType type) {
    torch::NoGradGuard noGrad;
    for (auto m : module.modules())
        for (const auto& a : m.named_attributes(/*recurse=*/false)) {
            if (!a.value.isTensor()) continue;
            const auto t = a.value.toTensor();
            if (!t.defined() || !t.is_floating_point() || t.scalar_type() == type) continue;
            m.setattr(a.name, t.to(type).detach().requires_grad_(t.requires_grad()));
        }
}

}  // namespace

EncoderOutput EncoderOutput::select(const torch::Tensor& index) const {
    return {enc.index_select(0, index), state.index_select(0, index), mask.index_select(0, index),
            keys.index_select(0, index)};
}

TorchModel::TorchModel(torch::jit::Module module, std::string origin)
    : module_(std::move(module)), origin_(std::move(origin)) {
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

namespace {

// How long the checking child may take: enough to read a large model on a slow host, short enough
// that code which loops for ever is refused within seconds. ALIGNSCOPE_LOAD_TIME_LIMIT overrides.
double loadTimeLimit(uint64_t fileBytes) {
    if (const char* env = std::getenv("ALIGNSCOPE_LOAD_TIME_LIMIT")) {
        char* end = nullptr;
        const double v = std::strtod(env, &end);
        if (end != env && v > 0) return v;
    }
    return 6.0 + static_cast<double>(fileBytes) / (20.0 * (1 << 20));
}

// The verified-model cache (docs/model-format.md, "What the loader checks"): a file whose exact
// bytes already passed the checking child under this build passes it again (LibTorch's reader and
// the probe are deterministic), so its next load skips the child, about 0.6 s for en-fr. Entries
// are named by the file's SHA-256 and hold the build they were checked under. The folder is
// ALIGNSCOPE_CACHE_DIR (empty: no cache), else $XDG_CACHE_HOME/alignscope or ~/.cache/alignscope.
std::string buildKey() {
    return "alignscope " + Runtime::version() + ", LibTorch " TORCH_VERSION ", built " __DATE__ " " __TIME__;
}

std::filesystem::path verifiedModelsFolder() {
    namespace fs = std::filesystem;
    const auto env = [](const char* name) -> const char* { return std::getenv(name); };
    if (const char* dir = env("ALIGNSCOPE_CACHE_DIR")) return *dir ? fs::path(dir) / "verified-models" : fs::path();
    if (const char* xdg = env("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "alignscope" / "verified-models";
    if (const char* home = env("HOME"); home && *home) return fs::path(home) / ".cache" / "alignscope" / "verified-models";
    return {};
}

bool verifiedBefore(const std::filesystem::path& entry) {
    if (entry.empty()) return false;
    std::ifstream in(entry);
    std::string key;
    return in && std::getline(in, key) && key == buildKey();
}

// A cache that cannot be written (a read-only home, a full disk) only costs the next load its child.
void rememberVerified(const std::filesystem::path& entry) {
    if (entry.empty()) return;
    try {
        std::error_code ec;
        std::filesystem::create_directories(entry.parent_path(), ec);
        AtomicFile::write(entry.string(), buildKey() + "\n");
    } catch (const std::exception&) {
    }
}

}  // namespace

std::shared_ptr<TorchModel> TorchModel::load(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec)) throw Error("model file '" + path + "' does not exist");
    if (fs::is_directory(path, ec)) throw Error("'" + path + "' is a folder, not a model file");
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw Error("cannot read model file '" + path + "'");
    char magic[2] = {0, 0};
    probe.read(magic, 2);
    if (probe.gcount() < 2 || magic[0] != 'P' || magic[1] != 'K')
        throw Error("'" + path + "' is not a TorchScript model file (it is not a zip archive)");
    probe.close();
    // A model file is untrusted input (docs/model-format.md, "What the loader checks"): first the
    // archive's own structure, then LibTorch's reader and the contract probe in a child process
    // with limits, and only then the load that keeps the model.
    ModelArchive::check(path);
    const auto folder = verifiedModelsFolder();
    const std::string digest = folder.empty() ? std::string() : FileDigest::sha256(path);
    const auto entry = digest.empty() ? fs::path() : folder / digest;
    if (verifiedBefore(entry)) return loadInProcess(path);
    const uint64_t bytes = fs::file_size(path, ec);
    IsolatedRun::Limits limits;
    limits.seconds = loadTimeLimit(bytes);
    limits.extraMemoryBytes = (uint64_t{512} << 20) + 4 * bytes;
    const auto outcome = IsolatedRun::run([&] { loadInProcess(path); }, limits);
    using Kind = IsolatedRun::Outcome::Kind;
    const std::string where = outcome.phase.empty() ? "" : " while " + outcome.phase;
    switch (outcome.kind) {
    case Kind::Succeeded: break;
    case Kind::Failed: throw Error(outcome.message);
    case Kind::Crashed:
        throw Error("'" + path + "' is damaged or made to break model readers: it crashed LibTorch (" + outcome.message + ")" + where +
                    "; nothing was loaded");
    case Kind::TimedOut: {
        std::ostringstream limit;
        limit << std::round(limits.seconds * 10) / 10;  // "6.2", "1.5"
        throw Error("'" + path + "' did not load within " + limit.str() + " s" + where +
                    ": its code may loop for ever; nothing was loaded (ALIGNSCOPE_LOAD_TIME_LIMIT sets the limit)");
    }
    case Kind::OutOfMemory:
        throw Error("'" + path + "' asked for more than " + std::to_string(limits.extraMemoryBytes >> 20) + " MiB of memory" + where +
                    " (a damaged size?); nothing was loaded");
    }
    auto model = loadInProcess(path);
    rememberVerified(entry);
    return model;
}

std::shared_ptr<TorchModel> TorchModel::loadInProcess(const std::string& path) {
    Runtime::initialize();
    torch::jit::Module module;
    IsolatedRun::note("reading its TorchScript code and weights");
    try {
        module = torch::jit::load(path, torch::kCPU);
    } catch (const std::bad_alloc&) {
        throw;  // the checking child reports it as memory
    } catch (const std::exception& e) {
        // LibTorch's reason, unless it is empty or an assertion about its own internals.
        std::string why = wholeMessage(e);
        if (why.empty() || why.find("INTERNAL ASSERT") != std::string::npos) why = "its code or data is missing or damaged";
        if (why.find("can't allocate memory") != std::string::npos) why = "it asks for more memory than a model may use (a damaged size?)";
        throw Error("'" + path + "' is not a readable TorchScript model file: " + why);
    }
    try {
        module.eval();
        castFloating(module, torch::kFloat);
    } catch (const std::exception& e) {
        throw Error("'" + path + "' could not be prepared: " + wholeMessage(e));
    }
    return std::make_shared<TorchModel>(std::move(module), path);
}

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
                problems.push_back("special ids must be pad=0 unk=1 bos=2 eos=3 in a format 1 file "
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
        else
            slot = metadata_[key].get<int64_t>();
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
        if (o.contains(key) && !valid(o[key]))
            problems.push_back(std::string("metadata '") + object + "." + key + "' must be " + expected);
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
        if (e.state.dim() != 2 || e.state.size(0) != 1)
            problems.push_back("encode: state must be [B,D], got " + shapeOf(e.state));
        if (e.mask.dim() != 2 || e.mask.size(1) != S || e.mask.scalar_type() != torch::kBool)
            problems.push_back("encode: mask must be bool [B,S], got " + shapeOf(e.mask));
        if (e.keys.dim() < 1 || e.keys.size(0) != 1) problems.push_back("encode: keys must have batch first");
        if (!problems.empty()) return;
        encoderOutputSize_ = e.enc.size(2);
        stateSize_ = e.state.size(1);
        IsolatedRun::note("running its step on a test sentence");
        auto d = step(torch::tensor({tgtVocab_.startId()}, torch::kLong), e.state, e);
        if (d.logProbs.sizes() != torch::IntArrayRef({1, tgtVocab_.size()}))
            problems.push_back("step: log_probs must be [B,V] with V = " + std::to_string(tgtVocab_.size()) +
                               ", got " + shapeOf(d.logProbs));
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
            problems.push_back("on a test sentence every value of the decoder's initial state is +-1 (saturated: is a bias or weight far too large?)");
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
                problems.push_back("step_logits must return step's state, and logits whose log_softmax is step's log_probs "
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
    if (!probing_ && (f.alpha.dim() != 3 || f.alpha.size(0) != B || f.alpha.size(1) != T || f.alpha.size(2) != enc.enc.size(1) ||
                      f.state.dim() != 3 || f.state.size(0) != B || f.state.size(1) != T || !f.alpha.is_floating_point() ||
                      !f.state.is_floating_point()))
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
    if (!out.isTuple() || out.toTupleRef().elements().size() != 4)
        throw Error(name + " must return a tuple (enc, state, mask, keys)");
    const auto& el = out.toTupleRef().elements();
    for (const auto& v : el)
        if (!v.isTensor()) throw Error(name + " must return four tensors");
    EncoderOutput e{el[0].toTensor(), el[1].toTensor(), el[2].toTensor(), el[3].toTensor()};
    // Shapes the callers rely on, for every sentence (the probe saw one): enc [B,S,E], state [B,...], mask [B,S].
    if (!probing_ && (e.enc.dim() != 3 || e.enc.size(0) != B || e.enc.size(1) != S || (encoderOutputSize_ > 0 && e.enc.size(2) != encoderOutputSize_) ||
        e.state.dim() < 1 || e.state.size(0) != B || e.mask.dim() != 2 || e.mask.size(0) != B || e.mask.size(1) != S ||
        e.keys.dim() < 1 || e.keys.size(0) != B))
        throw Error("the model '" + origin_ + "' broke its contract in " + name + ": enc " + shapeOf(e.enc) + ", state " + shapeOf(e.state) +
                    ", mask " + shapeOf(e.mask) + " for a source of [B,S] = [" + std::to_string(B) + ", " + std::to_string(S) + "]");
    if (e.enc.is_floating_point() && e.enc.scalar_type() != torch::kFloat) e.enc = e.enc.to(torch::kFloat);
    for (const auto& [what, t] : {std::pair<const char*, const torch::Tensor&>{"encoder states", e.enc}, {"initial state", e.state}})
        if (t.is_floating_point() && !allFinite(t))
            throw NonFiniteOutput("the model '" + origin_ + "' produced NaN or inf in its " + std::string(what) + " (" + name + ")");
    return e;
}

DecoderOutput TorchModel::step(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc,
                               int64_t stepNumber) const {
    return runStep("step", "log_probs", yPrev, state, enc, stepNumber);
}

DecoderOutput TorchModel::stepBest(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc,
                                   bool logProbs, int64_t stepNumber) const {
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
    for (const auto& [key, t] : {std::pair<const char*, torch::Tensor&>{scores, d.logProbs},
                                 {"state", d.state}, {"alpha", d.alpha}, {"context", d.context}})
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
    auto broke = [&](const std::string& what) {
        throw Error("the model '" + origin_ + "' broke its contract" + at + ": " + what);
    };
    for (auto* t : {&d.logProbs, &d.alpha, &d.context, &d.state}) {
        if (probing_) break;  // the probe checks these itself, listing every problem
        if (!t->is_floating_point()) broke(name + " returned a tensor that is not floating point");
        if (t->scalar_type() != torch::kFloat) *t = t->to(torch::kFloat);
    }
    if (probing_) {
    } else if (d.logProbs.dim() != 2 || d.logProbs.size(0) != B || d.logProbs.size(1) != tgtVocab_.size())
        broke(scoresKey + " is " + shapeOf(d.logProbs) + ", not [B,V] = [" + std::to_string(B) + ", " + std::to_string(tgtVocab_.size()) + "]");
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
    module_.setattr("metadata", metadata_.dump());
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
        copy.setattr("metadata", meta.dump());
        if (half) castFloating(copy, torch::kHalf);
        copy.save(bytes);
    } catch (const std::exception& e) {
        throw Error("cannot write model to '" + path + "': " + wholeMessage(e));
    }
    AtomicFile::write(path, bytes.str());
}

}  // namespace alignscope::core
