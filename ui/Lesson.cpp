#include "ui/Lesson.h"

#include "core/Error.h"
#include "core/InstallLayout.h"
#include "core/attribution/Attributor.h"
#include "ui/StepExplainedPanel.h"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace alignscope::ui {
namespace {

const QStringList kHighlights = {"", "heatmap", "encoder", "candidates", "beam", "explain"};

core::Error fail(const QString& path, const QString& what) {
    return core::Error(QStringLiteral("lesson '%1': %2").arg(path, what).toStdString());
}

}  // namespace

Lesson Lesson::load(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) throw fail(path, QStringLiteral("cannot be read"));
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (doc.isNull()) throw fail(path, QStringLiteral("not valid JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    const auto root = doc.object();
    Lesson lesson;
    lesson.path = path;
    lesson.title = root.value("title").toString();
    lesson.summary = root.value("summary").toString();
    if (lesson.title.isEmpty()) throw fail(path, QStringLiteral("has no \"title\""));
    const auto pages = root.value("pages").toArray();
    if (pages.isEmpty()) throw fail(path, QStringLiteral("has no \"pages\""));
    for (int i = 0; i < pages.size(); ++i) {
        const auto p = pages[i].toObject();
        LessonPage page;
        page.text = p.value("text").toString();
        page.model = p.value("model").toString();
        page.source = p.value("source").toString();
        page.target = p.value("target").toString();
        page.steps = p.value("steps").toInt(0);
        page.run = p.value("run").toBool(false);
        page.beam = p.value("beam").toInt(0);
        // "explain": true opens Step explained at its top; a part's name opens it there.
        const auto explain = p.value("explain");
        page.explain = explain.isString() || explain.toBool(false);
        page.explainPart = explain.toString();
        page.highlight = p.value("highlight").toString();
        page.heatmap = p.value("heatmap").toString();
        page.timeline = p.value("timeline").toString();
        page.snapshot = p.value("snapshot").toInt(0);
        page.compare = p.value("compare").toString();
        if (page.heatmap == QStringLiteral("attention")) page.heatmap.clear();
        const QString image = p.value("image").toString();
        if (!image.isEmpty()) page.image = QFileInfo(path).absoluteDir().absoluteFilePath(image);
        const QString where = QStringLiteral("page %1").arg(i + 1);
        if (page.text.isEmpty()) throw fail(path, where + QStringLiteral(" has no \"text\""));
        if (page.source.isEmpty()) throw fail(path, where + QStringLiteral(" has no \"source\""));
        if (page.steps < 0 || page.beam < 0 || page.beam > 32) throw fail(path, where + QStringLiteral(" has a bad \"steps\" or \"beam\""));
        if (page.snapshot < 0 || (page.snapshot > 0 && page.timeline.isEmpty()))
            throw fail(path, where + QStringLiteral(" has a bad \"snapshot\" (1 or more, with a \"timeline\")"));
        if (!page.explainPart.isEmpty() && !StepExplainedPanel::partNames().contains(page.explainPart))
            throw fail(path, where + QStringLiteral(" explains part '%1' (true, or one of: %2)")
                                         .arg(page.explainPart, StepExplainedPanel::partNames().join(", ")));
        if (!kHighlights.contains(page.highlight))
            throw fail(path, where + QStringLiteral(" highlights '%1' (one of: %2)").arg(page.highlight, kHighlights.mid(1).join(", ")));
        if (!page.heatmap.isEmpty() && !core::Attributor::methods().empty()) {
            const auto names = core::Attributor::methods();
            if (std::find(names.begin(), names.end(), page.heatmap.toStdString()) == names.end()) {
                QStringList known;
                for (const auto& n : names) known << QString::fromStdString(n);
                throw fail(path, where + QStringLiteral(" shows heatmap '%1' (one of: %2)").arg(page.heatmap, known.join(", ")));
            }
        }
        if (!page.image.isEmpty() && !QImageReader(page.image).canRead())
            throw fail(path, where + QStringLiteral(" shows image '%1', which is missing or not a picture").arg(image));
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
