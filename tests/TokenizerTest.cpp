#include "core/Error.h"
#include "core/text/Tokenizer.h"
#include "core/text/PieceText.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using alignscope::core::Error;
using alignscope::core::PieceText;
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
    EXPECT_EQ(texts(t.tokenize("The red car, please!")), (std::vector<std::string>{"the", "red", "car", ",", "please", "!"}));
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
    EXPECT_EQ(texts(Tokenizer(fr).tokenize("L'homme d’affaires")), (std::vector<std::string>{"l'", "homme", "d'", "affaires"}));
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
    EXPECT_NE(refused(R"J({"kind": "whitespace", "normalizers": [{"type": "upper"}]})J").find("unknown normaliser 'upper'"),
              std::string::npos);
    EXPECT_NE(
        refused(R"J({"kind": "whitespace", "normalizers": [{"type": "replace", "pattern": "([a-"}]})J").find("\"pattern\" and \"content\""),
        std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "whitespace", "normalizers": [{"type": "replace", "pattern": "([a-", "content": ""}]})J")
                  .find("not a valid regular expression"),
              std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "word", "lowercase": 1})J").find("'lowercase' must be true or false"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "sentencepiece", "model": "AAAA"})J").find("SentencePiece model cannot be read"), std::string::npos);
    EXPECT_NE(refused(R"J({"kind": "word", "detokenizer": "moses"})J").find("unknown detokenizer 'moses'"), std::string::npos);
}

namespace {

// The message of the Error `f` throws ("accepted" when it throws none).
template <typename F>
std::string refusal(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "accepted";
}

Tokenizer replacing(const std::string& pattern, const std::string& content) {
    return Tokenizer::fromJson(
        {{"kind", "whitespace"}, {"normalizers", {{{"type", "replace"}, {"pattern", pattern}, {"content", content}}}}});
}

}  // namespace

TEST(Tokenizer, PatternsSeeCharactersAndOverlongLinesAreRefused) {
    // RE2 reads UTF-8: \xA9 is the character U+00A9, not the second byte of "é" (C3 A9).
    EXPECT_EQ(texts(replacing("\\xA9", "(c)").tokenize("café ©")), (std::vector<std::string>{"café", "(c)"}));
    const auto t = replacing("[^a-z]+", " ");
    EXPECT_NE(refusal([&] { t.tokenize(std::string(Tokenizer::kMaxLineCharacters + 1, ' ')); }).find("10001 characters"),
              std::string::npos);
    EXPECT_EQ(texts(t.tokenize(std::string(5000, ' ') + "ok")), (std::vector<std::string>{"ok"}));
    // The cap counts characters, for every kind: 10,000 three-byte characters pass.
    std::string wide;
    for (int i = 0; i < 10000; ++i) wide += "\u20ac";
    EXPECT_EQ(Tokenizer::fromJson({{"kind", "whitespace"}}).tokenize(wide).size(), 1u);
    EXPECT_THROW(Tokenizer().tokenize(wide + "\u20ac"), Error);
}

TEST(Tokenizer, PatternsRunInLinearTimeWithoutRecursion) {
    // Both crashed or hung libstdc++'s regex (../shared/fuzz/repro, campaign 2): a group nested 20
    // deep under a star recursed once per character; (a+)+$ backtracked for ever on a line ending in '!'.
    const std::string line(Tokenizer::kMaxLineCharacters - 1, 'a');
    EXPECT_EQ(texts(replacing("((((((((((((((((((((a))))))))))))))))))))*", "b").tokenize(line)), (std::vector<std::string>{"bb"}));
    EXPECT_EQ(texts(replacing("(a+)+$", "x").tokenize(line + "!")), (std::vector<std::string>{line + "!"}));
    EXPECT_EQ(texts(replacing("(?:a|b|c|d|e|f|g|h)*", "-").tokenize(line)), (std::vector<std::string>{"--"}));
}

