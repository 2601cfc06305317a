#include "ui/BatchExporter.h"

#include "core/alignment/Aligner.h"
#include "core/decoding/DecodingSession.h"
#include "core/text/PairLine.h"
#include "core/Error.h"

#include <QThread>
#include <QThreadPool>

#include <condition_variable>
#include <mutex>

namespace alignscope::ui {
namespace {

constexpr int kMaxSlug = 40;

}  // namespace

struct BatchExporter::Queue {
    QThreadPool pool;
    std::mutex mutex;
    std::condition_variable changed;
    int inFlight = 0;
    long completed = 0;
    std::vector<Failure> failures;

    Queue() { pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount())); }
    int limit() const { return 2 * pool.maxThreadCount(); }  // images waiting to be encoded, at most
};

BatchExporter::BatchExporter(core::Model model, const QString& folder, Settings settings)
    : model_(std::move(model)), folder_(folder), settings_(std::move(settings)), queue_(std::make_unique<Queue>()) {
    FigureExporter::checkWritableFolder(folder);
    settings_.file.inFolder = true;  // the names are ours: they never leave the folder
}

BatchExporter::~BatchExporter() { finish(); }

void BatchExporter::finish() {
    std::unique_lock<std::mutex> lock(queue_->mutex);
    queue_->changed.wait(lock, [this] { return queue_->inFlight == 0; });
}

std::vector<BatchExporter::Failure> BatchExporter::takeFailures() {
    std::lock_guard<std::mutex> lock(queue_->mutex);
    return std::exchange(queue_->failures, {});
}

long BatchExporter::completed() const {
    std::lock_guard<std::mutex> lock(queue_->mutex);
    return queue_->completed;
}

core::DecodingState BatchExporter::decode(const core::Model& model, const std::string& line, int beamWidth, int maxLength,
                                          core::DecodingProgress* progress, int candidates) {
    const auto pair = core::PairLine::parse(line);
    core::SessionOptions options;
    options.topK = candidates;
    options.maxLength = maxLength;
    options.progress = progress;
    core::DecodingSession session(model, pair.source, options);
    if (pair.target) {
        session.alignTo(*pair.target);
        return core::DecodingState::capture(session, true);
    }
    if (beamWidth > 1) {
        core::SearchOptions search;
        search.beamWidth = beamWidth;
        search.maxLength = maxLength;
        search.progress = progress;
        auto beam = session.search(search);
        if (beam.empty()) throw core::Error("beam search found no hypothesis");
        // Step along the best hypothesis too, so the figure's c_t and s_t are its last step's.
        for (const auto id : beam.front().ids) {
            if (session.finished()) break;
            session.force(id);
        }
        return core::DecodingState::capture(session, false, std::move(beam), 0);
    }
    session.runToEnd();
    return core::DecodingState::capture(session, false);
}

QString BatchExporter::slug(const std::string& text) {
    const QString decomposed = QString::fromStdString(text).normalized(QString::NormalizationForm_KD);
    QString out;
    bool separator = false;
    for (const QChar c : decomposed) {
        if (c.isMark()) continue;  // accents of decomposed letters
        if (c.unicode() < 128 && c.isLetterOrNumber()) {
            if (separator && !out.isEmpty()) out += QLatin1Char('-');
            separator = false;
            out += c.toLower();
        } else {
            separator = true;
        }
    }
    if (out.size() > kMaxSlug) {
        const int cut = out.lastIndexOf(QLatin1Char('-'), kMaxSlug);
        out.truncate(cut > kMaxSlug / 2 ? cut : kMaxSlug);
    }
    return out;
}

QString BatchExporter::title(const QString& titleTemplate, long lineNumber, const std::string& source, const std::string& translation,
                             const std::string& model) {
    return QString(titleTemplate)
        .replace(QStringLiteral("{line}"), QString::number(lineNumber))
        .replace(QStringLiteral("{source}"), QString::fromStdString(source))
        .replace(QStringLiteral("{translation}"), QString::fromStdString(translation))
        .replace(QStringLiteral("{model}"), QString::fromStdString(model));
}

