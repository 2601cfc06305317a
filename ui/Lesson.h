#pragma once
#include "ui/ViewState.h"

#include <QImage>
#include <QString>
#include <QStringList>
#include <QVector>

namespace alignscope::ui {

// One page: the view it puts the app into (ViewState, applied whole) and what the teacher says.
struct LessonPage : ViewState {
    QString text;    // what the teacher says, in the lesson markup (core/lesson/LessonMarkup.h)
    QString html;    // that text as Qt rich text, its inline pictures as absolute file URLs
    QString image;   // picture shown under the text (absolute path; the file gives it relative to itself)
    QImage picture;  // that picture, decoded when the lesson was checked
};

// A guided lesson: pages that each put the app into a state and say something about it.
// The file format is documented in docs/lessons.md.
struct Lesson {
    QString title;
    QString summary;
    QVector<LessonPage> pages;
    QString path;                             // file it came from
    QString language = QStringLiteral("en");  // the language of its title, summary and texts
    QStringList languages;                    // every language the file has, "en" first
    QString missingLanguage;                  // the language asked for where the file lacks it (shown in English)

    // Checks the lesson whole (core::LessonFormat, then every file a page references: a regular
    // file of bounded size inside the lesson's folder or a bundled model or run, models passing
    // the archive checks, runs holding the page's snapshot, pictures decoding within limits).
    // Throws core::Error naming the file, the page and the key. Model and run names come back
    // as absolute paths. Its words are in `language` (ISO 639-1) where the file has it, else in
    // English with `missingLanguage` set (docs/lessons.md, One lesson, several languages).
    static Lesson load(const QString& path, const QString& language = QStringLiteral("en"));
    // The title and summary only, for the Lessons menu (load() runs when one is started).
    static Lesson loadHeading(const QString& path, const QString& language = QStringLiteral("en"));
    // The lesson files shipped with AlignScope (core::InstallLayout::lessonsDirectory()), sorted by name.
    static QStringList shippedLessons();

    static constexpr int kMaxPictureSide = 8192;          // pixels
    static constexpr qint64 kMaxPictureBytes = 32 << 20;  // a picture file
    static constexpr qint64 kMaxModelBytes = qint64{4} << 30;
};

}  // namespace alignscope::ui
