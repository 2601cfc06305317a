// alignscope-cli evaluate, make-dates and check-dates run as a user runs them.
#include "CommandRunner.h"
#include "TinyModel.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace alignscope;

namespace {

struct Run {
    int exitCode;
    std::string out;
};

// `stderrTo`: where the command's stderr goes ("&1": into the captured output).
Run run(const std::string& args, const std::string& stderrTo = "&1") {
    const auto r = tests::runCommand(std::string(ALIGNSCOPE_CLI) + " " + args, stderrTo);
    return {r.exitCode, r.output};
}

class EvaluateCli : public ::testing::Test {
protected:
    void SetUp() override {
        tests::tinyModel().save(dir.path("tiny.pt"));
        // Three pairs, two distinct sources: the first has two references.
        std::ofstream(dir.path("test.tsv")) << "the red car\tla voiture rouge\n"
                                               "a house\tune maison\n"
                                               "the red car\tune voiture rouge\n";
    }
    std::string model() const { return "--model " + dir.path("tiny.pt"); }
    tests::TempDir dir;
};

}  // namespace

TEST_F(EvaluateCli, PrintsATableAndWritesJsonAndHypotheses) {
    auto r = run("evaluate " + model() + " --test " + dir.path("test.tsv") + " --beam 3 --max-len 5 --json " + dir.path("scores.json") +
                     " --hypotheses " + dir.path("hyp.tsv"),
                 "/dev/null");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("3 pairs; 2 distinct sources with 3 references"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("lower-cased"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\ngreedy "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nbeam 3 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("BLEU by source length"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n1-5     "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n31+     "), std::string::npos) << r.out;

    const auto j = nlohmann::json::parse(tests::readFile(dir.path("scores.json")));
    EXPECT_EQ(j["pairs"], 3);
    EXPECT_EQ(j["sentences"], 2);
    EXPECT_EQ(j["references"], 3);
    ASSERT_EQ(j["searches"].size(), 2u);
    EXPECT_EQ(j["searches"][0]["name"], "greedy");
    EXPECT_EQ(j["searches"][1]["beam_width"], 3);
    EXPECT_TRUE(j["searches"][1]["bleu"].is_number());
    EXPECT_EQ(j["buckets"][0]["label"], "1-5");
    EXPECT_EQ(j["buckets"][0]["sentences"], 2);
    EXPECT_EQ(j["model"]["name"], "tiny-test");

    const auto hyp = tests::readLines(dir.path("hyp.tsv"));
    ASSERT_EQ(hyp.size(), 3u);
    EXPECT_EQ(hyp[0], "source\tgreedy\tbeam 3");
    EXPECT_EQ(hyp[1].rfind("the red car\t", 0), 0u) << hyp[1];
}

TEST_F(EvaluateCli, ProgressGoesToStderrAndBeamOneIsGreedyOnly) {
    auto r =
        run("evaluate " + model() + " --test " + dir.path("test.tsv") + " --beam 1 --max-len 3 --max-sentences 1", dir.path("err.txt"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_EQ(r.out.find("beam"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2 used (--max-sentences)"), std::string::npos) << r.out;
    EXPECT_NE(tests::readFile(dir.path("err.txt")).find("100%  1/1 sentences  greedy"), std::string::npos)
        << tests::readFile(dir.path("err.txt"));
    // --no-progress: the report, and nothing on stderr.
    auto quiet = run("evaluate " + model() + " --test " + dir.path("test.tsv") + " --beam 1 --max-len 3 --max-sentences 1 --no-progress",
                     dir.path("quiet.txt"));
    ASSERT_EQ(quiet.exitCode, 0) << quiet.out;
    EXPECT_NE(quiet.out.find("2 used (--max-sentences)"), std::string::npos) << quiet.out;
    EXPECT_EQ(tests::readFile(dir.path("quiet.txt")), "");
}

TEST_F(EvaluateCli, MissingTestFileAndBadLinesAreClearErrors) {
    auto r = run("evaluate " + model() + " --test " + dir.path("missing.tsv"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("does not exist"), std::string::npos) << r.out;
    std::ofstream(dir.path("bad.tsv")) << "the car\tla voiture\nno tab here\n";
    r = run("evaluate " + model() + " --test " + dir.path("bad.tsv"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("bad.tsv:2: missing tab"), std::string::npos) << r.out;
    r = run("evaluate " + model() + " --test " + dir.path("test.tsv") + " --json /nonexistent-dir/s.json");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("cannot write"), std::string::npos) << r.out;
}

TEST(DatesCli, MakeDatesIsDeterministicAndWritesTsv) {
    tests::TempDir dir;
    auto r = run("make-dates --out " + dir.path("a.tsv") + " --count 50 --seed 3");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    r = run("make-dates --out " + dir.path("b.tsv") + " --count 50 --seed 3");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto a = tests::readLines(dir.path("a.tsv"));
    ASSERT_EQ(a.size(), 50u);
    EXPECT_EQ(a, tests::readLines(dir.path("b.tsv")));
    for (const auto& l : a) EXPECT_NE(l.find("\t"), std::string::npos) << l;
    r = run("make-dates --out " + dir.path("c.tsv") + " --count 50 --seed 4");
    EXPECT_NE(a, tests::readLines(dir.path("c.tsv")));
    r = run("make-dates --out /nonexistent-dir/d.tsv --count 5");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("cannot write"), std::string::npos) << r.out;
}

TEST(DatesCli, CheckDatesReportsOnAModel) {
    // An untrained model with the wrong vocabulary: the report must still come out, with low numbers.
    tests::TempDir dir;
    tests::tinyModel().save(dir.path("tiny.pt"));
    auto r = run("check-dates --model " + dir.path("tiny.pt") + " --count 5 --json", "/dev/null");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["examples"], 5);
    EXPECT_EQ(j["exact"], 0);
    EXPECT_EQ(j["forms"].size(), 6u);
}

TEST_F(EvaluateCli, BucketsAreTheUsersAndBadBoundsAreRefused) {
    auto r = run(
        "evaluate " + model() + " --test " + dir.path("test.tsv") + " --beam 1 --max-len 3 --buckets 2,3 --json " + dir.path("scores.json"),
        "/dev/null");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto j = nlohmann::json::parse(tests::readFile(dir.path("scores.json")));
    ASSERT_EQ(j["buckets"].size(), 3u);
    EXPECT_EQ(j["buckets"][0]["label"], "1-2");
    EXPECT_EQ(j["buckets"][1]["label"], "3");  // "the red car": 3 tokens
    EXPECT_EQ(j["buckets"][1]["sentences"], 1);
    EXPECT_EQ(j["buckets"][2]["label"], "4+");
    r = run("evaluate " + model() + " --test " + dir.path("test.tsv") + " --buckets 5,3");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("positive and increasing"), std::string::npos) << r.out;
}
