#include "core/TorchModel.h"

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/Runtime.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/torch.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace alignscope::core {
namespace {

std::string shapeOf(const torch::Tensor& t) {
    std::ostringstream os;
    os << t.sizes();
    return os.str();
}

// LibTorch takes a storage's bytes from its record in the archive without checking that the
// record is as long as the storage the pickle declares: a file cut short inside a record loads,
// and is then read past the end of its data. So the records' bytes are counted against the
// storages' before anything reads the weights (re-reading the file: ~10 ms for en-fr).
void checkTensorData(const std::string& path, const torch::jit::Module& module) {
    size_t recorded = 0;
    try {
        caffe2::serialize::PyTorchStreamReader reader(path);
        for (const auto& name : reader.getAllRecords())
            if (name.rfind("data/", 0) == 0) recorded += std::get<1>(reader.getRecord(name));
    } catch (const std::exception& e) {
        throw Error("'" + path + "' is damaged: " + firstLine(e.what()));
    }
    std::set<const void*> seen;
    size_t declared = 0;
    auto count = [&](const torch::Tensor& t) {
        if (t.defined() && t.has_storage() && seen.insert(t.storage().unsafeGetStorageImpl()).second)
            declared += t.storage().nbytes();
    };
    for (const auto& p : module.named_parameters()) count(p.value);
    for (const auto& b : module.named_buffers()) count(b.value);
    for (const auto& a : module.named_attributes())
        if (a.value.isTensor()) count(a.value.toTensor());
    if (declared > recorded)
        throw Error("'" + path + "' is damaged: its weights need " + std::to_string(declared) +
                    " bytes of data and the file holds " + std::to_string(recorded) + " (cut short?)");
}

}  // namespace

EncoderOutput EncoderOutput::select(const torch::Tensor& index) const {
    return {enc.index_select(0, index), state.index_select(0, index), mask.index_select(0, index),
            keys.index_select(0, index)};
}

TorchModel::TorchModel(torch::jit::Module module, std::string origin)
    : module_(std::move(module)), origin_(std::move(origin)) {
    Runtime::initialize();
    checkContract();
}

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
    Runtime::initialize();
    torch::jit::Module module;
    try {
        module = torch::jit::load(path, torch::kCPU);
    } catch (const std::exception& e) {
        // LibTorch's reason, unless it is empty or an assertion about its own internals.
        std::string why = firstLine(e.what());
        while (!why.empty() && std::isspace(static_cast<unsigned char>(why.back()))) why.pop_back();
        if (why.empty() || why.find("INTERNAL ASSERT") != std::string::npos) why = "its code or data is missing or damaged";
        throw Error("'" + path + "' is not a readable TorchScript model file: " + why);
    }
    checkTensorData(path, module);
    try {
        module.eval();
        module.to(torch::kFloat);  // files may store float16 weights; compute is always float32
    } catch (const std::exception& e) {
        throw Error("'" + path + "' could not be prepared: " + firstLine(e.what()));
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
    auto jsonAttr = [&](const char* name) -> nlohmann::json {
        const auto text = strAttr(name);
        if (text.empty()) return nlohmann::json::object();
        try {
            return nlohmann::json::parse(text);
        } catch (const std::exception&) {
            problems.push_back(std::string("attribute '") + name + "' is not valid JSON");
            return nlohmann::json::object();
        }
    };

    const auto version = intAttr("format_version");
    if (version == 0 || version < -1) problems.push_back("format_version must be 1 or more");
    if (version > kFormatVersion)
        problems.push_back("format_version " + std::to_string(version) + " is newer than this AlignScope reads (" +
                           std::to_string(kFormatVersion) + ")");
    const int64_t ids[4] = {intAttr("pad_id"), intAttr("unk_id"), intAttr("bos_id"), intAttr("eos_id")};
    const int64_t expected[4] = {Vocabulary::kPad, Vocabulary::kUnk, Vocabulary::kBos, Vocabulary::kEos};
    for (int i = 0; i < 4; ++i)
        if (ids[i] >= 0 && ids[i] != expected[i]) {
            problems.push_back("special ids must be pad=0 unk=1 bos=2 eos=3");
            break;
        }
    auto src = listAttr("src_vocab");
    auto tgt = listAttr("tgt_vocab");
    metadata_ = jsonAttr("metadata");
    auto srcTok = jsonAttr("src_tokenizer");
    auto tgtTok = jsonAttr("tgt_tokenizer");
    try {
        if (!src.empty()) srcVocab_ = Vocabulary(src);
        if (!tgt.empty()) tgtVocab_ = Vocabulary(tgt);
        srcTokenizer_ = Tokenizer::fromJson(srcTok);
        tgtTokenizer_ = Tokenizer::fromJson(tgtTok);
    } catch (const Error& e) {
        problems.push_back(e.what());
    }
    for (const char* method : {"encode", "step"}) {
        if (!module_.find_method(method)) problems.push_back(std::string("missing method '") + method + "'");
    }
    if (problems.empty()) {
        // One-token probe: the methods must run and return what the contract says.
        try {
            torch::InferenceMode guard;
            auto srcIds = torch::tensor({Vocabulary::kUnk, Vocabulary::kEos}, torch::kLong).unsqueeze(0);
            auto srcLen = torch::tensor({int64_t{2}}, torch::kLong);
            auto e = encode(srcIds, srcLen);
            if (e.enc.dim() != 3 || e.enc.size(0) != 1 || e.enc.size(1) != 2)
                problems.push_back("encode: enc must be [B,S,E], got " + shapeOf(e.enc));
            if (e.state.dim() != 2 || e.state.size(0) != 1)
                problems.push_back("encode: state must be [B,D], got " + shapeOf(e.state));
            if (e.mask.dim() != 2 || e.mask.size(1) != 2 || e.mask.scalar_type() != torch::kBool)
                problems.push_back("encode: mask must be bool [B,S], got " + shapeOf(e.mask));
            if (e.keys.dim() < 1 || e.keys.size(0) != 1) problems.push_back("encode: keys must have batch first");
            if (problems.empty()) {
                encoderOutputSize_ = e.enc.size(2);
                stateSize_ = e.state.size(1);
                auto d = step(torch::tensor({Vocabulary::kBos}, torch::kLong), e.state, e);
                if (d.logProbs.sizes() != torch::IntArrayRef({1, tgtVocab_.size()}))
                    problems.push_back("step: log_probs must be [B,V] with V = " + std::to_string(tgtVocab_.size()) +
                                       ", got " + shapeOf(d.logProbs));
                if (d.state.sizes() != e.state.sizes())
                    problems.push_back("step: state must keep encode's shape " + shapeOf(e.state) + ", got " +
                                       shapeOf(d.state));
                if (d.alpha.sizes() != torch::IntArrayRef({1, 2}))
                    problems.push_back("step: alpha must be [B,S], got " + shapeOf(d.alpha));
                else if (std::abs(d.alpha.sum().item<double>() - 1.0) > 1e-4)
                    problems.push_back("step: alpha must sum to 1");
                if (d.context.sizes() != torch::IntArrayRef({1, encoderOutputSize_}))
                    problems.push_back("step: context must be [B,E], got " + shapeOf(d.context));
                if (problems.empty() && std::abs(d.logProbs.exp().sum().item<double>() - 1.0) > 1e-3)
                    problems.push_back("step: log_probs must be log-probabilities (they do not sum to 1)");
            }
            if (problems.empty()) {
                // A padded batch: the short sentence's padding must get exactly zero.
                auto pair = torch::tensor({Vocabulary::kUnk, Vocabulary::kEos, Vocabulary::kEos, Vocabulary::kPad},
                                          torch::kLong).reshape({2, 2});
                auto e = encode(pair, torch::tensor({int64_t{2}, int64_t{1}}, torch::kLong));
                auto d = step(torch::full({2}, Vocabulary::kBos, torch::kLong), e.state, e);
                if (e.mask[1][1].item<bool>()) problems.push_back("encode: mask must be false on padding");
                if (!torch::all(e.enc[1][1] == 0).item<bool>()) problems.push_back("encode: enc must be 0 on padding");
                if (d.alpha[1][1].item<float>() != 0.0f) problems.push_back("step: alpha must be exactly 0 on padding");
            }
        } catch (const Error& e) {
            problems.push_back(e.what());
        } catch (const std::exception& e) {
            problems.push_back(std::string("probe run failed: ") + firstLine(e.what()));
        }
    }
    if (!problems.empty()) {
        std::string message = "'" + origin_ + "' does not meet the AlignScope model contract (docs/model-format.md):";
        for (const auto& p : problems) message += "\n  - " + p;
        throw Error(message);
    }
}

EncoderOutput TorchModel::encode(const torch::Tensor& src, const torch::Tensor& srcLen) const {
    Runtime::initialize();
    auto out = module_.get_method("encode")({src, srcLen});
    if (!out.isTuple() || out.toTupleRef().elements().size() != 4)
        throw Error("encode must return a tuple (enc, state, mask, keys)");
    const auto& el = out.toTupleRef().elements();
    for (const auto& v : el)
        if (!v.isTensor()) throw Error("encode must return four tensors");
    return {el[0].toTensor(), el[1].toTensor(), el[2].toTensor(), el[3].toTensor()};
}

DecoderOutput TorchModel::step(const torch::Tensor& yPrev, const torch::Tensor& state, const EncoderOutput& enc) const {
    Runtime::initialize();
    auto out = module_.get_method("step")({yPrev, state, enc.enc, enc.keys, enc.mask});
    if (!out.isGenericDict()) throw Error("step must return a Dict[str, Tensor]");
    DecoderOutput d;
    for (const auto& item : out.toGenericDict()) {
        if (!item.key().isString() || !item.value().isTensor()) throw Error("step must return a Dict[str, Tensor]");
        const auto& key = item.key().toStringRef();
        const auto t = item.value().toTensor();
        if (key == "log_probs") d.logProbs = t;
        else if (key == "state") d.state = t;
        else if (key == "alpha") d.alpha = t;
        else if (key == "context") d.context = t;
        else d.extras.emplace(key, t);
    }
    for (const auto& [name, t] : {std::pair<const char*, torch::Tensor&>{"log_probs", d.logProbs},
                                  {"state", d.state}, {"alpha", d.alpha}, {"context", d.context}})
        if (!t.defined()) throw Error(std::string("step's result has no '") + name + "'");
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
        auto meta = metadata_;
        meta["stored_dtype"] = half ? "float16" : "float32";
        copy.setattr("metadata", meta.dump());
        if (half) copy.to(torch::kHalf);
        copy.save(bytes);
    } catch (const std::exception& e) {
        throw Error("cannot write model to '" + path + "': " + firstLine(e.what()));
    }
    AtomicFile::write(path, bytes.str());
}

}  // namespace alignscope::core
