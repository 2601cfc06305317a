#include "core/Error.h"
#include "core/text/Tokenizer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using alignscope::core::Error;
using alignscope::core::Tokenizer;

namespace {

std::vector<std::string> texts(const std::vector<alignscope::core::Token>& tokens) {
    std::vector<std::string> out;
    for (const auto& t : tokens) out.push_back(t.text);
    return out;
}

}  // namespace

TEST(Tokenizer, SplitsPunctuationAndLowercases) {
    Tokenizer t;
    EXPECT_EQ(texts(t.tokenize("The red car, please!")),
              (std::vector<std::string>{"the", "red", "car", ",", "please", "!"}));
}

TEST(Tokenizer, NoBreakSpacesBecomeSpaces) {
    Tokenizer t;
    // U+202F and U+00A0 before ? and ! as in the Tatoeba French side.
    const auto tokens = t.tokenize("Qui est-il\u202f? Va\u00a0!");
    EXPECT_EQ(texts(tokens), (std::vector<std::string>{"qui", "est-il", "?", "va", "!"}));
    EXPECT_EQ(tokens[2].word, 2);  // "?" is a word of its own once the space is normalised
}

TEST(Tokenizer, ElisionSplitsOnlyWhenAsked) {
    Tokenizer::Settings fr;
    fr.splitElision = true;
    EXPECT_EQ(texts(Tokenizer(fr).tokenize("L'homme d’affaires")),
              (std::vector<std::string>{"l'", "homme", "d'", "affaires"}));
    EXPECT_EQ(texts(Tokenizer().tokenize("Don't go")), (std::vector<std::string>{"don't", "go"}));
}

TEST(Tokenizer, WordIndicesFollowWhitespaceWords) {
    const auto tokens = Tokenizer().tokenize("  hello,   world  ");
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[0].word, 0);
    EXPECT_EQ(tokens[1].word, 0);  // the comma belongs to "hello,"
    EXPECT_EQ(tokens[2].word, 1);
}

TEST(Tokenizer, EmptyAndBlankInputGiveNoTokens) {
    EXPECT_TRUE(Tokenizer().tokenize("").empty());
    EXPECT_TRUE(Tokenizer().tokenize(" \t ").empty());
}

TEST(Tokenizer, InvalidUtf8IsAnErrorNamingTheOffset) {
    try {
        Tokenizer().tokenize(std::string("ab\xff", 3));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("offset 2"), std::string::npos) << e.what();
    }
    EXPECT_EQ(Tokenizer::invalidUtf8Offset("caf\xc3\xa9"), -1);
    EXPECT_EQ(Tokenizer::invalidUtf8Offset(std::string("caf\xc3", 4)), 3);
}

TEST(Tokenizer, DetokenizeGluesPunctuationAndElision) {
    EXPECT_EQ(Tokenizer().detokenize({"l'", "homme", "est", "là", "."}), "l'homme est là.");
    EXPECT_EQ(Tokenizer().detokenize({"oui", ",", "va", "!"}), "oui, va !");
}

TEST(Tokenizer, DetokenizedWordsAreTheWordsBetweenTheSpaces) {
    EXPECT_EQ(Tokenizer().detokenizedWords({"l'", "homme", "est", "là", "."}), (std::vector<int>{0, 0, 1, 2, 2}));
    EXPECT_EQ(Tokenizer().detokenizedWords({"oui", ",", "va", "!"}), (std::vector<int>{0, 0, 1, 2}));
    EXPECT_EQ(Tokenizer().detokenizedWords({"(", "oui", ")"}), (std::vector<int>{0, 0, 0}));
    EXPECT_TRUE(Tokenizer().detokenizedWords({}).empty());
}

TEST(Tokenizer, SettingsRoundTripThroughJson) {
    Tokenizer::Settings s;
    s.lowercase = false;
    s.splitElision = true;
    const auto back = Tokenizer::fromJson(Tokenizer(s).toJson()).settings();
    EXPECT_FALSE(back.lowercase);
    EXPECT_TRUE(back.splitElision);
    EXPECT_THROW(Tokenizer::fromJson({{"kind", "bpe"}}), Error);
}

namespace {

Tokenizer described(const std::string& json) { return Tokenizer::fromJson(nlohmann::json::parse(json)); }

// The text each token came from, read back through its offsets.
std::vector<std::string> spans(const std::string& text, const std::vector<alignscope::core::Token>& tokens) {
    std::vector<std::string> out;
    for (const auto& t : tokens) out.push_back(text.substr(t.begin, t.end - t.begin));
    return out;
}

}  // namespace

