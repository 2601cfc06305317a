#include "ui/LessonPlayer.h"

#include "ui/MainWindow.h"

#include "core/runtime/Runtime.h"

#include <QDir>

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

void LessonPlayer::start(const Lesson& lesson, int firstPage) {
    lesson_ = lesson;
    page_ = -1;
    goTo(firstPage >= 0 && firstPage < lesson_.pages.size() ? firstPage : 0);
}

void LessonPlayer::stop() {
    lesson_ = Lesson();
    page_ = -1;
    emit stopped();  // the window goes back to the view it had before the lesson
}

void LessonPlayer::goTo(int page) {
    if (page < 0 || page >= lesson_.pages.size()) return;
    page_ = page;
    window_->applyView(lesson_.pages[page]);  // the page's whole view, in one operation
    emit pageChanged(page_, static_cast<int>(lesson_.pages.size()));
}

}  // namespace alignscope::ui
