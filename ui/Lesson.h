#pragma once
#include "ui/ViewState.h"

#include <QString>
#include <QVector>

namespace alignscope::ui {

// One page: the view it puts the app into (ViewState, applied whole) and what the teacher says.
struct LessonPage : ViewState {
    QString text;   // what the teacher says (a little HTML is allowed)
    QString image;  // picture shown under the text (absolute path; the file gives it relative to itself)
};

// A guided lesson: pages that each put the app into a state and say something about it.
// The file format is documented in docs/lessons.md.
struct Lesson {
    QString title;
    QString summary;
    QVector<LessonPage> pages;
    QString path;  // file it came from

    // Throws core::Error naming the file and the page for anything malformed.
    static Lesson load(const QString& path);
    // The lesson files shipped with AlignScope (core::InstallLayout::lessonsDirectory()), sorted by name.
    static QStringList shippedLessons();
};

}  // namespace alignscope::ui
