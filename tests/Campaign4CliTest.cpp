// The fourth fuzz campaign's cases for alignscope-cli (issue 59, ../shared/fuzz/repro/campaign4/;
// docs/fuzz-campaign4.md maps each folder to its test): lines with nothing visible are blank lines
// in every command, a vocabulary that is not UTF-8 is refused by file and token, a long translation's
// links name the translation, a pipe as --reverse-model is refused by name, JSON never carries raw
// line separators, and a lesson site keeps each picture once.
#include "CommandRunner.h"
#include "TinyModel.h"

#include "core/model/ModelBuilder.h"
#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/stat.h>

using namespace alignscope;
namespace fs = std::filesystem;

namespace {

class Campaign4 : public ::testing::Test {
protected:
    tests::CommandResult cli(const std::string& args, const std::string& stderrTo = "&1") {
        return tests::runCommand(std::string(ALIGNSCOPE_CLI) + " " + args, stderrTo);
    }
    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(dir.path(name), std::ios::binary) << text;
        return dir.path(name);
    }
    tests::TempDir dir;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string campaignFile(const std::string& name) { return std::string(ALIGNSCOPE_TEST_DATA) + "/campaign4/" + name; }

// invisible-lines-exported's first two lines: NBSP, EM SPACE, ZWSP, WORD JOINER, BOM; three U+2028.
const std::string kInvisible = "\xC2\xA0\xE2\x80\x83\xE2\x80\x8B\xE2\x81\xA0\xEF\xBB\xBF";
const std::string kSeparators = "\xE2\x80\xA8\xE2\x80\xA8\xE2\x80\xA8";

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_F(Campaign4, LinesWithNothingVisibleAreBlankLinesInEveryCommand) {
    const auto input = write("invisible.txt", kInvisible + "\n" + kSeparators + "\nThe car.\n");
    auto r = cli("translate --no-progress -i " + input, "/dev/null");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    std::istringstream lines(r.output);
    std::string first, second, third;
    std::getline(lines, first), std::getline(lines, second), std::getline(lines, third);
    EXPECT_EQ(first, "");
    EXPECT_EQ(second, "");
    EXPECT_FALSE(third.empty()) << r.output;

    r = cli("trace -i " + input, "/dev/null");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_EQ(r.output.substr(0, 10), "null\nnull\n") << r.output.substr(0, 200);

    // export skips them as it skips blank lines (counted: the third line keeps its number).
    for (const std::string format : {"json", "html"}) {
        const auto out = dir.path("out-" + format);
        r = cli("export --format " + format + " --no-progress -i " + input + " --out " + out);
        EXPECT_EQ(r.exitCode, 0) << r.output;
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
        EXPECT_EQ(names, std::vector<std::string>{"0003-the-car." + format}) << r.output;
    }

    // compare takes one sentence: an empty or invisible one is refused, not decoded.
    const std::string models = core::Runtime::modelsDirectory();
    for (const std::string source : {std::string(), std::string("   "), kSeparators, kInvisible}) {
        r = cli("compare --model " + models + "/lesson-dates.pt --with " + models + "/en-fr-subword.pt --source '" + source + "'");
        EXPECT_EQ(r.exitCode, 2) << r.output;
        EXPECT_TRUE(contains(r.output, "compare --source needs a source sentence (this one has nothing visible)")) << r.output;
    }
}

TEST_F(Campaign4, AVocabularyThatIsNotUtf8IsRefusedNamingTheFileAndTheToken) {
    const auto model = campaignFile("hv-invalid-utf8.pt");
    const auto input = write("in.txt", "a b\n");
    for (const std::string command :
         {"inspect --model " + model, "trace --model " + model + " -i " + input,
          "translate --no-progress --model " + model + " -i " + input,
          "export --format json --no-progress --model " + model + " -i " + input + " --out " + dir.path("out")}) {
        const auto start = std::chrono::steady_clock::now();
        const auto r = cli(command);
        EXPECT_EQ(r.exitCode, 2) << command << ": " << r.output;
        EXPECT_TRUE(contains(r.output, model)) << r.output;
        EXPECT_TRUE(contains(r.output, "attribute 'src_vocab' token 4 is not valid UTF-8 (bad byte at offset 0)")) << r.output;
        EXPECT_FALSE(contains(r.output, "json.exception")) << r.output;
        EXPECT_LT(secondsSince(start), 20.0) << command;  // about 1 s; a loaded machine takes longer
    }
}

TEST_F(Campaign4, LinksOfATranslationOverTheLineCapNameTheTranslation) {
    const auto input = write("in.txt", "ok ok\n");
    const auto r = cli("export --format html --no-progress --model " + campaignFile("hv-long-token.pt") + " -i " + input + " --out " +
                       dir.path("out") + " --links argmax-skip-eos");
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_TRUE(contains(r.output, "line 1: the translation has ")) << r.output;
    EXPECT_TRUE(contains(r.output, " characters; links are found for translations of at most 10000")) << r.output;
    EXPECT_FALSE(contains(r.output, "the line has")) << r.output;
}

TEST_F(Campaign4, APipeOrAnEmptyNameAsReverseModelIsRefusedByName) {
    tests::tinyModel().save(dir.path("tiny.pt"));
    const auto input = write("pair.txt", "the red car ||| la voiture rouge\n");
    ASSERT_EQ(mkfifo(dir.path("rev.pt").c_str(), 0600), 0);
    const std::string common = " --no-progress --model " + dir.path("tiny.pt") + " --links grow-diag-final-and -i " + input;
    for (const std::string command : {"align" + common, "export --format html" + common + " --out " + dir.path("out")}) {
        const auto start = std::chrono::steady_clock::now();
        auto r = cli(command + " --reverse-model " + dir.path("rev.pt"));
        EXPECT_EQ(r.exitCode, 2) << command << ": " << r.output;
        EXPECT_TRUE(contains(r.output, "--reverse-model '" + dir.path("rev.pt") + "' is a pipe, not a regular file")) << r.output;
        EXPECT_FALSE(contains(r.output, "step")) << r.output;
        EXPECT_LT(secondsSince(start), 20.0) << command;  // about 2 s (it hung for ever)
        r = cli(command + " --reverse-model ''");
        EXPECT_EQ(r.exitCode, 2) << command << ": " << r.output;
        EXPECT_TRUE(contains(r.output, "--reverse-model has an empty name")) << r.output;
    }
    // A reverse model that cannot be read stops export at once, as it stops align (not every line).
    write("truncated.pt", tests::readFile(dir.path("tiny.pt")).substr(0, 3000));
    write("pairs.txt", "the red car ||| la voiture rouge\nthe car ||| la voiture\n");
    const auto r = cli("export --format html --no-progress --model " + dir.path("tiny.pt") + " --links grow-diag-final-and -i " +
                       dir.path("pairs.txt") + " --out " + dir.path("out2") + " --reverse-model " + dir.path("truncated.pt"));
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_TRUE(contains(r.output, dir.path("truncated.pt"))) << r.output;
    EXPECT_FALSE(contains(r.output, "line 2")) << r.output;
}

TEST_F(Campaign4, TraceWritesLineSeparatorsAsEscapes) {
    // A vocabulary's own text reaches trace's JSON raw: here the target's unknown-word token (format 2
    // names its specials) holds U+2028 and U+0085, and a forced target of unknown words shows it.
    const std::string unknown = "\xE2\x80\xA8unk\xC2\x85";
    core::ModelBuilder::Input in;
    in.spec = tests::tinySpec();
    in.sourceVocabulary = core::Vocabulary({"<pad>", "<unk>", "<s>", "</s>", "a", "b"});
    in.targetVocabulary = core::Vocabulary({"<pad>", unknown, "<s>", "</s>", "x", "y"}, core::SpecialIds{0, 1, 2, 3});
    core::Model(core::ModelBuilder::build(in)).save(dir.path("separators.pt"));
    const auto input = write("in.txt", "a b ||| zzz x\n");
    const auto r = cli("trace --model " + dir.path("separators.pt") + " -i " + input, "/dev/null");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(contains(r.output, "\\u2028unk\\u0085")) << r.output.substr(0, 300);
    EXPECT_FALSE(contains(r.output, "\xC2\x85")) << r.output.substr(0, 300);
    EXPECT_FALSE(contains(r.output, "\xE2\x80\xA8")) << r.output.substr(0, 300);
}

TEST_F(Campaign4, ALessonSiteKeepsEachPictureOnce) {
    // One picture (a 256 x 256 PNG of noise, 193 KiB) named nine times a page, on three pages.
    fs::create_directories(dir.path("lesson/figures"));
    const auto made = tests::runCommand(
        "/usr/bin/python3 -c \"import os, struct, sys, zlib\n"
        "def chunk(t, b): return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b) & 0xffffffff)\n"
        "rows = b''.join(b'\\x00' + os.urandom(256 * 3) for _ in range(256))\n"
        "open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 256, 256, 8, 2, 0, 0, 0))"
        " + chunk(b'IDAT', zlib.compress(rows, 0)) + chunk(b'IEND', b''))\" " +
        dir.path("lesson/figures/p.png"));
    ASSERT_EQ(made.exitCode, 0) << made.output;
    const std::string png = tests::readFile(dir.path("lesson/figures/p.png"));
    nlohmann::json page = {{"model", "lesson-dates"}, {"source", "the fifth of march , 1998"}, {"steps", 2}, {"image", "figures/p.png"}};
    std::string text;
    for (int k = 0; k < 8; ++k) text += "<img src=\"figures/p.png\">";
    page["text"] = text;
    write("lesson/lesson.json", nlohmann::json{{"title", "one picture"}, {"pages", {page, page, page}}}.dump());
    const auto start = std::chrono::steady_clock::now();
    const auto r = cli("export-lesson " + dir.path("lesson/lesson.json") + " --out " + dir.path("site"));
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_LT(secondsSince(start), 30.0);
    std::vector<fs::path> pictures;
    for (const auto& e : fs::directory_iterator(dir.path("site/pictures"))) pictures.push_back(e.path());
    ASSERT_EQ(pictures.size(), 1u);
    EXPECT_EQ(fs::file_size(pictures[0]), png.size());
    EXPECT_EQ(tests::readFile(pictures[0].string()), png);
    const std::string name = "pictures/" + pictures[0].filename().string();
    for (const auto* p : {"page-01.html", "page-02.html", "page-03.html"}) {
        const auto html = tests::readFile(dir.path(std::string("site/") + p));
        EXPECT_LT(html.size(), png.size()) << p;  // the picture is not in the page (it was 9 times, as base64)
        EXPECT_FALSE(contains(html, "data:image/png;base64")) << p;
        EXPECT_TRUE(contains(html, name)) << p;
        EXPECT_TRUE(contains(html, "img-src data: 'self'")) << p;  // the page's policy lets it show
    }
    // A link where the pictures folder goes is not written through.
    fs::create_directories(dir.path("elsewhere"));
    fs::create_directories(dir.path("site2"));
    fs::create_directory_symlink(dir.path("elsewhere"), dir.path("site2/pictures"));
    const auto link = cli("export-lesson " + dir.path("lesson/lesson.json") + " --out " + dir.path("site2"));
    EXPECT_EQ(link.exitCode, 2) << link.output;
    EXPECT_TRUE(contains(link.output, "lesson '" + dir.path("lesson/lesson.json") + "' page 1")) << link.output;
    EXPECT_TRUE(contains(link.output, "pictures' is a symbolic link: not written through")) << link.output;
    EXPECT_TRUE(fs::is_empty(dir.path("elsewhere")));
}
