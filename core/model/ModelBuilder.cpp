#include "core/model/ModelBuilder.h"

#include "core/Error.h"
#include "core/model/TorchModel.h"
#include "core/model/Model.h"
#include "core/model/ModelCode.h"
#include "core/text/JsonText.h"

#include <torch/torch.h>

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace alignscope::core {
namespace {

class ParameterFactory {
public:
    ParameterFactory(torch::jit::Module& module, uint64_t seed) : module_(module), gen_(at::make_generator<at::CPUGeneratorImpl>(seed)) {}

    // Uniform in +-1/sqrt(fanIn), as PyTorch initialises its RNN and linear layers.
    void uniform(const std::string& name, std::vector<int64_t> shape, int64_t fanIn) {
        const double k = 1.0 / std::sqrt(static_cast<double>(fanIn));
        add(name, torch::empty(shape).uniform_(-k, k, gen_));
    }
    void normal(const std::string& name, std::vector<int64_t> shape, double std) { add(name, torch::empty(shape).normal_(0.0, std, gen_)); }
    void zeros(const std::string& name, std::vector<int64_t> shape) { add(name, torch::zeros(shape)); }

    // Weights of one recurrent cell: gates stacked as torch.gru_cell / torch.lstm_cell expect.
    void cell(const std::string& prefix, int64_t gates, int64_t input, int64_t hidden) {
        uniform(prefix + "_wih", {gates * hidden, input}, hidden);
        uniform(prefix + "_whh", {gates * hidden, hidden}, hidden);
        uniform(prefix + "_bih", {gates * hidden}, hidden);
        uniform(prefix + "_bhh", {gates * hidden}, hidden);
    }

private:
    void add(const std::string& name, torch::Tensor t) { module_.register_parameter(name, t.requires_grad_(), false); }

    torch::jit::Module& module_;
    at::Generator gen_;
};

c10::List<std::string> toList(const Vocabulary& vocab) {
    c10::List<std::string> list;
    for (const auto& t : vocab.tokens()) list.push_back(t);
    return list;
}

}  // namespace

std::shared_ptr<TorchModel> ModelBuilder::build(const Input& in) {
    const auto& s = in.spec;
    s.validate();
    torch::jit::Module module(c10::QualifiedName("__torch__.alignscope.Seq2Seq"), std::make_shared<torch::jit::CompilationUnit>(),
                              /*shouldMangle=*/true);
    const int64_t gates = s.cell == ModelSpec::Cell::GRU ? 3 : 4;
    const int64_t M = s.embeddingSize, H = s.encoderHidden, E = s.encoderOutputSize(), Dh = s.decoderHidden;
    const int64_t Vs = in.sourceVocabulary.size(), Vt = in.targetVocabulary.size();
    {
        torch::NoGradGuard noGrad;
        ParameterFactory p(module, s.seed);
        p.normal("src_emb", {Vs, M}, 1.0 / std::sqrt(static_cast<double>(M)));
        p.normal("tgt_emb", {Vt, M}, 1.0 / std::sqrt(static_cast<double>(M)));
        p.cell("enc_f", gates, M, H);
        if (s.bidirectional) p.cell("enc_b", gates, M, H);
        p.uniform("init_w", {Dh, E}, E);
        p.zeros("init_b", {Dh});
        if (s.attention == ModelSpec::Attention::Additive) {
            p.uniform("att_W", {s.attentionSize, Dh}, Dh);
            p.uniform("att_U", {s.attentionSize, E}, E);
            p.uniform("att_v", {s.attentionSize}, s.attentionSize);
        } else if (s.attention == ModelSpec::Attention::General) {
            p.uniform("att_Wa", {Dh, E}, E);
        }
        if (s.decoder == ModelSpec::Decoder::Conditional) {
            p.cell("dec", gates, M, Dh);   // reads y_{t-1}
            p.cell("dec2", gates, E, Dh);  // reads c_t
        } else {
            p.cell("dec", gates, M + E, Dh);
        }
        p.uniform("out_w", {s.readoutSize, Dh + E + M}, Dh + E + M);
        p.zeros("out_b", {s.readoutSize});
        if (!s.tieOutput) p.uniform("proj_w", {Vt, s.readoutSize}, s.readoutSize);
        p.zeros("proj_b", {Vt});
    }

    nlohmann::json meta = {{"name", in.name},
                           {"architecture", s.toJson()},
                           {"family", "rnn-encoder-decoder"},
                           {"alpha_is_uniform", s.attention == ModelSpec::Attention::None},
                           {"created_by", std::string("AlignScope ") + ALIGNSCOPE_VERSION}};
    meta["architecture"]["init_seed"] = s.seed;
    for (const auto& [k, v] : in.extraMetadata.items()) meta[k] = v;

    module.register_attribute("format_version", c10::IntType::get(), TorchModel::kFormatVersion);
    module.register_attribute("pad_id", c10::IntType::get(), in.targetVocabulary.paddingId());  // what `loss` skips
    // Format 2 declares each vocabulary's specials; the model's own code reads pad_id.
    module.register_attribute("src_specials", c10::StringType::get(), JsonText::dump(in.sourceVocabulary.specials().toJson()));
    module.register_attribute("tgt_specials", c10::StringType::get(), JsonText::dump(in.targetVocabulary.specials().toJson()));
    module.register_attribute("src_vocab", c10::ListType::ofStrings(), toList(in.sourceVocabulary));
    module.register_attribute("tgt_vocab", c10::ListType::ofStrings(), toList(in.targetVocabulary));
    module.register_attribute("src_tokenizer", c10::StringType::get(), JsonText::dump(in.sourceTokenizer.toJson()));
    module.register_attribute("tgt_tokenizer", c10::StringType::get(), JsonText::dump(in.targetTokenizer.toJson()));
    module.register_attribute("metadata", c10::StringType::get(), JsonText::dump(meta));
    defineModelCode(module, s);
    return std::make_shared<TorchModel>(std::move(module), "new " + in.name + " model");
}

Model ModelBuilder::rewriteCode(const Model& model) { return Model(rewriteCode(model.torch())); }

std::shared_ptr<TorchModel> ModelBuilder::rewriteCode(const TorchModel& model) {
    const auto& meta = model.metadata();
    if (!meta.contains("architecture"))
        throw Error("'" + model.origin() + "' has no \"architecture\" in its metadata: its code cannot be rewritten");
    std::shared_ptr<TorchModel> rewritten;
    try {
        Input in{ModelSpec::fromJson(meta["architecture"]),
                 model.sourceVocabulary(),
                 model.targetVocabulary(),
                 model.sourceTokenizer(),
                 model.targetTokenizer(),
                 meta.value("name", std::string("model")),
                 meta};
        in.extraMetadata["code_written_by"] = std::string("AlignScope ") + ALIGNSCOPE_VERSION;
        rewritten = build(in);
    } catch (const std::exception& e) {  // Error from validate(), or nlohmann's type errors
        throw Error("'" + model.origin() + "': its \"architecture\" metadata cannot be built: " + e.what());
    }

    std::map<std::string, torch::Tensor> old;
    for (const auto& p : model.module().named_parameters()) old.emplace(p.name, p.value);
    std::vector<std::string> problems;
    {
        torch::NoGradGuard noGrad;
        for (const auto& p : rewritten->module().named_parameters()) {
            const auto it = old.find(p.name);
            if (it == old.end()) {
                problems.push_back("missing parameter '" + p.name + "'");
                continue;
            }
            if (it->second.sizes() != p.value.sizes()) {
                problems.push_back("parameter '" + p.name + "' has the wrong shape");
                continue;
            }
            p.value.copy_(it->second);
            old.erase(it);
        }
    }
    for (const auto& [name, t] : old) problems.push_back("unexpected parameter '" + name + "'");
    if (!problems.empty()) {
        std::string message = "'" + model.origin() + "' does not have the parameters of its architecture:";
        for (const auto& p : problems) message += "\n  - " + p;
        throw Error(message);
    }

    // The same numbers, or no rewrite: a padded batch of two (the matrix-product code), its short
    // row alone (the matrix-vector code the app's steps run) and, where both have it, `loss`.
    torch::InferenceMode guard;
    auto src = torch::arange(4, 10, torch::kLong).clamp_max(model.sourceVocabulary().size() - 1).repeat({2, 1});
    src.index_put_({0, 5}, Vocabulary::kEos);
    src.index_put_({1, 2}, Vocabulary::kEos);
    const auto len = torch::tensor({int64_t{6}, int64_t{3}}, torch::kLong);
    double worst = 0;
    auto compare = [&worst](const torch::Tensor& x, const torch::Tensor& y) {
        worst = std::max(worst, (x - y).abs().max().item<double>());
    };
    for (const auto& [s, l] : {std::pair{src, len}, std::pair{src.slice(0, 1, 2).slice(1, 0, 3), len.slice(0, 1, 2)}}) {
        const auto a = model.encode(s, l), b = rewritten->encode(s, l);
        compare(a.enc, b.enc);
        auto y = torch::full({s.size(0)}, Vocabulary::kBos, torch::kLong);
        auto sa = a.state, sb = b.state;
        for (int t = 0; t < 4; ++t) {
            const auto da = model.step(y, sa, a), db = rewritten->step(y, sb, b);
            compare(da.logProbs, db.logProbs);
            compare(da.alpha, db.alpha);
            compare(da.state, db.state);
            y = da.logProbs.argmax(1);
            sa = da.state;
            sb = db.state;
        }
    }
    if (model.module().find_method("loss")) {
        const auto tgt = torch::arange(4, 8, torch::kLong).clamp_max(model.targetVocabulary().size() - 1).repeat({2, 1});
        auto tgtIn = tgt.clone(), tgtOut = tgt.clone();
        tgtIn.index_put_({torch::indexing::Slice(), 0}, Vocabulary::kBos);
        tgtOut.index_put_({0, 3}, Vocabulary::kEos);
        tgtOut.index_put_({1, 1}, Vocabulary::kEos);
        tgtOut.index_put_({1, torch::indexing::Slice(2, 4)}, Vocabulary::kPad);
        tgtIn.index_put_({1, torch::indexing::Slice(2, 4)}, Vocabulary::kPad);
        const std::vector<c10::IValue> args = {src, len, tgtIn, tgtOut, 0.0, 0.1};
        const auto la = model.module().get_method("loss")(args).toTuple();
        const auto lb = rewritten->module().get_method("loss")(args).toTuple();
        for (size_t i = 0; i < 3; ++i) {
            const double x = la->elements()[i].toTensor().item<double>(), y = lb->elements()[i].toTensor().item<double>();
            worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(x)));
        }
    }
    if (!(worst <= 1e-4))
        throw Error("'" + model.origin() + "': the rewritten code computes different numbers (max difference " + std::to_string(worst) +
                    "); the model's code is not AlignScope's for its architecture");
    return rewritten;
}

}  // namespace alignscope::core
