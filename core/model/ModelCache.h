#pragma once
#include "core/model/Model.h"

#include <map>
#include <mutex>
#include <string>

namespace alignscope::core {

// Models loaded once by path: the reverse models a link rule reads, for the app's document and the
// batch exporter. Safe from several threads (a load holds the lock: the others need that model too).
class ModelCache {
public:
    // rememberFailures: a path that failed to load fails again at once with the same message (a
    // batch, where every line would wait for the same failure); else it is tried again (the app,
    // where the user may have put the file in place since).
    explicit ModelCache(bool rememberFailures = false) : rememberFailures_(rememberFailures) {}

    // Throws Error as Model::load does.
    Model load(const std::string& path);

private:
    bool rememberFailures_;
    std::mutex mutex_;
    std::map<std::string, Model> models_;
    std::map<std::string, std::string> failures_;
};

}  // namespace alignscope::core
