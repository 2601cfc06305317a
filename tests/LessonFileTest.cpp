// Lesson files from anyone (issue 47): the markup of their text, their JSON, the files their pages
// name, and the app started on them. Everything outside the format is refused when the lesson
// opens, naming the file, the page and the key; nothing crashes, hangs or fills memory.
#include "CommandRunner.h"
#include "TinyModel.h"

#include "core/Error.h"
#include "core/lesson/LessonFormat.h"
#include "core/lesson/LessonMarkup.h"
#include "ui/DecodingDocument.h"
#include "ui/Lesson.h"
#include "ui/MainWindow.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QTemporaryDir>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <zlib.h>

namespace core = alignscope::core;
namespace tests = alignscope::tests;
namespace ui = alignscope::ui;
using Markup = core::LessonMarkup;

namespace {

std::string refusal(const std::function<void()>& action) {
    try {
        action();
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(accepted)";
}

std::string markupError(const std::string& text) {
    return refusal([&] { Markup::parse(text); });
}

const core::LessonFormat::Names kNames{{"query", "softmax"}, {"occlusion"}};

std::string formatError(const std::string& json) {
    return refusal([&] { core::LessonFormat::parse(json, "l.json", kNames); });
}

// A page of a lesson, its keys after the text and the source ("" for none).
std::string lessonJson(const std::string& extra, const std::string& text = "A page.") {
    return R"({"title": "t", "pages": [{"text": ")" + text + R"(", "source": "the car")" + (extra.empty() ? "" : ", " + extra) + "}]}";
}

void write(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// A PNG whose header claims width x height: only the header is needed to refuse it.
std::string pngClaiming(uint32_t width, uint32_t height) {
    QImage small(2, 2, QImage::Format_RGB32);
    small.fill(Qt::blue);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    small.save(&buffer, "PNG");
    std::string bytes = png.toStdString();
    // IHDR's data starts at byte 16 (signature 8, length 4, type 4); its CRC covers type and data.
    for (int k = 0; k < 4; ++k) {
        bytes[16 + k] = static_cast<char>(width >> (24 - 8 * k));
        bytes[20 + k] = static_cast<char>(height >> (24 - 8 * k));
    }
    const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(bytes.data() + 12), 17));
    for (int k = 0; k < 4; ++k) bytes[29 + k] = static_cast<char>(crc >> (24 - 8 * k));
    return bytes;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(LessonMarkup, TheSubsetParsesToATreeAndRendersBack) {
    const auto root = Markup::parse(
        "s<sub>t-1</sub> &amp; <b>bold <i>both</i></b><br><ul><li>one <code>x</code></li>"
        "<li>two<ol><li>n</li></ol></li></ul>&#931;\xE2\x80\xAF!<img src=\"figs/a.png\">");
    ASSERT_EQ(root.children.size(), 8u);
    EXPECT_EQ(root.children[0].kind, Markup::Kind::Text);
    EXPECT_EQ(root.children[1].kind, Markup::Kind::Subscript);
    EXPECT_EQ(root.children[2].text, " & ");
    EXPECT_EQ(root.children[3].children[1].kind, Markup::Kind::Emphasis);
    EXPECT_EQ(root.children[5].kind, Markup::Kind::BulletList);
    EXPECT_EQ(root.children[5].children[1].children[1].kind, Markup::Kind::NumberedList);
    EXPECT_EQ(root.children[6].text, "\xCE\xA3\xE2\x80\xAF!");
    EXPECT_EQ(Markup::images(root), std::vector<std::string>{"figs/a.png"});
    const auto html = Markup::toHtml(root, [](const std::string& p) { return "file:///lessons/" + p; });
    EXPECT_EQ(html,
              "s<sub>t-1</sub> &amp; <b>bold <i>both</i></b><br><ul><li>one <code>x</code></li><li>two<ol><li>n</li></ol></li></ul>"
              "\xCE\xA3\xE2\x80\xAF!<img src=\"file:///lessons/figs/a.png\">");
}

// The exported page's plain text and the lesson index read the one tree, as HTML reads it.
TEST(LessonMarkup, ThePlainTextReadsAsHtmlDoes) {
    const auto plain = [](const std::string& text) { return Markup::plainText(Markup::parse(text)); };
    EXPECT_EQ(plain("  alpha<sub>t</sub> = softmax(e<sub>t-1</sub>), v<sup>T</sup>  "), "alpha_t = softmax(e_{t-1}), v^T");
    EXPECT_EQ(plain("one\n  two&nbsp;&nbsp;three &amp; &lt;four&gt;"), "one two  three & <four>");
    EXPECT_EQ(plain("first<br>  second<br>"), "first\nsecond");
    EXPECT_EQ(plain("Look: <ul><li>one <code>x</code></li><li>two<ol><li>n</li></ol></li></ul> after"), "Look:\none x\ntwo\nn\nafter");
    EXPECT_EQ(plain("a picture <img src=\"figs/a.png\"> here, &#931;<sub>i</sub>"), "a picture here, \xCE\xA3_i");
    EXPECT_EQ(plain("<i>ich</i> <b>rufe</b> dich an"), "ich rufe dich an");
}

TEST(LessonMarkup, AnythingOutsideItIsRefusedWithItsPlace) {
    EXPECT_TRUE(contains(markupError("ab <table><tr><td>x"), "at character 4: <table> is not part of the lesson markup"))
        << markupError("<table>");
    EXPECT_TRUE(contains(markupError("<img src=\"/dev/zero\">"), "relative to the lesson file"));
    EXPECT_TRUE(contains(markupError("<img src=\"file:///dev/zero\">"), "relative to the lesson file"));
    EXPECT_TRUE(contains(markupError("<img src=\"../x.png\">"), "leaves the lesson's folder"));
    EXPECT_TRUE(contains(markupError("<b class=\"x\">y</b>"), "<b> takes no attributes"));
    EXPECT_TRUE(contains(markupError("a < b"), "write &lt;"));
    EXPECT_TRUE(contains(markupError("a & b"), "write &amp;"));
    EXPECT_TRUE(contains(markupError("&Sigma;"), "not an entity"));
    EXPECT_TRUE(contains(markupError("<b>x</i>"), "</i> closes <b>"));
    EXPECT_TRUE(contains(markupError("<b>x"), "<b> is never closed"));
    EXPECT_TRUE(contains(markupError("<li>x</li>"), "outside a list"));
    EXPECT_TRUE(contains(markupError("<ul>x</ul>"), "put it in an <li>"));
    std::string deep;
    for (int k = 0; k < 9; ++k) deep += "<i>";
    EXPECT_TRUE(contains(markupError(deep), "nested deeper than 8"));
}

// The campaign's texts (tables 3,000 deep, <b> x 100,000, 4 MB of words) are refused at once.
TEST(LessonMarkup, HostileTextsAreRefusedQuickly) {
    std::string tables, bolds, words;
    for (int k = 0; k < 3000; ++k) tables += "<table><tr><td>";
    for (int k = 0; k < 100000; ++k) bolds += "<b>";
    for (int k = 0; k < 800000; ++k) words += "word ";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(contains(markupError(tables), "bytes long; a page's text has at most 16384"));
    EXPECT_TRUE(contains(markupError(bolds), "at most 16384"));
    EXPECT_TRUE(contains(markupError(words), "at most 16384"));
    EXPECT_TRUE(contains(markupError(tables.substr(0, 300)), "<table> is not part"));
    std::string manyBolds;
    for (int k = 0; k < 1001; ++k) manyBolds += "<b></b>";
    EXPECT_TRUE(contains(markupError(manyBolds), "more than 1000 elements"));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

TEST(LessonFormat, WrongTypesAndRangesAreRefusedNotDefaulted) {
    EXPECT_EQ(formatError(lessonJson("")), "(accepted)");
    const std::pair<std::string, std::string> cases[] = {
        {R"("steps": "5")", R"(page 1, "steps": is string, not a number)"},
        {R"("steps": 1e12)", R"(page 1, "steps": is not a whole number)"},
        {R"("steps": 1001)", R"(page 1, "steps": is 1001; from 0 to 1000)"},
        {R"("beam": "4")", R"(page 1, "beam": is string)"},
        {R"("run": "yes")", R"(page 1, "run": is string, not true or false)"},
        {R"("explain": 5)", R"(page 1, "explain": is number)"},
        {R"("explain": "nowhere")", R"(page 1, "explain": names part 'nowhere')"},
        {R"("heatmap": "x")", R"(page 1, "heatmap": 'x' is not one of: attention, occlusion)"},
        {R"("snapshot": 2)", R"(page 1, "snapshot": is given without a "timeline")"},
        {R"("model": "a\u0000b")", R"(page 1, "model": holds a NUL character)"},
        {R"("model": "/dev/zero")", R"(page 1, "model": '/dev/zero' is not a bundled name or a path relative)"},
        {R"("timeline": "../run")", R"(page 1, "timeline": '../run' leaves the lesson's folder)"},
        {R"("compare": ")" + std::string(10000, 'm') + "\"", R"(page 1, "compare": has 10000 characters; at most 1024)"},
        {R"("colour": "red")", R"(page 1: unknown key "colour")"},
        {R"("rows": "le")", R"(page 1, "rows": is string, not a list of tokens or positions)"},
        {R"("rows": [0])", R"(page 1, "rows[0]": is 0; a position from 1 to 1000)"},
        {R"("columns": ["a", {}])", R"(page 1, "columns[1]": is object, not a token)"},
        {R"("columns": [""])", R"(page 1, "columns[0]": is an empty token)"},
    };
    for (const auto& [extra, expected] : cases) {
        const auto error = formatError(lessonJson(extra));
        EXPECT_TRUE(contains(error, "lesson 'l.json': " + expected)) << extra << "\n -> " << error;
    }
    std::string accents;
    for (int k = 0; k < 9000; ++k) accents += "\xC3\xA9";  // 9,000 characters, 18,000 bytes
    EXPECT_TRUE(contains(formatError(lessonJson("", accents)), "page 1, \"text\": is 18000 bytes long; a page's text has at most 16384"));
    EXPECT_TRUE(contains(formatError(lessonJson("", std::string(20000, 'x'))), "page 1, \"text\": has 20000 characters; at most 16384"));
    const auto source = formatError(R"({"title": "t", "pages": [{"text": "a", "source": ")" + std::string(12000, 'x') + "\"}]}");
    EXPECT_TRUE(contains(source, "lesson 'l.json': page 1, \"source\": has 12000 characters; at most 1000")) << source;
    EXPECT_TRUE(contains(formatError("{\"title\": 5, \"pages\": []}"), "\"title\": is number, not a string"));
    EXPECT_TRUE(contains(formatError(std::string(100000, '[')), "nests objects or lists deeper than 64"));
    EXPECT_TRUE(contains(formatError("{\"title\": 1e999999}"), "is not valid JSON"));
}

class LessonFiles : public ::testing::Test {
protected:
    void SetUp() override { tests::tinyModel().save(dir.path("tiny.pt")); }
    std::string load(const std::string& extra, const std::string& text = "A page.") {
        write(dir.path("l.json"), lessonJson(extra, text));
        return refusal([&] { ui::Lesson::load(QString::fromStdString(dir.path("l.json"))); });
    }
    // A run folder listing `snapshots` snapshots, each the tiny model.
    void makeRun(const std::string& name, int snapshots) {
        std::filesystem::create_directories(dir.path(name));
        std::string index = R"({"format": "alignscope-timeline", "snapshots": [)";
        for (int k = 1; k <= snapshots; ++k) {
            const std::string file = "run.step-" + std::to_string(k) + ".pt";
            std::filesystem::copy_file(dir.path("tiny.pt"), dir.path(name + "/" + file));
            index += (k > 1 ? ", " : "") + std::string(R"({"step": )") + std::to_string(k) + R"(, "file": ")" + file + "\"}";
        }
        write(dir.path(name + "/run.timeline.json"), index + "]}");
    }
    tests::TempDir dir;
};

