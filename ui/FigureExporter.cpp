#include "ui/FigureExporter.h"

#include "core/alignment/SoftAlignment.h"
#include "core/alignment/LinkExtraction.h"
#include "core/alignment/LinkSet.h"

#include "ui/AlignmentFigure.h"
#include "ui/PlotStyle.h"
#include "ui/DisplayedMatrix.h"
#include "ui/HtmlPage.h"
#include "ui/PageData.h"
#include "ui/GifWriter.h"
#include "ui/WordMatrix.h"

#include "core/decoding/Alignment.h"
#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>

#include <algorithm>
#include <QScreen>
#include <QSvgGenerator>
#include <QTemporaryFile>

#include <png.h>

#include <charconv>
#include <cmath>
#include <csetjmp>

namespace alignscope::ui {
namespace {

constexpr int kMaxImageSide = 32767;           // QPainter's raster engine works in 16-bit coordinates
constexpr qint64 kMaxImagePixels = 256 << 20;  // 1 GiB of ARGB pixels

core::Error error(const QString& message) { return core::Error(message.toStdString()); }

// Shortest text that reads back to the same value.
template <typename T>
void appendNumber(QByteArray& out, T value) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, static_cast<int>(r.ptr - buf));
}

// RFC 4180 quoting, and quoted when it could pass for a comment line.
QByteArray csvField(const std::string& text) {
    QByteArray f = QByteArray::fromStdString(text);
    if (f.contains(',') || f.contains('"') || f.contains('\n') || f.contains('\r') || f.startsWith('#') || f.startsWith(' ') ||
        f.endsWith(' ')) {
        f.replace("\"", "\"\"");
        f = '"' + f + '"';
    }
    return f;
}

QByteArray comment(const std::string& text) {
    std::string t = text;
    for (char& c : t)
        if (c == '\n' || c == '\r') c = ' ';
    return QByteArray("# ") + QByteArray::fromStdString(t) + '\n';
}

QByteArray renderCsv(const core::DecodingState& s, const FigureOptions& o) {
    const auto alignment = s.alignment();
    const auto m = DisplayedMatrix::of(alignment, o);
    QByteArray out;
    const std::string unit = o.mergeWords ? "words" : "tokens";
    out += comment("AlignScope alignment " + core::Runtime::version() + ": rows are target " + unit + ", columns source " + unit +
                   ", cells alpha");
    out += comment("model: " + s.modelName);
    out += comment(std::string("target: ") + (s.teacherForced ? "given (teacher forcing)" : "decoded") +
                   (s.selectedHypothesis >= 0 ? ", beam hypothesis " + std::to_string(s.selectedHypothesis + 1) : ""));
    out += comment("options: " + core::JsonText::dump(PageData::options(o)));
    out +=
        comment("links: " + PageData::links(s) + (s.linkRule.empty() || !s.linksError.empty() ? std::string() : " (" + s.linkRule + ")"));
    const bool attribution = !s.attributionMethod.empty() && s.attribution.size() == alignment.targetTokens().size();
    if (attribution) out += comment("cells: " + s.attributionMethod + " attribution of each target token to the source tokens, not alpha");
    if (o.mergeWords) {
        // View > Words: the matrix the screen shows, over the words of the text.
        std::vector<std::vector<double>> pieces;
        for (size_t t = 0; t < alignment.targetTokens().size(); ++t) {
            const size_t n = m.columns.size();
            std::vector<double> r(n, 0.0);
            for (size_t i = 0; i < n; ++i)
                r[i] = attribution      ? (i < s.attribution[t].size() ? s.attribution[t][i] : 0.0f)
                       : m.renormalized ? m.doubles[t][i]
                                        : m.floats[t][i];
            pieces.push_back(std::move(r));
        }
        const auto words = WordMatrix::merge(s, pieces, static_cast<int>(m.columns.size()));
        out += comment(
            "cells: merged to the words of the text (View > Words): a source word's pieces summed, a target word's pieces averaged");
        out += "target\\source";
        for (const auto& c : words.columns) out += ',' + csvField(c.toStdString());
        out += '\n';
        for (size_t t = 0; t < words.rows.size(); ++t) {
            out += csvField(words.rows[t].toStdString());
            for (double v : words.weights[t]) {
                out += ',';
                appendNumber(out, v);
            }
            out += '\n';
        }
        return out;
    }
    out += "target\\source";
    for (const auto& c : m.columns) out += ',' + csvField(c);
    out += '\n';
    const auto& rows = alignment.targetTokens();
    for (size_t t = 0; t < rows.size(); ++t) {
        out += csvField(rows[t]);
        if (attribution) {
            for (size_t i = 0; i < m.columns.size(); ++i) {
                out += ',';
                appendNumber(out, i < s.attribution[t].size() ? s.attribution[t][i] : 0.0f);
            }
            out += '\n';
            continue;
        }
        const size_t n = m.renormalized ? m.doubles[t].size() : m.floats[t].size();
        for (size_t i = 0; i < n; ++i) {
            out += ',';
            if (m.renormalized) appendNumber(out, m.doubles[t][i]);
            else appendNumber(out, m.floats[t][i]);
        }
        out += '\n';
    }
    return out;
}

