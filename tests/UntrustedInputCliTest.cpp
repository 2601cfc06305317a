// Inputs from anyone, as the third fuzz campaign gave them to alignscope-cli (issue 47): gold
// links that are devices, a corpus line longer than the tokenizer takes, a training run listing
// thousands of snapshots. Each is refused by name (exit 2, or 1 for a bad line among good ones)
// within 10 s and 500 MB, or handled with flat memory.
#include "CommandRunner.h"
#include "TinyModel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <vector>

#include <sys/stat.h>

using namespace alignscope;

namespace {

class UntrustedInput : public ::testing::Test {
protected:
    void SetUp() override { tests::tinyModel().save(dir.path("tiny.pt")); }
    tests::CommandResult cli(const std::string& args) { return tests::runCommand(std::string(ALIGNSCOPE_CLI) + " " + args); }
    tests::TempDir dir;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_F(UntrustedInput, GoldLinksThatAreNotRegularFilesAreRefusedBeforeReading) {
    std::ofstream(dir.path("hyp.txt")) << "0-0\n";
    std::ofstream(dir.path("test.tsv")) << "the car\tla voiture\n";
    for (const auto& args :
         {"aer --gold /dev/zero --hyp " + dir.path("hyp.txt"), "compare --model " + dir.path("tiny.pt") + " --with " + dir.path("tiny.pt") +
                                                                   " --test " + dir.path("test.tsv") + " --gold /dev/zero"}) {
        const auto start = std::chrono::steady_clock::now();
        const auto peak = tests::runMeasuringMemory(std::string(ALIGNSCOPE_CLI) + " " + args + " >/dev/null 2>&1");
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 2) << args << ": " << r.output;
        EXPECT_TRUE(contains(r.output, "'/dev/zero' is a device, not a regular file")) << r.output;
        EXPECT_LT(peak.peakKb, 500 * 1024) << args;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0) << args;
    }
}

TEST_F(UntrustedInput, ACorpusLineLongerThanTheTokenizerTakesIsNamedOrSkipped) {
    std::ofstream(dir.path("corpus.tsv")) << "the car\tla voiture\n"
                                          << std::string(10001, 'a') << "\tune\n"
                                          << "a house\tune maison\n";
    const std::string train = "train --corpus " + dir.path("corpus.tsv") + " -o " + dir.path("m.pt") +
                              " --steps 2 --embedding 8 --encoder-hidden 8 --decoder-hidden 8 --attention-size 8 --readout 8 "
                              "--valid-fraction 0 --test-fraction 0";
    auto r = cli(train);
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_TRUE(contains(r.output, dir.path("corpus.tsv") + ":2: the source has 10001 characters; at most 10000")) << r.output;
    r = cli(train + " --skip-bad-lines");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(contains(r.output, "skipped line 2: the source has 10001 characters")) << r.output;
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.path("m.pt")));
}

// A run folder whose index lists one snapshot many times (campaign 3 listed 2,000): each frame is
// drawn and written in turn, so ten times the snapshots take no more memory.
TEST_F(UntrustedInput, ATimelineExportHoldsOneFrameAtATime) {
    std::ofstream(dir.path("pair.txt")) << "the red car ||| la voiture rouge\n";
    long peak[2] = {0, 0};
    const int counts[2] = {20, 200};
    for (int k = 0; k < 2; ++k) {
        const auto run = dir.path("run" + std::to_string(counts[k]));
        std::filesystem::create_directories(run);
        std::filesystem::copy_file(dir.path("tiny.pt"), run + "/s.pt");
        std::ofstream index(run + "/run.timeline.json");
        index << R"({"format": "alignscope-timeline", "snapshots": [)";
        for (int s = 1; s <= counts[k]; ++s) index << (s > 1 ? ", " : "") << R"({"step": )" << s << R"(, "file": "s.pt", "loss": 1.5})";
        index << "]}";
        index.close();
        const auto out = dir.path("out" + std::to_string(counts[k]));
        const auto r = tests::runMeasuringMemory(std::string(ALIGNSCOPE_CLI) + " export --format gif --no-progress --timeline " + run +
                                                 " --out " + out + " -i " + dir.path("pair.txt") + " 2>" + dir.path("err.txt"));
        ASSERT_EQ(r.exitCode, 0) << tests::readFile(dir.path("err.txt"));
        peak[k] = r.peakKb;
        ASSERT_EQ(std::distance(std::filesystem::directory_iterator(out), std::filesystem::directory_iterator()), 1);
    }
    std::cout << "timeline GIF export: peak " << peak[0] / 1024 << " MB for 20 snapshots, " << peak[1] / 1024 << " MB for 200\n";
    EXPECT_LT(peak[1], peak[0] + 40 * 1024) << "memory grows with the snapshots";
}

