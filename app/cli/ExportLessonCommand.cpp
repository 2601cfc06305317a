// alignscope-cli export-lesson: a lesson as a static web site (ui::LessonSite), headless.
#include "cli/Commands.h"
#include "cli/OffscreenQt.h"

#include "ui/Lesson.h"
#include "ui/LessonPlayer.h"
#include "ui/LessonSite.h"

#include "core/lesson/LessonFormat.h"
#include "core/platform/LivePageMaker.h"

#include "core/runtime/Runtime.h"

#include <QDir>
#include <QFileInfo>

#include <iostream>

#include <unistd.h>

namespace alignscope::cli {

Command addExportLessonCommand(CLI::App& app) {
    struct Options {
        std::string lesson, out, language = "en";
        bool live = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("export-lesson",
                                 "Write a lesson as a static web site: index.html and one self-contained page per lesson page "
                                 "(its text, picture and decoding to step through), turned with Page Down / Page Up");
    c->add_option("lesson", o->lesson, "Lesson file (JSON, docs/lessons.md), or a shipped lesson's name such as 02-attention-by-hand")
        ->required();
    c->add_option("-o,--out", o->out, "Output folder (created if missing)")->required();
    c->add_option("--language", o->language,
                  "The language of the lesson's titles and texts: en (the default), ko, de, fr, or any other the lesson file has "
                  "(docs/lessons.md); a lesson without it is written in English, saying so")
        ->check([](const std::string& code) {
            return core::LessonFormat::isLanguageCode(code) ? std::string()
                                                            : "'" + code + "' is not a language code (ISO 639-1: en, ko, de, fr, …)";
        });
    c->add_flag("--live", o->live,
                "Pages that carry their models (run in the browser: type a sentence, click a candidate, force, beam); the "
                "runtime and each model once, in the folder alignscope-live beside the pages (docs/live-page.md)");
    return [o, c]() -> int {
        if (!*c) return -1;
        const auto qt = startOffscreenQt("export-lesson");  // Lesson reads pictures; the text's markup is read by Qt
        QString path = QString::fromStdString(o->lesson);
        if (!QFileInfo::exists(path))
            for (const auto& shipped : ui::Lesson::shippedLessons())
                if (QFileInfo(shipped).completeBaseName() == path) path = shipped;
        const auto lesson = ui::Lesson::load(path, QString::fromStdString(o->language));
        if (!lesson.missingLanguage.isEmpty())
            std::cerr << "export-lesson: '" << path.toStdString() << "' has no " << o->language << " texts (it has "
                      << lesson.languages.join(QStringLiteral(", ")).toStdString() << "): written in English\n";
        const bool terminal = isatty(STDERR_FILENO);  // a progress line only where someone watches it
        const auto files = ui::LessonSite::write(lesson, QString::fromStdString(o->out), [terminal](int k, int n) {
            if (terminal) std::cerr << "\rexport-lesson: page " << k << " of " << n << std::flush;
        });
        std::cerr << (terminal ? "\r" : "") << "export-lesson: " << files.size() - 1 << " pages and index.html written to " << o->out
                  << '\n';
        if (o->live) {
            // Each page's model as LessonSite chose it (a page without "model" keeps the one before);
            // a training run's page shows its snapshots and stays as recorded.
            std::vector<core::LivePageMaker::Page> pages;
            QString current = QString::fromStdString(core::Runtime::defaultModelPath());
            for (int k = 0; k < static_cast<int>(lesson.pages.size()); ++k) {
                const auto& p = lesson.pages[static_cast<size_t>(k)];
                if (!p.timeline.isEmpty()) continue;
                if (!p.model.isEmpty()) current = ui::LessonPlayer::resolveModel(p.model);
                pages.push_back(
                    {(QString::fromStdString(o->out) + "/" + ui::LessonSite::pageFile(k)).toStdString(), current.toStdString()});
            }
            const auto recorded = lesson.pages.size() - pages.size();
            if (pages.empty()) {
                std::cerr << "export-lesson: no page made live: each of its " << recorded
                          << " pages shows a training run's snapshots, which stay as recorded (a live page decodes with one model file)\n";
                return 0;
            }
            std::cerr << "export-lesson: making " << pages.size() << " pages live (each model exported to ONNX once)";
            if (recorded) std::cerr << "; " << recorded << " showing a training run's snapshots stay as recorded";
            std::cerr << '\n';
            core::LivePageMaker::makeLive(pages);
            std::cerr << "export-lesson: the runtime and the models are in " << o->out << "/alignscope-live\n";
        }
        return 0;
    };
}

}  // namespace alignscope::cli