TEST_F(LessonFiles, EveryReferenceIsARegularBoundedFileInsideTheLessonsFolder) {
    EXPECT_EQ(load(R"("model": "tiny.pt", "compare": "tiny.pt")"), "(accepted)");
    std::filesystem::create_directories(dir.path("folder.pt"));
    ASSERT_EQ(mkfifo(dir.path("pipe.pt").c_str(), 0600), 0);
    write(dir.path("truncated.pt"), tests::readFile(dir.path("tiny.pt")).substr(0, 3000));
    std::filesystem::create_symlink("/etc/passwd", dir.path("passwd.pt"));
    std::filesystem::create_symlink("/dev/zero", dir.path("zero.png"));
    const std::pair<std::string, std::string> cases[] = {
        {R"("compare": "no-such-model")", R"("compare": 'no-such-model' is neither a bundled model or run nor a file beside the lesson)"},
        {R"("compare": "missing.pt")", R"("compare": 'missing.pt' is neither a bundled model or run nor a file beside the lesson)"},
        {R"("compare": "folder.pt")", "is a folder, not a regular file"},
        {R"("model": "pipe.pt")", "is a pipe, not a regular file"},
        {R"("compare": "truncated.pt")", R"(page 1, "compare": )"},
        {R"("model": "passwd.pt")", "'passwd.pt' lies outside the lesson's folder"},
        {R"("timeline": "no-such-run")", R"("timeline": 'no-such-run' is neither a bundled model or run nor a file beside the lesson)"},
        {R"("timeline": "pipe.pt")", "is a pipe, not a regular file"},
        {R"("image": "zero.png")", "'zero.png' lies outside the lesson's folder"},
    };
    for (const auto& [extra, expected] : cases) {
        const auto start = std::chrono::steady_clock::now();
        const auto error = load(extra);
        EXPECT_TRUE(contains(error, "lesson '" + dir.path("l.json") + "': page 1") && contains(error, expected))
            << extra << "\n -> " << error;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0) << extra;
    }
}

