#pragma once
#include <optional>
#include <string>

namespace alignscope::core {

// One input line of `align` and `export`: a source sentence, or "source ||| target" for the
// teacher-forced alignment of a pair.
struct PairLine {
    std::string source;                 // the text before "|||" (the whole line without one), trimmed
    std::optional<std::string> target;  // the text after "|||", trimmed; none without "|||"

    // Throws Error for a second "|||" or a side with no words.
    static PairLine parse(const std::string& line);
    // The source part of any line, even one parse() refuses (for file names and titles).
    static std::string sourceText(const std::string& line);
};

}  // namespace alignscope::core
