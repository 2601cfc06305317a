#pragma once
#include "core/inspection/DecodingState.h"
#include "ui/FigureOptions.h"

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <string>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;

namespace alignscope::ui {

class AlignmentFigure;

// Writes one alignment to one file. Figures (PNG, SVG, PDF, and GIF: the steps as an animation) are drawn by AlignmentFigure, the
// class the app's view draws with, into an offscreen plot; data (CSV, JSON, Pharaoh links) come
// from the state's core::Alignment with the model's name and the options used.
//
// Sizes: a figure is laid out in pixels of 1/dpi() inch (the plot's logical resolution, 96 on the
// offscreen platform), so its fonts keep their point sizes: a PNG at `dpi` has
// figureSize * dpi / dpi() pixels, a PDF page or SVG canvas is figureSize at dpi() per inch.
//
// Files are written atomically (QSaveFile: a temporary file in the same folder, renamed over the
// target only once complete): an interrupted or failed export never leaves a partial file.
//
// Needs a QApplication (the "offscreen" platform will do); use it from the GUI thread. Keep one
// exporter for a batch: it reuses its plot.
class FigureExporter {
public:
    // Frames: the GIF's frames as a numbered PNG sequence, NAME-step01.png ... (for slides that
    // animate by themselves, or video tools).
    // Html: the interactive page of the whole decoding, one self-contained file (HtmlPage).
    enum class Format { Png, Svg, Pdf, Csv, Json, Pharaoh, Gif, Frames, Html };

    struct Settings {
        Format format = Format::Png;
        int dpi = 300;      // PNG resolution (pixels per inch), written into the file too
        QSize size;         // figure size in layout pixels; empty: AlignmentFigure::preferredSize
        int frameMs = 800;  // GIF: each step's frame; the last one stays 3 times as long
        // The path is a name the tool made in a folder the user named (export --out): written by
        // core::AtomicFile::Naming::InFolder's rule, never through a link or onto a pipe or device.
        bool inFolder = false;
        std::string language = "en";  // the html page's language (HtmlPage::languages)
    };

    FigureExporter();
    ~FigureExporter();
    FigureExporter(const FigureExporter&) = delete;
    FigureExporter& operator=(const FigureExporter&) = delete;

    // Writes `path` atomically. Throws core::Error with a message for the user: nothing to export
    // (no target tokens), a folder that does not exist or cannot be written, a failed write.
    void write(const core::DecodingState& state, const FigureOptions& options, const Settings& settings, const QString& path);
    // Format Frames writes several files: `path` ends in ".png", and frame k goes to
    // path-without-.png + "-stepKK.png" (write() does this; render() refuses Frames).
    // `unit` names what the frames are: "step" (the stepping), "snapshot" (a training run).
    static QString framePath(const QString& path, size_t step, size_t steps, const QString& unit = QStringLiteral("step"));
    // One frame of an animation: a state drawn with its own options (its title), shown delayMs.
    struct Frame {
        core::DecodingState state;
        FigureOptions options;
        int delayMs = 800;
    };
    // The stepping of a sentence: one frame per shown step, every one in the last one's layout
    // (room for all the rows, the whole sentence's colour scale), the last shown 3 times as long.
    static std::vector<Frame> steppingFrames(const core::DecodingState& state, const FigureOptions& options, int frameMs);
    // Any frames (the stepping, a training run's snapshots) as an animated GIF, or (writeFrames) as
    // numbered PNGs at framePath(path, k, n); all in one size: settings.size, else the largest
    // frame's. Throw core::Error for no frames.
    QByteArray renderGif(const std::vector<Frame>& frames, const Settings& settings);
    void writeFrames(const std::vector<Frame>& frames, const Settings& settings, const QString& path,
                     const QString& unit = QStringLiteral("step"));
    // A long animation (a training run's snapshots) drawn and written one frame at a time:
    // frame(k) makes frame k as it is drawn, so memory holds one frame whatever `count` is. A GIF
    // (format Gif) streams into `path`, written atomically; Frames writes numbered PNGs. Every
    // frame is drawn at `figureSize` (settings.size when given).
    using FrameSource = std::function<Frame(size_t)>;
    void writeAnimation(Format format, size_t count, const FrameSource& frame, QSize figureSize, const Settings& settings,
                        const QString& path, const QString& unit);
    // The file's bytes, as write() would store them.
    QByteArray render(const core::DecodingState& state, const FigureOptions& options, const Settings& settings);

    // The PNG path in halves, so that a batch can encode and write on other threads while the next
    // figure is drawn: renderImage() draws (GUI thread only; the image carries settings.dpi),
    // encodePng() and writeFile() are thread-safe. Both throw core::Error.
    QImage renderImage(const core::DecodingState& state, const FigureOptions& options, const Settings& settings);
    static QByteArray encodePng(const QImage& image);
    // Atomically, as write(); `inFolder`: a tool-made name (Settings::inFolder). Frames are always.
    static void writeFile(const QString& path, const QByteArray& bytes, bool inFolder = false);
    // Throws unless the folder exists and path is no folder (inFolder: and nothing but a regular file).
    static void checkFilePath(const QString& path, bool inFolder = false);

    // The figure's layout size, and the PNG's pixel size at settings.dpi.
    QSize figureSize(const core::DecodingState& state, const FigureOptions& options, const Settings& settings) const;
    QSize imageSize(const core::DecodingState& state, const FigureOptions& options, const Settings& settings) const;
    double dpi() const;  // layout pixels per inch

    static bool isFigure(Format format) {
        return format == Format::Png || format == Format::Svg || format == Format::Pdf || format == Format::Gif || format == Format::Frames;
    }
    static std::optional<Format> parseFormat(const QString& name);  // "png", "SVG", ...; nullopt if unknown
    static QString formatName(Format format);                       // "png", "svg", ..., "pharaoh"
    static QString extension(Format format);                        // ".png", ..., ".align" for Pharaoh
    // Throws core::Error unless `folder` exists (created if needed) and a file can be written in it.
    static void checkWritableFolder(const QString& folder);

private:
    QByteArray renderSvg(const core::DecodingState& s, const FigureOptions& o, const Settings& settings);
    QByteArray renderPdf(const core::DecodingState& s, const FigureOptions& o, const Settings& settings);
    Settings animationSettings(const std::vector<Frame>& frames, const Settings& settings) const;  // PNG, one size
    QSize draw(const core::DecodingState& s, const FigureOptions& o, const Settings& settings);    // builds the figure

    std::unique_ptr<QCustomPlot> plot_;
    std::unique_ptr<AlignmentFigure> figure_;
};

}  // namespace alignscope::ui
