#include "core/training/TrainingTimeline.h"

#include "core/model/Model.h"
#include "core/text/JsonText.h"
#include "core/text/Tokenizer.h"
#include "core/text/Vocabulary.h"

#include "core/platform/AtomicFile.h"
#include "core/platform/BoundedFile.h"
#include "core/Error.h"

#include <nlohmann/json.hpp>
#include <torch/jit.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace alignscope::core {

namespace {
// python/alignscope/timeline_code.py, whole (core/CMakeLists.txt writes it into this literal).
const char* const kTimelineCodeFile =
#include "TimelineCodeText.inc"
    ;
constexpr const char* kIndexSuffix = ".timeline.json";
constexpr const char* kFormat = "alignscope-timeline";
}  // namespace

TrainingTimeline TrainingTimeline::forModel(const std::string& outputPath) {
    TrainingTimeline t;
    const fs::path out(outputPath);
    t.folder_ = out.has_parent_path() ? out.parent_path().string() : std::string(".");
    t.name_ = out.stem().string();
    if (fs::exists(t.indexPath())) t.read(t.indexPath());
    return t;
}

TrainingTimeline TrainingTimeline::open(const std::string& folderOrIndex) {
    std::error_code ec;
    fs::path index(folderOrIndex);
    if (fs::is_directory(index, ec)) {
        std::vector<fs::path> found;
        for (const auto& e : fs::directory_iterator(index, ec)) {
            const auto name = e.path().filename().string();
            if (name.size() > std::string(kIndexSuffix).size() &&
                name.substr(name.size() - std::string(kIndexSuffix).size()) == kIndexSuffix)
                found.push_back(e.path());
        }
        if (ec) throw Error("cannot read the folder '" + folderOrIndex + "': " + ec.message());
        if (found.empty())
            throw Error("'" + folderOrIndex + "' holds no training run: no NAME" + kIndexSuffix +
                        " (alignscope-cli train --snapshots K writes one beside its model)");
        if (found.size() > 1)
            throw Error("'" + folderOrIndex + "' holds " + std::to_string(found.size()) + " training runs (" +
                        found[0].filename().string() + ", " + found[1].filename().string() + "...): open one of the .timeline.json files");
        index = found.front();
    } else if (!fs::exists(index, ec)) {
        throw Error("'" + folderOrIndex + "' does not exist");
    }
    TrainingTimeline t;
    t.folder_ = index.has_parent_path() ? index.parent_path().string() : std::string(".");
    const auto file = index.filename().string();
    t.name_ = file.size() > std::string(kIndexSuffix).size() ? file.substr(0, file.size() - std::string(kIndexSuffix).size()) : file;
    t.read(index.string());
    std::vector<Snapshot> present;
    for (const auto& s : t.snapshots_)
        if (fs::exists(fs::path(t.folder_) / s.file, ec)) present.push_back(s);
    if (present.empty())
        throw Error("'" + index.string() + "' lists " + std::to_string(t.snapshots_.size()) +
                    " snapshots, but none of their files is in '" + t.folder_ + "'");
    t.snapshots_ = std::move(present);
    return t;
}

void TrainingTimeline::read(const std::string& indexPath) {
    // A regular file of bounded size: a run folder may come from anyone (a FIFO or /dev/zero as
    // the index hung or filled memory). A million updates' losses take about 20 MB.
    const std::string text = BoundedFile::read(indexPath, kMaxIndexBytes, "the training run's index");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw Error("'" + indexPath + "' is not valid JSON: " + e.what());
    }
    try {
        if (j.value("format", std::string()) != kFormat)
            throw Error("'" + indexPath + "' is not a training timeline (its \"format\" is not \"" + kFormat + "\")");
        snapshots_.clear();
        for (const auto& s : j.at("snapshots")) {
            Snapshot snap{s.at("step").get<int64_t>(), s.at("file").get<std::string>(), s.value("loss", 0.0)};
            // A file name only: an index must not point a viewer anywhere outside its folder.
            if (snap.file.empty() || snap.file.find('/') != std::string::npos || snap.file.find('\\') != std::string::npos ||
                snap.file == "..")
                throw Error("'" + indexPath + "' names a snapshot file '" + snap.file + "' outside its folder");
            snapshots_.push_back(std::move(snap));
        }
        loss_ = j.value("loss", std::vector<double>());
    } catch (const nlohmann::json::exception& e) {
        throw Error("'" + indexPath + "' is malformed: " + e.what());
    }
    std::sort(snapshots_.begin(), snapshots_.end(), [](const Snapshot& a, const Snapshot& b) { return a.step < b.step; });
}

