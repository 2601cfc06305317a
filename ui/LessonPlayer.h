#pragma once
#include "ui/Lesson.h"

#include <QObject>

namespace alignscope::ui {

class DecodingDocument;
class MainWindow;

// Plays a lesson: each page drives the window and the document into the page's state (model,
// sentence, target, steps or beam, panels). Holds references to both; owns neither.
class LessonPlayer : public QObject {
    Q_OBJECT
public:
    LessonPlayer(MainWindow* window, DecodingDocument* document, QObject* parent = nullptr);

    void start(const Lesson& lesson, int firstPage = 0);  // goes to that page (0-based; out of range: the first)
    void goTo(int page);                                  // 0-based; out of range is ignored
    void next() { goTo(page_ + 1); }
    void previous() { goTo(page_ - 1); }
    void stop();
    bool running() const { return page_ >= 0; }

    bool active() const { return !lesson_.pages.isEmpty(); }
    const Lesson& lesson() const { return lesson_; }
    int page() const { return page_; }

    // A page's model name ("en-fr") as a file in the bundled models folder; paths stay as they are.
    static QString resolveModel(const QString& model);
    // A page's training run ("dates-run") as a folder in the bundled models folder; paths stay.
    static QString resolveTimeline(const QString& timeline);

signals:
    void pageChanged(int page, int pages);
    void stopped();

private:
    MainWindow* window_;
    DecodingDocument* document_;
    Lesson lesson_;
    int page_ = -1;
};

}  // namespace alignscope::ui
