#pragma once

namespace alignscope::core {

class Model;

// The model of the other direction that the rules joining two directions read (align --links
// intersection, grow-diag-final-and, agreement-...; metadata reverse_model or --reverse-model).
class ReverseModel {
public:
    // Throws Error naming both files unless `reverse` translates the other way: it reads the
    // forward model's target side and writes its source side (the same tokenizers and vocabularies,
    // swapped) and, where both carry metadata source_language and target_language, those swapped.
    // A model of the same direction, the same file, or other vocabularies is refused.
    static void check(const Model& forward, const Model& reverse);
};

}  // namespace alignscope::core
