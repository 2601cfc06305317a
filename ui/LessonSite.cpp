#include "ui/LessonSite.h"

#include "ui/BatchExporter.h"
#include "ui/FigureExporter.h"
#include "ui/HtmlPage.h"
#include "ui/LessonPlayer.h"
#include "ui/PageData.h"
#include "ui/SiteFiles.h"
#include "ui/TimelineExporter.h"

#include "core/decoding/DecodingSession.h"
#include "core/lesson/LessonMarkup.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"
#include "core/training/TrainingTimeline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <QFileInfo>

namespace alignscope::ui {
namespace {

core::Error failure(const Lesson& lesson, int page, const std::string& what) {
    return core::Error("lesson '" + lesson.path.toStdString() + "' page " + std::to_string(page + 1) + ": " + what);
}

const core::Model& modelAt(std::map<QString, core::Model>& models, const QString& path) {
    auto it = models.find(path);
    if (it == models.end()) it = models.emplace(path, core::Model::load(path.toStdString())).first;
    return it->second;
}

// The lesson's text as a tree of its few elements (core::LessonMarkup's, already checked when the
// lesson loaded): the page builds each element by name and each text with textContent, never parsing
// markup, so the page's text reads as the app's (italics, code, lists) with nothing of it run. A
// picture inside the text is a file of the site, as the page's own picture is (SiteFiles).
nlohmann::json markupTree(const core::LessonMarkup::Node& node, const QString& lessonFolder, SiteFiles& files) {
    using Kind = core::LessonMarkup::Kind;
    static const std::map<Kind, const char*> names = {{Kind::Text, "text"},    {Kind::Emphasis, "em"},   {Kind::Strong, "strong"},
                                                      {Kind::Code, "code"},    {Kind::Subscript, "sub"}, {Kind::Superscript, "sup"},
                                                      {Kind::LineBreak, "br"}, {Kind::BulletList, "ul"}, {Kind::NumberedList, "ol"},
                                                      {Kind::Item, "li"},      {Kind::Image, "img"}};
    nlohmann::json children = nlohmann::json::array();
    for (const auto& child : node.children) {
        nlohmann::json c = {{"kind", names.at(child.kind)}};
        if (child.kind == Kind::Text) c["text"] = child.text;
        if (child.kind == Kind::Image)
            c["src"] = files.picture(lessonFolder + QLatin1Char('/') + QString::fromStdString(child.text)).toStdString();
        if (!child.children.empty()) c["children"] = markupTree(child, lessonFolder, files);
        children.push_back(std::move(c));
    }
    return children;
}

// The start of a page's text for the index: its inline elements only (a list's items and a line
// break read as spaces, pictures left out), cut after about `budget` characters at a space with " …".
core::LessonMarkup::Node inlineStart(const core::LessonMarkup::Node& node, size_t& budget) {
    using Kind = core::LessonMarkup::Kind;
    core::LessonMarkup::Node out{
        node.kind == Kind::BulletList || node.kind == Kind::NumberedList || node.kind == Kind::Item ? Kind::Root : node.kind, {}, {}};
    const auto text = [](std::string t) { return core::LessonMarkup::Node{Kind::Text, std::move(t), {}}; };
    for (const auto& child : node.children) {
        if (budget == 0) break;
        if (child.kind == Kind::Image) continue;
        if (child.kind == Kind::LineBreak || child.kind == Kind::Item) {
            if (!out.children.empty()) out.children.push_back(text(" "));
            if (child.kind == Kind::LineBreak) continue;
        }
        if (child.kind == Kind::Text) {
            std::string t = child.text;
            if (t.size() > budget) {
                const size_t space = t.rfind(' ', budget);
                size_t cut = space == std::string::npos ? budget : space;
                while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
                t = t.substr(0, cut) + " …";
                budget = 0;
            } else budget -= t.size();
            out.children.push_back(text(std::move(t)));
            continue;
        }
        auto inner = inlineStart(child, budget);
        if (inner.kind == Kind::Root) {
            for (auto& c : inner.children) out.children.push_back(std::move(c));
        } else out.children.push_back(std::move(inner));
    }
    return out;
}

// The page's message catalogue (resources/web/messages) also words the site's own lines: a
// message with its {name} placeholders filled in.
std::string siteMessage(const std::string& language, const char* key, const std::map<std::string, std::string>& values) {
    const auto messages = nlohmann::json::parse(HtmlPage::messagesText(language));
    std::string text = messages.value(key, std::string());
    for (const auto& [name, value] : values)
        for (size_t at = text.find('{' + name + '}'); at != std::string::npos; at = text.find('{' + name + '}', at + value.size()))
            text.replace(at, name.size() + 2, value);
    return text;
}

std::string line(const LessonPage& p) {
    return p.target.isEmpty() ? p.source.toStdString() : p.source.toStdString() + " ||| " + p.target.toStdString();
}

}  // namespace

QString LessonSite::pageFile(int page) { return QStringLiteral("page-%1.html").arg(page + 1, 2, 10, QLatin1Char('0')); }

nlohmann::json LessonSite::pageData(const Lesson& lesson, int k, std::map<QString, core::Model>& models, QString& current,
                                    SiteFiles& files) {
    const LessonPage& p = lesson.pages[k];
    FigureOptions options;
    PageData::Settings settings;
    settings.rounded = 4;
    settings.fullMatrix = true;
    settings.heatmap = p.heatmap.toStdString();
    settings.beamWidth = std::max(1, p.beam);
    nlohmann::json timeline;
    core::DecodingState state;
    const core::Model* model = nullptr;
    if (!p.timeline.isEmpty()) {
        // The app's training-run view: the sentence forced through every snapshot, one shown.
        const TimelineExporter run(core::TrainingTimeline::open(LessonPlayer::resolveTimeline(p.timeline).toStdString()));
        const int count = static_cast<int>(run.timeline().snapshots().size());
        const int shown = p.snapshot > 0 ? std::min(p.snapshot, count) - 1 : count - 1;
        const auto& points = run.timeline().snapshots();
        nlohmann::json snaps = nlohmann::json::array();
        run.forEachFrame(p.source.toStdString(), p.target.toStdString(), options, 800, [&](size_t k, const FigureExporter::Frame& f) {
            // Each snapshot's own steps and states: the candidates, Step explained and the
            // encoder panel follow the slider, not only the heatmap.
            auto data = PageData::build(f.state, options, settings);
            nlohmann::json snap = {{"label", f.options.title.toStdString()},
                                   {"alpha", std::move(data["alpha"])},
                                   {"update", points[k].step},
                                   {"loss", std::round(points[k].loss * 1e4) / 1e4},
                                   {"steps", std::move(data["steps"])}};
            if (data.contains("encoder")) snap["encoder"] = std::move(data["encoder"]);
            snaps.push_back(std::move(snap));
            if (static_cast<int>(k) == shown) state = f.state;
        });
        // The loss curve the lesson names, as the app's training-run panel draws it (ui/TimelinePanel:
        // the per-update loss's running mean over 2 % of the run), thinned to at most 400 points.
        const auto& raw = run.timeline().loss();
        std::vector<double> loss(raw.size());
        const size_t window = std::max<size_t>(1, raw.size() / 50);
        double sum = 0;
        for (size_t i = 0; i < raw.size(); ++i) {
            sum += raw[i];
            if (i >= window) sum -= raw[i - window];
            loss[i] = sum / static_cast<double>(std::min(i + 1, window));
        }
        nlohmann::json curve = nlohmann::json::array();
        const size_t stride = std::max<size_t>(1, (loss.size() + 399) / 400);
        for (size_t u = 0; u < loss.size(); u += stride) curve.push_back({u + 1, std::round(loss[u] * 1e4) / 1e4});
        if (!loss.empty() && (loss.size() - 1) % stride != 0) curve.push_back({loss.size(), std::round(loss.back() * 1e4) / 1e4});
        timeline = {{"name", run.timeline().name()},
                    {"snapshots", std::move(snaps)},
                    {"shown", shown},
                    {"updates", run.timeline().updates()},
                    {"loss", std::move(curve)}};
        const auto& snaps0 = run.timeline().snapshots();
        model = &modelAt(models, QString::fromStdString(run.timeline().folder() + "/" + snaps0[static_cast<size_t>(shown)].file));
    } else {
        if (!p.model.isEmpty()) current = LessonPlayer::resolveModel(p.model);
        model = &modelAt(models, current);
        state = BatchExporter::decode(*model, line(p), std::max(1, p.beam), 0, nullptr, core::SessionOptions{}.topK);
        // Free decoding: the whole translation, opened at the page's step (Step goes on from there as in the app).
        if ((p.target.isEmpty() || p.steps > 0) && p.beam <= 0 && !p.run) settings.step = p.steps;
    }
    if (!p.heatmap.isEmpty()) {
        state.attribute(*model, p.heatmap.toStdString());
        if (!state.attributionError.empty()) throw core::Error(state.attributionError);
    }
    auto j = PageData::build(state, options, settings);
    if (!timeline.is_null()) j["timeline"] = std::move(timeline);
    if (!p.compare.isEmpty()) {
        const auto& b = modelAt(models, LessonPlayer::resolveModel(p.compare));
        const auto other = BatchExporter::decode(b, p.target.isEmpty() ? p.source.toStdString() : line(p));
        auto data = PageData::build(other, options, settings);
        j["comparison"] = {{"model", other.modelName},
                           {"translation", other.translation},
                           {"source_tokens", data["source_tokens"]},
                           {"target_tokens", data["target_tokens"]},
                           {"source_labels", data["source_labels"]},
                           {"target_labels", data["target_labels"]},
                           {"alpha", data["alpha"]}};
    }
    const auto markup = core::LessonMarkup::parse(p.text.toStdString());  // checked when the lesson loaded
    nlohmann::json L = {
        {"title", lesson.title.toStdString()},
        {"page", k + 1},
        {"pages", lesson.pages.size()},
        {"text", core::LessonMarkup::plainText(markup)},
        {"markup", markupTree(markup, QFileInfo(lesson.path).absolutePath(), files)},
        {"image", p.image.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(files.picture(p.image).toStdString())},
        {"previous", k > 0 ? nlohmann::json(pageFile(k - 1).toStdString()) : nlohmann::json(nullptr)},
        {"next", k + 1 < lesson.pages.size() ? nlohmann::json(pageFile(k + 1).toStdString()) : nlohmann::json(nullptr)},
        {"index", "index.html"},
        {"explain", p.explainPart.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(p.explainPart.toStdString())},
        {"highlight", p.highlight == ViewState::Panel::None ? nlohmann::json(nullptr)
                                                            : nlohmann::json(ViewState::panelName(p.highlight).toStdString())}};
    j["lesson"] = std::move(L);
    return j;
}

QStringList LessonSite::write(const Lesson& lesson, const QString& folder, const std::function<void(int, int)>& pageDone) {
    FigureExporter::checkWritableFolder(folder);
    const int n = static_cast<int>(lesson.pages.size());
    // Our names in the user's folder: a link or pipe under one is refused before any page is made.
    const QString indexPath = folder + QStringLiteral("/index.html");
    FigureExporter::checkFilePath(indexPath, true);
    for (int k = 0; k < n; ++k) FigureExporter::checkFilePath(folder + QLatin1Char('/') + pageFile(k), true);
    std::map<QString, core::Model> models;
    QString current = QString::fromStdString(core::Runtime::defaultModelPath());
    SiteFiles files(folder);  // the pictures, once each for the whole site
    QStringList written;
    std::vector<std::string> titles;
    std::vector<QString> pages;
    // The pages' controls in the lesson's language where the page's catalogue has it, else English.
    const auto& pageLanguages = HtmlPage::languages();
    const std::string language = std::find(pageLanguages.begin(), pageLanguages.end(), lesson.language.toStdString()) != pageLanguages.end()
                                     ? lesson.language.toStdString()
                                     : std::string("en");
    for (int k = 0; k < n; ++k) {
        nlohmann::json data;
        try {
            data = pageData(lesson, k, models, current, files);
        } catch (const std::exception& e) {
            throw failure(lesson, k, e.what());
        }
        const std::string title = siteMessage(
            language, "site_page_title", {{"lesson", lesson.title.toStdString()}, {"n", std::to_string(k + 1)}, {"of", std::to_string(n)}});
        const QString path = folder + QLatin1Char('/') + pageFile(k);
        FigureExporter::writeFile(path, QByteArray::fromStdString(HtmlPage::render(data, title, language)), true);
        pages.push_back(path);
        if (pageDone) pageDone(k + 1, n);
    }
    // The index: the lesson's title and summary, and every page's first words, linked.
    const auto e = [](const QString& text) { return HtmlPage::escapeText(text.toStdString()); };
    std::string index = "<!DOCTYPE html>\n<html lang=\"" + lesson.language.toStdString() +
                        "\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src "
                        "'unsafe-inline'\">\n<title>" +
                        e(lesson.title) + "</title>\n<style>\n" + HtmlPage::styleText() +
                        "</style>\n</head>\n<body>\n<main class=\"alignscope-page\">\n<h1>" + e(lesson.title) + "</h1>\n";
    if (!lesson.summary.isEmpty()) index += "<p>" + e(lesson.summary) + "</p>\n";
    index += "<p class=\"as-note\">" + e(QString::fromStdString(siteMessage(language, "site_index_note", {{"n", std::to_string(n)}}))) +
             "</p>\n<ol class=\"as-lesson-index\">\n";
    for (int k = 0; k < n; ++k) {
        // The page's first words as the app shows them (s<sub>t</sub>, not s_t), escaped by LessonMarkup.
        size_t budget = 120;
        const auto first = core::LessonMarkup::toHtml(inlineStart(core::LessonMarkup::parse(lesson.pages[k].text.toStdString()), budget),
                                                      [](const std::string&) { return std::string(); });
        index += "<li><a href=\"" + pageFile(k).toStdString() + "\"" + (k == 0 ? " autofocus" : "") + ">" + first + "</a></li>\n";
    }
    index += "</ol>\n<p class=\"as-note\">" +
             e(QString::fromStdString(siteMessage(language, "site_written_by", {{"version", core::Runtime::version()}}))) +
             "</p>\n</main>\n<script>\n"
             // Page Down opens the first page, as it turns the pages of the lesson.
             "document.addEventListener(\"keydown\", function (e) {\n"
             "  if (e.key !== \"PageDown\" || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;\n"
             "  e.preventDefault();\n  window.location.href = \"" +
             pageFile(0).toStdString() +
             "\";\n});\n"
             "</script>\n</body>\n</html>\n";
    FigureExporter::writeFile(indexPath, QByteArray::fromStdString(index), true);
    written << indexPath;
    for (const auto& p : pages) written << p;
    return written;
}

}  // namespace alignscope::ui
