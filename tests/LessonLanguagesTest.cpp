// A lesson in several languages (issue 60): one file holds every language's title, summary and
// page texts, the pages' data written once. Every language has every page, each text passes the
// same markup checks, and a bad code or a missing text is refused naming the file, page and key.
#include "core/Error.h"
#include "core/lesson/LessonFormat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace core = alignscope::core;

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
