#include "core/text/JsonText.h"

namespace alignscope::core {

namespace {

std::string escaped(const std::string& text, bool markup) {
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (markup && c == '<') out += "\\u003c";
        else if (markup && c == '>') out += "\\u003e";
        else if (markup && c == '&') out += "\\u0026";
        else if (c == '\xc2' && i + 1 < text.size() && text[i + 1] == '\x85') {
            out += "\\u0085";
            i += 1;
        } else if (c == '\xe2' && i + 2 < text.size() && text[i + 1] == '\x80' && (text[i + 2] == '\xa8' || text[i + 2] == '\xa9')) {
            out += text[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
            i += 2;
        } else out += c;
    }
    return out;
}

}  // namespace

std::string JsonText::dump(const nlohmann::json& value, int indent) {
    return escaped(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace), false);
}

std::string JsonText::scriptSafe(const nlohmann::json& value) {
    return escaped(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), true);
}

}  // namespace alignscope::core
