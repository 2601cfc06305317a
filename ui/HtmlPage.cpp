#include "ui/HtmlPage.h"

#include "core/Error.h"
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

const std::vector<std::string>& HtmlPage::languages() {
    static const std::vector<std::string> all = {"en", "ko", "de", "fr"};
    return all;
}

void HtmlPage::checkLanguage(const std::string& language) {
    for (const auto& l : languages())
        if (l == language) return;
    std::string names;
    for (const auto& l : languages()) names += (names.empty() ? "" : ", ") + l;
    throw core::Error("the page has no messages in the language '" + language + "': choose one of " + names);
}

const char* HtmlPage::messagesText(const std::string& language) {
    checkLanguage(language);
    if (language == "ko")
        return
#include "WebMessagesKo.inc"
            ;
    if (language == "de")
        return
#include "WebMessagesDe.inc"
            ;
    if (language == "fr")
        return
#include "WebMessagesFr.inc"
            ;
    return
#include "WebMessagesEn.inc"
        ;
}

std::string HtmlPage::escapeText(const std::string& text) { return core::LessonMarkup::escape(text); }

std::string HtmlPage::fill(const std::string& page, const std::map<std::string, std::string>& values) {
    std::string out;
    size_t size = page.size();
    for (const auto& [name, text] : values) size += text.size();
    out.reserve(size);
    size_t at = 0;
    while (true) {
        const size_t open = page.find("{{", at);
        if (open == std::string::npos) break;
        const size_t close = page.find("}}", open);
        if (close == std::string::npos) break;
        const auto slot = values.find(page.substr(open + 2, close - open - 2));
        out.append(page, at, open - at);
        if (slot != values.end()) out += slot->second;
        else out.append(page, open, close + 2 - open);
        at = close + 2;
    }
    out.append(page, at, std::string::npos);
    return out;
}

std::string HtmlPage::fill(const std::string& page, const std::string& title, const std::string& css, const std::string& script,
                           const std::string& data) {
    return fill(page, {{"TITLE", title}, {"CSS", css}, {"JS", script}, {"DATA", data}});
}

std::string HtmlPage::render(const nlohmann::json& data, const std::string& title, const std::string& language) {
    const auto messages = nlohmann::json::parse(messagesText(language));
    return fill(templateText(), {{"TITLE", escapeText(title)},
                                 {"LANG", language},
                                 {"CSS", styleText()},
                                 {"JS", scriptText()},
                                 {"MESSAGES", PageData::scriptSafe(messages)},
                                 {"NOSCRIPT", escapeText(messages.value("noscript", std::string()))},
                                 {"DATA", PageData::scriptSafe(data)}});
}

}  // namespace alignscope::ui
