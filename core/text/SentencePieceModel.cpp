#include "core/text/SentencePieceModel.h"

#include "core/Error.h"
#include "core/platform/InstallLayout.h"
#include "core/text/SentencePieceModule.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>

namespace alignscope::core {
namespace {

struct Module {
    decltype(&alignscope_spm_load) load = nullptr;
    decltype(&alignscope_spm_free) free = nullptr;
    decltype(&alignscope_spm_piece_count) pieceCount = nullptr;
    decltype(&alignscope_spm_encode) encode = nullptr;
    decltype(&alignscope_spm_piece) piece = nullptr;
    decltype(&alignscope_spm_train) train = nullptr;
};

// python/alignscope/sentencepiece_training.json, whole (core/CMakeLists.txt writes it into this literal).
const char* const kTrainingSettingsFile =
#include "SentencePieceTrainingText.inc"
    ;

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
        m.piece = reinterpret_cast<decltype(m.piece)>(dlsym(handle, "alignscope_spm_piece"));
        m.train = reinterpret_cast<decltype(m.train)>(dlsym(handle, "alignscope_spm_train"));
        if (!m.load || !m.free || !m.pieceCount || !m.encode || !m.piece || !m.train) {
            failure = "'" + path + "' is not AlignScope's SentencePiece module";
            m = Module{};
        }
    });
    if (!m.load) throw Error(failure);
    return m;
}

}  // namespace

std::string SentencePieceModel::modulePath() {
    if (const char* env = std::getenv("ALIGNSCOPE_SENTENCEPIECE_MODULE"); env && *env) return env;
    return (std::filesystem::path(InstallLayout::privateLibraryDirectory()) / "libalignscope_sentencepiece.so").string();
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

std::vector<std::string> SentencePieceModel::pieces() const {
    std::vector<std::string> out;
    auto collect = [](void* context, const char* data, size_t size) {
        static_cast<std::vector<std::string>*>(context)->emplace_back(data, size);
    };
    for (int id = 0, n = pieceCount(); id < n; ++id) module().piece(processor_, id, collect, &out);
    return out;
}

std::vector<std::pair<std::string, std::string>> SentencePieceModel::trainingSettings() {
    const auto json = nlohmann::json::parse(kTrainingSettingsFile);
    std::vector<std::pair<std::string, std::string>> settings;
    for (const auto& [key, value] : json.at("settings").items()) settings.emplace_back(key, value.get<std::string>());
    return settings;
}

std::string SentencePieceModel::train(const std::vector<std::string>& sentences, int vocabSize) {
    if (sentences.empty()) throw Error("no sentences to train a SentencePiece model on");
    auto settings = trainingSettings();
    settings.emplace_back("vocab_size", std::to_string(vocabSize));
    std::vector<const char*> keys, values, texts;
    std::vector<size_t> sizes;
    for (const auto& [k, v] : settings) {
        keys.push_back(k.c_str());
        values.push_back(v.c_str());
    }
    for (const auto& s : sentences) {
        texts.push_back(s.data());
        sizes.push_back(s.size());
    }
    std::string model;
    auto keep = [](void* context, const char* data, size_t size) { static_cast<std::string*>(context)->assign(data, size); };
    char error[1024] = "";
    if (module().train(keys.data(), values.data(), keys.size(), texts.data(), sizes.data(), texts.size(), keep, &model, error,
                       sizeof error) != 0)
        throw Error(std::string("SentencePiece could not train a model: ") + error);
    return model;
}

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
