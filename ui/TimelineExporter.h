#pragma once
#include "core/training/TrainingTimeline.h"
#include "ui/FigureExporter.h"

#include <QString>

#include <functional>
#include <string>

namespace alignscope::ui {

// A training run's snapshots (train --snapshots K) as an animation: one sentence forced along one
// target through every snapshot, one frame each in one layout, titled with its update and loss, so
// the alignment is seen to form (an animated GIF, or numbered PNG frames). Each snapshot is
// loaded, decoded, drawn and written in turn: memory stays flat however many the run lists.
class TimelineExporter {
public:
    // Checks the run (TrainingTimeline::checkSnapshots): throws core::Error naming a snapshot
    // that fails to load or reads other vocabularies than the first (a folder that mixes two runs).
    explicit TimelineExporter(const core::TrainingTimeline& timeline);

    // One frame per snapshot, `source` forced along `target` (empty: the last snapshot's greedy
    // translation, which every snapshot then follows), written to `path`: a GIF (settings.format
    // Gif) or numbered PNGs (Frames). Throws core::Error naming the snapshot that cannot take the
    // sentence.
    void write(const std::string& source, const std::string& target, const FigureOptions& options, const FigureExporter::Settings& settings,
               const QString& path) const;
    // The same frames handed to `visit` in turn (k, frame), one snapshot's model in memory at a time:
    // for an exporter that keeps only what it takes from each (the lesson site's numbers).
    void forEachFrame(const std::string& source, const std::string& target, const FigureOptions& options, int frameMs,
                      const std::function<void(size_t, const FigureExporter::Frame&)>& visit) const;

    const core::TrainingTimeline& timeline() const { return timeline_; }

private:
    // Frame k of the run for write and forEachFrame (a model is loaded when k needs another file).
    std::function<FigureExporter::Frame(size_t)> frameMaker(const std::string& source, const std::string& target,
                                                            const FigureOptions& options, int frameMs) const;
    FigureOptions frameOptions(size_t k, const FigureOptions& options) const;

    core::TrainingTimeline timeline_;
};

}  // namespace alignscope::ui
