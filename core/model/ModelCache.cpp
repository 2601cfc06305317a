#include "core/model/ModelCache.h"

#include "core/Error.h"

namespace alignscope::core {

Model ModelCache::load(const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto failed = failures_.find(path); failed != failures_.end()) throw Error(failed->second);
    if (const auto found = models_.find(path); found != models_.end()) return found->second;
    try {
        return models_.emplace(path, Model::load(path)).first->second;
    } catch (const Error& e) {
        if (rememberFailures_) failures_.emplace(path, e.what());
        throw;
    }
}

}  // namespace alignscope::core