TEST_F(LessonFiles, ARunMustHoldThePagesSnapshot) {
    makeRun("run", 3);
    EXPECT_EQ(load(R"("timeline": "run", "snapshot": 3)"), "(accepted)");
    EXPECT_TRUE(contains(load(R"("timeline": "run", "snapshot": 4)"), R"(page 1, "snapshot": is 4, but the run 'run' has 3 snapshots)"));
    std::filesystem::create_directories(dir.path("zero-run"));
    std::filesystem::create_symlink("/dev/zero", dir.path("zero-run/run.timeline.json"));
    EXPECT_TRUE(contains(load(R"("timeline": "zero-run")"), "is a device, not a regular file"));
}

TEST_F(LessonFiles, PicturesDecodeWithinLimits) {
    QImage picture(30, 20, QImage::Format_RGB32);
    picture.fill(Qt::red);
    ASSERT_TRUE(picture.save(QString::fromStdString(dir.path("ok.png"))));
    write(dir.path("notapng.png"), "this is not a picture");
    write(dir.path("huge.png"), pngClaiming(20000, 20000));
    std::string badCrc = tests::readFile(dir.path("ok.png"));
    badCrc[badCrc.find("IDAT") + 6] ^= 0x55;
    write(dir.path("bad-crc.png"), badCrc);
    write(dir.path("wide.svg"),
          R"(<svg xmlns="http://www.w3.org/2000/svg" width="60000" height="10"><rect width="60000" height="10"/></svg>)");
    EXPECT_EQ(load(R"("image": "ok.png")", R"(A <img src=\"ok.png\"> inline.)"), "(accepted)");
    const auto lesson = ui::Lesson::load(QString::fromStdString(dir.path("l.json")));
    EXPECT_EQ(lesson.pages[0].picture.size(), QSize(30, 20));
    EXPECT_TRUE(contains(lesson.pages[0].html.toStdString(), "<img src=\"file://" + dir.path("ok.png") + "\">"));
    const std::pair<std::string, std::string> cases[] = {
        {"notapng.png", "the picture 'notapng.png' is not a picture AlignScope can read (PNG, JPEG, SVG, GIF)"},
        {"huge.png", "the picture 'huge.png' is 20000 x 20000 pixels; at most 8192 on a side"},
        {"bad-crc.png", "the picture 'bad-crc.png' cannot be decoded"},
        {"wide.svg", "the picture 'wide.svg' is 60000 x 10 pixels"},
    };
    for (const auto& [file, expected] : cases) {
        EXPECT_TRUE(contains(load(R"("image": ")" + file + "\""), "page 1, \"image\": " + expected))
            << file << ": " << load(R"("image": ")" + file + "\"");
        EXPECT_TRUE(contains(load("", "<img src=\\\"" + file + "\\\">"), "page 1, \"text\": " + expected)) << file;
    }
}

