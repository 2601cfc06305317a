// A lesson in several languages (issue 60): one file holds every language's title, summary and
// page texts, the pages' data written once. Every language has every page, each text passes the
// same markup checks, and a bad code or a missing text is refused naming the file, page and key.
#include "CommandRunner.h"
#include "TinyModel.h"

#include "core/Error.h"
#include "core/attribution/Attributor.h"
#include "core/lesson/LessonFormat.h"
#include "ui/DecodingDocument.h"
#include "ui/Lesson.h"
#include "ui/LessonLanguage.h"
#include "ui/LessonPanel.h"
#include "ui/LessonPlayer.h"
#include "ui/MainWindow.h"
#include "ui/StepExplainedPanel.h"

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace core = alignscope::core;
namespace tests = alignscope::tests;
namespace ui = alignscope::ui;

namespace {

const core::LessonFormat::Names kNames{{"query", "softmax"}, {"occlusion"}};

std::string refusal(const std::string& json) {
    try {
        core::LessonFormat::parse(json, "l.json", kNames);
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(accepted)";
}

// Two pages in English, German and Korean; `page2Texts` replaces the second page's "texts".
std::string twoLanguages(const std::string& page2Texts = R"({"de": "Seite <i>zwei</i>.", "ko": "둘째 쪽."})",
                         const std::string& titles = R"({"de": "Titel", "ko": "제목"})",
                         const std::string& summaries = R"(, "summaries": {"de": "Kurz", "ko": "요약"})") {
    return R"({"title": "Title", "titles": )" + titles + R"(, "summary": "Short")" + summaries + R"(, "pages": [
        {"text": "Page one, s<sub>t-1</sub>.", "texts": {"de": "Seite eins, s<sub>t-1</sub>.", "ko": "첫째 쪽, s<sub>t-1</sub>."},
         "source": "the car"},
        {"text": "Page two.", "texts": )" +
           page2Texts + R"(, "source": "the red car", "rows": ["voiture"]}]})";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(LessonLanguages, EachLanguageHasTheTitleSummaryAndEveryPage) {
    const auto lesson = core::LessonFormat::parse(twoLanguages(), "l.json", kNames);
    EXPECT_EQ(lesson.language, "en");
    EXPECT_EQ(lesson.languages, (std::vector<std::string>{"de", "ko"}));
    EXPECT_EQ(lesson.title, "Title");
    EXPECT_EQ(lesson.pages[1].text, "Page two.");
    const auto german = lesson.in("de");
    EXPECT_EQ(german.language, "de");
    EXPECT_EQ(german.title, "Titel");
    EXPECT_EQ(german.summary, "Kurz");
    ASSERT_EQ(german.pages.size(), 2u);
    EXPECT_EQ(german.pages[1].text, "Seite <i>zwei</i>.");
    EXPECT_EQ(core::LessonMarkup::plainText(german.pages[1].markup), "Seite zwei.");
    // The data is the pages' own, whatever the language.
    EXPECT_EQ(german.pages[1].source, "the red car");
    ASSERT_EQ(german.pages[1].rows.size(), 1u);
    EXPECT_EQ(german.pages[1].rows[0].token, "voiture");
    EXPECT_EQ(lesson.in("ko").pages[0].text, "첫째 쪽, s<sub>t-1</sub>.");
    // A language the lesson lacks: English, and the caller can tell.
    const auto french = lesson.in("fr");
    EXPECT_EQ(french.language, "en");
    EXPECT_EQ(french.title, "Title");
    EXPECT_FALSE(lesson.has("fr"));
    EXPECT_TRUE(lesson.has("en"));
    // A file without "titles" is an English lesson, as before.
    const auto old = core::LessonFormat::parse(R"({"title": "t", "pages": [{"text": "a", "source": "b"}]})", "l.json", kNames);
    EXPECT_TRUE(old.languages.empty());
    EXPECT_EQ(old.in("ko").language, "en");
}

TEST(LessonLanguages, AMissingTextOrABadCodeIsRefusedNamingFilePageAndKey) {
    const std::pair<std::string, std::string> cases[] = {
        {twoLanguages(R"({"de": "Seite zwei."})"), R"(lesson 'l.json': page 2, "texts.ko": missing: the lesson's "titles" name ko)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽.", "fr": "Page deux."})"),
         R"(lesson 'l.json': page 2, "texts.fr": the lesson has no title in fr ("titles" names de, ko))"},
        {twoLanguages(R"({"de": "Seite zwei.", "KO": "둘째 쪽."})"), R"(page 2, "texts.KO": 'KO' is not a language code (ISO 639-1)"},
        {twoLanguages(R"({"de": "Seite zwei.", "xx": "?"})"), R"(page 2, "texts.xx": 'xx' is not a language code)"},
        {twoLanguages(R"({"de": "Seite zwei.", "korean": "?"})"), R"(page 2, "texts.korean": 'korean' is not a language code)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽.", "en": "Page two."})"),
         R"(page 2, "texts.en": English is the "text" itself)"},
        {twoLanguages(R"({"de": "Seite <table>", "ko": "둘째 쪽."})"), R"(page 2, "texts.de": at character 7: <table> is not part)"},
        {twoLanguages(R"({"de": "a < b", "ko": "둘째 쪽."})"), R"(page 2, "texts.de": )"},
        {twoLanguages(R"({"de": "", "ko": "둘째 쪽."})"), R"(page 2, "texts.de": is empty)"},
        {twoLanguages(R"({"de": 5, "ko": "둘째 쪽."})"), R"(page 2, "texts.de": is number, not a string)"},
        {twoLanguages(R"(["Seite zwei.", "둘째 쪽."])"), R"(page 2, "texts": is array, not an object from language codes)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽."})", R"({"de": "Titel", "ko": "제목", "fr": "Titre"})",
                      R"(, "summaries": {"de": "Kurz", "ko": "요약", "fr": "Bref"})"),
         R"(page 1, "texts.fr": missing)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽."})", R"({"de": "Titel", "ko": "제목"})", R"(, "summaries": {"de": "Kurz"})"),
         R"(lesson 'l.json', "summaries.ko": missing)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽."})", R"({"de": "Titel", "ko": "제목"})", ""),
         R"(lesson 'l.json', "summaries.de": missing)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽."})", R"({"de": "Titel", "ko": ""})"), R"("titles.ko": is empty)"},
        {twoLanguages(R"({"de": "Seite zwei.", "ko": "둘째 쪽."})", R"({"de": "Titel", "kor": "제목"})"),
         R"(lesson 'l.json', "titles.kor": 'kor' is not a language code)"},
    };
    for (const auto& [json, expected] : cases) {
        const auto error = refusal(json);
        EXPECT_TRUE(contains(error, expected)) << expected << "\n -> " << error;
    }
    // Every language's text has the byte limit of "text".
    std::string accents;
    for (int k = 0; k < 9000; ++k) accents += "\xC3\xA9";  // 9,000 characters, 18,000 bytes
    const auto error = refusal(twoLanguages(R"({"de": ")" + accents + R"(", "ko": "둘째 쪽."})"));
    EXPECT_TRUE(contains(error, "page 2, \"texts.de\": is 18000 bytes long; a page's text has at most 16384")) << error;
}

