#include "core/lesson/LessonFormat.h"

#include "core/platform/BoundedFile.h"
#include "core/Error.h"
#include "core/model/AttributeJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace alignscope::core {
namespace {

using json = nlohmann::json;

const std::vector<std::string> kTopKeys = {"title", "titles", "summary", "summaries", "pages"};
const std::vector<std::string> kPageKeys = {"text",      "texts",   "model",    "source",   "target",  "steps", "run",  "beam",   "explain",
                                            "highlight", "heatmap", "timeline", "snapshot", "compare", "image", "rows", "columns"};

// ISO 639-1: the two-letter codes of languages, as QLocale().name() and --language give them.
constexpr const char* kLanguageCodes =
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu "
    "fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn "
    "ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os "
    "pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw "
    "ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu";

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

size_t characters(const std::string& s) {
    return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// One page's keys, each read once with its type checked; `where` is "lesson 'file': page 3".
class PageReader {
public:
    PageReader(const json& object, std::string where) : o_(object), where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw Error(where_ + (key.empty() ? std::string() : ", \"" + key + "\"") + ": " + what);
    }

    void knownKeys(const std::vector<std::string>& keys) const {
        for (const auto& item : o_.items())
            if (std::find(keys.begin(), keys.end(), item.key()) == keys.end())
                fail("", "unknown key \"" + item.key().substr(0, 100) + "\" (known: " + joined(keys) + ")");
    }

    std::string string(const std::string& key, size_t maxCharacters, bool required = false) const {
        const auto it = o_.find(key);
        if (it == o_.end()) {
            if (required) fail(key, "missing (it is required)");
            return {};
        }
        return value(*it, key, maxCharacters, required);
    }

    std::string value(const json& v, const std::string& key, size_t maxCharacters, bool required) const {
        if (!v.is_string()) fail(key, std::string("is ") + v.type_name() + ", not a string");
        const auto& s = v.get_ref<const std::string&>();
        if (s.find('\0') != std::string::npos) fail(key, "holds a NUL character");
        if (characters(s) > maxCharacters)
            fail(key, "has " + std::to_string(characters(s)) + " characters; at most " + std::to_string(maxCharacters));
        if (required && s.empty()) fail(key, "is empty");
        return s;
    }

    // "titles", "summaries", a page's "texts": the other languages' versions of `english` (the
    // key without its s), by ISO 639-1 code; a missing entry is named "texts.de".
    std::map<std::string, std::string> languages(const std::string& key, const std::string& english, size_t maxCharacters) const {
        std::map<std::string, std::string> out;
        const json* map = find(key);
        if (!map) return out;
        if (!map->is_object())
            fail(key, std::string("is ") + map->type_name() + ", not an object from language codes to texts (\"de\": \"…\")");
        for (const auto& item : map->items()) {
            const std::string& code = item.key();
            const std::string at = key + "." + code.substr(0, 20);
            if (code == "en") fail(at, "English is the \"" + english + "\" itself; \"" + key + "\" holds the other languages");
            if (!LessonFormat::isLanguageCode(code))
                fail(at, "'" + code.substr(0, 20) + "' is not a language code (ISO 639-1, two lower-case letters: ko, de, fr)");
            out[code] = value(item.value(), at, maxCharacters, /*required=*/true);
        }
        return out;
    }

    // Each of the lesson's languages in `got` and nothing else: `key` is "texts" or "summaries".
    void expectLanguages(const std::map<std::string, std::string>& got, const std::vector<std::string>& languages,
                         const std::string& key) const {
        for (const auto& language : languages)
            if (!got.count(language))
                fail(key + "." + language, "missing: the lesson's \"titles\" name " + language + ", so every page's text" +
                                               " and the summary are needed in it too");
        for (const auto& [language, text] : got)
            if (std::find(languages.begin(), languages.end(), language) == languages.end())
                fail(key + "." + language, "the lesson has no title in " + language + " (\"titles\" names " +
                                               (languages.empty() ? std::string("no language") : joined(languages)) + ")");
    }

    int integer(const std::string& key, int low, int high) const {
        const auto it = o_.find(key);
        if (it == o_.end()) return 0;
        if (!it->is_number_integer())
            fail(key, std::string("is ") + (it->is_number() ? "not a whole number" : it->type_name() + std::string(", not a number")) +
                          " (a whole number from " + std::to_string(low) + " to " + std::to_string(high) + ")");
        const auto v = it->get<json::number_integer_t>();
        if (v < low || v > high) fail(key, "is " + it->dump() + "; from " + std::to_string(low) + " to " + std::to_string(high));
        return static_cast<int>(v);
    }

    bool boolean(const std::string& key) const {
        const auto it = o_.find(key);
        if (it == o_.end()) return false;
        if (!it->is_boolean()) fail(key, std::string("is ") + it->type_name() + ", not true or false");
        return it->get<bool>();
    }

    // "rows" / "columns": the tokens a page talks about, each a label as the axis shows it or a
    // 1-based position.
    std::vector<LessonFormat::Mark> marks(const std::string& key) const {
        std::vector<LessonFormat::Mark> out;
        const json* list = find(key);
        if (!list) return out;
        if (!list->is_array()) fail(key, std::string("is ") + list->type_name() + ", not a list of tokens or positions");
        if (list->size() > LessonFormat::kMaxMarks)
            fail(key, "names " + std::to_string(list->size()) + " tokens; at most " + std::to_string(LessonFormat::kMaxMarks));
        for (size_t k = 0; k < list->size(); ++k) {
            const json& item = (*list)[k];
            const std::string at = key + "[" + std::to_string(k) + "]";
            if (item.is_number_integer()) {
                const auto v = item.get<json::number_integer_t>();
                if (v < 1 || v > LessonFormat::kMaxSteps)
                    fail(at, "is " + item.dump() + "; a position from 1 to " + std::to_string(LessonFormat::kMaxSteps));
                out.push_back({static_cast<int>(v), {}});
            } else if (item.is_string()) {
                const auto& s = item.get_ref<const std::string&>();
                if (s.empty() || characters(s) > 100) fail(at, "is an empty token or longer than 100 characters");
                for (unsigned char c : s)
                    if (c < 0x20) fail(at, "holds a control character");
                out.push_back({0, s});
            } else {
                fail(at, std::string("is ") + item.type_name() + ", not a token (a string) or a position (a whole number)");
            }
        }
        return out;
    }

    const json* find(const std::string& key) const {
        const auto it = o_.find(key);
        return it == o_.end() ? nullptr : &*it;
    }

    // A relative path inside the lesson's folder (image), or also a bundled name (the others).
    std::string reference(const std::string& key) const {
        const std::string name = string(key, LessonFormat::kMaxNameBytes);
        if (name.empty()) {
            if (find(key)) fail(key, "is empty");
            return name;
        }
        if (name.size() > LessonFormat::kMaxNameBytes)
            fail(key, "is longer than " + std::to_string(LessonFormat::kMaxNameBytes) + " bytes");
        if (key != "image" && LessonFormat::isBundledName(name)) return name;
        if (name.front() == '/' || name.find('\\') != std::string::npos || name.find(':') != std::string::npos)
            fail(key, "'" + name.substr(0, 200) + "' is not a bundled name or a path relative to the lesson file");
        size_t from = 0;
        for (;;) {
            const auto slash = name.find('/', from);
            const auto part = name.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
            if (part.empty() || part == "..") fail(key, "'" + name.substr(0, 200) + "' leaves the lesson's folder or has an empty part");
            if (slash == std::string::npos) break;
            from = slash + 1;
        }
        for (unsigned char c : name)
            if (c < 0x20) fail(key, "holds a control character");
        return name;
    }

    const std::string& where() const { return where_; }

private:
    const json& o_;
    std::string where_;
};

}  // namespace

