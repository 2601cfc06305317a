#pragma once
// The C interface of the alignscope_sentencepiece module (SentencePieceModule.cpp), which core
// loads at run time with its own symbol scope (SentencePieceModel): Debian's libsentencepiece
// carries its own copy of protobuf 3.14 and exports it, and in one symbol scope with LibTorch's
// libprotobuf 3.21 one of the two breaks (a crash at start-up, or a version check that fails).
#include <cstddef>

extern "C" {

// One piece of an encoding: its text and the [begin, end) bytes of the input it came from.
typedef void (*alignscope_spm_piece_fn)(void* context, const char* piece, size_t size, size_t begin, size_t end);

// Bytes handed back (a piece's text, a trained model).
typedef void (*alignscope_spm_bytes_fn)(void* context, const char* data, size_t size);

// A processor for the serialised .model file `data`, or null with the reason in `error`.
void* alignscope_spm_load(const char* data, size_t size, char* error, size_t errorSize);
void alignscope_spm_free(void* processor);
int alignscope_spm_piece_count(void* processor);
// Calls `fn` once per piece of `text`, in order; returns 0, or -1 with the reason in `error`.
int alignscope_spm_encode(void* processor, const char* text, size_t size, alignscope_spm_piece_fn fn, void* context, char* error,
                          size_t errorSize);
// Calls `fn` with the text of piece `id` (0 <= id < piece count).
void alignscope_spm_piece(void* processor, int id, alignscope_spm_bytes_fn fn, void* context);
// Trains a model on `count` sentences (sentences[k] of sizes[k] bytes) with SentencePiece trainer
// settings given as `keys[k]`=`values[k]`; calls `out` once with the serialised .model and returns
// 0, or returns -1 with the reason in `error`.
int alignscope_spm_train(const char* const* keys, const char* const* values, size_t settings, const char* const* sentences,
                         const size_t* sizes, size_t count, alignscope_spm_bytes_fn out, void* context, char* error, size_t errorSize);
}