// The shipped lessons are taught in Korean, German and French: every page in each, and the
// data a text quotes (the notation's sub- and superscripts, code, the weights it reads off the
// heatmap) the same in every language, so a translation cannot drift from its page.
TEST(LessonLanguages, EveryShippedLessonHasEveryPageInKoreanGermanAndFrench) {
    const auto shipped = ui::Lesson::shippedLessons();
    ASSERT_EQ(shipped.size(), 7);
    const auto quoted = [](const std::string& text) {
        std::multiset<std::string> out;
        static const std::regex data(R"(<(sub|sup|code|tt)>([^<]*)</\1>|\b0[.,]\d\d\b)");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), data); it != std::sregex_iterator(); ++it) {
            std::string item = it->str();
            std::replace(item.begin(), item.end(), ',', '.');  // German and French write 0,79 in prose
            out.insert(item);
        }
        return out;
    };
    core::LessonFormat::Names names;  // the app's, as ui::Lesson reads lessons with
    for (const auto& part : ui::StepExplainedPanel::partNames()) names.explainParts.push_back(part.toStdString());
    names.heatmaps = core::Attributor::methods();
    for (const auto& path : shipped) {
        SCOPED_TRACE(path.toStdString());
        std::ifstream in(path.toStdString());
        std::stringstream bytes;
        bytes << in.rdbuf();
        const auto lesson = core::LessonFormat::parse(bytes.str(), path.toStdString(), names);
        EXPECT_EQ(lesson.languages, (std::vector<std::string>{"de", "fr", "ko"}));
        for (const auto& language : lesson.languages) {
            const auto translated = lesson.in(language);
            EXPECT_NE(translated.title, lesson.title) << language;
            EXPECT_NE(translated.summary, lesson.summary) << language;
            // Each lesson's number, as the menu and the shipped files' names give it.
            EXPECT_EQ(translated.title.substr(0, 3), lesson.title.substr(0, 3)) << language;
            for (size_t k = 0; k < lesson.pages.size(); ++k) {
                EXPECT_NE(translated.pages[k].text, lesson.pages[k].text) << language << " page " << k + 1;
                EXPECT_EQ(quoted(translated.pages[k].text), quoted(lesson.pages[k].text))
                    << language << " page " << k + 1 << ": the notation, code or weights differ from the English";
            }
        }
    }
}

