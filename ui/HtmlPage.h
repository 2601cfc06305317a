#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace alignscope::ui {

// One self-contained HTML page: resources/web/page.html with page.css, page.js and the data
// (PageData's JSON) put in, so it opens from file:// with nothing beside it and requests nothing
// (its Content-Security-Policy allows no fetch at all). The web files are compiled in
// (ui/CMakeLists.txt embeds them); Python's alignscope.show fills the same template the same way
// (docs/page-format.md).
class HtmlPage {
public:
    // `title` is text (escaped here); `data` goes in through PageData::scriptSafe. The page's
    // controls, headings and Step explained speak `language`, one of languages() (checkLanguage).
    static std::string render(const nlohmann::json& data, const std::string& title, const std::string& language = "en");
    // The languages of the page's message catalogues (resources/web/messages/*.json): en, ko, de, fr.
    static const std::vector<std::string>& languages();
    // Throws core::Error naming the languages there are where `language` has no catalogue; for
    // command lines' --language (export --format html, export-lesson).
    static void checkLanguage(const std::string& language);
    static const char* messagesText(const std::string& language);  // the catalogue's JSON text
    // A template's {{NAME}} slots filled in one pass (text put in is never scanned again); a slot
    // without a value stays as it is.
    static std::string fill(const std::string& page, const std::map<std::string, std::string>& values);
    static std::string fill(const std::string& page, const std::string& title, const std::string& css, const std::string& script,
                            const std::string& data);
    static std::string escapeText(const std::string& text);  // & < > " ' as entities

    static const char* templateText();
    static const char* styleText();
    static const char* scriptText();
};

}  // namespace alignscope::ui