QByteArray renderJson(const core::DecodingState& s, const FigureOptions& o) {
    return QByteArray::fromStdString(core::JsonText::dump(PageData::build(s, o, {}))) + '\n';
}

// The interactive page (resources/web): the whole decoding, numbers rounded to 4 decimals, the
// </s> column kept in the data (the page drops or renormalises it, starting as the options say).
QByteArray renderHtml(const core::DecodingState& s, const FigureOptions& o, const std::string& language) {
    PageData::Settings page;
    page.rounded = 4;
    page.fullMatrix = true;
    page.heatmap = s.attributionMethod;
    const std::string title = o.title.isEmpty() ? "AlignScope: " + s.sourceText : o.title.toStdString();
    return QByteArray::fromStdString(HtmlPage::render(PageData::build(s, o, page), title, language));
}

// PNG through libpng directly, tuned for figures (large flat areas, text): zlib level 2 and the
// "up" filter. About 4x faster than QImage::save's adaptive filtering at level 4-6, for files
// ~20% larger; encoding is most of the time a 300 dpi export takes.
void appendPng(png_structp png, png_bytep data, png_size_t size) {
    static_cast<QByteArray*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}
void flushPng(png_structp) {}

bool encodePngTo(const QImage& source, int dpi, QByteArray* out) {
    // Opaque 32-bit pixels are B,G,R,X in memory on little-endian machines: libpng drops X and
    // swaps to R,G,B itself. Anything else is converted first.
    const bool direct = QSysInfo::ByteOrder == QSysInfo::LittleEndian &&
                        (source.format() == QImage::Format_RGB32 || source.format() == QImage::Format_ARGB32_Premultiplied ||
                         source.format() == QImage::Format_ARGB32) &&
                        !source.hasAlphaChannel();
    const QImage image = direct ? source : source.convertToFormat(QImage::Format_RGB888);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    if (!png) return false;
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {  // libpng reports errors by longjmp to here
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, out, appendPng, flushPng);
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width()), static_cast<png_uint_32>(image.height()), 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    const auto perMeter = static_cast<png_uint_32>(std::lround(dpi / 0.0254));
    png_set_pHYs(png, info, perMeter, perMeter, PNG_RESOLUTION_METER);
    png_set_compression_level(png, 2);
    png_set_compression_strategy(png, 0 /* Z_DEFAULT_STRATEGY */);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_write_info(png, info);
    if (direct) {
        png_set_filler(png, 0, PNG_FILLER_AFTER);
        png_set_bgr(png);
    }
    for (int y = 0; y < image.height(); ++y) png_write_row(png, const_cast<png_bytep>(image.constScanLine(y)));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return true;
}

}  // namespace

FigureExporter::FigureExporter() = default;
FigureExporter::~FigureExporter() = default;

double FigureExporter::dpi() const {
    const auto* screen = QGuiApplication::primaryScreen();
    return screen ? screen->logicalDotsPerInch() : 96.0;
}

QSize FigureExporter::figureSize(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) const {
    return settings.size.isValid() && !settings.size.isEmpty() ? settings.size : AlignmentFigure::preferredSize(s, o);
}

QSize FigureExporter::imageSize(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) const {
    const QSize f = figureSize(s, o, settings);
    const double scale = settings.dpi / dpi();
    return {qRound(f.width() * scale), qRound(f.height() * scale)};
}

