#include "ui/Lesson.h"

#include "core/platform/BoundedFile.h"
#include "core/Error.h"
#include "core/platform/InstallLayout.h"
#include "core/runtime/Runtime.h"
#include "core/attribution/Attributor.h"
#include "core/lesson/LessonFormat.h"
#include "core/model/ModelArchive.h"
#include "core/training/TrainingTimeline.h"
#include "ui/StepExplainedPanel.h"

#include <filesystem>
#include <map>
#include <set>

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QUrl>

namespace alignscope::ui {
namespace {

namespace fs = std::filesystem;

core::LessonFormat::Names pageNames() {
    core::LessonFormat::Names names;
    for (const auto& part : StepExplainedPanel::partNames()) names.explainParts.push_back(part.toStdString());
    names.heatmaps = core::Attributor::methods();
    return names;
}

// The file checked whole, then its words in `language` where it has it (else in English).
core::LessonFormat::Lesson readFormat(const QString& path, const QString& language, Lesson& lesson) {
    const std::string file = path.toStdString();
    const std::string bytes = core::BoundedFile::read(file, core::LessonFormat::kMaxFileBytes, "lesson");
    const auto all = core::LessonFormat::parse(bytes, file, pageNames());
    lesson.path = path;
    lesson.languages = QStringList{QStringLiteral("en")};
    for (const auto& code : all.languages) lesson.languages << QString::fromStdString(code);
    auto format = all.in(language.toStdString());
    lesson.language = QString::fromStdString(format.language);
    if (lesson.language != language) lesson.missingLanguage = language;
    lesson.title = QString::fromStdString(format.title);
    lesson.summary = QString::fromStdString(format.summary);
    return format;
}

// The files a lesson's pages reference, each checked once however many pages name it.
class References {
public:
    explicit References(const QString& lessonPath) : lesson_(lessonPath.toStdString()) {
        std::error_code ec;
        folder_ = fs::canonical(fs::absolute(fs::path(lesson_)).parent_path(), ec);
        models_ = fs::weakly_canonical(core::Runtime::modelsDirectory(), ec);
    }

    // `where` is "lesson 'file': page 3", `key` the page's key naming it.
    std::string model(const std::string& name, const std::string& where, const std::string& key) {
        const std::string path = resolve(core::LessonFormat::isBundledName(name) ? name + ".pt" : name, name, where, key);
        if (checked_.insert(path).second) {
            try {
                core::BoundedFile::check(path, Lesson::kMaxModelBytes, "the model");
                core::ModelArchive::check(path);
            } catch (const core::Error& e) {
                throw core::Error(where + ", \"" + key + "\": " + e.what());
            }
        }
        return path;
    }

    std::string timeline(const std::string& name, int snapshot, const std::string& where) {
        const std::string path = resolve(name, name, where, "timeline");
        auto found = runs_.find(path);
        if (found == runs_.end()) {
            try {
                found = runs_.emplace(path, static_cast<int>(core::TrainingTimeline::open(path).snapshots().size())).first;
            } catch (const core::Error& e) {
                throw core::Error(where + ", \"timeline\": " + e.what());
            }
        }
        if (snapshot > found->second)
            throw core::Error(where + ", \"snapshot\": is " + std::to_string(snapshot) + ", but the run '" + name + "' has " +
                              std::to_string(found->second) + " snapshots");
        return path;
    }

