#include "core/platform/InstallLayout.h"

#include <cstdlib>
#include <filesystem>

namespace alignscope::core {
namespace {

namespace fs = std::filesystem;

const char* nonEmptyEnv(const char* name) {
    const char* value = std::getenv(name);
    return value && *value ? value : nullptr;
}

// PROGRAM/../<relative>, lexically normalised (bin/../share -> share) so messages read cleanly.
fs::path besideProgram(const char* relative) {
    const auto dir = InstallLayout::programDirectory();
    if (dir.empty()) return {};
    return (fs::path(dir) / ".." / relative).lexically_normal();
}

}  // namespace

std::string InstallLayout::programDirectory() {
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.parent_path().string();
}

std::string InstallLayout::dataDirectory() {
    const auto beside = besideProgram("share/alignscope");
    std::error_code ec;
    if (!beside.empty() && fs::is_directory(beside, ec)) return beside.string();
    if (const char* env = nonEmptyEnv("ALIGNSCOPE_DATA_DIR")) return env;
    return beside.string();
}

std::string InstallLayout::privateLibraryDirectory() { return besideProgram("lib/alignscope").string(); }

std::string InstallLayout::overridable(const char* variable, const char* relative) {
    if (const char* env = nonEmptyEnv(variable)) return env;
    return (fs::path(dataDirectory()) / relative).string();
}

std::string InstallLayout::modelsDirectory() { return overridable("ALIGNSCOPE_MODELS", "models"); }

std::string InstallLayout::lessonsDirectory() { return overridable("ALIGNSCOPE_LESSONS", "lessons"); }

}  // namespace alignscope::core
