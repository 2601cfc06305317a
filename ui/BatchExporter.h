#pragma once
#include "core/inspection/DecodingState.h"
#include "ui/FigureExporter.h"
#include "ui/FigureOptions.h"

#include "core/decoding/DecodingProgress.h"
#include "core/model/Model.h"
#include "core/model/ModelCache.h"

#include <QDir>
#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace alignscope::ui {

// Headless batch export: one input line, one file. A line is a source sentence (decoded greedily,
// or by beam search keeping the best hypothesis) or "source ||| target" (teacher forcing: the
// alignment the model gives that pair). Snapshots are made from a core::DecodingSession directly,
// and the files drawn by FigureExporter, so they are the figures the app shows.
//
// File names are stable: the input line number, zero-padded, and a slug of the source,
// e.g. "0001-the-red-car.png" (see fileName()).
class BatchExporter {
public:
    struct Settings {
        FigureExporter::Settings file;               // format, dpi, size
        FigureOptions figure;                        // how figures are drawn (and recorded in CSV/JSON)
        int beamWidth = 1;                           // 1: greedy decoding
        int maxLength = 0;                           // cap on target tokens; 0: 2 * source length + 10
        int digits = 4;                              // zero-padding of the line number in file names
        QString titleTemplate;                       // figure title; {line} {source} {translation} {model} are replaced
        std::string heatmap;                         // "" attention; else an attribution method drawn and written instead
        std::string linkRule;                        // "" none; else its word links drawn and written (core::Aligner::ruleNames)
        std::vector<std::string> reverseModels;      // a rule joining two directions: these (default: the model's declared one)
        core::DecodingProgress* progress = nullptr;  // when set: each line's decoding reports here (export --time-limit)
    };

    // Throws core::Error when `folder` cannot be created or written.
    BatchExporter(core::Model model, const QString& folder, Settings settings);
    ~BatchExporter();  // waits for queued files

    // Decodes one line and writes its file; returns the path. Throws core::Error for a bad line
    // (bad UTF-8, too long, a missing target after "|||") or a failed write.
    QString exportLine(long lineNumber, const std::string& line);

    // Like exportLine(), but a PNG is encoded and written on a worker thread while the caller goes
    // on with the next line (other formats are written before it returns). Throws core::Error for
    // what fails at once (decoding, drawing); failures on the worker come back from
    // takeFailures(). Keeps at most a few files in flight.
    QString queueLine(long lineNumber, const std::string& line);

    // A line decoded, not yet drawn: prepare() may run on any thread, several at once (export
    // --workers). The second queueLine() takes the line as prepared elsewhere (`preparedLine`
    // returns it or throws the line's error), draws it on the calling thread and goes on as the
    // first does.
    struct Prepared {
        core::DecodingState state;
        FigureOptions options;
        QString path;
    };
    // Loads the reverse models --links needs, once: a bad one stops the run before its first line
    // (as align does) instead of failing every line. Throws core::Error naming the file.
    void loadReverseModels() const;
    Prepared prepare(long lineNumber, const std::string& line) const;
    QString queueLine(long lineNumber, const std::function<Prepared()>& preparedLine);
    struct Failure {
        long lineNumber;
        QString message;
        bool storageFull = false;  // the disk is full: later lines would fail the same way
    };
    std::vector<Failure> takeFailures();  // failures on the workers since the last call
    void finish();                        // waits until every queued file is written or failed
    long completed() const;               // lines whose file is written or failed, queued ones included once done

    // What exportLine() draws for `line`, with `candidates` of each step kept.
    static core::DecodingState decode(const core::Model& model, const std::string& line, int beamWidth = 1, int maxLength = 0,
                                      core::DecodingProgress* progress = nullptr, int candidates = 1);
    // A title template with {line}, {source}, {translation} and {model} replaced (empty: no title).
    static QString title(const QString& titleTemplate, long lineNumber, const std::string& source, const std::string& translation,
                         const std::string& model);
    // "0042-the-red-car.png": the line number padded to `digits`, and slug(source) unless empty.
    static QString fileName(long lineNumber, const std::string& source, FigureExporter::Format format, int digits = 4);
    // The first words of `text` as lowercase ASCII letters and digits joined by '-', at most 40
    // characters; accents dropped ("Ça va?" -> "ca-va"); other scripts dropped.
    static QString slug(const std::string& text);

    const Settings& settings() const { return settings_; }
    FigureExporter& exporter() { return exporter_; }

private:
    core::Model model_;
    QDir folder_;
    Settings settings_;
    FigureExporter exporter_;
    struct Queue;  // the worker threads and what they report
    std::unique_ptr<Queue> queue_;
    // The reverse models a link rule reads, loaded once (prepare() runs on several threads); one that
    // failed to load fails every later line at once.
    mutable core::ModelCache reverseModels_{/*rememberFailures=*/true};
};

}  // namespace alignscope::ui
