#pragma once
#include <QString>
#include <QVector>

namespace alignscope::ui {

// A guided lesson: pages that each put the app into a state and say something about it.
// The file format is documented in docs/lessons.md.
struct LessonPage {
    QString text;          // what the teacher says (a little HTML is allowed)
    QString model;         // bundled model name ("en-fr") or a path; empty: keep the current one
    QString source;        // sentence to decode
    QString target;        // non-empty: teacher forcing along this target
    int steps = 0;         // decoding steps to take (ignored with run)
    bool run = false;      // decode to the end
    int beam = 0;          // > 0: run beam search of this width
    bool explain = false;  // show the Step explained panel
    QString highlight;     // panel to draw attention to: heatmap, encoder, candidates, beam, explain
    QString image;         // picture shown under the text (absolute path; the file gives it relative to itself)
    QString heatmap;       // what the heatmap shows: "" (attention) or an attribution method's name
    QString timeline;      // a training run to open (a bundled run's name, e.g. "dates-run", or a folder)
    int snapshot = 0;      // with timeline: the snapshot shown, 1-based (0: the last)
};

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
