// alignscope-cli run as a user runs it: files in, lines out, errors on stderr with an exit code.
#include "CommandRunner.h"
#include "TinyModel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
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
    auto r = run("translate " + model() + " --beam 3 --max-len 6 -i " + dir.path("in.txt") + " -o " +
                 dir.path("out.txt"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(tests::readLines(dir.path("out.txt")).size(), 3u);
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
    EXPECT_NE(r.out.find("meets AlignScope model format v1"), std::string::npos);
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
