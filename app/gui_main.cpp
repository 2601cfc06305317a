// alignscope: the desktop app. Command-line modes (--screenshot) are settled before any window
// exists; the window renders a DecodingDocument.
#include "ui/ComparePanel.h"
#include "ui/DecodingDocument.h"
#include "ui/Lesson.h"
#include "ui/LessonLanguage.h"
#include "ui/LessonPlayer.h"
#include "ui/MainWindow.h"
#include "ui/TimelinePanel.h"
#include "ui/UiLanguage.h"
#include "ui/ViewReport.h"

#include "core/platform/AtomicFile.h"
#include "core/runtime/BlasThreadChooser.h"
#include "core/attribution/Attributor.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <CLI/CLI.hpp>

#include <QApplication>
#include <QIcon>
#include <QBuffer>
#include <QFileInfo>
#include <QDockWidget>
#include <QScreen>
#include <QTimer>

#include <QSlider>

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace ui = alignscope::ui;
namespace core = alignscope::core;

int main(int argc, char** argv) {
    struct {
        std::string model, source = "The red car is very fast.", target, screenshot, viewReport, size = "1400x900";
        std::string lesson, heatmap, links, timeline, compare, compareTest, compareGold, file, language;
        int steps = -1, beam = 0, page = 1, snapshot = 0, threads = 0;
        bool run = false, explain = false, presenter = false, words = false;
    } o;
    CLI::App cli{"AlignScope: step through attention-based translation, one token at a time"};
    cli.add_option("-m,--model", o.model, "Model file (default: the bundled en-fr-subword model)");
    cli.add_option("--source", o.source, "Source sentence to start with");
    cli.add_option("--target", o.target, "Target sentence: start in teacher-forced mode");
    auto* steps = cli.add_option("--steps", o.steps, "Decode this many steps")->check(CLI::Range(0, 1000));
    cli.add_flag("--run", o.run, "Decode to the end")->excludes(steps);
    cli.add_option("--beam", o.beam, "Run beam search of this width")->check(CLI::Range(1, 32));
    cli.add_flag("--explain", o.explain, "Show the Step explained panel");
    cli.add_option("--timeline", o.timeline, "Open a training run (a folder written by train --snapshots) with its slider");
    cli.add_option("--snapshot", o.snapshot, "With --timeline: the snapshot to show (1-based; default the last)")
        ->check(CLI::Range(1, 1000));
    auto* compare = cli.add_option("--compare", o.compare, "Open a second model beside the first (File > Compare with...)");
    auto* compareTest =
        cli.add_option("--compare-test", o.compareTest, "With --compare: both models' BLEU on these test pairs (source<TAB>target)")
            ->needs(compare);
    cli.add_option("--compare-gold", o.compareGold, "With --compare-test: gold word links, one line per pair: both models' AER")
        ->needs(compareTest);
    cli.add_option("--heatmap", o.heatmap,
                   "What the heatmap shows: attention, or grad-x-input, integrated-gradients, occlusion, attention-x-occlusion")
        ->check(CLI::IsMember(core::Attributor::methods()));
    cli.add_option("--links", o.links,
                   "View > Links: word links over the heatmap: argmax, argmax-skip-eos, itermax, agreement-intersection or "
                   "agreement-grow-diag-final-and");
    cli.add_flag("--words", o.words, "View > Words: the heatmap over words, sub-word pieces merged");
    cli.add_option("--threads", o.threads,
                   "BLAS threads for decoding, fixed (default: 1 or every core, whichever has been faster lately for "
                   "each kind of model call; a fixed count gives the same bits every run)")
        ->check(CLI::Range(1, 64));
    cli.add_flag("--presenter", o.presenter, "Start in presenter mode (F11): large text, full screen");
    cli.add_option("--language", o.language,
                   "The app's language: en, de, fr or ko (default: View > Language, else the system locale, else en)")
        ->check(CLI::IsMember(std::vector<std::string>{"en", "de", "fr", "ko"}));
    cli.add_option("--lesson", o.lesson, "Start this lesson file (resources/lessons/*.json)");
    cli.add_option("--page", o.page, "Lesson page to open (1-based)")->check(CLI::Range(1, 1000));
    auto* screenshot = cli.add_option("--screenshot", o.screenshot, "Render the window in that state to this PNG and exit (offscreen)");
    cli.add_option("--size", o.size, "Window size for --screenshot, WxH");
    cli.add_option(
           "--view-report", o.viewReport,
           "With --screenshot: what the window shows, as JSON (each heatmap's rows and columns in view, cell size, each panel's place)")
        ->needs(screenshot);
    // What a file manager passes (the desktop entry's %f): a lesson by its .json, else a model.
    cli.add_option("file", o.file, "A model (.pt) or a lesson (.json) to open, as --model or --lesson");
    cli.set_version_flag("--version", "alignscope " + core::Runtime::version());
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e) == 0 ? 0 : 2;  // as alignscope-cli: a command-line mistake exits 2
    }
    if (!o.file.empty()) {
        const bool lessonFile = QString::fromStdString(o.file).endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
        if ((lessonFile && !o.lesson.empty()) || (!lessonFile && !o.model.empty())) {
            std::cerr << "alignscope: '" << o.file << "' and " << (lessonFile ? "--lesson" : "--model") << " both name what to open\n";
            return 2;
        }
        (lessonFile ? o.lesson : o.model) = o.file;
    }
    // Settled before any window: a screenshot run reports every problem on stderr with an exit code.
    if (screenshot->count() > 0 && o.screenshot.empty()) {
        std::cerr << "alignscope: --screenshot needs a file name\n";
        return 2;
    }
    int width = 1400, height = 900;
    if (std::sscanf(o.size.c_str(), "%dx%d", &width, &height) != 2 || width < 200 || height < 200 || width > 8192 || height > 8192) {
        std::cerr << "alignscope: --size must look like 1400x900, each side 200 to 8192 pixels\n";
        return 2;
    }
    if (!o.screenshot.empty()) {
        try {
            alignscope::core::AtomicFile::checkWritable(o.screenshot);
            if (!o.viewReport.empty()) alignscope::core::AtomicFile::checkWritable(o.viewReport);
        } catch (const std::exception& e) {
            std::cerr << "alignscope: " << e.what() << '\n';
            return 2;
        }
    }

    if (!o.screenshot.empty() && !std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("AlignScope"));
    QApplication::setApplicationName(QStringLiteral("AlignScope"));
    // The desktop entry's id (cmake/Packaging.cmake): docks and Wayland compositors match the window
    // to the menu entry by it, and the installed icon has its name.
    QGuiApplication::setDesktopFileName(QStringLiteral(ALIGNSCOPE_APP_ID));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral(ALIGNSCOPE_APP_ID)));
    // Before the first widget: every text is translated as it is made (docs/languages.md).
    const QString language = ui::UiLanguage::choose(QString::fromStdString(o.language));
    if (!ui::UiLanguage::install(language))
        std::cerr << "alignscope: no catalogue for '" << language.toStdString() << "' in '"
                  << ui::UiLanguage::translationsDirectory().toStdString() << "': the app stays in English\n";
    // The lesson in the interface's language: after the language is installed.
    ui::Lesson lesson;  // checked whole here: a refusal is an exit code, not a page shown without its parts
    if (!o.lesson.empty()) {
        try {
            lesson = ui::Lesson::load(QString::fromStdString(o.lesson), ui::LessonLanguage::interfaceLanguage());
            if (o.page > lesson.pages.size()) {
                std::cerr << "alignscope: --page " << o.page << ": '" << o.lesson << "' has " << lesson.pages.size() << " pages\n";
                return 2;
            }
        } catch (const std::exception& e) {
            std::cerr << "alignscope: " << e.what() << '\n';
            return 2;
        }
    }
    // The best BLAS thread count for one sentence's step depends on the machine's load: the
    // chooser times the counts (core/runtime/BlasThreadChooser.h).
    if (o.threads > 0) core::Runtime::setThreads(o.threads);
    else core::BlasThreadChooser::shared().enable(core::Runtime::threads());

    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    QString model = QString::fromStdString(o.model.empty() ? core::Runtime::defaultModelPath() : o.model);
    // A lesson page that names its model opens that one first, not the default then it (loading a
    // model cannot be cancelled: the page's request waited for it and was set aside).
    if (!lesson.pages.isEmpty() && o.model.empty() && !lesson.pages[o.page - 1].model.isEmpty()) model = lesson.pages[o.page - 1].model;
    bool failed = false;  // a screenshot of a state that went wrong is not a success
    QObject::connect(&document, &ui::DecodingDocument::errorOccurred, [&](const QString& message) {
        std::cerr << "alignscope: " << message.toStdString() << '\n';
        failed = true;
    });
    // A page over a training run opens the run's snapshots itself: the default model first would only
    // be encoding the sentence when the page sets it aside.
    const bool pageOpensARun = !lesson.pages.isEmpty() && o.model.empty() && !lesson.pages[o.page - 1].timeline.isEmpty();
    if (o.words && !window.action("words")->isChecked()) window.action("words")->trigger();
    // What the options ask for, as one view: what a lesson page and End lesson apply too.
    // Paths on the command line are the user's, relative to here (a lesson's names are looked up
    // among the bundled models).
    const auto given = [](const std::string& path) {
        return path.empty() || !QFileInfo::exists(QString::fromStdString(path))
                   ? QString::fromStdString(path)
                   : QFileInfo(QString::fromStdString(path)).absoluteFilePath();
    };
    ui::ViewState view;
    view.model = pageOpensARun ? QString() : given(model.toStdString());  // loaded within the view's one request
    view.source = QString::fromStdString(o.source);
    view.target = QString::fromStdString(o.target);
    view.steps = std::max(0, o.steps);
    view.stepsOfTarget = o.steps >= 0;  // --target alone: forced along the whole of it
    view.run = o.run;
    view.beam = o.beam;
    view.explain = o.explain;
    view.heatmap = o.heatmap == "attention" ? QString() : QString::fromStdString(o.heatmap);
    view.timeline = given(o.timeline);
    view.snapshot = o.snapshot;
    view.compare = given(o.compare);
    if (!pageOpensARun) window.applyView(view);  // such a page sets its own view from nothing
    if (!o.links.empty() && !window.setLinkRule(QString::fromStdString(o.links))) {
        std::cerr << "alignscope: --links: no rule '" << o.links << "' (" << window.linkRules().join(QStringLiteral(", ")).toStdString()
                  << ")\n";
        return 2;
    }
    if (!o.timeline.empty() && window.timelinePanel()->timeline().snapshots().empty()) {
        std::cerr << "alignscope: " << window.statusText().toStdString() << '\n';
        return 2;
    }
    if (!o.compare.empty()) {
        QObject::connect(window.comparisonDocument(), &ui::DecodingDocument::errorOccurred, [&](const QString& message) {
            std::cerr << "alignscope: model B: " << message.toStdString() << '\n';
            failed = true;
        });
        if (!o.compareTest.empty()) {
            if (!window.waitUntilIdle()) {
                std::cerr << "alignscope: model B did not open in time\n";
                return 3;
            }
            window.compareOnTestSet(QString::fromStdString(o.compareTest), QString::fromStdString(o.compareGold));
        }
    }
    if (!o.lesson.empty()) {
        window.startLesson(QString::fromStdString(o.lesson), o.page - 1);
        if (o.compare.empty() && window.comparisonDocument())  // the page's model B
            QObject::connect(window.comparisonDocument(), &ui::DecodingDocument::errorOccurred, [&](const QString& message) {
                std::cerr << "alignscope: model B: " << message.toStdString() << '\n';
                failed = true;
            });
    }

    if (!o.screenshot.empty()) {
        window.show();
        window.resize(width, height);
        if (o.presenter) window.setPresenterMode(true, /*fillScreen=*/false);  // the screenshot's size, not the screen's
        if (!window.waitUntilIdle()) {
            std::cerr << "alignscope: decoding did not finish in time\n";
            return 3;
        }
        QApplication::processEvents();
        if (!window.comparePanel()->scoresError().isEmpty()) {
            std::cerr << "alignscope: " << window.comparePanel()->scoresError().toStdString() << '\n';
            failed = true;
        }
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        // The file name's suffix says the format (png, jpg, ...), as QImage::save(path) would.
        const QByteArray format = QFileInfo(QString::fromStdString(o.screenshot)).suffix().toLower().toLatin1();
        if (!window.grab().save(&buffer, format.isEmpty() ? "PNG" : format.constData())) {
            std::cerr << "alignscope: cannot write the window as '" << format.toStdString()
                      << "' (use .png, or another format Qt's image plugins know)\n";
            return 2;
        }
        try {
            alignscope::core::AtomicFile::write(o.screenshot, png.toStdString());
            if (!o.viewReport.empty())
                alignscope::core::AtomicFile::write(o.viewReport, alignscope::core::JsonText::dump(ui::ViewReport::of(window), 2) + "\n");
        } catch (const std::exception& e) {
            std::cerr << "alignscope: " << e.what() << '\n';
            return 2;
        }
        // As at the end of app.exec() below: a thread left in model code outlives the window.
        if (alignscope::ui::DecodingDocument::hasAbandonedWork()) {
            std::cerr.flush();
            std::_Exit(failed ? 1 : 0);
        }
        return failed ? 1 : 0;
    }
    window.show();
    if (o.presenter) window.setPresenterMode(true);
    const int code = app.exec();
    // A thread left inside model code that never returned (DecodingDocument::abandon) would meet
    // LibTorch's static destructors: leave without running them.
    if (alignscope::ui::DecodingDocument::hasAbandonedWork()) {
        std::cout.flush();
        std::cerr.flush();
        std::_Exit(code);
    }
    return code;
}