const std::vector<std::string>& LessonFormat::highlights() {
    static const std::vector<std::string> names = {"heatmap", "encoder", "candidates", "beam", "explain"};
    return names;
}

bool LessonFormat::isLanguageCode(const std::string& code) {
    if (code.size() != 2 || code[0] < 'a' || code[0] > 'z' || code[1] < 'a' || code[1] > 'z') return false;
    const std::string codes = kLanguageCodes;
    for (size_t at = 0; at < codes.size(); at += 3)
        if (codes.compare(at, 2, code) == 0) return true;
    return false;
}

bool LessonFormat::Lesson::has(const std::string& code) const {
    return code == "en" || std::find(languages.begin(), languages.end(), code) != languages.end();
}

LessonFormat::Lesson LessonFormat::Lesson::in(const std::string& code) const {
    Lesson out = *this;
    if (code == language || !has(code) || language != "en") return out;
    out.language = code;
    out.title = titles.at(code);
    if (!summary.empty()) out.summary = summaries.at(code);
    for (auto& page : out.pages) {
        const auto& text = page.texts.at(code);
        page.text = text.text;
        page.markup = text.markup;
    }
    return out;
}

bool LessonFormat::isBundledName(const std::string& name) {
    if (name.empty() || name == "." || name == ".." || (name.size() > 3 && name.compare(name.size() - 3, 3, ".pt") == 0)) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    });
}