TEST(LessonLanguages, TheAppsLessonIsInTheLanguageAskedForOrEnglish) {
    const QString path = ui::Lesson::shippedLessons().filter(QStringLiteral("04-teacher-forcing")).value(0);
    ASSERT_FALSE(path.isEmpty());
    const auto english = ui::Lesson::load(path);
    EXPECT_EQ(english.language, QStringLiteral("en"));
    EXPECT_EQ(english.languages, (QStringList{"en", "de", "fr", "ko"}));
    const auto korean = ui::Lesson::load(path, QStringLiteral("ko"));
    EXPECT_EQ(korean.language, QStringLiteral("ko"));
    EXPECT_TRUE(korean.missingLanguage.isEmpty());
    EXPECT_TRUE(korean.title.startsWith(QStringLiteral("4. ")));
    EXPECT_NE(korean.pages[0].text, english.pages[0].text);
    EXPECT_NE(korean.pages[0].html, english.pages[0].html);
    EXPECT_EQ(korean.pages[0].source, english.pages[0].source);
    EXPECT_EQ(ui::Lesson::loadHeading(path, QStringLiteral("de")).title.left(3), QStringLiteral("4. "));
    EXPECT_NE(ui::Lesson::loadHeading(path, QStringLiteral("de")).title, english.title);
    // Italian is not among its languages: English, saying so.
    const auto italian = ui::Lesson::load(path, QStringLiteral("it"));
    EXPECT_EQ(italian.language, QStringLiteral("en"));
    EXPECT_EQ(italian.missingLanguage, QStringLiteral("it"));
    EXPECT_EQ(italian.pages[0].text, english.pages[0].text);
}

// The interface's language picks the lesson's: the Lessons menu lists the titles in it, a lesson
// starts in it, and one without it is shown in English with a note in its entry and its title.
TEST(LessonLanguages, TheLessonsMenuAndPanelFollowTheInterfacesLanguage) {
    // The default locale back as it was however the test ends (a failed ASSERT returns early).
    struct DefaultLocale {
        QLocale before;
        ~DefaultLocale() { QLocale::setDefault(before); }
    } restore;
    QLocale::setDefault(QLocale(QStringLiteral("de_DE")));
    EXPECT_EQ(ui::LessonLanguage::interfaceLanguage(), QStringLiteral("de"));
    {
        ui::DecodingDocument document;
        ui::MainWindow window(&document);
        QMenu* lessons = nullptr;
        for (auto* menu : window.menuBar()->findChildren<QMenu*>())
            if (menu->title().remove(QLatin1Char('&')) == QLatin1String("Lessons")) lessons = menu;
        ASSERT_NE(lessons, nullptr);
        const auto german = ui::Lesson::loadHeading(ui::Lesson::shippedLessons().value(3), QStringLiteral("de"));
        EXPECT_EQ(lessons->actions().at(3)->text().remove(QLatin1Char('&')).mid(2), QString(german.title).remove(QLatin1Char('&')));
        EXPECT_EQ(lessons->actions().at(3)->toolTip(), german.summary);
        window.startLesson(ui::Lesson::shippedLessons().value(3));
        ASSERT_TRUE(window.lessonPlayer()->running());
        EXPECT_EQ(window.lessonPlayer()->lesson().language, QStringLiteral("de"));
        EXPECT_TRUE(window.lessonPanel()->pageText().contains(QStringLiteral("Referenzübersetzung")))
            << window.lessonPanel()->pageText().toStdString();
        EXPECT_EQ(window.lessonPanel()->pageTitle(), german.title);
        ASSERT_TRUE(window.waitUntilIdle());
    }
    // A lesson in English only: its menu entry and its title say so.
    QLocale::setDefault(QLocale(QStringLiteral("ko_KR")));
    tests::TempDir dir;
    { std::ofstream(dir.path("en.json")) << R"({"title": "English only", "pages": [{"text": "A page.", "source": "the car"}]})"; }
    const auto english = ui::Lesson::load(QString::fromStdString(dir.path("en.json")), ui::LessonLanguage::interfaceLanguage());
    EXPECT_EQ(english.missingLanguage, QStringLiteral("ko"));
    EXPECT_EQ(ui::LessonLanguage::fallbackNote(english), QStringLiteral("in English: no 한국어 version"));
    {
        ui::DecodingDocument document;
        ui::MainWindow window(&document);
        tests::tinyModel().save(dir.path("tiny.pt"));
        document.openModel(QString::fromStdString(dir.path("tiny.pt")));
        window.startLesson(QString::fromStdString(dir.path("en.json")));
        ASSERT_TRUE(window.lessonPlayer()->running());
        EXPECT_EQ(window.lessonPanel()->pageTitle(), QStringLiteral("English only (in English: no 한국어 version)"));
        ASSERT_TRUE(window.waitUntilIdle());
    }
}