TEST(Tokenizer, PatternsRE2CannotRunAreRefusedAtLoadNamingThePattern) {
    for (const std::string pattern : {"(a)\\1", "a(?=b)", "(?<!x)a", "a++"}) {
        const auto why = refusal([&] { replacing(pattern, ""); });
        EXPECT_NE(why.find("pattern '" + pattern + "'"), std::string::npos) << why;
    }
    EXPECT_NE(refusal([&] { replacing("(a)\\1", ""); }).find("backreferences and lookaround"), std::string::npos);
    EXPECT_NE(refusal([&] { replacing("\\pL{1000}", ""); }).find("MiB once compiled"), std::string::npos);
    EXPECT_NE(refusal([&] { replacing("a", "$99$0$&"); }).find("refers to group 9"), std::string::npos);
    EXPECT_NE(refusal([&] { replacing("a", "$`"); }).find("not supported"), std::string::npos);
    EXPECT_NE(refusal([&] { replacing("", "x"); }).find("must not be empty"), std::string::npos);
    nlohmann::json chain = {{"kind", "whitespace"}, {"normalizers", nlohmann::json::array()}};
    for (int i = 0; i < 33; ++i) chain["normalizers"].push_back({{"type", "lowercase"}});
    EXPECT_NE(refusal([&] { Tokenizer::fromJson(chain); }).find("at most 32 normalisers"), std::string::npos);
}

TEST(Tokenizer, ReplacementContentReadsGroupsWholeMatchesAndDollars) {
    EXPECT_EQ(texts(replacing("([a-z])([0-9])", "$2$1").tokenize("a1 b2")), (std::vector<std::string>{"1a", "2b"}));
    EXPECT_EQ(texts(replacing("[0-9]+", "<$&>").tokenize("x 42")), (std::vector<std::string>{"x", "<42>"}));
    EXPECT_EQ(texts(replacing("e", "$$").tokenize("eve")), (std::vector<std::string>{"$v$"}));
    EXPECT_EQ(texts(replacing("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", "$11$10$1").tokenize("abcdefghijk")), (std::vector<std::string>{"kja"}));
    EXPECT_EQ(texts(replacing("(a)", "$12").tokenize("a")), (std::vector<std::string>{"a2"}));  // $1, then "2": one group only
}

TEST(Tokenizer, NormalisersThatExpandALineAreStoppedWhileTheyWrite) {
    // ../shared/fuzz/repro, campaign 2: `$&` x 1000, ten chained (.) -> $1 x 10, 2 MiB of content.
    const std::string sentence = "the fifth of march , 1998";
    std::string thousandFold;
    for (int i = 0; i < 1000; ++i) thousandFold += "$&";
    const auto why = refusal([&] { replacing(".", thousandFold).tokenize(sentence); });
    EXPECT_NE(why.find("expands this line of 25 characters beyond 200 characters"), std::string::npos) << why;
    EXPECT_THROW(replacing("a", std::string(2 << 20, 'y')).tokenize(sentence), alignscope::core::Error);
    nlohmann::json chained = {{"kind", "whitespace"}, {"normalizers", nlohmann::json::array()}};
    for (int i = 0; i < 10; ++i)
        chained["normalizers"].push_back({{"type", "replace"}, {"pattern", "(.)"}, {"content", "$1$1$1$1$1$1$1$1$1$1"}});
    EXPECT_NE(refusal([&] { Tokenizer::fromJson(chained).tokenize(sentence); }).find("expands this line"), std::string::npos);
    // Within 8 times the line, a step may expand (short lines get 64 characters).
    EXPECT_EQ(texts(replacing("(.)", "$1 ").tokenize("abc")), (std::vector<std::string>{"a", "b", "c"}));
    // NFKC makes 18 characters of U+FDFA: 100 of them pass the line (1,800 of 10,000) but not 8 times it.
    std::string fdfa;
    for (int i = 0; i < 100; ++i) fdfa += "\ufdfa";
    EXPECT_NE(refusal([&] { Tokenizer().tokenize(fdfa); }).find("expands this line of 100 characters beyond 800"), std::string::npos);
}