    // A picture beside the lesson, decoded within limits (its header's size read before the pixels).
    QImage picture(const std::string& name, const std::string& where, const std::string& key, std::string& path) {
        path = resolve(name, name, where, key, /*bundled=*/false);
        const auto known = pictures_.find(path);
        if (known != pictures_.end()) return known->second;
        const auto fail = [&](const std::string& what) {
            return core::Error(where + ", \"" + key + "\": the picture '" + name + "' " + what);
        };
        try {
            core::BoundedFile::check(path, Lesson::kMaxPictureBytes, "the picture");
        } catch (const core::Error& e) {
            throw core::Error(where + ", \"" + key + "\": " + e.what());
        }
        QImageReader reader(QString::fromStdString(path));
        reader.setAutoTransform(true);
        const QSize size = reader.size();
        if (!reader.canRead() || !size.isValid()) throw fail("is not a picture AlignScope can read (PNG, JPEG, SVG, GIF)");
        if (size.width() > Lesson::kMaxPictureSide || size.height() > Lesson::kMaxPictureSide)
            throw fail("is " + std::to_string(size.width()) + " x " + std::to_string(size.height()) + " pixels; at most " +
                       std::to_string(Lesson::kMaxPictureSide) + " on a side");
        QImage image = reader.read();
        if (image.isNull()) throw fail("cannot be decoded (" + reader.errorString().toStdString() + ")");
        pictures_.emplace(path, image);
        return image;
    }

private:
    // A bundled name in the models folder where one is there, else a path inside the lesson's
    // folder (symbolic links followed first, so none can point outside).
    std::string resolve(const std::string& file, const std::string& name, const std::string& where, const std::string& key,
                        bool bundled = true) {
        std::error_code ec;
        if (bundled && core::LessonFormat::isBundledName(name)) {
            const fs::path path = fs::weakly_canonical(models_ / file, ec);
            if (!ec && fs::exists(path, ec) && inside(path, models_)) return path.string();
        }
        const fs::path path = fs::weakly_canonical(folder_ / name, ec);
        if (ec || !inside(path, folder_)) throw core::Error(where + ", \"" + key + "\": '" + name + "' lies outside the lesson's folder");
        if (!fs::exists(path, ec))
            throw core::Error(
                where + ", \"" + key + "\": '" + name + "' " +
                (bundled ? "is neither a bundled model or run nor a file beside the lesson" : "does not exist beside the lesson"));
        return path.string();
    }
    static bool inside(const fs::path& path, const fs::path& folder) {
        const auto rel = path.lexically_relative(folder);
        return !rel.empty() && *rel.begin() != "..";
    }

    std::string lesson_;
    fs::path folder_, models_;
    std::set<std::string> checked_;
    std::map<std::string, int> runs_;
    std::map<std::string, QImage> pictures_;
};

}  // namespace

Lesson Lesson::loadHeading(const QString& path, const QString& language) {
    Lesson lesson;
    readFormat(path, language, lesson);
    return lesson;
}

Lesson Lesson::load(const QString& path, const QString& language) {
    Lesson lesson;
    const auto format = readFormat(path, language, lesson);
    References files(path);
    lesson.pages.reserve(static_cast<int>(format.pages.size()));
    const std::string file = path.toStdString();
    for (size_t i = 0; i < format.pages.size(); ++i) {
        const auto& p = format.pages[i];
        const std::string where = "lesson '" + file + "': page " + std::to_string(i + 1);
        LessonPage page;
        page.text = QString::fromStdString(p.text);
        page.source = QString::fromStdString(p.source);
        page.target = QString::fromStdString(p.target);
        page.steps = p.steps;
        page.stepsOfTarget = !page.target.isEmpty() && p.steps > 0;  // the first `steps` tokens of the given target
        page.run = p.run;
        page.beam = p.beam;
        page.explain = p.explain;
        page.explainPart = QString::fromStdString(p.explainPart);
        page.highlight = ViewState::panelNamed(QString::fromStdString(p.highlight));
        page.heatmap = QString::fromStdString(p.heatmap);
        page.snapshot = p.snapshot;
        for (const auto& r : p.rows) page.markRows.push_back({r.position, QString::fromStdString(r.token)});
        for (const auto& c : p.columns) page.markColumns.push_back({c.position, QString::fromStdString(c.token)});
        if (!p.model.empty()) page.model = QString::fromStdString(files.model(p.model, where, "model"));
        if (!p.compare.empty()) page.compare = QString::fromStdString(files.model(p.compare, where, "compare"));
        if (!p.timeline.empty()) page.timeline = QString::fromStdString(files.timeline(p.timeline, p.snapshot, where));
        if (!p.image.empty()) {
            std::string image;
            page.picture = files.picture(p.image, where, "image", image);
            page.image = QString::fromStdString(image);
        }
        // Inline pictures are checked as "image" is; Qt's rich text then reads the checked file.
        page.html = QString::fromStdString(core::LessonMarkup::toHtml(p.markup, [&](const std::string& name) {
            std::string image;
            files.picture(name, where, "text", image);
            return QUrl::fromLocalFile(QString::fromStdString(image)).toString().toStdString();
        }));
        // The other languages' inline pictures are checked too: a lesson opens in any of them.
        for (const auto& [code, text] : p.texts)
            for (const auto& name : core::LessonMarkup::images(text.markup)) {
                std::string image;
                files.picture(name, where, "texts." + code, image);
            }
        lesson.pages.push_back(page);
    }
    return lesson;
}

QStringList Lesson::shippedLessons() {
    QDir dir(QString::fromStdString(core::InstallLayout::lessonsDirectory()));
    QStringList out;
    for (const auto& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) out << dir.filePath(name);
    return out;
}

}  // namespace alignscope::ui
