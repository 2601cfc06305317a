#include "ui/PageData.h"

#include "ui/DisplayedMatrix.h"
#include "ui/WordMatrix.h"

#include "core/alignment/SoftAlignment.h"
#include "core/attribution/AttributionAgreement.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"
#include "core/text/PieceText.h"
#include "core/text/Vocabulary.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace alignscope::ui {
namespace {

double norm(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += static_cast<double>(x) * x;
    return std::sqrt(s);
}

std::string endColumnName(FigureOptions::EndColumn e) {
    switch (e) {
    case FigureOptions::EndColumn::Keep:
        return "keep";
    case FigureOptions::EndColumn::Drop:
        return "drop";
    case FigureOptions::EndColumn::Renormalize:
        return "renormalize";
    }
    return "keep";
}

// Numbers as the page shows them: rounded to a few decimals (a page of 30 tokens stays small;
// exact values are --format json's), or exact.
struct Numbers {
    std::optional<int> decimals;
    double operator()(double v) const {
        if (!decimals || !std::isfinite(v)) return v;
        const double scale = std::pow(10.0, *decimals);
        const double r = std::round(v * scale) / scale;
        return r == 0 ? 0.0 : r;  // no "-0"
    }
    template <typename T>
    nlohmann::json row(const std::vector<T>& values) const {
        if (!decimals) return values;
        nlohmann::json out = nlohmann::json::array();
        for (T v : values) out.push_back((*this)(static_cast<double>(v)));
        return out;
    }
    template <typename T>
    nlohmann::json matrix(const std::vector<std::vector<T>>& rows) const {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& r : rows) out.push_back(row(r));
        return out;
    }
};

// Where a target piece sits in its word, as Step explained says it.
nlohmann::json pieceKind(const core::DecodingState& s, const core::StepRecord& step) {
    if (!s.targetPieces || step.tokenId == s.eosId) return nullptr;
    const int byte = core::PieceText::fallbackByte(step.token);
    if (byte >= 0) {
        char text[16];
        std::snprintf(text, sizeof text, "byte:0x%02x", byte);
        return text;
    }
    return core::PieceText::startsWord(step.token) ? "start" : "continue";
}

// A vector of the encoder panel (h_i, c_t, s_t) as the page draws it: each value clamped to [-1, 1]
// as a signed byte round(127 v), base64. Colours need no more, and a 30-token page with 512-wide
// states stays small (as decimals its states alone took 270 KB).
std::string quantised(const float* v, size_t n) {
    QByteArray bytes(static_cast<qsizetype>(n), '\0');
    for (size_t k = 0; k < n; ++k) {
        const double x = std::isfinite(v[k]) ? std::clamp(static_cast<double>(v[k]), -1.0, 1.0) : 0.0;
        bytes[static_cast<qsizetype>(k)] = static_cast<char>(static_cast<signed char>(std::lround(127 * x)));
    }
    return bytes.toBase64().toStdString();
}
std::string quantised(const std::vector<float>& v) { return quantised(v.data(), v.size()); }

}  // namespace

nlohmann::json PageData::options(const FigureOptions& o) {
    return {{"end_column", endColumnName(o.endColumn)},
            {"color_map", o.colorMap == FigureOptions::ColorMap::Grayscale ? "grey" : "viridis"},
            {"values_in_cells", o.valuesInCells},
            {"font_size", o.fontSize},
            {"encoder_states", o.showEncoderStates},
            {"words", o.mergeWords},
            {"title", o.title.toStdString()}};
}

std::string PageData::links(const core::DecodingState& s) {
    return !s.linkRule.empty() && s.linksError.empty() ? core::SoftAlignment::pharaoh(s.links)
                                                       : core::SoftAlignment::attentionPharaoh(s.alignment());
}

