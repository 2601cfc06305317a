// alignscope-cli export: one figure or data file per input line, headless (Qt's offscreen
// platform), drawn by the app's own figure code (ui::FigureExporter through ui::BatchExporter).
#include "cli/Commands.h"
#include "cli/DecodingModel.h"
#include "cli/InterruptGuard.h"
#include "cli/LineStreams.h"
#include "cli/OrderedWorkers.h"
#include "cli/OffscreenQt.h"
#include "cli/ProgressBar.h"
#include "cli/SentenceWatchdog.h"

#include "ui/BatchExporter.h"
#include "ui/FigureExporter.h"
#include "ui/HtmlPage.h"
#include "ui/TimelineExporter.h"
#include "core/text/PairLine.h"
#include "core/text/Tokenizer.h"
#include "core/training/TrainingTimeline.h"

#include "core/Error.h"
#include "core/alignment/Aligner.h"
#include "core/attribution/Attributor.h"
#include "core/platform/LivePageMaker.h"
#include "core/runtime/Runtime.h"

#include <QFileInfo>

#include <cstdio>
#include <iostream>
#include <map>

namespace alignscope::cli {

Command addExportCommand(CLI::App& app) {
    struct Options {
        std::string model, input, out, format, colorMap = "viridis", endColumn = "keep", title, size, heatmap = "attention", timeline,
                                               links, language = "en";
        std::vector<std::string> reverseModels;
        int beam = 1, maxLen = 0, dpi = 0, fontSize = 10, frameMs = 800, workers = 0;
        double timeLimit = 30;
        bool noEncoder = false, values = false, highlight = false, noProgress = false, words = false, live = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("export",
                                 "Write one alignment figure or data file per input line (a sentence, or 'source ||| target' for teacher "
                                 "forcing) into a folder, named NNNN-slug.EXT after the line number and the source; no display needed");
    c->add_option("-m,--model", o->model, "Model file (default: the bundled en-fr-subword model)");
    c->add_option("-f,--format", o->format,
                  "png, svg, pdf (figures), gif (the steps animated), frames (the same as NAME-stepKK.png), csv, json (matrix, tokens, "
                  "every step's numbers), pharaoh (links) or html (an interactive page to step through, one self-contained file)")
        ->required()
        ->check(CLI::IsMember({"png", "svg", "pdf", "gif", "frames", "csv", "json", "pharaoh", "html"}, CLI::ignore_case));
    c->add_option("-o,--out", o->out, "Output folder (created if missing)")->required();
    c->add_option("-i,--input", o->input, "Input file, one sentence or 'source ||| target' per line (default stdin)");
    c->add_option("-b,--beam", o->beam, "Beam width; the best hypothesis is drawn (1 = greedy)")->check(CLI::Range(1, 64));
    c->add_option("--max-len", o->maxLen, "Maximum target tokens (default: the model's max_length, else 2*source+10)")
        ->check(CLI::Range(0, 1000));
    c->add_option("--dpi", o->dpi, "PNG and GIF resolution in dots per inch (default 300 for PNG, 96 for GIF: screen size)")
        ->check(CLI::Range(10, 4800));
    c->add_option("--frame-ms", o->frameMs, "GIF: milliseconds each step is shown (the last, three times as long)")
        ->check(CLI::Range(20, 60000))
        ->capture_default_str();
    c->add_option("--size", o->size, "Figure size WxH in layout pixels of 1/96 inch (default: fitted to the tokens)");
    c->add_option("--colormap", o->colorMap, "viridis (perceptually uniform, default) or grey (for print)")
        ->check(CLI::IsMember({"viridis", "grey", "gray"}, CLI::ignore_case));
    c->add_option("--end-column", o->endColumn, "The </s> source column: keep (default), drop, or renormalize (drop and rescale rows)")
        ->check(CLI::IsMember({"keep", "drop", "renormalize"}, CLI::ignore_case));
    c->add_option("--font-size", o->fontSize, "Token label size in points (default 10)")->check(CLI::Range(6, 32));
    c->add_option("--heatmap", o->heatmap,
                  "What the heatmap and the csv/json cells hold: attention (default), or an attribution: grad-x-input, "
                  "integrated-gradients, occlusion, attention-x-occlusion (json keeps alpha too)")
        ->check(CLI::IsMember(core::Attributor::methods()));
    c->add_option("--links", o->links,
                  "Word links drawn over the heatmap (a ringed dot on each linked cell, as View > Links) and written to csv, "
                  "json, pharaoh and html, read as align --links reads them from the heatmap's matrix along the line's target: "
                  "argmax, argmax-skip-eos, itermax, agreement-grow-diag-final-and, ... (a rule joining two directions reads the "
                  "reverse model the model declares). Without it none are drawn, and the data holds attention's argmax")
        ->check(CLI::IsMember(core::Aligner::ruleNames()));
    c->add_option("--reverse-model", o->reverseModels,
                  "With --links [agreement-]intersection, union or grow-diag-final-and: a model of the other direction "
                  "(default: the one the model declares, metadata reverse_model)");
    c->add_flag("--no-encoder-states", o->noEncoder, "Leave out the encoder-states panel");
    c->add_flag("--values", o->values, "Write each alpha in its cell");
    c->add_flag("--words", o->words,
                "Figures and CSV over the words of the text: sub-word pieces merged (a source word's columns summed, a target "
                "word's rows averaged; no encoder panel). Links are always over words");
    c->add_flag("--highlight-last", o->highlight, "Frame the last step and its peak, as the app does");
    c->add_option("--title", o->title, "Figure title; {line}, {source}, {translation} and {model} are replaced");
    c->add_flag("--no-progress", o->noProgress, "No progress bar on stderr");
    c->add_flag("--live", o->live,
                "html: pages that carry the model (its own encode and step exported to ONNX, run in the browser): type a "
                "sentence, force a target, run a beam, click a candidate to decode on; the runtime and the model in the "
                "folder alignscope-live beside the pages, once (needs Debian's python3-torch, python3-onnx, nodejs and the "
                "npm runtime: docs/live-page.md)");
    addTimeLimitOption(c, o->timeLimit);
    addWorkersOption(c, o->workers, "Lines (drawn and written on this thread, in input order)");
    c->add_option("--language", o->language,
                  "The html page's language: its controls, headings and Step explained (en, ko, de, fr; default en)");
    c->add_option("--timeline", o->timeline,
                  "A training run (folder written by train --snapshots): gif and frames then animate the snapshots, the "
                  "sentence forced along its target (or the last snapshot's translation) in each");
    return [o, c]() -> int {
        if (!*c) return -1;
        // Figures need Qt's widgets; the offscreen platform needs no display.
        const auto qt = startOffscreenQt("export");

        ui::BatchExporter::Settings settings;
        settings.file.format = *ui::FigureExporter::parseFormat(QString::fromStdString(o->format));
        settings.file.dpi = o->dpi > 0                                                ? o->dpi
                            : settings.file.format == ui::FigureExporter::Format::Gif ? 96
                                                                                      : 300;  // frames: 300, as PNG
        settings.file.frameMs = o->frameMs;
        ui::HtmlPage::checkLanguage(o->language);
        settings.file.language = o->language;
        if (!o->size.empty()) {
            int w = 0, h = 0;
            if (std::sscanf(o->size.c_str(), "%dx%d", &w, &h) != 2 || w < 100 || h < 100 || w > 20000 || h > 20000)
                throw core::Error("--size must look like 800x600 (100 to 20000 pixels a side)");
            settings.file.size = QSize(w, h);
        }
        settings.figure.showEncoderStates = !o->noEncoder;
        const std::map<std::string, ui::FigureOptions::EndColumn> ends = {{"keep", ui::FigureOptions::EndColumn::Keep},
                                                                          {"drop", ui::FigureOptions::EndColumn::Drop},
                                                                          {"renormalize", ui::FigureOptions::EndColumn::Renormalize}};
        settings.figure.endColumn = ends.at(QString::fromStdString(o->endColumn).toLower().toStdString());
        settings.figure.colorMap = QString::fromStdString(o->colorMap).toLower() == QLatin1String("viridis")
                                       ? ui::FigureOptions::ColorMap::Viridis
                                       : ui::FigureOptions::ColorMap::Grayscale;
        settings.figure.valuesInCells = o->values;
        settings.figure.mergeWords = o->words;
        settings.figure.fontSize = o->fontSize;
        settings.figure.highlightCurrentStep = o->highlight;
        settings.titleTemplate = QString::fromStdString(o->title);
        settings.beamWidth = o->beam;
        settings.maxLength = o->maxLen;
        if (o->heatmap != "attention") settings.heatmap = o->heatmap;
        settings.linkRule = o->links;
        settings.reverseModels = o->reverseModels;
        core::Aligner::checkReversePaths(o->reverseModels, o->links);  // once, not for every line
        core::Aligner::checkReverseFiles(o->reverseModels);

        if (o->live && settings.file.format != ui::FigureExporter::Format::Html)
            throw core::Error("--live makes pages that run the model: use it with --format html");
        if (o->live && !o->timeline.empty()) throw core::Error("--live takes one model: leave out --timeline");
        // The folder first: an unwritable --out fails before any work.
        if (o->out.empty()) throw core::Error("--out needs a folder name");
        const QString folder = QString::fromStdString(o->out);
        ui::FigureExporter::checkWritableFolder(folder);
        settings.file.inFolder = true;  // every file is named by us inside --out: never written through a link

        std::vector<std::pair<long, std::string>> lines;  // (line number, text), blank lines skipped
        {
            LineStreams io(o->input, "");
            long n = 0;
            for (std::string line; LineStreams::readLine(io.in(), line, n + 1);) {
                ++n;
                if (!line.empty() && line.back() == '\r') line.pop_back();
                // translate's rule: a line with nothing visible is blank (skipped, still counted for the names)
                if (!core::Tokenizer::isBlank(line)) lines.emplace_back(n, line);
            }
            settings.digits = std::max<int>(4, static_cast<int>(std::to_string(n).size()));
        }
        if (lines.empty()) {
            std::cerr << "export: no sentences in the input\n";
            return 1;
        }

        if (!o->timeline.empty()) {
            // A training run: one animation per line, a frame per snapshot.
            if (settings.file.format != ui::FigureExporter::Format::Gif && settings.file.format != ui::FigureExporter::Format::Frames)
                throw core::Error("--timeline animates a training run: use --format gif or frames");
            if (!o->model.empty()) throw core::Error("--timeline takes its models from the run's snapshots: leave out --model");
            if (!o->links.empty()) throw core::Error("--links draws one model's links: leave it out with --timeline");
            const ui::TimelineExporter run(core::TrainingTimeline::open(o->timeline));
            const InterruptGuard interrupt;
            long failures = 0;
            for (const auto& [lineNo, line] : lines) {
                if (interrupt.raised()) break;
                try {
                    const auto pair = core::PairLine::parse(line);
                    auto figure = settings.figure;
                    figure.title = ui::BatchExporter::title(settings.titleTemplate, lineNo, pair.source, "", run.timeline().name());
                    const QString path =
                        folder + "/" + ui::BatchExporter::fileName(lineNo, pair.source, settings.file.format, settings.digits);
                    run.write(pair.source, pair.target.value_or(""), figure, settings.file, path);
                } catch (const std::exception& e) {
                    std::cerr << "line " << lineNo << ": " << e.what() << '\n';
                    ++failures;
                }
            }
            std::cerr << "exported " << static_cast<long>(lines.size()) - failures << " of " << lines.size() << " sentences as "
                      << ui::FigureExporter::formatName(settings.file.format).toStdString() << " over " << run.timeline().snapshots().size()
                      << " snapshots to " << o->out << '\n';
            if (interrupt.raised()) return 130;
            return failures ? 1 : 0;
        }
        auto model = loadDecodingModel(o->model, o->maxLen);
        // Lines are timed as this thread waits for each: a worker stuck in model code stops reporting,
        // the others soon wait for it, and the run ends naming the line (every file written is complete).
        SentenceWatchdog watchdog(o->timeLimit, model.origin(), nullptr, /*linesStartHere=*/false);
        settings.progress = watchdog.progress();
        ui::BatchExporter exporter(model, folder, settings);
        exporter.loadReverseModels();
        o->workers = startWorkers(o->workers);
        // Lines are decoded ahead on the workers; drawing (Qt) stays on this thread, in input order.
        OrderedWorkers<ui::BatchExporter::Prepared> decoded(lines.size(), o->workers, 2 * static_cast<size_t>(o->workers),
                                                            [&](size_t i) { return exporter.prepare(lines[i].first, lines[i].second); });

        const InterruptGuard interrupt;
        ProgressBar progress(ProgressBar::IntoLog::Nothing, !o->noProgress);
        const auto total = static_cast<long long>(lines.size());
        long failures = 0;
        bool storageFull = false;  // no use decoding more lines: none could be written
        auto report = [&](long lineNo, const std::string& message) {
            progress.print("line " + std::to_string(lineNo) + ": " + message);
            ++failures;
        };
        auto reportQueued = [&] {
            for (const auto& f : exporter.takeFailures()) {
                report(f.lineNumber, f.message.toStdString());
                storageFull = storageFull || f.storageFull;
            }
        };
        progress.update(0, total, "figures", {}, true);
        for (size_t i = 0; i < lines.size(); ++i) {
            const long lineNo = lines[i].first;
            if (interrupt.raised() || storageFull) break;
            try {
                watchdog.start(lineNo);
                exporter.queueLine(lineNo, [&] { return decoded.take(i); });  // PNGs are encoded and written on worker threads
                watchdog.stop();
            } catch (const core::StorageFullError& e) {
                watchdog.stop();
                report(lineNo, e.what());
                storageFull = true;
            } catch (const std::exception& e) {  // core::Error, or anything else for this line
                watchdog.stop();
                report(lineNo, e.what());
            }
            reportQueued();
            progress.update(exporter.completed(), total, "figures");
        }
        decoded.stop();
        exporter.finish();  // every queued file complete, even after an interrupt
        reportQueued();
        const long done = exporter.completed();
        const long written = done - failures;
        progress.update(done, total, "figures", {}, true);
        progress.clear();
        std::cerr << "exported " << written << " of " << lines.size() << " sentences as "
                  << ui::FigureExporter::formatName(settings.file.format).toStdString() << " to " << o->out;
        if (failures) std::cerr << " (" << failures << " failed)";
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, " in %.1f s", progress.seconds());
        std::cerr << seconds << '\n';
        if (interrupt.raised()) {
            std::cerr << "export: interrupted; every file written is complete\n";
            return 130;
        }
        if (storageFull) {
            std::cerr << "export: stopped: the disk is full; every file written is complete\n";
            return 2;
        }
        if (o->live) {
            // The pages written, made live by the Python package (the one ONNX exporter).
            std::vector<core::LivePageMaker::Page> pages;
            const std::string modelPath = o->model.empty() ? core::Runtime::defaultModelPath() : o->model;
            for (const auto& [lineNo, line] : lines) {
                const QString page =
                    folder + "/" +
                    ui::BatchExporter::fileName(lineNo, core::PairLine::sourceText(line), settings.file.format, settings.digits);
                if (QFileInfo(page).isFile()) pages.push_back({page.toStdString(), modelPath});
            }
            std::cerr << "export: making " << pages.size() << " page" << (pages.size() == 1 ? "" : "s")
                      << " live (exporting the model to ONNX and checking it: about a minute)\n";
            core::LivePageMaker::makeLive(pages);
            std::cerr << "export: live pages written; the model and its runtime are in " << o->out << "/alignscope-live\n";
        }
        return failures ? 1 : 0;
    };
}

}  // namespace alignscope::cli
