// Built as its own module (alignscope_sentencepiece), linked to libsentencepiece and nothing of
// LibTorch's: see SentencePieceModule.h.
#include "core/text/SentencePieceModule.h"

#include <sentencepiece_processor.h>

#include <cstring>
#include <string>

namespace {

void copyError(const std::string& message, char* error, size_t size) {
    if (!error || size == 0) return;
    std::strncpy(error, message.c_str(), size - 1);
    error[size - 1] = '\0';
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void* alignscope_spm_load(const char* data, size_t size, char* error, size_t errorSize) {
    try {
        auto* p = new sentencepiece::SentencePieceProcessor;
        const auto status = p->LoadFromSerializedProto(std::string(data, size));
        if (!status.ok()) {
            copyError(status.ToString(), error, errorSize);
            delete p;
            return nullptr;
        }
        return p;
    } catch (const std::exception& e) {
        copyError(e.what(), error, errorSize);
        return nullptr;
    }
}

__attribute__((visibility("default"))) void alignscope_spm_free(void* processor) {
    delete static_cast<sentencepiece::SentencePieceProcessor*>(processor);
}

__attribute__((visibility("default"))) int alignscope_spm_piece_count(void* processor) {
    return static_cast<sentencepiece::SentencePieceProcessor*>(processor)->GetPieceSize();
}

__attribute__((visibility("default"))) int alignscope_spm_encode(void* processor, const char* text, size_t size,
                                                                 alignscope_spm_piece_fn fn, void* context, char* error,
                                                                 size_t errorSize) {
    try {
        const auto* p = static_cast<sentencepiece::SentencePieceProcessor*>(processor);
        const auto encoded = p->EncodeAsImmutableProto(std::string(text, size));
        for (const auto& piece : encoded.pieces())
            fn(context, piece.piece().data(), piece.piece().size(), piece.begin(), piece.end());
        return 0;
    } catch (const std::exception& e) {
        copyError(e.what(), error, errorSize);
        return -1;
    }
}
}
