#pragma once
#include "ui/DecodingSnapshot.h"
#include "ui/FigureExporter.h"
#include "ui/FigureOptions.h"

#include "core/Model.h"

#include <QDir>
#include <QString>

#include <string>

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
        FigureExporter::Settings file;  // format, dpi, size
        FigureOptions figure;           // how figures are drawn (and recorded in CSV/JSON)
        int beamWidth = 1;              // 1: greedy decoding
        int maxLength = 0;              // cap on target tokens; 0: 2 * source length + 10
        int digits = 4;                 // zero-padding of the line number in file names
        QString titleTemplate;          // figure title; {line} {source} {translation} {model} are replaced
    };

    // Throws core::Error when `folder` cannot be created or written.
    BatchExporter(core::Model model, const QString& folder, Settings settings);

    // Decodes one line and writes its file; returns the path. Throws core::Error for a bad line
    // (bad UTF-8, too long, a missing target after "|||") or a failed write.
    QString exportLine(long lineNumber, const std::string& line);

    // What exportLine() draws for `line`.
    static DecodingSnapshot snapshot(const core::Model& model, const std::string& line, int beamWidth = 1,
                                     int maxLength = 0);
    // "0042-the-red-car.png": the line number padded to `digits`, and slug(source) unless empty.
    static QString fileName(long lineNumber, const std::string& source, FigureExporter::Format format, int digits = 4);
    // The first words of `text` as lowercase ASCII letters and digits joined by '-', at most 40
    // characters; accents dropped ("Ça va?" -> "ca-va"); other scripts dropped.
    static QString slug(const std::string& text);
    // The source part of a line ("source ||| target" -> "source").
    static std::string sourceOf(const std::string& line);

    const Settings& settings() const { return settings_; }
    FigureExporter& exporter() { return exporter_; }

private:
    core::Model model_;
    QDir folder_;
    Settings settings_;
    FigureExporter exporter_;
};

}  // namespace alignscope::ui
