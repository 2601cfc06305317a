#include "core/model/Model.h"

#include "ModelCheckLimits.h"
#include "core/Error.h"
#include "core/model/ModelLanguages.h"
#include "core/model/TorchModel.h"
#include "core/text/NormalizedText.h"

#include <filesystem>

namespace alignscope::core {

// Model.h is included by most of the project, so its limit stays a literal there; the build holds it
// to model_checks.json, the one list both loaders read.
static_assert(Model::kMaxSourceTokens == model_checks::kMaxSourceTokens, "python/alignscope/model_checks.json: model.max_source_tokens");
namespace {

// A line the tokenizer would expand past its limits is the model file's doing: the message names it.
std::vector<Token> tokensOf(const Tokenizer& tokenizer, const std::string& text, const char* side, const std::string& origin) {
    try {
        return tokenizer.tokenize(text);
    } catch (const TextExpansionError& e) {
        throw TextExpansionError(e.detail(), std::string("the ") + side + " tokenizer of '" + origin + "'");
    }
}

TokenizedSentence tokenizeWith(const Tokenizer& tokenizer, const Vocabulary& vocab, const std::string& text, const char* side,
                               const std::string& origin) {
    TokenizedSentence s;
    for (const auto& t : tokensOf(tokenizer, text, side, origin)) {
        const bool known = vocab.contains(t.text);
        if (!known && vocab.unk() < 0)
            throw Error("'" + t.text + "' is not in the model's " + side +
                        " vocabulary, and the model has no unknown-word token to stand for it");
        s.tokens.push_back(t.text);
        s.ids.push_back(vocab.id(t.text));
        s.unknown.push_back(!known);
        s.words.push_back(t.word);
        s.offsets.emplace_back(t.begin, t.end);
    }
    return s;
}

}  // namespace

Model Model::load(const std::string& path) { return Model(TorchModel::load(path)); }

Model::Model(std::shared_ptr<TorchModel> model) : model_(std::move(model)) {
    if (!model_) throw Error("no model");
    ModelLanguages::of(*this);  // a malformed declaration is refused when the file opens, not when a view asks
}

std::string Model::name() const {
    const auto& m = model_->metadata();
    if (m.contains("name") && m["name"].is_string()) return m["name"];
    return std::filesystem::path(model_->origin()).stem().string();
}

const std::string& Model::origin() const { return model_->origin(); }
const nlohmann::json& Model::metadata() const { return model_->metadata(); }

std::string Model::reverseModelPath() const {
    const auto& meta = metadata();
    const auto entry = meta.find("reverse_model");
    if (entry == meta.end()) return {};
    // A file's metadata is untrusted: a name beside the file, never a path that leaves its folder.
    const std::string name = entry->is_string() ? entry->get<std::string>() : std::string();
    if (name.empty() || name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
        throw Error("'" + origin() + "' declares a reverse_model that is not a file name beside it");
    return (std::filesystem::path(origin()).parent_path() / name).string();
}
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
const std::vector<std::string>& Model::nonFiniteWeights() const { return model_->nonFiniteWeights(); }

TokenizedSentence Model::tokenizeSource(const std::string& text) const {
    // Every command's one rule: nothing visible is a blank line (translate prints one), never a sentence.
    if (Tokenizer::isBlank(text))
        throw Error("the sentence has nothing visible to translate (only spaces, line separators or invisible characters)");
    auto s = tokenizeWith(sourceTokenizer(), sourceVocabulary(), text, "source", origin());
    const bool eos = model_->sourceEos();
    const size_t limit = model_->maxSourceLength() > 0 ? static_cast<size_t>(model_->maxSourceLength()) : kMaxSourceTokens;
    if (s.size() + (eos ? 1 : 0) > limit)
        throw Error("the sentence has " + std::to_string(s.size()) + " tokens; this model takes at most " +
                    std::to_string(limit - (eos ? 1 : 0)) + (model_->maxSourceLength() > 0 ? " (its declared max_source_length)" : ""));
    if (eos) {
        const auto id = sourceVocabulary().eos();
        s.tokens.push_back(sourceVocabulary().token(id));
        s.ids.push_back(id);
        s.unknown.push_back(false);
        s.words.push_back(-1);
        s.offsets.emplace_back(text.size(), text.size());
    }
    if (s.ids.empty()) throw Error("the sentence has no tokens this model reads");
    return s;
}

TokenizedSentence Model::tokenizeTarget(const std::string& text) const {
    auto s = tokenizeWith(targetTokenizer(), targetVocabulary(), text, "target", origin());
    if (s.size() > kMaxSourceTokens)
        throw Error("the target has " + std::to_string(s.size()) + " tokens; at most " + std::to_string(kMaxSourceTokens) +
                    " are accepted");
    return s;
}

ArchitectureSummary Model::architecture() const { return ArchitectureSummary::fromMetadata(metadata()); }

int64_t Model::formatVersion() const { return model_->formatVersion(); }
int64_t Model::maxLength() const { return model_->maxLength(); }
bool Model::attendsPadding() const { return model_->attendsPadding(); }
bool Model::encodesEmbedded() const { return model_->encodesEmbedded(); }

bool Model::isWritten(int64_t id) const {
    const auto& v = targetVocabulary();
    return id != v.eos() && id != v.pad() && id != v.bos();
}

std::string Model::detokenize(const std::vector<int64_t>& ids) const {
    std::vector<std::string> tokens;
    for (auto id : ids)
        if (isWritten(id)) tokens.push_back(targetVocabulary().token(id));
    return targetTokenizer().detokenize(tokens);
}

std::vector<int> Model::targetWords(const std::vector<int64_t>& ids) const {
    std::vector<std::string> tokens;
    for (auto id : ids)
        if (isWritten(id)) tokens.push_back(targetVocabulary().token(id));
    const auto written = targetTokenizer().detokenizedWords(tokens);
    std::vector<int> words;
    size_t k = 0;
    for (auto id : ids) words.push_back(isWritten(id) ? written[k++] : -1);
    return words;
}

void Model::save(const std::string& path, bool half) const { model_->save(path, half); }

}  // namespace alignscope::core
