#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace alignscope::core {

class Model;

// A training run's snapshots (`train --snapshots K`): model files NAME.step-000123.pt written
// beside the output model NAME.pt at updates spaced log-uniformly over training, listed with the
// training loss in NAME.timeline.json, so a viewer can replay how the alignment formed.
class TrainingTimeline {
public:
    static constexpr uint64_t kMaxIndexBytes = uint64_t{256} << 20;

    struct Snapshot {
        int64_t step = 0;  // updates done when it was written
        std::string file;  // its file name, in folder()
        double loss = 0;   // smoothed training NLL/token then
    };

    // The timeline of a run writing `outputPath`: the index beside it, read if it exists.
    static TrainingTimeline forModel(const std::string& outputPath);
    // A timeline to view: a folder holding one NAME.timeline.json, or that file. Throws Error
    // naming the folder or file: no index, two indexes, an unreadable or malformed one, none of
    // its snapshot files present.
    static TrainingTimeline open(const std::string& folderOrIndex);
    // `count` distinct updates in 1..total, log-uniformly spaced, the first and the last included.
    static std::vector<int64_t> logUniformSteps(int count, int64_t total);

    // Whether two snapshots read the same tokenizers and vocabularies, token for token (those of
    // one run do): a viewer refuses to replay a mix.
    static bool sameVocabularies(const Model& a, const Model& b);
    // Loads every snapshot in turn (one at a time: memory stays flat however many) and throws
    // Error naming the first that fails to load or reads other vocabularies than the first (a
    // folder that mixes runs): the check the app and `export --timeline` make when a run opens.
    void checkSnapshots() const;

    std::string snapshotPath(int64_t step) const;  // where the snapshot at `step` goes
    std::string indexPath() const;
    const std::string& folder() const { return folder_; }
    const std::string& name() const { return name_; }
    const std::vector<Snapshot>& snapshots() const { return snapshots_; }  // ascending steps
    const std::vector<double>& loss() const { return loss_; }              // [updates] training NLL/token
    // Updates in the run: one loss per update, or (a timeline without losses) the last snapshot's.
    int64_t updates() const {
        return loss_.empty() ? (snapshots_.empty() ? 0 : snapshots_.back().step) : static_cast<int64_t>(loss_.size());
    }

    void keepUpTo(int64_t step);  // a resumed run forgets the snapshots after its checkpoint
    // Records a snapshot and rewrites the index (atomically) with the loss so far.
    void add(int64_t step, const std::string& file, double loss, const std::vector<double>& lossHistory);

private:
    void read(const std::string& indexPath);
    std::string folder_, name_;
    std::vector<Snapshot> snapshots_;
    std::vector<double> loss_;
};

}  // namespace alignscope::core
