#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace alignscope::core {

// One next-token candidate at a decoding step.
struct Candidate {
    int64_t id = 0;         // target vocabulary id
    std::string token;      // its text
    float probability = 0;  // p(token | prefix, source)
};

// Everything one decoder step computed, as plain data for tools (no tensors leave core/).
struct StepRecord {
    int64_t tokenId = 0;                               // token emitted at this step
    std::string token;                                 // its text (for forced target words: the user's word)
    bool forced = false;                               // chosen by the user or a target sentence, not by argmax
    float logProb = 0;                                 // log p of the emitted token
    std::vector<Candidate> candidates;                 // [k] most probable first
    std::vector<float> alpha;                          // [S] attention over source positions, sums to 1
    std::vector<float> context;                        // [E] c_t = sum_i alpha_i h_i
    std::vector<float> previousState;                  // [D] s_{t-1}, the attention query's input
    std::vector<float> state;                          // [D] s_t
    std::map<std::string, std::vector<float>> extras;  // model's optional outputs, e.g. "energies" [S]
    std::vector<float> logProbs;                       // [V] the whole distribution; only with SessionOptions::keepLogProbs
};

}  // namespace alignscope::core
