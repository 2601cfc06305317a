#pragma once
#include <string>
#include <vector>

namespace torch::jit {
struct Module;
}

namespace alignscope::tests {

// The attributes of a format 1 file on a hand-written module: ids 0..3 for <pad> <unk> <s> </s>
// (the first four of `vocabulary`, both sides), "{}" tokenizers and metadata.
void addFormat1Attributes(torch::jit::Module& module, const std::vector<std::string>& vocabulary);

// Small hand-written TorchScript models that meet the contract on the loader's probe (one step of
// a short sentence) and misbehave later, as hostile or broken files do: written to `path`.
// Vocabulary: <pad> <unk> <s> </s> a b c d, both sides; a word tokenizer.
enum class Misbehaviour {
    None,                // a well-behaved model
    NanFromStep3,        // step 3 onwards: NaN log-probabilities
    RaisesFromStep2,     // step 2 onwards: the step code raises
    LoopsFromStep2,      // step 2 onwards: the step code loops (10^12 iterations)
    LoopsOnLongSources,  // encode loops for sources longer than 3 tokens
    LoopsInEncode,       // encode always loops
    SlowSteps            // sources longer than 3 tokens: every step busy for a while (2,000,000 loop
                         // iterations, a few tenths of a second), then as None
};
// `metadata`: the model's metadata JSON (a reverse_model, say).
std::string writeHostileModel(const std::string& path, Misbehaviour misbehaviour, const std::string& metadata = "{}");

}  // namespace alignscope::tests
