#include "core/Model.h"

#include "core/Error.h"
#include "core/TorchModel.h"

#include <filesystem>

namespace alignscope::core {
namespace {

TokenizedSentence tokenizeWith(const Tokenizer& tokenizer, const Vocabulary& vocab, const std::string& text) {
    TokenizedSentence s;
    for (const auto& t : tokenizer.tokenize(text)) {
        const auto id = vocab.id(t.text);
        s.tokens.push_back(t.text);
        s.ids.push_back(id);
        s.unknown.push_back(id == Vocabulary::kUnk);
        s.words.push_back(t.word);
    }
    return s;
}

}  // namespace

Model Model::load(const std::string& path) { return Model(TorchModel::load(path)); }

Model::Model(std::shared_ptr<TorchModel> model) : model_(std::move(model)) {
    if (!model_) throw Error("no model");
}

std::string Model::name() const {
    const auto& m = model_->metadata();
    if (m.contains("name") && m["name"].is_string()) return m["name"];
    return std::filesystem::path(model_->origin()).stem().string();
}

const std::string& Model::origin() const { return model_->origin(); }
const nlohmann::json& Model::metadata() const { return model_->metadata(); }
const Vocabulary& Model::sourceVocabulary() const { return model_->sourceVocabulary(); }
const Vocabulary& Model::targetVocabulary() const { return model_->targetVocabulary(); }
const Tokenizer& Model::sourceTokenizer() const { return model_->sourceTokenizer(); }
const Tokenizer& Model::targetTokenizer() const { return model_->targetTokenizer(); }
int64_t Model::encoderOutputSize() const { return model_->encoderOutputSize(); }
int64_t Model::stateSize() const { return model_->stateSize(); }
int64_t Model::parameterCount() const { return model_->parameterCount(); }

bool Model::attentionIsUniform() const {
    const auto& m = model_->metadata();
    return m.contains("alpha_is_uniform") && m["alpha_is_uniform"].is_boolean() && m["alpha_is_uniform"].get<bool>();
}

TokenizedSentence Model::tokenizeSource(const std::string& text) const {
    auto s = tokenizeWith(sourceTokenizer(), sourceVocabulary(), text);
    if (s.size() + 1 > kMaxSourceTokens)
        throw Error("the sentence has " + std::to_string(s.size()) + " tokens; at most " +
                    std::to_string(kMaxSourceTokens - 1) + " are accepted");
    s.tokens.push_back(Vocabulary::specialTokens()[Vocabulary::kEos]);
    s.ids.push_back(Vocabulary::kEos);
    s.unknown.push_back(false);
    s.words.push_back(-1);
    return s;
}

TokenizedSentence Model::tokenizeTarget(const std::string& text) const {
    auto s = tokenizeWith(targetTokenizer(), targetVocabulary(), text);
    if (s.size() > kMaxSourceTokens)
        throw Error("the target has " + std::to_string(s.size()) + " tokens; at most " +
                    std::to_string(kMaxSourceTokens) + " are accepted");
    return s;
}

namespace {
bool isWritten(int64_t id) { return id != Vocabulary::kEos && id != Vocabulary::kPad && id != Vocabulary::kBos; }
}  // namespace

std::string Model::detokenize(const std::vector<int64_t>& ids) const {
    std::vector<std::string> tokens;
    for (auto id : ids)
        if (isWritten(id)) tokens.push_back(targetVocabulary().token(id));
    return Tokenizer::detokenize(tokens);
}

std::vector<int> Model::targetWords(const std::vector<int64_t>& ids) const {
    std::vector<std::string> tokens;
    for (auto id : ids)
        if (isWritten(id)) tokens.push_back(targetVocabulary().token(id));
    const auto written = Tokenizer::detokenizedWords(tokens);
    std::vector<int> words;
    size_t k = 0;
    for (auto id : ids) words.push_back(isWritten(id) ? written[k++] : -1);
    return words;
}

void Model::save(const std::string& path, bool half) const { model_->save(path, half); }

}  // namespace alignscope::core