QSize FigureExporter::draw(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) {
    if (!plot_) {
        plot_ = std::make_unique<QCustomPlot>();
        plot_->setAttribute(Qt::WA_DontShowOnScreen);
        figure_ = std::make_unique<AlignmentFigure>(plot_.get());
    }
    const QSize size = figureSize(s, o, settings);
    plot_->resize(size);
    figure_->show(s, o);
    // Axis titles fitted to the figure's size, as the app's view fits them (a title wider than a
    // short sentence's figure was cut at both ends).
    PlotStyle::layOut(plot_.get());
    PlotStyle::fitLabels(plot_.get());
    return size;
}

QImage FigureExporter::renderImage(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) {
    if (settings.dpi < 10 || settings.dpi > 4800)
        throw error(QStringLiteral("PNG resolution must be 10-4800 dpi, not %1").arg(settings.dpi));
    const QSize pixels = imageSize(s, o, settings);
    if (pixels.width() > kMaxImageSide || pixels.height() > kMaxImageSide || qint64(pixels.width()) * pixels.height() > kMaxImagePixels)
        throw error(QStringLiteral("the figure would be %1×%2 pixels at %3 dpi, too large for a PNG: "
                                   "use a lower resolution, or SVG or PDF")
                        .arg(pixels.width())
                        .arg(pixels.height())
                        .arg(settings.dpi));
    const QSize size = draw(s, o, settings);
    QImage image = plot_->toPixmap(size.width(), size.height(), settings.dpi / dpi()).toImage();
    if (image.isNull()) throw error(QStringLiteral("could not draw the figure (%1×%2 pixels)").arg(pixels.width()).arg(pixels.height()));
    const int dotsPerMeter = qRound(settings.dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    return image;
}

QByteArray FigureExporter::encodePng(const QImage& image) {
    QByteArray bytes;
    bytes.reserve(1 << 20);
    if (!encodePngTo(image, qRound(image.dotsPerMeterX() * 0.0254), &bytes)) throw error(QStringLiteral("could not encode the PNG"));
    return bytes;
}

QByteArray FigureExporter::renderSvg(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) {
    FigureOptions vector = o;
    vector.vectorCells = true;  // the heatmap's cells as rectangles, where the matrix is small enough
    const QSize size = draw(s, vector, settings);
    const auto cells = static_cast<long long>(s.alignment().targetTokens().size()) * static_cast<long long>(s.source.tokens.size());
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(qRound(dpi()));
    svg.setTitle(o.title.isEmpty() ? QStringLiteral("Attention alignment") : o.title);
    svg.setDescription(
        QStringLiteral("AlignScope %1, model %2; %3")
            .arg(QString::fromStdString(core::Runtime::version()), QString::fromStdString(s.modelName),
                 cells <= FigureOptions::kMaxVectorCells
                     ? QStringLiteral("heatmap cells as vector rectangles") +
                           (o.showEncoderStates && !o.mergeWords ? QStringLiteral("; the encoder states as an image") : QString())
                     : QStringLiteral("heatmap cells as an image: more than %1 cells").arg(FigureOptions::kMaxVectorCells)));
    QCPPainter painter;
    if (!painter.begin(&svg)) throw error(QStringLiteral("could not start the SVG"));
    // Not pmVectorized: that would draw each colour map into a 3x pixmap of its whole area; the maps'
    // own images (a few pixels a cell) are embedded instead, marked to scale without smoothing.
    painter.setMode(QCPPainter::pmNoCaching);
    plot_->toPainter(&painter, size.width(), size.height());
    painter.end();
    // Heatmap cells are embedded images: keep them crisp when a viewer scales them.
    bytes.replace("<image ", "<image style=\"image-rendering:pixelated;image-rendering:crisp-edges\" ");
    return bytes;
}

QByteArray FigureExporter::renderPdf(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) {
    const QSize size = draw(s, o, settings);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        const double perInch = dpi();
        pdf.setResolution(qRound(perInch));
        pdf.setCreator(QStringLiteral("AlignScope %1").arg(QString::fromStdString(core::Runtime::version())));
        pdf.setTitle(o.title.isEmpty() ? QStringLiteral("Attention alignment") : o.title);
        const QSizeF points(size.width() * 72.0 / perInch, size.height() * 72.0 / perInch);
        QPageLayout layout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch), QPageLayout::Portrait,
                           QMarginsF(0, 0, 0, 0));
        layout.setMode(QPageLayout::FullPageMode);
        pdf.setPageLayout(layout);
        QCPPainter painter;
        if (!painter.begin(&pdf)) throw error(QStringLiteral("could not start the PDF"));
        // pmVectorized makes QCustomPlot draw each colour map into a 3x pixmap of its whole area,
        // crisp in any viewer; for a figure so long that pixmap could not exist (the raster limit),
        // the maps' own small images are embedded instead, drawn without smoothing, as in the SVG.
        if (3 * std::max(size.width(), size.height()) <= kMaxImageSide) painter.setMode(QCPPainter::pmVectorized);
        painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setWindow(QRect(QPoint(0, 0), size));
        plot_->toPainter(&painter, size.width(), size.height());
        painter.end();
    }
    return bytes;
}