TEST_F(LessonFiles, TheLessonFileItselfIsCheckedBeforeItIsRead) {
    EXPECT_TRUE(contains(refusal([] { ui::Lesson::load("/dev/zero"); }), "lesson '/dev/zero' is a device, not a regular file"));
    ASSERT_EQ(mkfifo(dir.path("pipe.json").c_str(), 0600), 0);
    EXPECT_TRUE(contains(refusal([&] { ui::Lesson::load(QString::fromStdString(dir.path("pipe.json"))); }), "is a pipe"));
}

// The app started on a hostile lesson: exit 2 with the refusal, within 10 s and 500 MB.
TEST_F(LessonFiles, TheAppRefusesAHostileLessonByNameWithExitTwo) {
    std::string words;
    for (int k = 0; k < 800000; ++k) words += "word ";
    const std::pair<std::string, std::string> lessons[] = {
        {lessonJson(R"("model": "lesson-dates")", words), R"(page 1, "text": has 4000000 characters; at most 16384)"},
        {lessonJson(R"("timeline": "/dev/zero")"), R"(page 1, "timeline": '/dev/zero')"},
        {lessonJson(R"("steps": "5")"), R"(page 1, "steps": is string)"},
        {lessonJson(R"("compare": "no-such-model")"), R"(page 1, "compare": 'no-such-model' is neither a bundled model)"},
    };
    for (const auto& [json, expected] : lessons) {
        write(dir.path("l.json"), json);
        const auto start = std::chrono::steady_clock::now();
        const auto run = tests::runMeasuringMemory(std::string(ALIGNSCOPE_APP) + " --lesson " + tests::shellQuoted(dir.path("l.json")) +
                                                   " --screenshot " + tests::shellQuoted(dir.path("x.png")) + " 2>" +
                                                   tests::shellQuoted(dir.path("err.txt")));
        const auto err = tests::readFile(dir.path("err.txt"));
        EXPECT_EQ(run.exitCode, 2) << err;
        EXPECT_TRUE(contains(err, "lesson '" + dir.path("l.json") + "': " + expected)) << err;
        EXPECT_LT(run.peakKb, 500 * 1024) << expected;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0) << expected;
    }
    const auto zero =
        tests::runCommand(std::string(ALIGNSCOPE_APP) + " --lesson /dev/zero --screenshot " + tests::shellQuoted(dir.path("x.png")));
    EXPECT_EQ(zero.exitCode, 2);
    EXPECT_TRUE(contains(zero.output, "lesson '/dev/zero' is a device, not a regular file")) << zero.output;
}