LessonFormat::Lesson LessonFormat::parse(const std::string& bytes, const std::string& file, const Names& names) {
    const std::string lesson = "lesson '" + file + "'";
    if (bytes.size() > kMaxFileBytes)
        throw Error(lesson + " is " + BoundedFile::sizeText(bytes.size()) + "; at most " + BoundedFile::sizeText(kMaxFileBytes) +
                    " are read");
    if (AttributeJson::depth(bytes) > AttributeJson::kMaxDepth)
        throw Error(lesson + " nests objects or lists deeper than " + std::to_string(AttributeJson::kMaxDepth) + " levels");
    json root;
    try {
        root = json::parse(bytes);
    } catch (const json::parse_error& e) {
        throw Error(lesson + " is not valid JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const json::exception& e) {  // a number past a double's range
        throw Error(lesson + " is not valid JSON (" + firstLine(e.what()) + ")");
    }
    if (!root.is_object()) throw Error(lesson + " is " + root.type_name() + ", not a JSON object with \"title\" and \"pages\"");
    const PageReader top(root, lesson);
    top.knownKeys(kTopKeys);
    Lesson out;
    out.title = top.string("title", 200, /*required=*/true);
    out.summary = top.string("summary", 1000);
    out.titles = top.languages("titles", "title", 200);
    for (const auto& entry : out.titles) out.languages.push_back(entry.first);
    out.summaries = top.languages("summaries", "summary", 1000);
    if (!out.summaries.empty() && out.summary.empty()) top.fail("summaries", "is given without a \"summary\"");
    if (!out.summary.empty()) top.expectLanguages(out.summaries, out.languages, "summaries");
    const json* pages = top.find("pages");
    if (!pages) top.fail("pages", "missing (it is required)");
    if (!pages->is_array()) top.fail("pages", std::string("is ") + pages->type_name() + ", not a list of pages");
    if (pages->empty()) top.fail("pages", "is empty");
    out.pages.reserve(pages->size());
    for (size_t i = 0; i < pages->size(); ++i) {
        const json& p = (*pages)[i];
        const PageReader r(p, lesson + ": page " + std::to_string(i + 1));
        if (!p.is_object()) r.fail("", std::string("is ") + p.type_name() + ", not an object");
        r.knownKeys(kPageKeys);
        Page page;
        page.text = r.string("text", LessonMarkup::kMaxBytes, /*required=*/true);
        try {
            page.markup = LessonMarkup::parse(page.text);
        } catch (const Error& e) {
            r.fail("text", e.what());
        }
        const auto texts = r.languages("texts", "text", LessonMarkup::kMaxBytes);
        r.expectLanguages(texts, out.languages, "texts");
        for (const auto& [language, text] : texts) {
            try {
                page.texts[language] = {text, LessonMarkup::parse(text)};  // the same markup and limits as "text"
            } catch (const Error& e) {
                r.fail("texts." + language, e.what());
            }
        }
        page.source = r.string("source", kMaxSentenceCharacters, /*required=*/true);
        page.target = r.string("target", kMaxSentenceCharacters);
        page.steps = r.integer("steps", 0, kMaxSteps);
        page.run = r.boolean("run");
        page.beam = r.integer("beam", 0, kMaxBeam);
        // "explain": true opens Step explained at its top; a part's name opens it there.
        if (const json* explain = r.find("explain"); explain && explain->is_string()) {
            page.explainPart = r.string("explain", 100);
            page.explain = true;
            if (std::find(names.explainParts.begin(), names.explainParts.end(), page.explainPart) == names.explainParts.end())
                r.fail("explain", "names part '" + page.explainPart + "' (true, or one of: " + joined(names.explainParts) + ")");
        } else if (explain && !explain->is_boolean()) {
            r.fail("explain",
                   std::string("is ") + explain->type_name() + " (true, false or a part's name: " + joined(names.explainParts) + ")");
        } else {
            page.explain = r.boolean("explain");
        }
        page.highlight = r.string("highlight", 100);
        if (!page.highlight.empty() && std::find(highlights().begin(), highlights().end(), page.highlight) == highlights().end())
            r.fail("highlight", "'" + page.highlight + "' is not one of: " + joined(highlights()));
        page.heatmap = r.string("heatmap", 100);
        if (page.heatmap == "attention") page.heatmap.clear();
        if (!page.heatmap.empty() && std::find(names.heatmaps.begin(), names.heatmaps.end(), page.heatmap) == names.heatmaps.end())
            r.fail("heatmap", "'" + page.heatmap + "' is not one of: attention, " + joined(names.heatmaps));
        page.model = r.reference("model");
        page.compare = r.reference("compare");
        page.timeline = r.reference("timeline");
        page.image = r.reference("image");
        page.snapshot = r.integer("snapshot", 1, kMaxSnapshot);
        page.rows = r.marks("rows");
        page.columns = r.marks("columns");
        if (page.snapshot > 0 && page.timeline.empty()) r.fail("snapshot", "is given without a \"timeline\"");
        out.pages.push_back(std::move(page));
    }
    return out;
}

}  // namespace alignscope::core