std::vector<FigureExporter::Frame> FigureExporter::steppingFrames(const core::DecodingState& s, const FigureOptions& o, int frameMs) {
    // Every frame has the last one's layout: rows appear in place, one per step, as Step adds them
    // in the app, and nothing moves.
    const size_t steps = s.alignment().targetTokens().size();
    FigureOptions options = o;
    options.reservedRows = static_cast<int>(steps);
    std::vector<Frame> frames;
    for (size_t k = 1; k <= steps; ++k) frames.push_back({s.prefix(k), options, k == steps ? 3 * frameMs : frameMs});
    return frames;
}

FigureExporter::Settings FigureExporter::animationSettings(const std::vector<Frame>& frames, const Settings& settings) const {
    if (frames.empty()) throw error(QStringLiteral("nothing to animate: no frames"));
    Settings at = settings;
    at.format = Format::Png;
    if (!at.size.isValid() || at.size.isEmpty()) {
        at.size = QSize(0, 0);
        for (const auto& f : frames) at.size = at.size.expandedTo(figureSize(f.state, f.options, settings));
    }
    return at;
}

QByteArray FigureExporter::renderGif(const std::vector<Frame>& frames, const Settings& settings) {
    const Settings at = animationSettings(frames, settings);
    GifWriter gif;
    for (const auto& f : frames) gif.addFrame(renderImage(f.state, f.options, at), f.delayMs);
    return gif.finish();
}

void FigureExporter::writeFrames(const std::vector<Frame>& frames, const Settings& settings, const QString& path, const QString& unit) {
    const Settings at = animationSettings(frames, settings);
    writeAnimation(
        Format::Frames, frames.size(), [&](size_t k) { return frames[k]; }, at.size, at, path, unit);
}

void FigureExporter::writeAnimation(Format format, size_t count, const FrameSource& frame, QSize size, const Settings& settings,
                                    const QString& path, const QString& unit) {
    checkFilePath(path, settings.inFolder);
    if (count == 0) throw error(QStringLiteral("nothing to animate: no frames"));
    Settings at = settings;
    at.format = Format::Png;
    if (!at.size.isValid() || at.size.isEmpty()) at.size = size;
    if (format == Format::Frames) {
        for (size_t k = 0; k < count; ++k) {
            const Frame f = frame(k);
            writeFile(framePath(path, k + 1, count, unit), encodePng(renderImage(f.state, f.options, at)), true);  // names the tool made
        }
        return;
    }
    if (format != Format::Gif) throw error(QStringLiteral("an animation is a GIF or PNG frames, not %1").arg(formatName(format)));
    core::AtomicFile file(path.toStdString(), settings.inFolder ? core::AtomicFile::Naming::InFolder : core::AtomicFile::Naming::User);
    GifWriter gif([&file](const char* data, size_t n) { file.stream().write(data, static_cast<std::streamsize>(n)); });
    for (size_t k = 0; k < count; ++k) {
        const Frame f = frame(k);
        gif.addFrame(renderImage(f.state, f.options, at), f.delayMs);
    }
    gif.finish();
    file.commit();
}

QByteArray FigureExporter::render(const core::DecodingState& s, const FigureOptions& o, const Settings& settings) {
    if (s.alignment().targetTokens().empty())
        throw error(QStringLiteral("nothing to export: the alignment has no target tokens yet (decode a step first)"));
    switch (settings.format) {
    case Format::Png:
        return encodePng(renderImage(s, o, settings));
    case Format::Svg:
        return renderSvg(s, o, settings);
    case Format::Pdf:
        return renderPdf(s, o, settings);
    case Format::Csv:
        return renderCsv(s, o);
    case Format::Json:
        return renderJson(s, o);
    case Format::Pharaoh:
        return QByteArray::fromStdString(PageData::links(s)) + '\n';
    case Format::Gif:
        return renderGif(steppingFrames(s, o, settings.frameMs), settings);
    case Format::Frames:
        throw error(QStringLiteral("a frame sequence is several files: write() writes it"));
    case Format::Html:
        return renderHtml(s, o, settings.language);
    }
    throw error(QStringLiteral("unknown export format"));
}

