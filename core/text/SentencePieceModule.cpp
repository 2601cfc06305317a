// Built as its own module (alignscope_sentencepiece), linked to libsentencepiece and nothing of
// LibTorch's: see SentencePieceModule.h.
#include "core/text/SentencePieceModule.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cstring>
#include <string>
#include <unordered_map>

namespace {

void copyError(const std::string& message, char* error, size_t size) {
    if (!error || size == 0) return;
    std::strncpy(error, message.c_str(), size - 1);
    error[size - 1] = '\0';
}

// The sentences handed in, one at a time, as SentencePiece's trainer reads them.
class Sentences : public sentencepiece::SentenceIterator {
public:
    Sentences(const char* const* sentences, const size_t* sizes, size_t count) : sentences_(sentences), sizes_(sizes), count_(count) {
        load();
    }
    bool done() const override { return at_ >= count_; }
    void Next() override {
        ++at_;
        load();
    }
    const std::string& value() const override { return value_; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    void load() {
        if (at_ < count_) value_.assign(sentences_[at_], sizes_[at_]);
    }
    const char* const* sentences_;
    const size_t* sizes_;
    size_t count_, at_ = 0;
    std::string value_;
};

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

__attribute__((visibility("default"))) int alignscope_spm_encode(void* processor, const char* text, size_t size, alignscope_spm_piece_fn fn,
                                                                 void* context, char* error, size_t errorSize) {
    try {
        const auto* p = static_cast<sentencepiece::SentencePieceProcessor*>(processor);
        const auto encoded = p->EncodeAsImmutableProto(std::string(text, size));
        for (const auto& piece : encoded.pieces()) fn(context, piece.piece().data(), piece.piece().size(), piece.begin(), piece.end());
        return 0;
    } catch (const std::exception& e) {
        copyError(e.what(), error, errorSize);
        return -1;
    }
}
__attribute__((visibility("default"))) void alignscope_spm_piece(void* processor, int id, alignscope_spm_bytes_fn fn, void* context) {
    const auto& piece = static_cast<sentencepiece::SentencePieceProcessor*>(processor)->IdToPiece(id);
    fn(context, piece.data(), piece.size());
}

__attribute__((visibility("default"))) int alignscope_spm_train(const char* const* keys, const char* const* values, size_t settings,
                                                                const char* const* sentences, const size_t* sizes, size_t count,
                                                                alignscope_spm_bytes_fn out, void* context, char* error, size_t errorSize) {
    try {
        std::unordered_map<std::string, std::string> kwargs;
        for (size_t k = 0; k < settings; ++k) kwargs[keys[k]] = values[k];
        Sentences iterator(sentences, sizes, count);
        std::string model;
        const auto status = sentencepiece::SentencePieceTrainer::Train(kwargs, &iterator, &model);
        if (!status.ok()) {
            copyError(status.ToString(), error, errorSize);
            return -1;
        }
        out(context, model.data(), model.size());
        return 0;
    } catch (const std::exception& e) {
        copyError(e.what(), error, errorSize);
        return -1;
    }
}
}
