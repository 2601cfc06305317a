#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace alignscope::core {

// A SentencePiece model (the serialised .model file a tokenizer description stores), run by the
// alignscope_sentencepiece module, which this class loads on first use in a symbol scope of its
// own (SentencePieceModule.h says why). Thread-safe: SentencePiece's encoder is const.
class SentencePieceModel {
public:
    struct Piece {
        std::string text;   // the piece, "▁" marking a word start
        size_t begin, end;  // [begin, end) bytes of the encoded text it came from
    };

    // Throws Error when the module cannot be loaded or the model cannot be read.
    explicit SentencePieceModel(const std::string& serialized);
    ~SentencePieceModel();
    SentencePieceModel(const SentencePieceModel&) = delete;
    SentencePieceModel& operator=(const SentencePieceModel&) = delete;

    std::vector<Piece> encode(const std::string& text) const;  // throws Error
    int pieceCount() const;
    std::vector<std::string> pieces() const;  // [pieceCount()] every piece, in id order

    // Trains a model on `sentences` with the settings both trainers share
    // (python/alignscope/sentencepiece_training.json) and `vocabSize` pieces at most; returns the
    // serialised .model. Throws Error with SentencePiece's reason (e.g. a vocabulary too small for
    // the corpus's characters).
    static std::string train(const std::vector<std::string>& sentences, int vocabSize);
    // Those shared settings, as key -> value.
    static std::vector<std::pair<std::string, std::string>> trainingSettings();

    // Where the module is looked for: $ALIGNSCOPE_SENTENCEPIECE_MODULE, else lib/alignscope beside
    // the program's folder (InstallLayout: the build tree and every install prefix alike).
    static std::string modulePath();

private:
    void* processor_ = nullptr;
};

}  // namespace alignscope::core