QString BatchExporter::fileName(long lineNumber, const std::string& source, FigureExporter::Format format, int digits) {
    const QString number = QStringLiteral("%1").arg(lineNumber, digits, 10, QLatin1Char('0'));
    const QString s = slug(source);
    return (s.isEmpty() ? number : number + QLatin1Char('-') + s) + FigureExporter::extension(format);
}

void BatchExporter::loadReverseModels() const {
    if (settings_.linkRule.empty()) return;
    core::Aligner::reverseModels({model_}, settings_.reverseModels, settings_.linkRule,
                                 [this](const std::string& path) { return reverseModels_.load(path); });
}

BatchExporter::Prepared BatchExporter::prepare(long lineNumber, const std::string& line) const {
    Prepared p;
    // The name first: a link or pipe there is refused before the sentence is decoded.
    p.path = folder_.filePath(fileName(lineNumber, core::PairLine::sourceText(line), settings_.file.format, settings_.digits));
    FigureExporter::checkFilePath(p.path, true);
    // Figures draw no candidates; a web page lists the app's ten at each step.
    const int candidates = settings_.file.format == FigureExporter::Format::Html ? core::SessionOptions{}.topK : 1;
    p.state = decode(model_, line, settings_.beamWidth, settings_.maxLength, settings_.progress, candidates);
    if (!settings_.heatmap.empty()) {
        p.state.attribute(model_, settings_.heatmap);
        if (!p.state.attributionError.empty()) throw core::Error(p.state.attributionError);
    }
    if (!settings_.linkRule.empty()) {
        // Along the given target, else the translation shown, as View > Links reads the pair.
        const auto pair = core::PairLine::parse(line);
        p.state.link(
            model_, pair.target ? *pair.target : p.state.translation, settings_.linkRule, settings_.heatmap, settings_.reverseModels,
            [this](const std::string& path) { return reverseModels_.load(path); }, settings_.progress);
        if (!p.state.linksError.empty()) throw core::Error(p.state.linksError);
    }
    p.options = settings_.figure;
    const std::string source = core::PairLine::sourceText(line);
    if (!settings_.titleTemplate.isEmpty())
        p.options.title = title(settings_.titleTemplate, lineNumber, source, p.state.translation, p.state.modelName);
    return p;
}

QString BatchExporter::exportLine(long lineNumber, const std::string& line) {
    const Prepared p = prepare(lineNumber, line);
    exporter_.write(p.state, p.options, settings_.file, p.path);
    return p.path;
}

QString BatchExporter::queueLine(long lineNumber, const std::string& line) {
    return queueLine(lineNumber, [&] { return prepare(lineNumber, line); });
}

QString BatchExporter::queueLine(long lineNumber, const std::function<Prepared()>& preparedLine) {
    auto& q = *queue_;
    auto done = [&q] {
        std::lock_guard<std::mutex> lock(q.mutex);
        ++q.completed;
    };
    QString path;
    try {
        Prepared prepared = preparedLine();
        path = prepared.path;
        if (settings_.file.format != FigureExporter::Format::Png) {
            exporter_.write(prepared.state, prepared.options, settings_.file, path);
            done();
            return path;
        }
        FigureExporter::checkFilePath(path, true);
        QImage image = exporter_.renderImage(prepared.state, prepared.options, settings_.file);
        {
            std::unique_lock<std::mutex> lock(q.mutex);
            q.changed.wait(lock, [&q] { return q.inFlight < q.limit(); });
            ++q.inFlight;
        }
        q.pool.start([&q, lineNumber, path, image = std::move(image)] {
            QString failure;
            bool storageFull = false;
            try {
                FigureExporter::writeFile(path, FigureExporter::encodePng(image), true);
            } catch (const core::StorageFullError& e) {
                failure = QString::fromStdString(e.what());
                storageFull = true;
            } catch (const std::exception& e) {
                failure = QString::fromStdString(e.what());
            }
            std::lock_guard<std::mutex> lock(q.mutex);
            if (!failure.isEmpty()) q.failures.push_back({lineNumber, failure, storageFull});
            ++q.completed;
            --q.inFlight;
            q.changed.notify_all();
        });
    } catch (...) {
        done();
        throw;
    }
    return path;
}

}  // namespace alignscope::ui
