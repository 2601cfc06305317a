#include "ui/TimelineExporter.h"

#include "core/decoding/DecodingSession.h"
#include "core/model/Model.h"
#include "core/Error.h"

#include <QLocale>

#include <memory>
#include <optional>

namespace alignscope::ui {

TimelineExporter::TimelineExporter(const core::TrainingTimeline& timeline) : timeline_(timeline) { timeline_.checkSnapshots(); }

FigureOptions TimelineExporter::frameOptions(size_t k, const FigureOptions& options) const {
    const QLocale locale(QLocale::English);
    const auto& snaps = timeline_.snapshots();
    FigureOptions o = options;
    const QString title = QStringLiteral("%1 · update %2 of %3 · training loss %4")
                              .arg(QString::fromStdString(timeline_.name()), locale.toString(static_cast<qlonglong>(snaps[k].step)),
                                   locale.toString(static_cast<qlonglong>(timeline_.updates())))
                              .arg(snaps[k].loss, 0, 'f', 2);
    o.title = options.title.isEmpty() ? title : options.title + QStringLiteral("\n") + title;
    o.highlightCurrentStep = false;  // every row is final: nothing is being stepped
    return o;
}

std::function<FigureExporter::Frame(size_t)> TimelineExporter::frameMaker(const std::string& source, const std::string& target,
                                                                          const FigureOptions& options, int frameMs) const {
    const auto& snaps = timeline_.snapshots();
    // The model of one snapshot at a time (an index may list one file at several steps: loaded once).
    auto model = std::make_shared<std::optional<core::Model>>();
    auto loaded = std::make_shared<std::string>();
    const auto modelOf = [this, model, loaded](size_t k) -> const core::Model& {
        const auto& file = timeline_.snapshots()[k].file;
        if (!*model || *loaded != file) {
            model->reset();
            model->emplace(core::Model::load(timeline_.folder() + "/" + file));
            *loaded = file;
        }
        return **model;
    };
    std::string forced = target;
    if (forced.empty()) {
        core::DecodingSession last(modelOf(snaps.size() - 1), source);
        last.runToEnd();
        forced = last.translation();
        if (forced.empty()) throw core::Error("the last snapshot translates '" + source + "' as nothing: give a target to force");
    }
    return [this, modelOf, forced, source, options, frameMs](size_t k) -> FigureExporter::Frame {
        const auto& snaps = timeline_.snapshots();
        core::DecodingSession session(modelOf(k), source);
        try {
            session.alignTo(forced);
        } catch (const core::Error& e) {
            throw core::Error("snapshot " + std::to_string(k + 1) + " ('" + snaps[k].file + "') cannot take the sentence: " + e.what());
        }
        return {core::DecodingState::capture(session, /*teacherForced=*/true), frameOptions(k, options),
                k + 1 == snaps.size() ? 3 * frameMs : frameMs};
    };
}

void TimelineExporter::forEachFrame(const std::string& source, const std::string& target, const FigureOptions& options, int frameMs,
                                    const std::function<void(size_t, const FigureExporter::Frame&)>& visit) const {
    const auto frame = frameMaker(source, target, options, frameMs);
    for (size_t k = 0; k < timeline_.snapshots().size(); ++k) visit(k, frame(k));
}

void TimelineExporter::write(const std::string& source, const std::string& target, const FigureOptions& options,
                             const FigureExporter::Settings& settings, const QString& path) const {
    if (settings.format != FigureExporter::Format::Gif && settings.format != FigureExporter::Format::Frames)
        throw core::Error("a training run is exported as an animation: gif or frames, not " +
                          FigureExporter::formatName(settings.format).toStdString());
    const auto& snaps = timeline_.snapshots();
    const auto frame = frameMaker(source, target, options, settings.frameMs);
    // One layout for every frame: the snapshots of one run give the sentence the same tokens, so
    // the first one's figure under the longest title (titles differ in their numbers) is the largest.
    FigureExporter exporter;
    const auto first = frame(0);
    size_t longest = 0;
    for (size_t k = 1; k < snaps.size(); ++k)
        if (frameOptions(k, options).title.size() > frameOptions(longest, options).title.size()) longest = k;
    const QSize size = exporter.figureSize(first.state, first.options, settings)
                           .expandedTo(exporter.figureSize(first.state, frameOptions(longest, options), settings));
    exporter.writeAnimation(settings.format, snaps.size(), frame, size, settings, path, QStringLiteral("snapshot"));
}

}  // namespace alignscope::ui
