#include "core/text/Tokenizer.h"

#include "ModelCheckLimits.h"
#include "core/Error.h"
#include "core/text/NormalizedText.h"
#include "core/text/Normalizer.h"
#include "core/text/PieceText.h"
#include "core/text/SentencePieceModel.h"
#include "core/text/Utf8.h"

#include <utf8proc.h>

namespace alignscope::core {

// Tokenizer.h is included by most of the project, so its limit stays a literal there; the build
// holds it to model_checks.json, the one list both loaders read.
static_assert(Tokenizer::kMaxLineCharacters == model_checks::kMaxLineCharacters,
              "python/alignscope/model_checks.json: text.max_line_characters");
namespace {

using utf8::CodePoint;
using utf8::codePoints;
using utf8::isSpace;
const auto encodeCodepoint = utf8::encode;

bool isControl(utf8proc_int32_t cp) {
    const auto cat = utf8proc_category(cp);
    return cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF;
}

bool isPunctuation(utf8proc_int32_t cp) {
    const auto cat = utf8proc_category(cp);
    return (cat >= UTF8PROC_CATEGORY_PC && cat <= UTF8PROC_CATEGORY_PO) || (cat >= UTF8PROC_CATEGORY_SM && cat <= UTF8PROC_CATEGORY_SO);
}

bool isWordChar(utf8proc_int32_t cp) { return !isSpace(cp) && !isPunctuation(cp) && !isControl(cp); }

// A token being assembled from characters of the normalised text, with its original span.
class TokenBuilder {
public:
    TokenBuilder(const NormalizedText& text, std::vector<Token>& out) : text_(text), out_(out) {}
    void add(const std::string& bytes, const CodePoint& c, int word) {
        const size_t b = text_.originalBegin(c.at), e = text_.originalEnd(c.at + c.size - 1);
        if (current_.text.empty()) {
            current_ = {"", word, b, e};
        } else {
            current_.begin = std::min(current_.begin, b);
            current_.end = std::max(current_.end, e);
        }
        current_.text += bytes;
    }
    void flush() {
        if (!current_.text.empty()) out_.push_back(current_);
        current_ = {};
    }
    bool empty() const { return current_.text.empty(); }

private:
    const NormalizedText& text_;
    std::vector<Token>& out_;
    Token current_;
};

// AlignScope's word tokenizer (format v1): punctuation split off, hyphens and apostrophes inside
// words kept, French elision optionally split.
std::vector<Token> wordTokens(const NormalizedText& text, const Tokenizer::Settings& settings) {
    const auto cps = codePoints(text.text());
    std::vector<Token> tokens;
    TokenBuilder current(text, tokens);
    int word = 0;
    bool inWord = false;  // whether the current whitespace word has produced anything yet
    for (size_t i = 0; i < cps.size(); ++i) {
        auto cp = cps[i].cp;
        if (cp == 0x2019 || cp == 0x02BC) cp = '\'';  // typographic apostrophes
        if (isSpace(cp)) {
            current.flush();
            if (inWord) ++word;
            inWord = false;
            continue;
        }
        if (isControl(cp)) continue;
        inWord = true;
        if (!settings.splitPunctuation || isWordChar(cp)) {
            current.add(encodeCodepoint(cp), cps[i], word);
            continue;
        }
        const bool between = !current.empty() && i + 1 < cps.size() && isWordChar(cps[i + 1].cp);
        if (between && cp == '\'') {
            current.add("'", cps[i], word);
            if (settings.splitElision) current.flush();
            continue;
        }
        if (between && cp == '-') {
            current.add("-", cps[i], word);
            continue;
        }
        current.flush();
        current.add(encodeCodepoint(cp), cps[i], word);
        current.flush();
    }
    current.flush();
    return tokens;
}

// Whitespace-separated tokens (pre-tokenized text); control characters dropped. `spaceOnly`: only
// U+0020 separates, as Python's str.split(" ") (Keras' text_to_word_sequence): U+00A0 and U+202F
// stay inside tokens.
std::vector<Token> whitespaceTokens(const NormalizedText& text, bool spaceOnly) {
    std::vector<Token> tokens;
    TokenBuilder current(text, tokens);
    int word = 0;
    for (const auto& c : codePoints(text.text())) {
        if (spaceOnly ? c.cp == ' ' : isSpace(c.cp)) {
            if (!current.empty()) ++word;
            current.flush();
        } else if (!isControl(c.cp)) {
            current.add(text.text().substr(c.at, c.size), c, word);
        }
    }
    current.flush();
    return tokens;
}

// One token per character; spaces are tokens of their own (word -1) with keepSpaces.
std::vector<Token> charTokens(const NormalizedText& text, bool keepSpaces) {
    std::vector<Token> tokens;
    TokenBuilder current(text, tokens);
    int word = 0;
    bool inWord = false;
    for (const auto& c : codePoints(text.text())) {
        if (isControl(c.cp) && !isSpace(c.cp)) continue;
        if (isSpace(c.cp)) {
            if (inWord) ++word;
            inWord = false;
            if (!keepSpaces) continue;
            current.add(text.text().substr(c.at, c.size), c, -1);
        } else {
            inWord = true;
            current.add(text.text().substr(c.at, c.size), c, word);
        }
        current.flush();
    }
    return tokens;
}

std::string base64Decode(const std::string& in) {
    static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    uint32_t buffer = 0;
    int bits = 0;
    for (char ch : in) {
        if (ch == '=' || ch == '\n' || ch == '\r') continue;
        const auto v = alphabet.find(ch);
        if (v == std::string::npos) throw Error("the SentencePiece model is not valid base64");
        buffer = (buffer << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
        }
    }
    return out;
}

std::string base64Encode(const std::string& bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8) | uint8_t(bytes[i + 2]);
        for (int k = 18; k >= 0; k -= 6) out += digits[(v >> k) & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size()) v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += digits[(v >> 18) & 63];
        out += digits[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? digits[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

bool isSpaceToken(const std::string& t) {
    const auto cps = codePoints(t);
    return cps.size() == 1 && isSpace(cps[0].cp);
}

// For each token of the word decoder, whether it is written without a space before it.
std::vector<bool> writtenWithoutSpace(const std::vector<std::string>& tokens) {
    static const std::vector<std::string> noSpaceBefore = {".", ",", ")", "]", "}", "%", "…"};
    std::vector<bool> glued;
    bool glueNext = true;
    for (const auto& t : tokens) {
        bool glue = glueNext;
        for (const auto& p : noSpaceBefore)
            if (t == p) glue = true;
        glued.push_back(glue);
        glueNext = t == "(" || t == "[" || (t.size() > 1 && t.back() == '\'');
    }
    return glued;
}

constexpr size_t kMaxNormalizers = 32;

}  // namespace

struct Tokenizer::Impl {
    Kind kind = Kind::Word;
    Settings settings;
    nlohmann::json normalizers = nlohmann::json::array();  // v2 steps, applied first, as described
    std::vector<Normalizer> steps;                         // the same, compiled
    bool legacyNfkc = true;                                // the word kind's own NFKC (+ case folding) of format v1
    bool keepSpaces = false;                               // char kind
    bool spaceOnly = false;                                // whitespace kind: "split": "space" (only U+0020 separates)
    enum class Decoder { Word, Spaces, Concat, SentencePiece } decoder = Decoder::Word;
    std::string pieceModel;  // sentencepiece: the serialised model, as stored (base64)
    std::shared_ptr<const SentencePieceModel> processor;
};

Tokenizer::Tokenizer() : Tokenizer(Settings{}) {}

Tokenizer::Tokenizer(Settings settings) {
    auto d = std::make_shared<Impl>();
    d->settings = settings;
    d_ = d;
}

Tokenizer::Kind Tokenizer::kind() const { return d_->kind; }
const Tokenizer::Settings& Tokenizer::settings() const { return d_->settings; }

long Tokenizer::invalidUtf8Offset(const std::string& text) { return utf8::invalidOffset(text); }

bool Tokenizer::isBlank(const std::string& text) {
    if (utf8::invalidOffset(text) >= 0) return false;
    for (const auto& c : utf8::codePoints(text)) {
        const auto category = utf8proc_category(c.cp);
        const bool invisible = utf8::isSpace(c.cp) || category == UTF8PROC_CATEGORY_CC || category == UTF8PROC_CATEGORY_CF ||
                               utf8proc_get_property(c.cp)->ignorable;
        if (!invisible) return false;
    }
    return true;
}

std::vector<Token> Tokenizer::tokenize(const std::string& text) const {
    const long bad = invalidUtf8Offset(text);
    if (bad >= 0) throw Error("input is not valid UTF-8 (bad byte at offset " + std::to_string(bad) + ")");
    if (text.find('\0') != std::string::npos) throw Error("input contains a NUL character");

    const size_t characters = NormalizedText::countCharacters(text);
    if (characters > kMaxLineCharacters)
        throw Error("the line has " + std::to_string(characters) + " characters; at most " + std::to_string(kMaxLineCharacters) +
                    " are read");
    NormalizedText normalized(text, TextBudget::forLine(characters));
    for (const auto& step : d_->steps) step.apply(normalized);
    switch (d_->kind) {
    case Kind::Word:
        if (d_->legacyNfkc)
            normalized.normalizeUnicode(UTF8PROC_COMPOSE | UTF8PROC_COMPAT | (d_->settings.lowercase ? UTF8PROC_CASEFOLD : 0));
        else if (d_->settings.lowercase) normalized.normalizeUnicode(UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
        break;
    default:
        break;
    }
    if (normalized.characters() > kMaxLineCharacters)
        throw TextExpansionError("expands this line of " + std::to_string(characters) + " characters to " +
                                 std::to_string(normalized.characters()) + ", more than the " + std::to_string(kMaxLineCharacters) +
                                 " a line may have");
    // The pre-tokenizers make at most one token per character of the normalised text.
    switch (d_->kind) {
    case Kind::Word:
        return wordTokens(normalized, d_->settings);
    case Kind::Whitespace:
        return whitespaceTokens(normalized, d_->spaceOnly);
    case Kind::Char:
        return charTokens(normalized, d_->keepSpaces);
    case Kind::SentencePiece:
        break;
    }
    const auto& s = normalized.text();
    std::vector<Token> tokens;
    int word = -1;
    // SentencePiece normalises again inside (its own NFKC rules): at most 18 characters of one,
    // so bounded by the line cap; the pieces are checked against the growth budget.
    const auto pieces = d_->processor->encode(s);
    if (pieces.size() > TextBudget::forLine(normalized.characters()))
        throw TextExpansionError("makes " + std::to_string(pieces.size()) + " pieces of this line of " +
                                 std::to_string(normalized.characters()) + " characters");
    for (const auto& p : pieces) {
        if (PieceText::startsWord(p.text) || word < 0) ++word;
        Token t{p.text, word, 0, 0};
        // SentencePiece's offsets are bytes of the text it was given; map them back to the input.
        const size_t b = std::min<size_t>(p.begin, s.size()), e = std::min<size_t>(p.end, s.size());
        if (b < e) {
            t.begin = normalized.originalBegin(b);
            t.end = normalized.originalEnd(e - 1);
        } else {
            t.begin = t.end = b < s.size() ? normalized.originalBegin(b) : text.size();
        }
        tokens.push_back(std::move(t));
    }
    return tokens;
}

std::string Tokenizer::detokenize(const std::vector<std::string>& tokens) const {
    std::string out;
    switch (d_->decoder) {
    case Impl::Decoder::Word: {
        const auto glued = writtenWithoutSpace(tokens);
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (!glued[i]) out += ' ';
            out += tokens[i];
        }
        return out;
    }
    case Impl::Decoder::Spaces:
        for (size_t i = 0; i < tokens.size(); ++i) out += (i ? " " : "") + tokens[i];
        return out;
    case Impl::Decoder::Concat:
        for (const auto& t : tokens) out += t;
        return out;
    case Impl::Decoder::SentencePiece:
        out = PieceText::join(tokens);
        if (!out.empty() && out[0] == ' ') out.erase(0, 1);
        return out;
    }
    return out;
}

std::vector<int> Tokenizer::detokenizedWords(const std::vector<std::string>& tokens) const {
    std::vector<int> words;
    int word = -1;
    switch (d_->decoder) {
    case Impl::Decoder::Word: {
        const auto glued = writtenWithoutSpace(tokens);
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (i == 0 || !glued[i]) ++word;
            words.push_back(word);
        }
        return words;
    }
    case Impl::Decoder::Spaces:
        for (size_t i = 0; i < tokens.size(); ++i) words.push_back(static_cast<int>(i));
        return words;
    case Impl::Decoder::Concat: {
        bool open = false;  // whether the current word has a character yet
        for (const auto& t : tokens) {
            if (isSpaceToken(t)) {
                open = false;
                words.push_back(-1);
                continue;
            }
            if (!open) ++word;
            open = true;
            words.push_back(word);
        }
        return words;
    }
    case Impl::Decoder::SentencePiece:
        for (const auto& t : tokens) {
            if (PieceText::startsWord(t) || word < 0) ++word;
            words.push_back(word);
        }
        return words;
    }
    return words;
}

std::string Tokenizer::describe() const {
    switch (d_->kind) {
    case Kind::Word: {
        const auto& s = d_->settings;
        std::string d = d_->legacyNfkc ? "word tokenizer, NFKC" : "word tokenizer";
        d += s.lowercase ? ", lower-cased" : ", case kept";
        if (s.splitPunctuation) d += ", punctuation split off";
        if (s.splitElision) d += ", elisions split";
        return d;
    }
    case Kind::Whitespace:
        return "whitespace tokenizer" + std::string(d_->normalizers.empty() ? "" : ", normalised");
    case Kind::Char:
        return "character tokenizer" + std::string(d_->normalizers.empty() ? "" : ", normalised");
    case Kind::SentencePiece:
        return "SentencePiece (" + std::to_string(d_->processor->pieceCount()) + " pieces)";
    }
    return "";
}

nlohmann::json Tokenizer::toJson() const {
    nlohmann::json j;
    switch (d_->kind) {
    case Kind::Word:
        j = {{"kind", "word"},
             {"normalization", d_->legacyNfkc ? "NFKC" : "none"},
             {"lowercase", d_->settings.lowercase},
             {"split_punctuation", d_->settings.splitPunctuation},
             {"split_elision", d_->settings.splitElision}};
        break;
    case Kind::Whitespace:
        j = {{"kind", "whitespace"}};
        if (d_->spaceOnly) j["split"] = "space";
        break;
    case Kind::Char:
        j = {{"kind", "char"}, {"keep_spaces", d_->keepSpaces}};
        break;
    case Kind::SentencePiece:
        j = {{"kind", "sentencepiece"}, {"model", d_->pieceModel}};
        break;
    }
    if (!d_->normalizers.empty()) j["normalizers"] = d_->normalizers;
    static const char* decoders[] = {"word", "spaces", "concat", "sentencepiece"};
    j["detokenizer"] = decoders[static_cast<int>(d_->decoder)];
    return j;
}

Tokenizer Tokenizer::fromJson(const nlohmann::json& json) {
    if (!json.is_object()) throw Error("tokenizer settings must be a JSON object");
    auto d = std::make_shared<Impl>();

    auto flag = [&](const char* key, bool fallback) {
        if (!json.contains(key)) return fallback;
        if (!json[key].is_boolean()) throw Error(std::string("tokenizer setting '") + key + "' must be true or false");
        return json[key].get<bool>();
    };
    auto text = [&](const char* key, const std::string& fallback) {
        if (!json.contains(key)) return fallback;
        if (!json[key].is_string()) throw Error(std::string("tokenizer setting '") + key + "' must be a string");
        return json[key].get<std::string>();
    };
    const auto kind = text("kind", "word");
    if (kind == "word") {
        d->kind = Kind::Word;
        const auto norm = text("normalization", "NFKC");
        if (norm != "NFKC" && norm != "none") throw Error("tokenizer normalization '" + norm + "' is not supported (NFKC or none)");
        d->legacyNfkc = norm == "NFKC";
        d->settings.lowercase = flag("lowercase", d->settings.lowercase);
        d->settings.splitPunctuation = flag("split_punctuation", d->settings.splitPunctuation);
        d->settings.splitElision = flag("split_elision", d->settings.splitElision);
    } else if (kind == "whitespace") {
        d->kind = Kind::Whitespace;
        d->decoder = Impl::Decoder::Spaces;
        const auto split = text("split", "whitespace");
        if (split != "whitespace" && split != "space")
            throw Error("tokenizer setting 'split' must be \"whitespace\" (any Unicode space) or \"space\" (U+0020 only)");
        d->spaceOnly = split == "space";
    } else if (kind == "char") {
        d->kind = Kind::Char;
        d->decoder = Impl::Decoder::Concat;
        d->keepSpaces = flag("keep_spaces", false);
    } else if (kind == "sentencepiece") {
        d->kind = Kind::SentencePiece;
        d->decoder = Impl::Decoder::SentencePiece;
        d->pieceModel = text("model", "");
        if (d->pieceModel.empty()) throw Error("a sentencepiece tokenizer needs its \"model\" (base64 of the .model file)");
        d->processor = std::make_shared<const SentencePieceModel>(base64Decode(d->pieceModel));
    } else {
        throw Error("unsupported tokenizer kind '" + kind + "' (word, whitespace, char or sentencepiece)");
    }
    if (json.contains("normalizers")) {
        if (!json["normalizers"].is_array()) throw Error("tokenizer \"normalizers\" must be a list");
        // Each pattern may hold ReplacePattern::kMaxMemory: a bounded chain bounds the tokenizer.
        if (json["normalizers"].size() > kMaxNormalizers)
            throw Error("a tokenizer has at most " + std::to_string(kMaxNormalizers) + " normalisers (this one has " +
                        std::to_string(json["normalizers"].size()) + ")");
        for (const auto& step : json["normalizers"]) d->steps.emplace_back(step);
        d->normalizers = json["normalizers"];
    }
    const auto decoder = text("detokenizer", "");
    if (decoder == "word") d->decoder = Impl::Decoder::Word;
    else if (decoder == "spaces") d->decoder = Impl::Decoder::Spaces;
    else if (decoder == "concat") d->decoder = Impl::Decoder::Concat;
    else if (decoder == "sentencepiece") d->decoder = Impl::Decoder::SentencePiece;
    else if (!decoder.empty()) throw Error("unknown detokenizer '" + decoder + "' (word, spaces, concat or sentencepiece)");
    Tokenizer t;
    t.d_ = d;
    return t;
}

Tokenizer Tokenizer::sentencePiece(const std::string& serializedModel) {
    return fromJson({{"kind", "sentencepiece"}, {"model", base64Encode(serializedModel)}});
}

std::vector<std::string> Tokenizer::pieces() const {
    return d_->kind == Kind::SentencePiece ? d_->processor->pieces() : std::vector<std::string>{};
}

}  // namespace alignscope::core
