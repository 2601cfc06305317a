#pragma once
#include "ui/Lesson.h"
#include "ui/SiteFiles.h"

#include "core/model/Model.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <string>

namespace alignscope::ui {

// A lesson as a static web site (alignscope-cli export-lesson): index.html and one page per lesson
// page (page-01.html, ...), each an HtmlPage holding the page's text and its decoding state as the
// app's LessonPlayer sets it (model, sentence, steps, target, beam, heatmap; a training run's
// snapshots; model B of a comparison), linked in order and turned with Page Down / Page Up as a
// presentation clicker sends. Pictures are files in pictures/ beside the pages, each once (SiteFiles).
class LessonSite {
public:
    // Writes the folder (created if needed); returns the files written, index first. Throws
    // core::Error naming the lesson file and page for a page that cannot be decoded or written.
    // `pageDone(k, n)` when set: after each page.
    static QStringList write(const Lesson& lesson, const QString& folder, const std::function<void(int, int)>& pageDone = nullptr);

    // One page's data (PageData's JSON with "lesson", and "timeline" or "comparison" where the
    // page has them). `models` caches loaded models by path; `current` is the model the pages
    // before left open (a page without "model" keeps it), updated here. The page's pictures are
    // written once into the site through `files` and named by their file there.
    static nlohmann::json pageData(const Lesson& lesson, int page, std::map<QString, core::Model>& models, QString& current,
                                   SiteFiles& files);

    static QString pageFile(int page);  // "page-01.html" for page 0
};

}  // namespace alignscope::ui