// The app started on a lesson under a Korean locale shows its Korean text, whole in the stage's
// caption band at 1024x768 (alignscope --language ko reads the same place).
TEST(LessonLanguages, TheAppShowsAShippedLessonInTheLocalesLanguage) {
    tests::TempDir dir;
    const std::string lesson = std::string(ALIGNSCOPE_SOURCE_DIR) + "/resources/lessons/03-alignment-and-reordering.json";
    const auto run = tests::runCommand("LC_ALL=ko_KR.UTF-8 " + std::string(ALIGNSCOPE_APP) + " --lesson " + tests::shellQuoted(lesson) +
                                       " --page 5 --presenter --size 1024x768 --screenshot " + tests::shellQuoted(dir.path("x.png")) +
                                       " --view-report " + tests::shellQuoted(dir.path("r.json")));
    ASSERT_EQ(run.exitCode, 0) << run.output;
    const auto report = tests::readFile(dir.path("r.json"));
    EXPECT_NE(report.find("\"text_fits\": true"), std::string::npos) << report;
}

// export-lesson --language: the site's titles and page texts in that language.
TEST(LessonLanguages, ExportLessonWritesTheSiteInTheLanguageAskedFor) {
    tests::TempDir dir;
    const std::string cli = ALIGNSCOPE_CLI;
    const auto german = tests::runCommand(cli + " export-lesson 04-teacher-forcing --language de -o " + tests::shellQuoted(dir.path("de")));
    ASSERT_EQ(german.exitCode, 0) << german.output;
    const auto index = tests::readFile(dir.path("de/index.html"));
    EXPECT_TRUE(contains(index, "<html lang=\"de\">"));
    EXPECT_TRUE(contains(index, "4. Teacher Forcing im Training")) << index;
    EXPECT_TRUE(contains(index, "Im Training erhält der Decoder")) << "the pages' first words, in German";
    std::string pages;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path("de")))
        if (entry.path().filename() != "index.html") pages += tests::readFile(entry.path().string());
    EXPECT_TRUE(contains(pages, "Ein früher Fehler wird wieder eingespeist")) << "page 3's text";
    EXPECT_FALSE(contains(pages, "An early mistake is fed back in"));
    EXPECT_TRUE(contains(pages, "She is reading a book.")) << "the data stays as it is";
    // The pages' own words (controls, Step explained) from the page's catalogue in that language too.
    const auto page1 = tests::readFile(dir.path("de/page-01.html"));
    EXPECT_TRUE(contains(page1, "<html lang=\"de\">")) << "page 1's controls are not in German";
    EXPECT_TRUE(contains(page1, "— Seite 1 von 3</title>")) << "page 1's title";
    EXPECT_TRUE(contains(index, "3 Seiten.")) << "the index's note";
    const auto korean = tests::runCommand(cli + " export-lesson 04-teacher-forcing --language ko -o " + tests::shellQuoted(dir.path("ko")));
    ASSERT_EQ(korean.exitCode, 0) << korean.output;
    EXPECT_TRUE(contains(tests::readFile(dir.path("ko/index.html")), "4. 학습에서는 교사 강요"));
    const auto bad = tests::runCommand(cli + " export-lesson 04-teacher-forcing --language german -o " + tests::shellQuoted(dir.path("x")));
    EXPECT_EQ(bad.exitCode, 2) << bad.output;
    EXPECT_TRUE(contains(bad.output, "'german' is not a language code")) << bad.output;
    const auto italian =
        tests::runCommand(cli + " export-lesson 04-teacher-forcing --language it -o " + tests::shellQuoted(dir.path("it")));
    ASSERT_EQ(italian.exitCode, 0) << italian.output;
    EXPECT_TRUE(contains(italian.output, "has no it texts (it has en, de, fr, ko): written in English")) << italian.output;
    EXPECT_TRUE(contains(tests::readFile(dir.path("it/index.html")), "4. Teacher forcing in training"));
    EXPECT_TRUE(contains(tests::readFile(dir.path("it/page-01.html")), "<html lang=\"en\">")) << "no Italian catalogue: English";
}
