#include "ui/TimelineExporter.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"

#include <QLocale>

namespace alignscope::ui {

TimelineExporter::TimelineExporter(const core::TrainingTimeline& timeline) : timeline_(timeline) {
    for (const auto& s : timeline_.snapshots()) {
        const auto path = timeline_.folder() + "/" + s.file;
        models_.push_back(core::Model::load(path));
        if (!core::TrainingTimeline::sameVocabularies(models_.back(), models_.front()))
            throw core::Error("'" + path + "' reads other vocabularies than '" + models_.front().origin() +
                              "': the snapshots of one run share one (does the folder mix two runs?)");
    }
    if (models_.empty()) throw core::Error("the training run '" + timeline_.indexPath() + "' lists no snapshot");
}

std::vector<FigureExporter::Frame> TimelineExporter::frames(const std::string& source, const std::string& target,
                                                            const FigureOptions& options, int frameMs) const {
    std::string forced = target;
    if (forced.empty()) {
        core::DecodingSession last(models_.back(), source);
        last.runToEnd();
        forced = last.translation();
        if (forced.empty()) throw core::Error("the last snapshot translates '" + source + "' as nothing: give a target to force");
    }
    const QLocale locale(QLocale::English);
    const auto& snaps = timeline_.snapshots();
    const auto updates = timeline_.updates();
    std::vector<FigureExporter::Frame> out;
    for (size_t k = 0; k < models_.size(); ++k) {
        core::DecodingSession session(models_[k], source);
        try {
            session.alignTo(forced);
        } catch (const core::Error& e) {
            throw core::Error("snapshot " + std::to_string(k + 1) + " ('" + snaps[k].file + "') cannot take the sentence: " + e.what());
        }
        FigureOptions o = options;
        const QString title = QStringLiteral("%1 · update %2 of %3 · training loss %4")
                                  .arg(QString::fromStdString(timeline_.name()), locale.toString(static_cast<qlonglong>(snaps[k].step)),
                                       locale.toString(static_cast<qlonglong>(updates)))
                                  .arg(snaps[k].loss, 0, 'f', 2);
        o.title = options.title.isEmpty() ? title : options.title + QStringLiteral("\n") + title;
        o.highlightCurrentStep = false;  // every row is final: nothing is being stepped
        out.push_back({DecodingSnapshot::capture(session, /*teacherForced=*/true), o, k + 1 == models_.size() ? 3 * frameMs : frameMs});
    }
    return out;
}

void TimelineExporter::write(const std::string& source, const std::string& target, const FigureOptions& options,
                             const FigureExporter::Settings& settings, const QString& path) const {
    FigureExporter exporter;
    const auto all = frames(source, target, options, settings.frameMs);
    if (settings.format == FigureExporter::Format::Frames)
        exporter.writeFrames(all, settings, path, QStringLiteral("snapshot"));
    else if (settings.format == FigureExporter::Format::Gif)
        FigureExporter::writeFile(path, exporter.renderGif(all, settings));
    else
        throw core::Error("a training run is exported as an animation: gif or frames, not " + FigureExporter::formatName(settings.format).toStdString());
}

}  // namespace alignscope::ui