TEST(Tokenizer, WordTokensPointBackIntoTheTypedText) {
    const std::string text = "L\u2019homme  est\u00a0là\u202f!";
    const auto tokens = Tokenizer().tokenize(text);
    EXPECT_EQ(texts(tokens), (std::vector<std::string>{"l'homme", "est", "là", "!"}));
    EXPECT_EQ(spans(text, tokens), (std::vector<std::string>{"L\u2019homme", "est", "là", "!"}));
}

TEST(Tokenizer, NormalisersReproduceThePyTorchTutorialsNormalizeString) {
    // lower, strip, unicodeToAscii, re.sub(r"([.!?])", r" \1"), re.sub(r"[^a-zA-Z!?]+", " "), strip
    const auto t = described(R"J({"kind": "whitespace", "normalizers": [
        {"type": "lowercase"}, {"type": "strip"}, {"type": "nfd"}, {"type": "strip_accents"},
        {"type": "replace", "pattern": "([.!?])", "content": " $1"},
        {"type": "replace", "pattern": "[^a-zA-Z!?]+", "content": " "}, {"type": "strip"}]})J");
    const std::string text = "  Je suis très, TRÈS content! Ça va.";
    const auto tokens = t.tokenize(text);
    EXPECT_EQ(texts(tokens), (std::vector<std::string>{"je", "suis", "tres", "tres", "content", "!", "ca", "va"}));
    EXPECT_EQ(spans(text, tokens), (std::vector<std::string>{"Je", "suis", "très", "TRÈS", "content", "!", "Ça", "va"}));
    EXPECT_EQ(t.detokenize({"je", "suis", "content", "!"}), "je suis content !");
}

TEST(Tokenizer, CharactersWithSpacesAsTokensLikeTheKerasCourse) {
    const auto t = described(R"J({"kind": "char", "keep_spaces": true,
        "normalizers": [{"type": "lowercase"}, {"type": "replace", "pattern": ",", "content": ""}]})J");
    const auto tokens = t.tokenize("3 May, 1979");
    EXPECT_EQ(texts(tokens), (std::vector<std::string>{"3", " ", "m", "a", "y", " ", "1", "9", "7", "9"}));
    EXPECT_EQ(tokens[1].word, -1);
    EXPECT_EQ(tokens[2].word, 1);
    EXPECT_EQ(t.detokenize({"1", "9", "7", "9", "-", "0", "5"}), "1979-05");
    EXPECT_EQ(t.detokenizedWords({"a", "b", " ", "c"}), (std::vector<int>{0, 0, -1, 1}));
}

TEST(Tokenizer, BadDescriptionsAreRefusedWithTheReason) {
    auto refused = [](const std::string& json) {
        try {
            described(json);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refused(R"J({"kind": "bpe"})J").find("unsupported tokenizer kind 'bpe'"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "whitespace", "normalizers": [{"type": "upper"}]})J").find("unknown normaliser 'upper'"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "whitespace", "normalizers": [{"type": "replace", "pattern": "([a-"}]})J").find("\"pattern\" and \"content\""), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "whitespace", "normalizers": [{"type": "replace", "pattern": "([a-", "content": ""}]})J").find("not a valid regular expression"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "word", "lowercase": 1})J").find("'lowercase' must be true or false"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "sentencepiece", "model": "AAAA"})J").find("SentencePiece model cannot be read"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "word", "detokenizer": "moses"})J").find("unknown detokenizer 'moses'"), std::string::npos);
}

TEST(Tokenizer, PatternsThatCutACharacterAndOverlongLinesAreRefused) {
    const auto cuts = described(R"J({"kind": "whitespace", "normalizers": [{"type": "replace", "pattern": "\\xA9", "content": ""}]})J");
    EXPECT_THROW(cuts.tokenize("café"), Error);  // "é" is C3 A9: removing A9 leaves half a character
    const auto t = described(R"J({"kind": "whitespace", "normalizers": [{"type": "replace", "pattern": "[^a-z]+", "content": " "}]})J");
    EXPECT_THROW(t.tokenize(std::string(Tokenizer::kMaxPatternInput + 1, ' ')), Error);  // no stack overflow
    EXPECT_EQ(texts(t.tokenize(std::string(5000, ' ') + "ok")), (std::vector<std::string>{"ok"}));
}

TEST(Tokenizer, WordKindWithoutNfkcStillLowercasesAndSaysSo) {
    const auto t = described(R"J({"kind": "word", "normalization": "none", "lowercase": true})J");
    EXPECT_EQ(texts(t.tokenize("Hello World")), (std::vector<std::string>{"hello", "world"}));
    EXPECT_EQ(t.toJson()["normalization"], "none");
    EXPECT_EQ(t.describe().find("NFKC"), std::string::npos);
}