nlohmann::json PageData::build(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) {
    const Numbers n{settings.rounded};
    const auto alignment = s.alignment();
    const size_t S = alignment.sourceTokens().size();
    nlohmann::json j;
    j["format"] = "alignscope-alignment";
    j["format_version"] = 2;
    j["generator"] = "AlignScope " + core::Runtime::version();
    j["rounded"] = settings.rounded ? nlohmann::json(*settings.rounded) : nlohmann::json(nullptr);
    j["model"] = s.modelName;
    // The languages the model declares, where it declares them (an older model's JSON is unchanged).
    if (!s.sourceLanguage.empty()) j["source_language"] = s.sourceLanguage;
    if (!s.targetLanguage.empty()) j["target_language"] = s.targetLanguage;
    nlohmann::json card = nlohmann::json::array();
    for (const auto& [label, value] : s.modelCard) card.push_back({{"label", label}, {"value", value}});
    j["model_card"] = std::move(card);
    j["decoder"] = {{"cell", s.cell},
                    {"attention", s.alphaIsUniform ? std::string("none") : s.attention},
                    {"attention_after_cell", s.attentionAfterCell},
                    {"conditional_decoder", s.conditionalDecoder},
                    {"input_feeding", s.inputFeeding},
                    {"own_readout", s.ownReadout},
                    {"bidirectional", s.bidirectional},
                    {"target_pieces", s.targetPieces}};

    // The matrix: as the figure shows it, or whole (the page keeps, drops or renormalises </s>).
    FigureOptions dropping = o;
    dropping.endColumn = FigureOptions::EndColumn::Drop;
    const bool hasEnd = dropping.shownColumns(alignment.sourceTokens(), alignment.sourceWords()) < S;
    const bool cut = !settings.fullMatrix && o.shownColumns(alignment.sourceTokens(), alignment.sourceWords()) < S;
    j["source_text"] = s.sourceText;
    if (cut) {
        const auto m = DisplayedMatrix::of(alignment, o);
        j["source_tokens"] = m.columns;
        j["source_words"] = m.columnWords;
        j["alpha"] = m.renormalized ? n.matrix(m.doubles) : n.matrix(m.floats);
    } else {
        j["source_tokens"] = alignment.sourceTokens();
        j["source_words"] = alignment.sourceWords();
        j["alpha"] = n.matrix(alignment.weights());
    }
    // The axes' labels (PieceText::labels: byte pieces that spell a letter read as it); the
    // tokens above stay as the model sees them.
    j["source_labels"] = core::PieceText::labels(j["source_tokens"].get<std::vector<std::string>>());
    j["end_column"] = hasEnd && !cut ? nlohmann::json(S - 1) : nlohmann::json(nullptr);
    j["padding_column"] = core::Model::endsWithPaddingColumn(alignment.sourceTokens());
    // Where each source token came from, in characters of source_text (a Python str index).
    nlohmann::json offsets = nlohmann::json::array();
    for (size_t i = 0; i < s.sourceTokenCount() && i < s.source.offsets.size(); ++i) {
        const auto [begin, end] = s.source.offsets[i];
        if ((i < s.source.words.size() && s.source.words[i] < 0) || end > s.sourceText.size() || end < begin) {
            offsets.push_back(nullptr);  // </s>: no characters
            continue;
        }
        const auto characters = [&](size_t bytes) { return QString::fromStdString(s.sourceText.substr(0, bytes)).toUcs4().size(); };
        offsets.push_back({characters(begin), characters(end)});
    }
    j["source_offsets"] = offsets;
    j["target_tokens"] = alignment.targetTokens();
    j["target_labels"] = core::PieceText::labels(alignment.targetTokens());
    j["target_words"] = alignment.targetWords();
    j["links"] = links(s);
    if (!s.linkRule.empty() && s.linksError.empty()) j["link_rule"] = s.linkRule;
    j["translation"] = s.translation;
    j["teacher_forced"] = s.teacherForced;
    j["beam_hypothesis"] = s.selectedHypothesis;  // -1: step-by-step (greedy) decoding
    j["beam_width"] = std::max<int>(settings.beamWidth, static_cast<int>(s.beam.size() > 1 ? s.beam.size() : 1));
    nlohmann::json beam = nlohmann::json::array();
    for (size_t k = 0; k < s.beam.size(); ++k) {
        beam.push_back({{"text", k < s.beamTexts.size() ? s.beamTexts[k] : std::string()},
                        {"tokens", s.beam[k].tokens},
                        {"labels", core::PieceText::labels(s.beam[k].tokens)},
                        {"score", n(s.beam[k].score)},
                        {"log_prob", n(s.beam[k].logProb)},
                        {"finished", s.beam[k].finished}});
        // Each hypothesis' own rows, so that the page shows any one chosen (the app's beam panel);
        // only over the whole matrix, the columns alpha has then.
        if (!cut) beam.back()["alpha"] = n.matrix(s.beam[k].alpha);
    }
    j["beam"] = std::move(beam);
    // The encoder panel's states (the PNG figure's h_i, one column per source token), over the
    // columns of alpha (as the hypotheses' rows: absent where it is cut).
    const size_t E = static_cast<size_t>(s.encoderSize);
    if (!cut && E > 0 && s.encoderStates.size() >= S * E)
        j["encoder"] = {{"size", E}, {"states", quantised(s.encoderStates.data(), S * E)}, {"initial_state", quantised(s.initialState)}};

    // The matrix over words: a source word's columns summed, a target word's rows averaged.
    std::vector<std::vector<double>> pieces;
    for (const auto& row : alignment.weights()) pieces.emplace_back(row.begin(), row.end());
    const auto words = WordMatrix::merge(s, pieces, static_cast<int>(s.sourceTokenCount()));
    std::vector<std::string> wordColumns, wordRows;
    for (const auto& c : words.columns) wordColumns.push_back(c.toStdString());
    for (const auto& r : words.rows) wordRows.push_back(r.toStdString());
    j["words"] = {{"source", wordColumns}, {"target", wordRows}, {"alpha", n.matrix(words.weights)}};

    const bool attribution = !s.attributionMethod.empty() && s.attribution.size() == alignment.targetTokens().size();
    if (attribution) {
        double extent = s.attributionExtent;
        for (const auto& row : s.attribution)
            for (float v : row) extent = std::max(extent, std::abs(static_cast<double>(v)));
        j["attribution"] = {{"method", s.attributionMethod},
                            {"description", s.attributionDescription},
                            {"signed", s.attributionSigned},
                            {"extent", n(extent)},
                            {"source_tokens", std::vector<std::string>(s.source.tokens.begin(),
                                                                       s.source.tokens.begin() + static_cast<long>(s.sourceTokenCount()))},
                            {"scores", n.matrix(s.attribution)}};
    }

    // Every step with the numbers Step explained shows (ui/StepExplainedPanel).
    const auto& steps = s.selectedHypothesis >= 0 && s.hypothesisSteps.empty() ? s.steps : s.shownSteps();
    const size_t energyCount = s.source.size() - (core::Model::endsWithPaddingColumn(s.source.tokens) ? 1 : 0);
    nlohmann::json stepsJson = nlohmann::json::array();
    for (size_t t = 0; t < steps.size() && t < alignment.targetTokens().size(); ++t) {
        const auto& r = steps[t];
        nlohmann::json candidates = nlohmann::json::array();
        int chosen = -1;
        for (const auto& c : r.candidates) {
            if (c.id == r.tokenId && chosen < 0) chosen = static_cast<int>(candidates.size());
            candidates.push_back({{"token", c.token}, {"id", c.id}, {"p", n(c.probability)}});
        }
        const auto& query = s.attentionAfterCell ? r.state : r.previousState;
        double change = 0;
        for (size_t k = 0; k < std::min(r.state.size(), r.previousState.size()); ++k)
            change += std::pow(static_cast<double>(r.state[k]) - r.previousState[k], 2);
        nlohmann::json explain = {{"query_size", query.size()},
                                  {"query_norm", n(norm(query))},
                                  {"context_size", r.context.size()},
                                  {"context_norm", n(norm(r.context))},
                                  {"previous_state_norm", n(norm(r.previousState))},
                                  {"state_norm", n(norm(r.state))},
                                  {"state_change", n(std::sqrt(change))}};
        if (const auto q = r.extras.find("query"); q != r.extras.end()) explain["query_projection_norm"] = n(norm(q->second));
        if (const auto e = r.extras.find("energies"); e != r.extras.end())
            explain["energies"] = n.row(
                std::vector<float>(e->second.begin(), e->second.begin() + static_cast<long>(std::min(e->second.size(), energyCount))));
        // A beam hypothesis is stepped through by forcing its tokens, but beam search chose them.
        const bool forced = r.forced && s.selectedHypothesis < 0;
        nlohmann::json step = {{"token", r.token},         {"id", r.tokenId},
                               {"forced", forced},         {"p", n(std::exp(static_cast<double>(r.logProb)))},
                               {"chosen", chosen},         {"candidates", std::move(candidates)},
                               {"piece", pieceKind(s, r)}, {"explain", std::move(explain)}};
        if (j.contains("encoder")) {
            step["context"] = quantised(r.context);
            step["state"] = quantised(r.state);
        }
        if (attribution && t < s.attribution.size()) {
            const size_t real = s.sourceTokenCount();
            const std::vector<float> alpha(r.alpha.begin(), r.alpha.begin() + static_cast<long>(std::min(real, r.alpha.size())));
            const auto& row = s.attribution[t];
            const std::vector<float> scores(row.begin(), row.begin() + static_cast<long>(std::min(real, row.size())));
            if (!alpha.empty() && !scores.empty()) {
                const auto a = core::AttributionAgreement::between(alpha, scores);
                step["agreement"] = {{"spearman", n(a.spearman)},
                                     {"same_top", a.sameTop},
                                     {"jensen_shannon", n(a.jensenShannon)},
                                     {"top", std::max_element(scores.begin(), scores.end()) - scores.begin()},
                                     {"peak", std::max_element(alpha.begin(), alpha.end()) - alpha.begin()}};
            }
        }
        stepsJson.push_back(std::move(step));
    }
    j["steps"] = std::move(stepsJson);

    auto opts = options(o);
    if (!settings.heatmap.empty()) opts["heatmap"] = settings.heatmap;
    opts["step"] = settings.step ? nlohmann::json(*settings.step) : nlohmann::json(nullptr);
    j["options"] = std::move(opts);
    return j;
}

std::string PageData::scriptSafe(const nlohmann::json& data) { return core::JsonText::scriptSafe(data); }

}  // namespace alignscope::ui
