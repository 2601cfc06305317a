// alignscope-cli run as a user runs it: files in, lines out, errors on stderr with an exit code.
#include "CommandRunner.h"
#include "TinyModel.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

using namespace alignscope;

namespace {

struct Run {
    int exitCode;
    std::string out;
};

Run run(const std::string& args) {
    const auto r = tests::runCommand(std::string(ALIGNSCOPE_CLI) + " " + args);
    return {r.exitCode, r.output};
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override { tests::tinyModel().save(dir.path("tiny.pt")); }
    std::string model() const { return "--model " + dir.path("tiny.pt"); }
    tests::TempDir dir;
};

}  // namespace

TEST_F(Cli, TranslateWritesOneLinePerInputLine) {
    std::ofstream(dir.path("in.txt")) << "the red car\n\na small house .\n";
    auto r = run("translate " + model() + " --beam 3 --max-len 6 -i " + dir.path("in.txt") + " -o " + dir.path("out.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    const auto out = tests::readLines(dir.path("out.txt"));
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[1], "") << "a blank line has nothing to translate";
    EXPECT_NE(out[0], "");
}

TEST_F(Cli, AlignPrintsPharaohLinksAndJson) {
    std::ofstream(dir.path("pairs.txt")) << "the red car ||| la voiture rouge\na house ||| une maison\n";
    auto r = run("align " + model() + " -i " + dir.path("pairs.txt") + " -o " + dir.path("links.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    const auto out = tests::readLines(dir.path("links.txt"));
    ASSERT_EQ(out.size(), 2u);
    const std::regex pharaoh(R"((\d+-\d+)( \d+-\d+)*)");
    for (const auto& l : out) EXPECT_TRUE(std::regex_match(l, pharaoh)) << l;
    r = run("align " + model() + " --format json -i " + dir.path("pairs.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("\"target_tokens\":[\"la\",\"voiture\",\"rouge\",\"</s>\"]"), std::string::npos) << r.out;
}

TEST_F(Cli, AlignReportsAMalformedLineAndGoesOn) {
    std::ofstream(dir.path("pairs.txt")) << "no separator here\nthe car ||| la voiture\n";
    auto r = run("align " + model() + " -i " + dir.path("pairs.txt") + " -o " + dir.path("links.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("line 1: expected 'source ||| target'"), std::string::npos) << r.out;
    EXPECT_EQ(tests::readLines(dir.path("links.txt")).size(), 2u);
}

TEST_F(Cli, InspectReportsContractAndSizes) {
    auto r = run("inspect " + model());
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("meets AlignScope model format v2"), std::string::npos);
    EXPECT_NE(r.out.find("target vocabulary: 15"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("BLAS:"), std::string::npos);
}

TEST_F(Cli, BadModelIsAClearErrorWithNonZeroExit) {
    std::ofstream(dir.path("bad.pt")) << "not a model";
    auto r = run("inspect --model " + dir.path("bad.pt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("is not a TorchScript model file"), std::string::npos) << r.out;
    r = run("translate --model " + dir.path("missing.pt") + " -i /dev/null");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("does not exist"), std::string::npos) << r.out;
}

TEST_F(Cli, UnwritableOutputIsAClearError) {
    std::ofstream(dir.path("in.txt")) << "the car\n";
    auto r = run("translate " + model() + " -i " + dir.path("in.txt") + " -o /nonexistent-dir/out.txt");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("cannot write"), std::string::npos) << r.out;
}

// Output that cannot be written in full (a full disk; here a file-size limit) is an error, and
// the file that was there stays as it was, with no partial file beside it.
TEST_F(Cli, OutputThatCannotBeWrittenInFullLeavesTheOldFile) {
    {
        std::ofstream in(dir.path("in.txt"));
        for (int i = 0; i < 500; ++i) in << "the red car\n";
    }
    std::ofstream(dir.path("out.txt")) << "old\n";
    auto r = tests::runCommand("trap '' XFSZ; ulimit -f 2; " + std::string(ALIGNSCOPE_CLI) + " translate " + model() + " --max-len 6 -i " +
                               dir.path("in.txt") + " -o " + dir.path("out.txt"));
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("cannot write '" + dir.path("out.txt") + "': File too large"), std::string::npos) << r.output;
    EXPECT_EQ(tests::readFile(dir.path("out.txt")), "old\n");
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.root())) ++files;
    EXPECT_EQ(files, 3u) << "tiny.pt, in.txt, out.txt: no temporary file left";
}

TEST_F(Cli, StandardOutputThatCannotBeWrittenIsAnError) {
    std::ofstream(dir.path("in.txt")) << "the red car\n";
    auto r = tests::runCommand(std::string(ALIGNSCOPE_CLI) + " translate " + model() + " -i " + dir.path("in.txt") + " > /dev/full",
                               dir.path("err.txt"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(tests::readFile(dir.path("err.txt")).find("cannot write to standard output: No space left on device"), std::string::npos)
        << tests::readFile(dir.path("err.txt"));
}

TEST_F(Cli, InputAsOutputAndFolderAsInputAreRefused) {
    std::ofstream(dir.path("x.txt")) << "the red car\n";
    auto r = run("translate " + model() + " -i " + dir.path("x.txt") + " -o " + dir.path("x.txt"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.out.find("is the input file"), std::string::npos) << r.out;
    EXPECT_EQ(tests::readFile(dir.path("x.txt")), "the red car\n");
    r = run("align " + model() + " -i " + dir.root());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.out.find("it is a folder"), std::string::npos) << r.out;
}

TEST_F(Cli, UpdateCodeKeepsTheTranslationsAndTheStorage) {
    tests::tinyModel().save(dir.path("half.pt"), true);
    auto r = run("update-code " + dir.path("half.pt") + " -o " + dir.path("new.pt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("float16 weights"), std::string::npos) << r.out;
    std::ofstream(dir.path("in.txt")) << "the red car\na small house .\n";
    r = run("translate --model " + dir.path("half.pt") + " --max-len 6 -i " + dir.path("in.txt") + " -o " + dir.path("a.txt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    r = run("translate --model " + dir.path("new.pt") + " --max-len 6 -i " + dir.path("in.txt") + " -o " + dir.path("b.txt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(tests::readLines(dir.path("a.txt")), tests::readLines(dir.path("b.txt")));

    r = run("update-code " + dir.path("missing.pt") + " -o " + dir.path("x.pt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("does not exist"), std::string::npos) << r.out;
}

TEST_F(Cli, AlignWithAttributionMethodsAndLinkRules) {
    std::ofstream(dir.path("pairs.txt")) << "the red car ||| la voiture rouge\na house ||| une maison\n";
    const std::regex pharaoh(R"((\d+-\d+)( \d+-\d+)*)");
    for (const char* method : {"attention", "grad-x-input", "integrated-gradients", "occlusion"})
        for (const std::string links : {"argmax", "argmax-skip-eos", "threshold"}) {
            auto r = run("align " + model() + " --method " + method + " --links " + links + " -i " + dir.path("pairs.txt"));
            EXPECT_EQ(r.exitCode, 0) << method << " " << links << ": " << r.out;
            std::istringstream lines(r.out);
            int n = 0;
            for (std::string l; std::getline(lines, l); ++n) {
                EXPECT_TRUE(l.empty() || std::regex_match(l, pharaoh)) << l;
                // </s> left out, every target word links one source word: three, then two.
                if (links == "argmax-skip-eos") EXPECT_EQ(std::count(l.begin(), l.end(), '-'), n == 0 ? 3 : 2) << method << ": " << l;
            }
            EXPECT_EQ(n, 2) << r.out;
        }
    auto r = run("align " + model() + " --method integrated-gradients --format json -i " + dir.path("pairs.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    for (const char* key :
         {"\"method\":\"integrated-gradients\"", "\"scores\":", "\"baseline_log_probs\":", "\"links\":", "\"link_rule\":\"argmax\""})
        EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
    // Pairs attributed on several workers at once (one BLAS thread each) come out as on one, in order,
    // and a bad line keeps its own message.
    std::ofstream(dir.path("more.txt")) << "the red car ||| la voiture rouge\na house ||| une maison\nno target here\n"
                                        << "the house ||| la maison\na red house ||| une maison rouge\n";
    const auto one = run("--threads 1 align " + model() + " --method occlusion --format json --workers 1 -i " + dir.path("more.txt"));
    const auto three = run("align " + model() + " --method occlusion --format json --workers 3 -i " + dir.path("more.txt"));
    EXPECT_EQ(one.exitCode, 1) << one.out;
    EXPECT_EQ(three.exitCode, 1) << three.out;
    EXPECT_EQ(three.out, one.out);
    EXPECT_NE(three.out.find("line 3: expected 'source ||| target'"), std::string::npos) << three.out;
    // Two directions joined, with a model of the other direction (vocabularies swapped).
    tests::tinyReverseModel().save(dir.path("tiny-reverse.pt"));
    r = run("align " + model() + " --links grow-diag-final-and --reverse-model " + dir.path("tiny-reverse.pt") + " -i " +
            dir.path("pairs.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    // Agreement (the two directions' word matrices multiplied, then joined), for any method.
    for (const char* method : {"attention", "attention-x-occlusion"})
        for (const char* links : {"agreement-intersection", "agreement-grow-diag-final-and"}) {
            const auto agreed = run("align " + model() + " --method " + method + " --links " + links + " --reverse-model " +
                                    dir.path("tiny-reverse.pt") + " -i " + dir.path("pairs.txt"));
            ASSERT_EQ(agreed.exitCode, 0) << agreed.out;
            std::istringstream lines(agreed.out);
            int n = 0;
            for (std::string l; std::getline(lines, l); ++n) EXPECT_TRUE(l.empty() || std::regex_match(l, pharaoh)) << l;
            EXPECT_EQ(n, 2) << method << " " << links << ": " << agreed.out;
        }
    // A "reverse" model of the same direction, or of other vocabularies, is refused naming both files.
    tests::tinyPieceModel().save(dir.path("pieces.pt"));
    for (const std::string other : {"tiny.pt", "pieces.pt"}) {
        r = run("align " + model() + " --links agreement-intersection --reverse-model " + dir.path(other) + " -i " + dir.path("pairs.txt"));
        EXPECT_EQ(r.exitCode, 2) << r.out;
        EXPECT_NE(r.out.find("'" + dir.path(other) + "' is not the reverse model of '" + dir.path("tiny.pt") + "'"), std::string::npos)
            << r.out;
    }
    r = run("align " + model() + " --links agreement-grow-diag-final-and -i " + dir.path("pairs.txt"));
    EXPECT_NE(r.out.find("give --reverse-model FILE"), std::string::npos) << r.out;
    r = run("align " + model() + " --links intersection -i " + dir.path("pairs.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("give --reverse-model FILE"), std::string::npos) << r.out;
    r = run("align " + model() + " --method saliency -i " + dir.path("pairs.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("unknown attribution method 'saliency'"), std::string::npos) << r.out;
}

// An ensemble: several models' word matrices (row shares) averaged before links are read. One
// model twice is that model; a word model and a piece model, which split the line differently,
// meet at its words.
TEST_F(Cli, AlignsWithAnEnsembleOfModels) {
    tests::tinyPieceModel().save(dir.path("pieces.pt"));
    std::ofstream(dir.path("pairs.txt")) << "the red car ||| la voiture rouge\na house ||| une maison\n";
    const std::string tiny = dir.path("tiny.pt"), pairs = " -i " + dir.path("pairs.txt");
    const auto once = run("align -m " + tiny + pairs);
    const auto twice = run("align -m " + tiny + " -m " + tiny + pairs);
    ASSERT_EQ(once.exitCode, 0) << once.out;
    EXPECT_EQ(twice.out, once.out);
    const std::string agreement = " --method attention-x-occlusion --links agreement-grow-diag-final-and";
    tests::tinyReverseModel().save(dir.path("tiny-reverse.pt"));
    const std::string reverse = dir.path("tiny-reverse.pt");
    const auto single = run("align -m " + tiny + agreement + " --reverse-model " + reverse + pairs);
    const auto doubled =
        run("align -m " + tiny + " -m " + tiny + agreement + " --reverse-model " + reverse + " --reverse-model " + reverse + pairs);
    ASSERT_EQ(single.exitCode, 0) << single.out;
    EXPECT_EQ(doubled.out, single.out);

    const auto mixed = run("align -m " + tiny + " -m " + dir.path("pieces.pt") + " --format json" + pairs);
    ASSERT_EQ(mixed.exitCode, 0) << mixed.out;
    std::istringstream lines(mixed.out);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    const auto j = nlohmann::json::parse(line);
    ASSERT_TRUE(j.contains("ensemble")) << line;
    EXPECT_EQ(j["ensemble"]["models"].size(), 2u);
    EXPECT_EQ(j["ensemble"]["members"].size(), 1u);  // the first member's matrices are the object's own
    const auto words = j["ensemble"]["word_scores"].get<std::vector<std::vector<float>>>();
    ASSERT_EQ(words.size(), 3u);  // la voiture rouge
    for (const auto& row : words) {
        ASSERT_EQ(row.size(), 3u);  // the red car
        float sum = 0;
        for (float v : row) sum += v;
        EXPECT_NEAR(sum, 1.0f, 1e-5f);
    }
    EXPECT_TRUE(std::regex_match(j["links"].get<std::string>(), std::regex(R"((\d+-\d+)( \d+-\d+)*)"))) << line;
}

// --time-limit is for one sentence: a batch whose sentences keep reporting progress (decoder steps,
// finished attributions) runs to its end however long it takes in all, while a model that falls
// silent is stopped (test_hostile_models.py).
TEST_F(Cli, ABatchLongerThanTheTimeLimitThatKeepsMovingRunsToItsEnd) {
    const int pairs = 300;
    {
        std::ofstream out(dir.path("many.txt"));
        for (int i = 0; i < pairs; ++i) out << "the red car near a house ||| la voiture rouge près d'une maison\n";
    }
    const double limit = 0.3;
    const auto start = std::chrono::steady_clock::now();
    const auto r =
        run("align " + model() + " --method integrated-gradients --fixed-points --points 32 --batch " + std::to_string(pairs) +
            " --workers 1 --time-limit " + std::to_string(limit) + " -i " + dir.path("many.txt") + " -o " + dir.path("many.links"));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exitCode, 0) << r.out;
    std::ifstream links(dir.path("many.links"));
    int n = 0;
    for (std::string l; std::getline(links, l);) ++n;
    EXPECT_EQ(n, pairs);
    EXPECT_GT(seconds, 2 * limit) << "the batch must take longer than the limit for this test to mean anything";
}

TEST_F(Cli, AerScoresAgainstGoldAndNamesTheFileAndLineOfABadLink) {
    std::ofstream(dir.path("gold.txt")) << "0-0 1-1 2p1\n0-0 1-1\n";
    std::ofstream(dir.path("hyp.txt")) << "0-0 2-1 2-2\n0-0 1-1\n";
    std::ofstream(dir.path("pairs.tsv")) << "a b c\tx y z\nd e\tu v\n";
    auto r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("hyp.txt") + " --pairs " + dir.path("pairs.tsv"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    // |A∩S| = 3, |A∩P| = 4, |A| = 5, |S| = 4: AER = 1 − 7/9
    EXPECT_NE(r.out.find("AER 22.22  precision 80.00  recall 75.00  (2 pairs; 5 links, gold 4 sure, 5 possible)"), std::string::npos)
        << r.out;
    r = run("aer --json --one-based --gold " + dir.path("gold1.txt") + " --hyp " + dir.path("hyp.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("the gold file '" + dir.path("gold1.txt") + "' does not exist"), std::string::npos) << r.out;
    std::ofstream(dir.path("bad.txt")) << "0-0\n0-0 1-x\n";
    r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("bad.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find(dir.path("bad.txt") + ":2: '1-x' is not a link"), std::string::npos) << r.out;
    std::ofstream(dir.path("short.txt")) << "0-0\n";
    r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("short.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("has 2 lines and '" + dir.path("short.txt") + "' 1"), std::string::npos) << r.out;
    std::ofstream(dir.path("far.txt")) << "0-0\n0-0 2-1\n";
    r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("far.txt") + " --pairs " + dir.path("pairs.tsv"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find(dir.path("far.txt") + ":2: a link reaches source word 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("but the pair has 2 source and 2 target words"), std::string::npos) << r.out;
    std::ofstream(dir.path("one.txt")) << "1-1 3-2 3-3\n1-1 2-2\n";
    r = run("aer --one-based --json --gold " + dir.path("one.txt") + " --hyp " + dir.path("one.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("\"aer\":0.0"), std::string::npos) << r.out;
    // --versus: a second aligner scored beside the first, and their difference tested.
    r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("hyp.txt") + " --versus " + dir.path("gold.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("versus " + dir.path("gold.txt") + ": AER 0.00"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("difference +22.22 (hyp - versus); paired bootstrap, 10000 resamples"), std::string::npos) << r.out;
    r = run("aer --json --resamples 500 --gold " + dir.path("gold.txt") + " --hyp " + dir.path("hyp.txt") + " --versus " +
            dir.path("hyp.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("\"interval_95\":[0.0,0.0]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"resamples\":500"), std::string::npos) << r.out;
    r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("hyp.txt") + " --versus " + dir.path("bad.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find(dir.path("bad.txt") + ":2: '1-x' is not a link"), std::string::npos) << r.out;
    r = run("aer --gold " + dir.path("gold.txt") + " --hyp " + dir.path("hyp.txt") + " --versus " + dir.path("short.txt"));
    EXPECT_NE(r.out.find("has 2 lines and '" + dir.path("short.txt") + "' 1"), std::string::npos) << r.out;
}

// A gold file with no sure links makes recall and AER 0/0: refused by name, never a perfect score (issue 59).
TEST_F(Cli, AerRefusesAGoldFileWithNoSureLinks) {
    std::ofstream(dir.path("blank.txt")) << "\n\n\n";
    std::ofstream(dir.path("possible.txt")) << "0p0\n1?1\n\n";
    std::ofstream(dir.path("hyp.txt")) << "0-0\n1-1\n2-2\n";
    for (const auto& gold : {dir.path("blank.txt"), dir.path("possible.txt")})
        for (const std::string hyp : {dir.path("blank.txt"), dir.path("hyp.txt")})
            for (const std::string json : {std::string(), std::string(" --json"), " --versus " + dir.path("hyp.txt")}) {
                const auto r = run("aer --gold " + gold + " --hyp " + hyp + json);
                EXPECT_EQ(r.exitCode, 2) << r.out;
                EXPECT_NE(r.out.find("'" + gold + "' has no sure links"), std::string::npos) << r.out;
                EXPECT_NE(r.out.find("recall and AER are undefined"), std::string::npos) << r.out;
                EXPECT_EQ(r.out.find("AER 0.00"), std::string::npos) << r.out;
                EXPECT_EQ(r.out.find("\"aer\""), std::string::npos) << r.out;
            }
}

TEST_F(Cli, CompareOneSentenceWithTwoModels) {
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("twin.pt"));
    auto r = run("compare " + model() + " --with " + dir.path("twin.pt") + " --source 'the red car'");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    const auto same = nlohmann::json::parse(r.out);
    EXPECT_EQ(same["level"], "tokens");
    EXPECT_EQ(same["agreeing_rows"], same["a"]["rows"].size()) << "one model twice agrees everywhere";
    EXPECT_EQ(same["max_abs_difference"], 0.0);
    // Forced along one target: every row compares.
    r = run("compare " + model() + " --with " + dir.path("twin.pt") + " --source 'the red car' --target 'la voiture rouge'");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    const auto forced = nlohmann::json::parse(r.out);
    EXPECT_EQ(forced["a"]["rows"], (std::vector<std::string>{"la", "voiture", "rouge", "</s>"}));
    EXPECT_EQ(forced["agreeing_rows"], 4);
    // --words: the same tokens, compared over the words of the text.
    r = run("compare " + model() + " --with " + dir.path("twin.pt") + " --source 'the red car' --words");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    const auto merged = nlohmann::json::parse(r.out);
    EXPECT_EQ(merged["level"], "words");
    EXPECT_EQ(merged["same_tokens"], true);
    EXPECT_EQ(merged["columns"], (std::vector<std::string>{"the", "red", "car"}));
    // Against a model that reads sub-word pieces: both merged to the words of the text.
    tests::tinyPieceModel().save(dir.path("pieces.pt"));
    r = run("compare " + model() + " --with " + dir.path("pieces.pt") + " --source 'the red car'");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    const auto words = nlohmann::json::parse(r.out);
    EXPECT_EQ(words["level"], "words");
    EXPECT_EQ(words["columns"], (std::vector<std::string>{"the", "red", "car"}));
    EXPECT_EQ(words["a"]["alpha"][0].size(), 3u);
    r = run("compare " + model() + " --with " + dir.path("missing.pt") + " --source 'the car'");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find(dir.path("missing.pt")), std::string::npos) << r.out;
    r = run("compare " + model() + " --with " + dir.path("twin.pt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("--source TEXT or --test FILE"), std::string::npos) << r.out;
}

// The test-set scores agree with align + aer run by hand on the same files.
TEST_F(Cli, CompareOnATestSetScoresBothModelsAsAlignAndAerDo) {
    std::filesystem::copy_file(dir.path("tiny.pt"), dir.path("twin.pt"));
    std::ofstream(dir.path("test.tsv")) << "the red car\tla voiture rouge\na small house .\tune petite maison .\nthe car\tla voiture\n";
    std::ofstream(dir.path("pairs.txt"))
        << "the red car ||| la voiture rouge\na small house . ||| une petite maison .\nthe car ||| la voiture\n";
    std::ofstream(dir.path("gold.txt")) << "0-0 1-2 2-1\n0-0 1p1 1-2 2-2 3-3\n0-0 1-1\n";
    auto r = run("align " + model() + " -i " + dir.path("pairs.txt") + " -o " + dir.path("hyp.txt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    r = run("aer --json --gold " + dir.path("gold.txt") + " --hyp " + dir.path("hyp.txt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const double aer = nlohmann::json::parse(r.out)["aer"];
    r = run("compare --json " + model() + " --with " + dir.path("twin.pt") + " --test " + dir.path("test.tsv") + " --gold " +
            dir.path("gold.txt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto scores = nlohmann::json::parse(r.out);
    ASSERT_EQ(scores["models"].size(), 2u);
    for (const auto& m : scores["models"]) {
        EXPECT_NEAR(m["aer"].get<double>(), aer, 1e-9) << r.out;
        EXPECT_GE(m["bleu"].get<double>(), 0.0);
        EXPECT_EQ(m["segments"], 3);
    }
    r = run("compare " + model() + " --with " + dir.path("twin.pt") + " --test " + dir.path("test.tsv") + " --gold " +
            dir.path("gold.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("AER"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("B  "), std::string::npos) << r.out;
    std::ofstream(dir.path("short.txt")) << "0-0\n";
    r = run("compare " + model() + " --with " + dir.path("twin.pt") + " --test " + dir.path("test.tsv") + " --gold " +
            dir.path("short.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("'" + dir.path("short.txt") + "' has 1 lines of links for 3 test pairs"), std::string::npos) << r.out;
}

// train as a user runs it: a model the other commands open. With --no-progress stderr keeps only the
// run's own lines; with no validation pairs the latest model is kept and nothing claims a score.
// The quiet run builds the conditional decoder, which its metadata names.
TEST_F(Cli, TrainWritesAModelAndNoProgressLeavesStderrToTheRunsOwnLines) {
    std::ofstream corpus(dir.path("corpus.tsv"));
    for (int i = 0; i < 200; ++i) corpus << "a b c " << i % 7 << "\tx y " << i % 7 << "\n";
    corpus.close();
    const std::string args = "train --corpus " + dir.path("corpus.tsv") +
                             " --embedding 8 --encoder-hidden 8 --decoder-hidden 16 --attention-size 8 --readout 8 --steps 4"
                             " --batch 16 --valid-bleu 0 --train-threads 1 --valid-fraction 0";
    for (const bool quiet : {false, true}) {
        const auto out = dir.path(quiet ? "quiet.pt" : "shown.pt");
        auto r = run(args + " -o " + out + (quiet ? " --no-progress --decoder conditional" : ""));
        ASSERT_EQ(r.exitCode, 0) << r.out;
        EXPECT_NE(r.out.find("pairs: 200 train, 0 validation"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("step 4: no validation pairs: saved the latest model to " + out), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("done: 4 steps, no validation pairs (the model is the last update's)"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("4/4 steps") != std::string::npos, !quiet) << r.out;
        EXPECT_EQ(r.out.find("NLL"), std::string::npos) << r.out;
        r = run("translate --model " + out + " --no-progress --max-len 3 -i /dev/null");
        EXPECT_EQ(r.exitCode, 0) << r.out;
        EXPECT_EQ(core::Model::load(out).metadata()["architecture"]["decoder"], quiet ? "conditional" : "bahdanau");
    }
    // A model trained on keeps its decoder here; the refusal names the trainer that moves one into the other.
    const auto r = run("train --corpus " + dir.path("corpus.tsv") + " -o " + dir.path("warm.pt") + " --init-from " + dir.path("shown.pt") +
                       " --decoder conditional --steps 1");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("--init-from '" + dir.path("shown.pt") + "' trains that model's own decoder here: leave out --decoder"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("python3 -m alignscope train --init-from MODEL --decoder conditional"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists(dir.path("warm.pt")));
}

// split writes the split train makes: every pair once, every translation of a source in one part,
// the same parts for the same seed.
TEST_F(Cli, SplitWritesTheTrainersSplitBySourceSentence) {
    std::ofstream corpus(dir.path("corpus.tsv"));
    for (int i = 0; i < 300; ++i) corpus << "sentence " << i % 120 << "\ttranslation " << i << "\n";
    corpus.close();
    const auto args = "split --corpus " + dir.path("corpus.tsv") + " --valid-fraction 0.1 --test-fraction 0.2 --seed 3";
    auto r = run(args + " --train-out " + dir.path("train.tsv") + " --valid-out " + dir.path("valid.tsv") + " --test-out " +
                 dir.path("test.tsv"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    std::map<std::string, std::string> partOf;  // source -> the part its pairs went to
    size_t pairs = 0;
    for (const char* part : {"train.tsv", "valid.tsv", "test.tsv"}) {
        const auto lines = tests::readLines(dir.path(part));
        EXPECT_FALSE(lines.empty()) << part;
        for (const auto& line : lines) {
            const auto source = line.substr(0, line.find('\t'));
            const auto [it, added] = partOf.emplace(source, part);
            EXPECT_EQ(it->second, part) << source << " is in two parts";
            ++pairs;
        }
    }
    EXPECT_EQ(pairs, 300u);
    EXPECT_EQ(partOf.size(), 120u);
    r = run(args + " --test-out " + dir.path("again.tsv"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(tests::readLines(dir.path("again.tsv")), tests::readLines(dir.path("test.tsv"))) << "the same seed, the same split";
    r = run("split --corpus " + dir.path("corpus.tsv"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("writes nothing"), std::string::npos) << r.out;
}

// Corpus scale: translate and align read, decode and write a chunk at a time, so a million lines
// take no more memory than ten thousand (a leak or a kept result per line would show as ~100 MB).
TEST_F(Cli, AMillionLinesStreamInTheMemoryOfTenThousand) {
    const std::vector<std::string> sentences = {"the red car", "a small house .", "the car", "a red house"};
    for (const auto& [name, lines] : {std::pair<std::string, int>{"small", 10000}, {"large", 1000000}}) {
        std::ofstream src(dir.path(name + ".txt")), pairs(dir.path(name + "-pairs.txt"));
        for (int i = 0; i < lines; ++i) {
            src << sentences[static_cast<size_t>(i) % sentences.size()] << '\n';
            pairs << sentences[static_cast<size_t>(i) % sentences.size()] << " ||| the red car\n";
        }
    }
    for (const std::string command : {"translate --max-len 4", "align"}) {
        std::map<std::string, long> peak;
        for (const std::string name : {"small", "large"}) {
            const auto input = command == "align" ? dir.path(name + "-pairs.txt") : dir.path(name + ".txt");
            const auto r = tests::runMeasuringMemory(std::string(ALIGNSCOPE_CLI) + " " + command + " " + model() + " --batch 64 -i " +
                                                     tests::shellQuoted(input) + " -o " + tests::shellQuoted(dir.path("out.txt")) + " 2>" +
                                                     tests::shellQuoted(dir.path("err.txt")));
            ASSERT_EQ(r.exitCode, 0) << command << " " << name << ": " << tests::readFile(dir.path("err.txt"));
            peak[name] = r.peakKb;
        }
        std::cout << command << ": peak resident memory " << peak["small"] << " kB for 10,000 lines, " << peak["large"]
                  << " kB for 1,000,000\n";
        EXPECT_EQ(tests::readLines(dir.path("out.txt")).size(), 1000000u) << command;
        EXPECT_GT(peak["small"], 50 * 1024) << command << ": the CLI with LibTorch is measured, not a small parent";
        EXPECT_LT(peak["large"] - peak["small"], 20 * 1024)
            << command << ": peak " << peak["small"] << " kB for 10,000 lines, " << peak["large"] << " kB for 1,000,000";
    }
}