TEST(Tokenizer, WordKindWithoutNfkcStillLowercasesAndSaysSo) {
    const auto t = described(R"J({"kind": "word", "normalization": "none", "lowercase": true})J");
    EXPECT_EQ(texts(t.tokenize("Hello World")), (std::vector<std::string>{"hello", "world"}));
    EXPECT_EQ(t.toJson()["normalization"], "none");
    EXPECT_EQ(t.describe().find("NFKC"), std::string::npos);
}

// NFKC composes what NFD split across starters too: Hangul jamo (text copied from macOS file
// names is NFD) and Indic two-part vowels, as Unicode's NFKC, Python's and JavaScript's do.
TEST(Tokenizer, NfkcComposesStartersThatComposeWithTheOneBefore) {
    const auto t = described(R"J({"kind": "word"})J");
    // 한국어 as jamo (U+1112 U+1161 U+11AB, U+1100 U+116E U+11A8, U+110B U+1165) and composed
    const std::string jamo = "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB\xE1\x84\x80\xE1\x85\xAE\xE1\x86\xA8\xE1\x84\x8B\xE1\x85\xA5";
    EXPECT_EQ(texts(t.tokenize(jamo + " x")), (std::vector<std::string>{"\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4", "x"}));
    // Oriya U+0B47 + U+0B3E is U+0B4B; Tamil U+0BC6 + U+0BBE is U+0BCA
    EXPECT_EQ(texts(t.tokenize("\xE0\xAC\x95\xE0\xAD\x87\xE0\xAC\xBE \xE0\xAE\x95\xE0\xAF\x86\xE0\xAE\xBE")),
              (std::vector<std::string>{"\xE0\xAC\x95\xE0\xAD\x8B", "\xE0\xAE\x95\xE0\xAF\x8A"}));
    // the offsets still point into the typed text: the syllable spans its three jamo
    const auto tokens = t.tokenize(jamo);
    ASSERT_EQ(tokens.size(), 1u);
    EXPECT_EQ(tokens[0].begin, 0u);
    EXPECT_EQ(tokens[0].end, jamo.size());
    // starters that do not compose stay apart (a Latin letter after a syllable, two syllables)
    EXPECT_EQ(texts(t.tokenize("\xED\x95\x9C\xEA\xB5\xAD a")), (std::vector<std::string>{"\xED\x95\x9C\xEA\xB5\xAD", "a"}));
}

// Issue 60: byte-fallback pieces that spell a character read as that character, the rest of its
// bytes as the join mark; incomplete, invalid, control and space runs stay as the model's pieces.
TEST(PieceLabels, ByteRunsSpellingACharacterReadAsThatCharacter) {
    const std::string join = PieceText::joinMark();
    EXPECT_EQ(PieceText::labels({"\xE2\x96\x81wei", "<0xC3>", "<0x9F>", ","}),
              (std::vector<std::string>{"\xE2\x96\x81wei", "\xC3\x9F", join, ","}));
    // Hangul: three bytes each, two syllables in a row (주의).
    EXPECT_EQ(PieceText::labels({"<0xEC>", "<0xA3>", "<0xBC>", "<0xEC>", "<0x9D>", "<0x98>"}),
              (std::vector<std::string>{"\xEC\xA3\xBC", join, join, "\xEC\x9D\x98", join, join}));
    // Incomplete (a lead without its continuation, a run cut by the end), a stray continuation,
    // an overlong form, a surrogate, a newline and a space: the pieces as they are.
    for (const std::vector<std::string>& kept : {std::vector<std::string>{"<0xC3>", "a"},
                                                 {"x", "<0xE2>", "<0x82>"},
                                                 {"<0x9F>", "<0xC3>"},
                                                 {"<0xC0>", "<0x80>"},
                                                 {"<0xED>", "<0xA0>", "<0x80>"},
                                                 {"<0x0A>"},
                                                 {"<0x20>"},
                                                 {"<0xZZ>"}})
        EXPECT_EQ(PieceText::labels(kept), kept);
    EXPECT_EQ(PieceText::labels({"<0x41>", "<0xC3>", "<0xC3>", "<0xA4>"}), (std::vector<std::string>{"A", "<0xC3>", "\xC3\xA4", join}));
}
