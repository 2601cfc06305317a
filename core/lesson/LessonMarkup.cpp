#include "core/lesson/LessonMarkup.h"

#include "core/Error.h"
#include "core/text/Utf8.h"

#include <cctype>
#include <cstdlib>

namespace alignscope::core {
namespace {

using Kind = LessonMarkup::Kind;
using Node = LessonMarkup::Node;

struct Element {
    const char* tag;
    Kind kind;
};
// Each kind's first tag is the one toHtml writes.
constexpr Element kElements[] = {
    {"i", Kind::Emphasis},      {"em", Kind::Emphasis},   {"b", Kind::Strong},        {"strong", Kind::Strong}, {"code", Kind::Code},
    {"tt", Kind::Code},         {"sub", Kind::Subscript}, {"sup", Kind::Superscript}, {"br", Kind::LineBreak},  {"ul", Kind::BulletList},
    {"ol", Kind::NumberedList}, {"li", Kind::Item},       {"img", Kind::Image},
};
const char* const kAllowed = "<i>, <em>, <b>, <strong>, <code>, <tt>, <sub>, <sup>, <br>, <ul>, <ol>, <li>, <img src=\"...\">";

bool isList(Kind k) { return k == Kind::BulletList || k == Kind::NumberedList; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
public:
    explicit Parser(const std::string& text) : s_(text) {}

    Node run() {
        Node root;
        stack_.push_back({&root, "", 0});
        while (at_ < s_.size()) {
            const char c = s_[at_];
            if (c == '<') tag();
            else if (c == '&') text(entity());
            else {
                if (static_cast<unsigned char>(c) < 0x20 && !isSpace(c))
                    fail(at_, "a control character (code " + std::to_string(int(c)) + ")");
                text(std::string(1, c));
                ++at_;
            }
        }
        if (stack_.size() > 1) fail(stack_.back().at, "<" + stack_.back().tag + "> is never closed");
        return root;
    }

private:
    struct Open {
        Node* node;
        std::string tag;
        size_t at;
    };

    [[noreturn]] void fail(size_t byte, const std::string& what) const {
        size_t character = 1;
        for (size_t i = 0; i < byte && i < s_.size(); ++i) character += (static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80;
        throw Error("at character " + std::to_string(character) + ": " + what);
    }

    void text(const std::string& chars) {
        Node* parent = stack_.back().node;
        if (isList(parent->kind)) {
            for (char c : chars)
                if (!isSpace(c)) fail(at_, "text directly inside <" + stack_.back().tag + "> (put it in an <li>)");
            return;  // the white space between items
        }
        if (parent->children.empty() || parent->children.back().kind != Kind::Text) parent->children.push_back({Kind::Text, "", {}});
        parent->children.back().text += chars;
    }

    std::string entity() {
        const size_t start = at_;
        const auto end = s_.find(';', at_);
        if (end == std::string::npos || end - at_ > 10) fail(start, "'&' starts no entity (write &amp; for the character)");
        const std::string name = s_.substr(at_ + 1, end - at_ - 1);
        at_ = end + 1;
        if (name == "amp") return "&";
        if (name == "lt") return "<";
        if (name == "gt") return ">";
        if (name == "quot") return "\"";
        if (name == "apos") return "'";
        if (name == "nbsp") return "\xC2\xA0";
        if (name.size() >= 2 && name[0] == '#') {
            const bool hex = name[1] == 'x' || name[1] == 'X';
            const std::string digits = name.substr(hex ? 2 : 1);
            char* stop = nullptr;
            const long cp = digits.empty() || digits.size() > 7 ? -1 : std::strtol(digits.c_str(), &stop, hex ? 16 : 10);
            const bool valid = cp > 0 && stop && *stop == '\0' && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF) &&
                               (cp >= 0x20 || cp == '\t' || cp == '\n');
            if (valid && (isdigit(static_cast<unsigned char>(digits[0])) || hex)) return utf8::encode(static_cast<utf8proc_int32_t>(cp));
            fail(start, "'&" + name + ";' is not a character");
        }
        fail(start, "'&" + name + ";' is not an entity of the lesson markup (&amp; &lt; &gt; &quot; &apos; &nbsp; &#NNN;)");
    }

    // A name of [a-z0-9], lower case.
    std::string name() {
        const size_t start = at_;
        while (at_ < s_.size() && ((s_[at_] >= 'a' && s_[at_] <= 'z') || (s_[at_] >= '0' && s_[at_] <= '9'))) ++at_;
        return s_.substr(start, at_ - start);
    }
    void spaces() {
        while (at_ < s_.size() && isSpace(s_[at_])) ++at_;
    }

    void tag() {
        const size_t start = at_++;
        const bool closing = at_ < s_.size() && s_[at_] == '/';
        if (closing) ++at_;
        const std::string tag = name();
        const Element* element = nullptr;
        for (const auto& e : kElements)
            if (tag == e.tag) element = &e;
        if (!element) {
            if (tag.empty() && at_ < s_.size() && isupper(static_cast<unsigned char>(s_[at_])))
                fail(start, "the markup's elements are written in lower case (<b>, not <B>)");
            if (tag.empty()) fail(start, "'<' starts no element (write &lt; for the character)");
            fail(start, "<" + std::string(closing ? "/" : "") + tag + "> is not part of the lesson markup (" + kAllowed + ")");
        }
        if (closing) {
            spaces();
            expect('>', start, tag);
            if (stack_.size() < 2 || stack_.back().tag != tag)
                fail(start, "</" + tag + "> closes " +
                                (stack_.size() < 2 ? std::string("nothing") : "<" + stack_.back().tag + ">, which is still open"));
            stack_.pop_back();
            return;
        }
        std::string src;
        spaces();
        if (element->kind == Kind::Image) {
            if (name() != "src") fail(start, "<img> takes one attribute, src=\"path\" (relative to the lesson file)");
            spaces();
            expect('=', start, tag);
            spaces();
            const char quote = at_ < s_.size() ? s_[at_] : '\0';
            if (quote != '"' && quote != '\'') fail(start, "<img src=...> wants its path in quotes");
            const auto end = s_.find(quote, at_ + 1);
            if (end == std::string::npos) fail(start, "<img src=...> has no closing quote");
            src = s_.substr(at_ + 1, end - at_ - 1);
            at_ = end + 1;
            checkImagePath(src, start);
            spaces();
        }
        const bool empty = element->kind == Kind::Image || element->kind == Kind::LineBreak;
        if (at_ < s_.size() && s_[at_] == '/' && empty) ++at_;
        if (at_ < s_.size() && s_[at_] != '>' && !closing) {
            if (isalpha(static_cast<unsigned char>(s_[at_])))
                fail(start,
                     element->kind == Kind::Image ? std::string("<img> takes one attribute, src") : "<" + tag + "> takes no attributes");
        }
        expect('>', start, tag);
        place(*element, tag, src, start);
    }

    void expect(char c, size_t start, const std::string& tag) {
        if (at_ >= s_.size() || s_[at_] != c) fail(start, "<" + tag + "> is not written as the lesson markup has it (" + kAllowed + ")");
        ++at_;
    }

    void checkImagePath(const std::string& src, size_t start) const {
        const auto bad = [&](const std::string& why) { fail(start, "<img src=\"" + src.substr(0, 200) + "\">: " + why); };
        if (src.empty()) bad("an empty path");
        if (src.size() > 1024) bad("a path longer than 1024 bytes");
        if (src.find('\\') != std::string::npos || src.find(':') != std::string::npos || src.front() == '/')
            bad("a picture is named by its path relative to the lesson file, e.g. figures/plot.png");
        size_t from = 0;
        for (;;) {
            const auto slash = src.find('/', from);
            const auto part = src.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
            if (part.empty() || part == "..") bad("the path leaves the lesson's folder or has an empty part");
            if (slash == std::string::npos) break;
            from = slash + 1;
        }
        for (unsigned char c : src)
            if (c < 0x20 || c == '&' || c == '<' || c == '>') bad("a path with a control character or one of & < >");
    }

    void place(const Element& element, const std::string& tag, const std::string& src, size_t start) {
        const Kind parent = stack_.back().node->kind;
        if (element.kind == Kind::Item && !isList(parent)) fail(start, "<li> outside a list (<ul> or <ol>)");
        if (element.kind != Kind::Item && isList(parent))
            fail(start, "<" + tag + "> directly inside <" + stack_.back().tag + "> (only <li> goes there)");
        if (isList(element.kind) && parent != Kind::Root && parent != Kind::Item)
            fail(start, "a list inside <" + stack_.back().tag + "> (lists go at the top or inside <li>)");
        if (++elements_ > LessonMarkup::kMaxElements) fail(start, "more than " + std::to_string(LessonMarkup::kMaxElements) + " elements");
        if (element.kind == Kind::Image && ++images_ > LessonMarkup::kMaxImages)
            fail(start, "more than " + std::to_string(LessonMarkup::kMaxImages) + " pictures");
        Node* node = stack_.back().node;
        node->children.push_back({element.kind, src, {}});
        if (element.kind == Kind::Image || element.kind == Kind::LineBreak) return;
        if (static_cast<int>(stack_.size()) > LessonMarkup::kMaxDepth)
            fail(start, "elements nested deeper than " + std::to_string(LessonMarkup::kMaxDepth) + " levels");
        stack_.push_back({&node->children.back(), tag, start});
    }

    const std::string& s_;
    size_t at_ = 0;
    std::vector<Open> stack_;  // pointers stay valid: only the innermost open node gets children
    size_t elements_ = 0, images_ = 0;
};

const char* tagOf(Kind kind) {
    for (const auto& e : kElements)
        if (e.kind == kind) return e.tag;
    return "";
}

void html(const Node& node, const std::function<std::string(const std::string&)>& imageUrl, std::string& out) {
    switch (node.kind) {
    case Kind::Text:
        out += LessonMarkup::escape(node.text);
        return;
    case Kind::LineBreak:
        out += "<br>";
        return;
    case Kind::Image:
        out += "<img src=\"" + LessonMarkup::escape(imageUrl(node.text)) + "\">";
        return;
    default:
        break;
    }
    const std::string tag = node.kind == Kind::Code ? "code" : tagOf(node.kind);
    if (!tag.empty()) out += "<" + tag + ">";
    for (const auto& child : node.children) html(child, imageUrl, out);
    if (!tag.empty()) out += "</" + tag + ">";
}

void collectImages(const Node& node, std::vector<std::string>& out) {
    if (node.kind == Kind::Image) out.push_back(node.text);
    for (const auto& child : node.children) collectImages(child, out);
}

}  // namespace

LessonMarkup::Node LessonMarkup::parse(const std::string& text) {
    if (text.size() > kMaxBytes)
        throw Error("is " + std::to_string(text.size()) + " bytes long; a page's text has at most " + std::to_string(kMaxBytes));
    const long invalid = utf8::invalidOffset(text);
    if (invalid >= 0) throw Error("is not valid UTF-8 at byte " + std::to_string(invalid + 1));
    return Parser(text).run();
}

std::string LessonMarkup::toHtml(const Node& root, const std::function<std::string(const std::string&)>& imageUrl) {
    std::string out;
    html(root, imageUrl, out);
    return out;
}

namespace {

void appendPlain(const LessonMarkup::Node& node, std::string& out) {
    using Kind = LessonMarkup::Kind;
    const auto newLine = [&out] {
        while (!out.empty() && out.back() == ' ') out.pop_back();
        if (!out.empty() && out.back() != '\n') out += '\n';
    };
    for (const auto& child : node.children) {
        switch (child.kind) {
        case Kind::Text:
            for (size_t i = 0; i < child.text.size(); ++i) {
                const char c = child.text[i];
                const bool nbsp = c == '\xc2' && i + 1 < child.text.size() && child.text[i + 1] == '\xa0';
                if (nbsp) {  // a space of its own, never merged with its neighbours
                    ++i;
                    out += ' ';
                } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                    if (!out.empty() && out.back() != ' ' && out.back() != '\n') out += ' ';
                } else {
                    out += c;
                }
            }
            break;
        case Kind::LineBreak:
            while (!out.empty() && out.back() == ' ') out.pop_back();
            out += '\n';
            break;
        case Kind::Subscript:
        case Kind::Superscript: {
            std::string inner;
            appendPlain(child, inner);
            out += child.kind == Kind::Subscript ? '_' : '^';
            out += utf8::codePoints(inner).size() == 1 ? inner : "{" + inner + "}";
            break;
        }
        case Kind::BulletList:
        case Kind::NumberedList:
            newLine();
            appendPlain(child, out);
            newLine();
            break;
        case Kind::Item:
            newLine();
            appendPlain(child, out);
            break;
        case Kind::Image:
            break;
        default:
            appendPlain(child, out);
        }
    }
}

}  // namespace

std::string LessonMarkup::plainText(const Node& root) {
    std::string out;
    appendPlain(root, out);
    // No space at either end of a line, nor line breaks at either end of the text.
    std::string trimmed;
    size_t start = 0;
    while (start <= out.size()) {
        size_t end = out.find('\n', start);
        if (end == std::string::npos) end = out.size();
        std::string line = out.substr(start, end - start);
        while (!line.empty() && line.front() == ' ') line.erase(line.begin());
        while (!line.empty() && line.back() == ' ') line.pop_back();
        if (start > 0) trimmed += '\n';
        trimmed += line;
        start = end + 1;
    }
    while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
    while (!trimmed.empty() && trimmed.front() == '\n') trimmed.erase(trimmed.begin());
    return trimmed;
}

std::vector<std::string> LessonMarkup::images(const Node& root) {
    std::vector<std::string> out;
    collectImages(root, out);
    return out;
}

std::string LessonMarkup::escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

}  // namespace alignscope::core
