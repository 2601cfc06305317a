#include "core/inspection/DecodingState.h"
#include "core/model/ModelCard.h"

#include "core/model/ModelLanguages.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/alignment/Aligner.h"
#include "core/attribution/Attributor.h"
#include "core/decoding/DecodingSession.h"
#include "core/text/NormalizedText.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

namespace alignscope::core {

DecodingState DecodingState::capture(const DecodingSession& session, bool teacherForced, std::vector<Hypothesis> beam, int selected,
                                     std::vector<StepRecord> hypothesisSteps) {
    const auto& model = session.model();
    DecodingState s;
    s.modelName = model.name();
    const auto languages = ModelLanguages::of(model);
    s.sourceLanguage = languages.source;
    s.targetLanguage = languages.target;
    s.modelCard = ModelCard::facts(model);
    s.alphaIsUniform = model.attentionIsUniform();
    const auto arch = model.architecture();
    s.bidirectional = arch.bidirectional;
    s.cell = arch.decoderCell;
    s.attention = arch.attention;
    s.attentionAfterCell = arch.attentionAfterCell;
    s.inputFeeding = arch.inputFeeding;
    s.conditionalDecoder = arch.conditionalDecoder;
    s.ownReadout = model.metadata().contains("architecture");
    s.targetPieces = model.targetTokenizer().kind() == Tokenizer::Kind::SentencePiece;
    s.source = session.source();
    s.sourceText = session.sourceText();
    s.eosId = model.targetVocabulary().eos();
    s.encoderSize = session.encoderStateSize();
    s.stateSize = model.stateSize();
    s.encoderStates = session.encoderStates();
    s.initialState = session.initialState();
    s.steps = session.steps();
    s.finished = session.finished();
    s.teacherForced = teacherForced;
    if (const auto* target = session.followedTarget())
        s.forcedSteps = static_cast<int>(target->size()) + (model.targetVocabulary().eos() >= 0 ? 1 : 0);
    s.beam = std::move(beam);
    for (const auto& h : s.beam) s.beamTexts.push_back(model.detokenize(h.ids));
    s.selectedHypothesis = selected >= 0 && selected < static_cast<int>(s.beam.size()) ? selected : -1;
    if (s.selectedHypothesis >= 0) s.hypothesisSteps = std::move(hypothesisSteps);
    s.translation =
        s.selectedHypothesis >= 0 ? model.detokenize(s.beam[static_cast<size_t>(s.selectedHypothesis)].ids) : session.translation();
    s.targetWords = s.selectedHypothesis >= 0 ? model.targetWords(s.beam[static_cast<size_t>(s.selectedHypothesis)].ids)
                                              : session.alignment().targetWords();
    return s;
}

Alignment DecodingState::alignment() const {
    std::vector<std::string> tokens;
    std::vector<std::vector<float>> rows;
    if (selectedHypothesis >= 0 && selectedHypothesis < static_cast<int>(beam.size())) {
        const auto& h = beam[static_cast<size_t>(selectedHypothesis)];
        tokens = h.tokens;
        rows = h.alpha;
    } else {
        for (const auto& s : steps) {
            tokens.push_back(s.token);
            rows.push_back(s.alpha);
        }
    }
    auto words = targetWords;
    words.resize(tokens.size(), -1);
    return Alignment(source.tokens, source.words, std::move(tokens), std::move(words), std::move(rows));
}

Hypothesis DecodingState::shownTarget() const {
    if (selectedHypothesis >= 0 && selectedHypothesis < static_cast<int>(beam.size())) return beam[static_cast<size_t>(selectedHypothesis)];
    Hypothesis target;
    for (const auto& step : steps) {
        target.ids.push_back(step.tokenId);
        target.tokens.push_back(step.token);
    }
    return target;
}

void DecodingState::link(const Model& model, const std::string& target, const std::string& rule, const std::string& method,
                         const std::vector<std::string>& reversePaths, const std::function<Model(const std::string&)>& loadReverse,
                         DecodingProgress* progress) {
    links.clear();
    linksError.clear();
    linkRule.clear();
    if (rule.empty() || (!finished && selectedHypothesis < 0)) return;  // a beam's hypotheses are whole
    linkRule = rule;
    if (Tokenizer::isBlank(target)) return;  // a translation that is only </s>: no word to link
    // The aligner reads the translation again as text, under the input's line cap: past it, say so of
    // the translation (the user's line was read and translated).
    if (const auto characters = NormalizedText::countCharacters(target); characters > Tokenizer::kMaxLineCharacters) {
        linksError = "the translation has " + std::to_string(characters) + " characters; links are found for translations of at most " +
                     std::to_string(Tokenizer::kMaxLineCharacters);
        return;
    }
    try {
        Aligner::Options o;
        o.method = method.empty() ? "attention" : method;
        o.links = rule;
        o.progress = progress;
        auto reverses = Aligner::reverseModels({model}, reversePaths, rule, loadReverse);
        const auto r = Aligner({model}, std::move(reverses), o).align({{sourceText, target}}).front();
        if (!r.error.empty()) throw Error(r.error);
        links = r.links;
    } catch (const std::exception& e) {  // core::Error, and what a reverse model's code may throw
        linksError = e.what();
    }
}

void DecodingState::attribute(const Model& model, const std::string& method, std::vector<std::vector<float>> known,
                              DecodingProgress* progress) {
    attributionMethod = method;
    attribution.clear();
    attributionError.clear();
    if (method.empty()) return;
    const auto& m = Attributor::method(method);
    attributionDescription = m.description();
    attributionSigned = m.signedScores();
    const auto target = shownTarget();
    if (known.size() > target.ids.size()) known.resize(target.ids.size());
    if (known.size() < target.ids.size()) {
        Attributor::Options options;
        options.progress = progress;
        for (size_t t = known.size(); t < target.ids.size(); ++t) options.steps.push_back(static_cast<int>(t));
        auto words = targetWords;
        words.resize(target.ids.size(), -1);
        try {
            for (auto& row : Attributor::attribute(model, source, target, words, method, options).scores) known.push_back(std::move(row));
        } catch (const std::exception& e) {
            attributionError = e.what();
            return;
        }
    }
    attribution = std::move(known);
}

DecodingState DecodingState::prefix(size_t n) const {
    DecodingState s = *this;
    const size_t shown = alignment().targetTokens().size();
    if (n >= shown) return s;
    if (s.selectedHypothesis >= 0) {
        auto& h = s.beam[static_cast<size_t>(s.selectedHypothesis)];
        h.ids.resize(std::min(n, h.ids.size()));
        h.tokens.resize(std::min(n, h.tokens.size()));
        h.alpha.resize(std::min(n, h.alpha.size()));
        s.hypothesisSteps.resize(std::min(n, s.hypothesisSteps.size()));
    } else {
        s.steps.resize(std::min(n, s.steps.size()));
    }
    s.targetWords.resize(std::min(n, s.targetWords.size()));
    for (const auto& row : attribution)
        for (float v : row) s.attributionExtent = std::max(s.attributionExtent, std::abs(static_cast<double>(v)));
    if (s.attribution.size() > n) s.attribution.resize(n);
    s.links.clear();  // links belong to the whole pair: an animation shows them on its last frame
    s.finished = false;
    return s;
}

}  // namespace alignscope::core
