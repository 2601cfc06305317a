#include "ui/HtmlPage.h"

#include "core/lesson/LessonMarkup.h"

#include "ui/PageData.h"

namespace alignscope::ui {

const char* HtmlPage::templateText() {
    return
#include "WebPageHtml.inc"
        ;
}

const char* HtmlPage::styleText() {
    return
#include "WebPageCss.inc"
        ;
}

const char* HtmlPage::scriptText() {
    return
#include "WebPageJs.inc"
        ;
}

std::string HtmlPage::escapeText(const std::string& text) { return core::LessonMarkup::escape(text); }

std::string HtmlPage::fill(const std::string& page, const std::string& title, const std::string& css, const std::string& script,
                           const std::string& data) {
    std::string out;
    out.reserve(page.size() + css.size() + script.size() + data.size() + title.size());
    size_t at = 0;
    while (true) {
        const size_t open = page.find("{{", at);
        if (open == std::string::npos) break;
        const size_t close = page.find("}}", open);
        if (close == std::string::npos) break;
        const std::string name = page.substr(open + 2, close - open - 2);
        const std::string* value = name == "TITLE"  ? &title
                                   : name == "CSS"  ? &css
                                   : name == "JS"   ? &script
                                   : name == "DATA" ? &data
                                                    : nullptr;
        out.append(page, at, open - at);
        if (value) out += *value;
        else out.append(page, open, close + 2 - open);
        at = close + 2;
    }
    out.append(page, at, std::string::npos);
    return out;
}

std::string HtmlPage::render(const nlohmann::json& data, const std::string& title) {
    return fill(templateText(), escapeText(title), styleText(), scriptText(), PageData::scriptSafe(data));
}

}  // namespace alignscope::ui