std::vector<int64_t> TrainingTimeline::logUniformSteps(int count, int64_t total) {
    // python/alignscope/timeline_code.py below its marker, compiled once (the Python trainer runs the same text).
    static const std::shared_ptr<torch::jit::CompilationUnit> code = [] {
        const std::string file = kTimelineCodeFile;
        const std::string marker = "# --- TorchScript functions: everything below is compiled as it stands ---";
        const auto at = file.rfind(marker);
        if (at == std::string::npos) throw Error("internal error: python/alignscope/timeline_code.py has lost its marker line");
        try {
            return torch::jit::compile(file.substr(at + marker.size()));
        } catch (const std::exception& e) {
            throw Error(std::string("internal error: the timeline code does not compile: ") + e.what());
        }
    }();
    return code->run_method("log_uniform_steps", static_cast<int64_t>(count), total).toIntVector();
}

bool TrainingTimeline::sameVocabularies(const Model& a, const Model& b) {
    return a.sourceVocabulary().tokens() == b.sourceVocabulary().tokens() &&
           a.targetVocabulary().tokens() == b.targetVocabulary().tokens() && a.sourceTokenizer().toJson() == b.sourceTokenizer().toJson() &&
           a.targetTokenizer().toJson() == b.targetTokenizer().toJson();
}

void TrainingTimeline::checkSnapshots() const {
    if (snapshots_.empty()) throw Error("the training run '" + indexPath() + "' lists no snapshot");
    const std::string firstPath = folder_ + "/" + snapshots_.front().file;
    const Model first = Model::load(firstPath);
    std::set<std::string> checked = {snapshots_.front().file};  // an index may list one file at several steps
    for (const auto& s : snapshots_) {
        if (!checked.insert(s.file).second) continue;
        const auto path = folder_ + "/" + s.file;
        if (!sameVocabularies(Model::load(path), first))
            throw Error("'" + path + "' reads other vocabularies than '" + firstPath +
                        "': the snapshots of one run share one (does the folder mix two runs?)");
    }
}

std::string TrainingTimeline::snapshotPath(int64_t step) const {
    char number[32];
    std::snprintf(number, sizeof number, "%06lld", static_cast<long long>(step));
    return (fs::path(folder_) / (name_ + ".step-" + number + ".pt")).string();
}

std::string TrainingTimeline::indexPath() const { return (fs::path(folder_) / (name_ + kIndexSuffix)).string(); }

void TrainingTimeline::keepUpTo(int64_t step) {
    snapshots_.erase(std::remove_if(snapshots_.begin(), snapshots_.end(), [step](const Snapshot& s) { return s.step > step; }),
                     snapshots_.end());
    if (static_cast<int64_t>(loss_.size()) > step) loss_.resize(static_cast<size_t>(step));
}

void TrainingTimeline::add(int64_t step, const std::string& file, double loss, const std::vector<double>& lossHistory) {
    keepUpTo(step - 1);
    snapshots_.push_back({step, file, loss});
    loss_ = lossHistory;
    nlohmann::json j = {{"format", kFormat}, {"version", 1}, {"model", name_}, {"loss", loss_}};
    j["snapshots"] = nlohmann::json::array();
    for (const auto& s : snapshots_) j["snapshots"].push_back({{"step", s.step}, {"file", s.file}, {"loss", s.loss}});
    AtomicFile::write(indexPath(), JsonText::dump(j) + "\n");
}

}  // namespace alignscope::core