void FigureExporter::write(const core::DecodingState& s, const FigureOptions& o, const Settings& settings, const QString& path) {
    checkFilePath(path, settings.inFolder);  // before the work: a bad path fails at once
    if (settings.format != Format::Frames) {
        writeFile(path, render(s, o, settings), settings.inFolder);
        return;
    }
    if (s.alignment().targetTokens().empty())
        throw error(QStringLiteral("nothing to export: the alignment has no target tokens yet (decode a step first)"));
    writeFrames(steppingFrames(s, o, settings.frameMs), settings, path);  // the GIF's frames, each a PNG
}

QString FigureExporter::framePath(const QString& path, size_t step, size_t steps, const QString& unit) {
    QString base = path;
    if (base.endsWith(QStringLiteral(".png"))) base.chop(4);
    const int digits = std::max(2, static_cast<int>(QString::number(steps).size()));
    return base + QStringLiteral("-%1%2.png").arg(unit).arg(static_cast<qulonglong>(step), digits, 10, QLatin1Char('0'));
}

void FigureExporter::checkFilePath(const QString& path, bool inFolder) {
    if (inFolder) core::AtomicFile::checkWritable(path.toStdString(), core::AtomicFile::Naming::InFolder);  // by lstat: opens nothing
    const QFileInfo info(path);
    if (!info.dir().exists()) throw error(QStringLiteral("cannot write '%1': the folder '%2' does not exist").arg(path, info.path()));
    if (info.isDir()) throw error(QStringLiteral("cannot write '%1': it is a folder").arg(path));
}

void FigureExporter::writeFile(const QString& path, const QByteArray& bytes, bool inFolder) {
    checkFilePath(path, inFolder);
    // Whole or not at all, with the system's reason on failure ("No space left on device").
    core::AtomicFile::write(path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())),
                            inFolder ? core::AtomicFile::Naming::InFolder : core::AtomicFile::Naming::User);
}

std::optional<FigureExporter::Format> FigureExporter::parseFormat(const QString& name) {
    const QString n = name.trimmed().toLower();
    for (Format f :
         {Format::Png, Format::Svg, Format::Pdf, Format::Csv, Format::Json, Format::Pharaoh, Format::Gif, Format::Frames, Format::Html})
        if (n == formatName(f)) return f;
    return std::nullopt;
}

QString FigureExporter::formatName(Format format) {
    switch (format) {
    case Format::Png:
        return QStringLiteral("png");
    case Format::Svg:
        return QStringLiteral("svg");
    case Format::Pdf:
        return QStringLiteral("pdf");
    case Format::Csv:
        return QStringLiteral("csv");
    case Format::Json:
        return QStringLiteral("json");
    case Format::Pharaoh:
        return QStringLiteral("pharaoh");
    case Format::Gif:
        return QStringLiteral("gif");
    case Format::Frames:
        return QStringLiteral("frames");
    case Format::Html:
        return QStringLiteral("html");
    }
    return {};
}

QString FigureExporter::extension(Format format) {
    if (format == Format::Frames) return QStringLiteral(".png");  // the frames' files add -stepKK
    return format == Format::Pharaoh ? QStringLiteral(".align") : QLatin1Char('.') + formatName(format);
}

void FigureExporter::checkWritableFolder(const QString& folder) {
    const QFileInfo info(folder);
    if (info.exists() && !info.isDir()) throw error(QStringLiteral("cannot write to '%1': it is not a folder").arg(folder));
    if (!QDir().mkpath(folder)) throw error(QStringLiteral("cannot create the folder '%1'").arg(folder));
    QTemporaryFile probe(QDir(folder).filePath(QStringLiteral(".alignscope-probe-XXXXXX")));
    if (!probe.open()) throw error(QStringLiteral("cannot write to the folder '%1': %2").arg(folder, probe.errorString()));
}

}  // namespace alignscope::ui
