#include "ui/LessonPlayer.h"

#include "ui/DecodingDocument.h"
#include "ui/MainWindow.h"
#include "ui/TimelinePanel.h"

#include "core/Runtime.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>

namespace alignscope::ui {

LessonPlayer::LessonPlayer(MainWindow* window, DecodingDocument* document, QObject* parent)
    : QObject(parent), window_(window), document_(document) {}

QString LessonPlayer::resolveModel(const QString& model) {
    if (model.isEmpty() || model.contains('/') || model.endsWith(QStringLiteral(".pt"))) return model;
    return QDir(QString::fromStdString(core::Runtime::modelsDirectory())).filePath(model + QStringLiteral(".pt"));
}

QString LessonPlayer::resolveTimeline(const QString& timeline) {
    if (timeline.isEmpty() || timeline.contains('/')) return timeline;
    return QDir(QString::fromStdString(core::Runtime::modelsDirectory())).filePath(timeline);
}

void LessonPlayer::start(const Lesson& lesson) {
    lesson_ = lesson;
    page_ = -1;
    goTo(0);
}

void LessonPlayer::stop() {
    lesson_ = Lesson();
    page_ = -1;
    window_->highlightPanel(QString());
    window_->timelineDock()->hide();
    if (!window_->heatmapMethod().isEmpty()) window_->setHeatmapMethod(QString());
    emit stopped();
}

void LessonPlayer::goTo(int page) {
    if (page < 0 || page >= lesson_.pages.size()) return;
    page_ = page;
    const auto& p = lesson_.pages[page];
    const QString model = resolveModel(p.model);
    if (p.timeline.isEmpty() && !model.isEmpty() &&
        QFileInfo(model).absoluteFilePath() != QFileInfo(document_->modelPath()).absoluteFilePath())
        document_->openModel(model);
    window_->setTargetText(QString());
    if (window_->heatmapMethod() != p.heatmap) window_->setHeatmapMethod(p.heatmap);
    window_->setSourceText(p.source);
    if (!p.target.isEmpty()) window_->setTargetText(p.target);
    // A training run: its snapshot, the sentence forced along the page's target (else the last
    // snapshot's translation), the slider and loss curve in their dock.
    if (p.timeline.isEmpty()) window_->timelineDock()->hide();
    if (!p.timeline.isEmpty() && window_->openTimeline(resolveTimeline(p.timeline)) && p.snapshot > 0)
        window_->timelinePanel()->choose(p.snapshot - 1);
    if (!p.timeline.isEmpty()) {
        // nothing to step: the target is forced
    } else if (p.run) document_->runToEnd();
    else
        for (int i = 0; i < p.steps; ++i) document_->step();
    if (p.beam > 0) {
        window_->setBeamWidth(p.beam);
        document_->runBeam(p.beam);
    }
    window_->showStepPanel(p.explain || p.highlight == QStringLiteral("explain"));
    window_->highlightPanel(p.highlight);
    emit pageChanged(page_, static_cast<int>(lesson_.pages.size()));
}

}  // namespace alignscope::ui
