// TorchModel's loading: the checking child, the verified-model cache and the trusted load.
#include "core/model/TorchModel.h"

#include "core/model/TorchModelChecks.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/platform/BoundedFile.h"
#include "core/platform/FileDigest.h"
#include "core/platform/IsolatedRun.h"
#include "core/model/AttributeJson.h"
#include "core/model/ModelArchive.h"
#include "core/runtime/BlasThreadChooser.h"
#include "core/runtime/Runtime.h"

#include <torch/torch.h>

#include <torch/version.h>

#include <cctype>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <sstream>

namespace alignscope::core {
using namespace torch_model;

namespace {

// How long the checking child may take: enough to read a large model on a slow host, short enough
// that code which loops for ever is refused within seconds. ALIGNSCOPE_LOAD_TIME_LIMIT overrides.
double loadTimeLimit(uint64_t fileBytes) {
    if (const char* env = std::getenv(model_checks::kLoadTimeLimitVariable)) {
        char* end = nullptr;
        const double v = std::strtod(env, &end);
        if (end != env && v > 0) return v;
    }
    return model_checks::kLoadBaseSeconds + model_checks::kLoadSecondsPerMebibyte * static_cast<double>(fileBytes) / (1 << 20);
}

// The verified-model cache (docs/model-format.md, "What the loader checks"): a file whose exact
// bytes already passed the checking child under this build passes it again (LibTorch's reader and
// the probe are deterministic), so its next load skips the child, about 0.6 s for en-fr. Entries
// are named by the file's SHA-256 and hold the build they were checked under. The folder is
// ALIGNSCOPE_CACHE_DIR (empty: no cache), else $XDG_CACHE_HOME/alignscope or ~/.cache/alignscope.
std::string buildKey() { return "alignscope " + Runtime::version() + ", LibTorch " TORCH_VERSION ", built " __DATE__ " " __TIME__; }

std::filesystem::path verifiedModelsFolder() {
    namespace fs = std::filesystem;
    const auto env = [](const char* name) -> const char* { return std::getenv(name); };
    if (const char* dir = env("ALIGNSCOPE_CACHE_DIR")) return *dir ? fs::path(dir) / "verified-models" : fs::path();
    if (const char* xdg = env("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "alignscope" / "verified-models";
    if (const char* home = env("HOME"); home && *home) return fs::path(home) / ".cache" / "alignscope" / "verified-models";
    return {};
}

bool verifiedBefore(const std::filesystem::path& entry) {
    if (entry.empty()) return false;
    std::ifstream in(entry);
    std::string key;
    return in && std::getline(in, key) && key == buildKey();
}

// A cache that cannot be written (a read-only home, a full disk) only costs the next load its child.
void rememberVerified(const std::filesystem::path& entry) {
    if (entry.empty()) return;
    try {
        std::error_code ec;
        std::filesystem::create_directories(entry.parent_path(), ec);
        AtomicFile::write(entry.string(), buildKey() + "\n");
    } catch (const std::exception&) {
    }
}

}  // namespace

std::shared_ptr<TorchModel> TorchModel::load(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec)) throw Error("model file '" + path + "' does not exist");
    if (fs::is_directory(path, ec)) throw Error("'" + path + "' is a folder, not a model file");
    BoundedFile::check(path, std::numeric_limits<uint64_t>::max(), "model file");  // a pipe would block the read below
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw Error("cannot read model file '" + path + "'");
    char magic[2] = {0, 0};
    probe.read(magic, 2);
    if (probe.gcount() < 2 || magic[0] != 'P' || magic[1] != 'K')
        throw Error("'" + path + "' is not a TorchScript model file (it is not a zip archive)");
    probe.close();
    // A model file is untrusted input (docs/model-format.md, "What the loader checks"): first the
    // archive's own structure, then LibTorch's reader and the contract probe in a child process
    // with limits, and only then the load that keeps the model.
    ModelArchive::check(path);
    const auto folder = verifiedModelsFolder();
    const std::string digest = folder.empty() ? std::string() : FileDigest::sha256(path);
    const auto entry = digest.empty() ? fs::path() : folder / digest;
    if (verifiedBefore(entry)) return loadInProcess(path);
    const uint64_t bytes = fs::file_size(path, ec);
    IsolatedRun::Limits limits;
    limits.seconds = loadTimeLimit(bytes);
    limits.extraMemoryBytes = model_checks::kLoadExtraMemoryBytes + model_checks::kLoadMemoryPerFileByte * bytes;
    const auto outcome = IsolatedRun::run([&] { loadInProcess(path); }, limits);
    using Kind = IsolatedRun::Outcome::Kind;
    const std::string where = outcome.phase.empty() ? "" : " while " + outcome.phase;
    switch (outcome.kind) {
    case Kind::Succeeded:
        break;
    case Kind::Failed:
        throw Error(outcome.message);
    case Kind::Crashed:
        throw Error("'" + path + "' is damaged or made to break model readers: it crashed LibTorch (" + outcome.message + ")" + where +
                    "; nothing was loaded");
    case Kind::TimedOut: {
        std::ostringstream limit;
        limit << std::round(limits.seconds * 10) / 10;  // "6.2", "1.5"
        throw Error("'" + path + "' did not load within " + limit.str() + " s" + where +
                    ": its code may loop for ever; nothing was loaded (ALIGNSCOPE_LOAD_TIME_LIMIT sets the limit)");
    }
    case Kind::OutOfMemory:
        throw Error("'" + path + "' asked for more than " + std::to_string(limits.extraMemoryBytes >> 20) + " MiB of memory" + where +
                    " (a damaged size?); nothing was loaded");
    }
    auto model = loadInProcess(path);
    rememberVerified(entry);
    return model;
}

std::shared_ptr<TorchModel> TorchModel::loadInProcess(const std::string& path) {
    Runtime::initialize();
    torch::jit::Module module;
    IsolatedRun::note("reading its TorchScript code and weights");
    try {
        module = torch::jit::load(path, torch::kCPU);
    } catch (const std::bad_alloc&) {
        throw;  // the checking child reports it as memory
    } catch (const std::exception& e) {
        // LibTorch's reason, unless it is empty or an assertion about its own internals.
        std::string why = wholeMessage(e);
        if (why.empty() || why.find("INTERNAL ASSERT") != std::string::npos) why = "its code or data is missing or damaged";
        if (why.find("can't allocate memory") != std::string::npos) why = "it asks for more memory than a model may use (a damaged size?)";
        throw Error("'" + path + "' is not a readable TorchScript model file: " + why);
    }
    try {
        module.eval();
        castFloating(module, torch::kFloat);
    } catch (const std::exception& e) {
        throw Error("'" + path + "' could not be prepared: " + wholeMessage(e));
    }
    return std::make_shared<TorchModel>(std::move(module), path);
}

}  // namespace alignscope::core