// --view-report: what a teacher's projector shows of a page, as data. Lesson 3's page 2 names the
// rows of voiture and rouge: on the stage at 1024x768 the whole matrix is in view, cells at least
// 12 px, the marked rows framed, and no menu bar, toolbar or empty panel.
TEST_F(LessonFiles, TheViewReportSaysWhatTheStageShows) {
    const std::string lesson = std::string(ALIGNSCOPE_SOURCE_DIR) + "/resources/lessons/03-alignment-and-reordering.json";
    const auto run = tests::runCommand(std::string(ALIGNSCOPE_APP) + " --lesson " + tests::shellQuoted(lesson) +
                                       " --page 2 --presenter --size 1024x768 --screenshot " + tests::shellQuoted(dir.path("x.png")) +
                                       " --view-report " + tests::shellQuoted(dir.path("r.json")));
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const auto report = nlohmann::json::parse(tests::readFile(dir.path("r.json")));
    EXPECT_EQ(report["size"], nlohmann::json::array({1024, 768}));
    ASSERT_FALSE(report["heatmaps"].empty());
    const auto& attention = report["heatmaps"][0];
    EXPECT_EQ(attention["name"], "attention");
    EXPECT_GE(attention["rows"].get<int>(), 8);
    EXPECT_EQ(attention["rows_in_view"], attention["rows"]);
    EXPECT_EQ(attention["columns_in_view"], attention["columns"]);
    EXPECT_GE(attention["cell_px"][0].get<double>(), 12.0);
    EXPECT_GE(attention["cell_px"][1].get<double>(), 12.0);
    EXPECT_EQ(attention["marked_rows"].size(), 2u) << "voiture and rouge, as the page names them";
    EXPECT_EQ(attention["marked_rows_in_view"], 2);
    EXPECT_EQ(attention["marked_columns"].size(), 2u) << "red and car";
    for (const auto& panel : report["panels"]) {
        const std::string name = panel["name"];
        EXPECT_NE(name, "menu bar");
        EXPECT_NE(name, "source") << "the stage shows the translation, not the input rows";
        EXPECT_FALSE(panel.value("empty", false)) << name << " is empty on the stage";
    }
    const auto refused = tests::runCommand(std::string(ALIGNSCOPE_APP) + " --view-report " + tests::shellQuoted(dir.path("r2.json")));
    EXPECT_EQ(refused.exitCode, 2) << "--view-report needs --screenshot";
}

// A run folder mixing snapshots of two models is refused when it opens, as export --timeline does
// (the app used to take it and refuse snapshot by snapshot on the slider).
TEST_F(LessonFiles, TheAppRefusesARunFolderMixingModels) {
    makeRun("run", 2);
    tests::tinyPieceModel().save(dir.path("run/run.step-2.pt"));
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    EXPECT_FALSE(window.openTimeline(QString::fromStdString(dir.path("run"))));
    const auto status = window.statusText().toStdString();
    EXPECT_TRUE(contains(status, "run.step-2.pt' reads other vocabularies than")) << status;
    makeRun("good", 2);
    EXPECT_TRUE(window.openTimeline(QString::fromStdString(dir.path("good"))));
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
