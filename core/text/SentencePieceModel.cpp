#include "core/text/SentencePieceModel.h"

#include "core/Error.h"
#include "core/text/SentencePieceModule.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace alignscope::core {
namespace {

struct Module {
    decltype(&alignscope_spm_load) load = nullptr;
    decltype(&alignscope_spm_free) free = nullptr;
    decltype(&alignscope_spm_piece_count) pieceCount = nullptr;
    decltype(&alignscope_spm_encode) encode = nullptr;
};

// Loaded once. RTLD_LOCAL keeps the module's libraries out of the program's symbol scope and
// RTLD_DEEPBIND makes them bind to their own symbols first, so libsentencepiece keeps its protobuf
// and LibTorch keeps its own.
const Module& module() {
    static std::once_flag once;
    static Module m;
    static std::string failure;
    std::call_once(once, [] {
        const auto path = SentencePieceModel::modulePath();
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!handle) {
            const char* why = dlerror();
            failure = "SentencePiece tokenizers need the module '" + path + "', which cannot be loaded: " + (why ? why : "?");
            return;
        }
        m.load = reinterpret_cast<decltype(m.load)>(dlsym(handle, "alignscope_spm_load"));
        m.free = reinterpret_cast<decltype(m.free)>(dlsym(handle, "alignscope_spm_free"));
        m.pieceCount = reinterpret_cast<decltype(m.pieceCount)>(dlsym(handle, "alignscope_spm_piece_count"));
        m.encode = reinterpret_cast<decltype(m.encode)>(dlsym(handle, "alignscope_spm_encode"));
        if (!m.load || !m.free || !m.pieceCount || !m.encode) {
            failure = "'" + path + "' is not AlignScope's SentencePiece module";
            m = Module{};
        }
    });
    if (!m.load) throw Error(failure);
    return m;
}

}  // namespace

std::string SentencePieceModel::modulePath() {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("ALIGNSCOPE_SENTENCEPIECE_MODULE"); env && *env) return env;
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto beside = self.parent_path() / "libalignscope_sentencepiece.so";
        if (fs::exists(beside, ec)) return beside.string();
    }
    return ALIGNSCOPE_SENTENCEPIECE_MODULE;
}

SentencePieceModel::SentencePieceModel(const std::string& serialized) {
    const auto& m = module();
    char error[512] = "";
    processor_ = m.load(serialized.data(), serialized.size(), error, sizeof error);
    if (!processor_) throw Error(std::string("the SentencePiece model cannot be read: ") + error);
}

SentencePieceModel::~SentencePieceModel() {
    if (processor_) module().free(processor_);
}

int SentencePieceModel::pieceCount() const { return module().pieceCount(processor_); }

std::vector<SentencePieceModel::Piece> SentencePieceModel::encode(const std::string& text) const {
    std::vector<Piece> pieces;
    char error[512] = "";
    auto collect = [](void* context, const char* piece, size_t size, size_t begin, size_t end) {
        static_cast<std::vector<Piece>*>(context)->push_back({std::string(piece, size), begin, end});
    };
    if (module().encode(processor_, text.data(), text.size(), collect, &pieces, error, sizeof error) != 0)
        throw Error(std::string("SentencePiece could not encode the text: ") + error);
    return pieces;
}

}  // namespace alignscope::core
