#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace alignscope::ui {

// One self-contained HTML page: resources/web/page.html with page.css, page.js and the data
// (PageData's JSON) put in, so it opens from file:// with nothing beside it and requests nothing
// (its Content-Security-Policy allows no fetch at all). The web files are compiled in
// (ui/CMakeLists.txt embeds them); Python's alignscope.show fills the same template the same way
// (docs/page-format.md).
class HtmlPage {
public:
    // `title` is text (escaped here); `data` goes in through PageData::scriptSafe.
    static std::string render(const nlohmann::json& data, const std::string& title);
    // A template's {{NAME}} slots filled in one pass (text put in is never scanned again).
    static std::string fill(const std::string& page, const std::string& title, const std::string& css, const std::string& script,
                            const std::string& data);
    static std::string escapeText(const std::string& text);  // & < > " ' as entities

    static const char* templateText();
    static const char* styleText();
    static const char* scriptText();
};

}  // namespace alignscope::ui