// Names export and export-lesson make in --out never leave it (issue 59): a link there (to a file,
// or dangling) or a FIFO under an output's name is refused by name at once, nothing is written
// outside --out, and the FIFO does not block the run.
TEST_F(UntrustedInput, LinksAndPipesUnderAnOutputNameInTheFolderAreRefused) {
    namespace fs = std::filesystem;
    std::ofstream(dir.path("in.txt")) << "the red car\n";
    std::ofstream(dir.path("lesson.json")) << R"({"title": "t", "pages": [{"text": "A page.", "source": "the car"}]})";
    fs::create_directory(dir.path("victim"));
    std::ofstream(dir.path("victim/file")) << "old\n";
    const std::string out = dir.path("out");
    const std::string exportArgs = "--model " + dir.path("tiny.pt") + " --no-progress -i " + dir.path("in.txt") + " --out " + out;
    struct Case {
        std::string args, name;
    };
    const std::vector<Case> cases{{"export --format html " + exportArgs, "0001-the-red-car.html"},
                                  {"export --format json " + exportArgs, "0001-the-red-car.json"},
                                  {"export --format frames --dpi 30 " + exportArgs, "0001-the-red-car-step01.png"},
                                  {"export-lesson " + dir.path("lesson.json") + " --out " + out, "page-01.html"}};
    for (const auto& c : cases)
        for (const std::string kind : {"link", "dangling link", "pipe"}) {
            fs::remove_all(out);
            fs::create_directory(out);
            const std::string planted = out + "/" + c.name;
            if (kind == "link") fs::create_symlink(dir.path("victim/file"), planted);
            if (kind == "dangling link") fs::create_symlink(dir.path("victim/created"), planted);
            if (kind == "pipe") ASSERT_EQ(mkfifo(planted.c_str(), 0600), 0);
            const auto start = std::chrono::steady_clock::now();
            const auto r = tests::runCommand("timeout 20 " + std::string(ALIGNSCOPE_CLI) + " " + c.args);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::string expected =
                "'" + planted + "'" + (kind == "pipe" ? " is a pipe, not a regular file" : " is a symbolic link: not written through");
            EXPECT_NE(r.exitCode, 0) << c.args << " (" << kind << "): " << r.output;
            EXPECT_NE(r.exitCode, 124) << c.args << " (" << kind << ") hung";
            EXPECT_TRUE(contains(r.output, expected)) << c.args << " (" << kind << "): " << r.output;
            EXPECT_LT(seconds, 10.0) << c.args << " (" << kind << ")";
            EXPECT_EQ(tests::readFile(dir.path("victim/file")), "old\n") << c.args;
            EXPECT_FALSE(fs::exists(dir.path("victim/created"))) << c.args;
            EXPECT_TRUE(fs::is_symlink(planted) || kind == "pipe") << c.args;
        }
}

// A line with no end is read no further than the longest line taken (issue 59): a 1 MB line
// without a newline, and /dev/zero, are refused by line number in flat memory and at once.
TEST_F(UntrustedInput, ALineWithoutEndIsRefusedAfterTheLimitInFlatMemory) {
    std::ofstream(dir.path("long.txt")) << "the car\n" << std::string(1 << 20, 'a');
    const std::string model = " --model " + dir.path("tiny.pt") + " -i ";
    for (const std::string input : {dir.path("long.txt"), std::string("/dev/zero")})
        for (const std::string command : {"translate", "align", "trace", "export"}) {
            const std::string args = command + (command == "trace" ? "" : " --no-progress") + model + input +
                                     (command == "export" ? " --format json --out " + dir.path("out") : std::string());
            const auto start = std::chrono::steady_clock::now();
            const auto peak = tests::runMeasuringMemory("timeout 20 " + std::string(ALIGNSCOPE_CLI) + " " + args + " >/dev/null 2>&1");
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const auto r = tests::runCommand("timeout 20 " + std::string(ALIGNSCOPE_CLI) + " " + args);
            const std::string line = input == "/dev/zero" ? "line 1" : "line 2";
            EXPECT_NE(peak.exitCode, 0) << args;
            EXPECT_NE(r.exitCode, 124) << args << " ran on";
            EXPECT_TRUE(contains(r.output, line + ": the line has more than 10000 characters")) << args << ": " << r.output;
            EXPECT_LT(peak.peakKb, 500 * 1024) << args;
            EXPECT_LT(seconds, 10.0) << args;
        }
}
