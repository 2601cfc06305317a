#pragma once
#include "core/platform/AtomicFile.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace alignscope::cli {

class SentenceWatchdog;

// Input lines from a file or stdin ("" or "-"), output to a file or stdout. A file output is
// written beside its target and put in place by finish(): a failed or interrupted run leaves the
// old file as it was.
class LineStreams {
public:
    // Throws core::Error when the input cannot be read (or is a folder), the output cannot be
    // created, or the output is the input.
    LineStreams(const std::string& input, const std::string& output);

    std::istream& in() { return *in_; }
    std::ostream& out() { return *out_; }
    // Puts the output file in place, or flushes stdout; throws core::Error when writing failed
    // (a full disk, a closed pipe).
    void finish();
    // After Ctrl-C: says what was kept (the lines printed so far; an output file left as it was,
    // since it is only put in place by finish()) and returns the exit code, 130.
    int stopAfterInterrupt(const std::string& command, long linesDone);
    // When a sentence ran past the time limit (from the watchdog's thread, the decoding thread
    // being stuck in model code): an output file is left as it was; stdout keeps the lines so far.
    void abandon();
    // Whether forEachLine / forEachChunk draw a progress bar on stderr when it is a terminal (the
    // default): lines done, and of a file input the share read.
    void setProgress(bool shown) { progress_ = shown; }
    // Flushes stdout; throws core::Error when what was printed did not arrive (a full disk, a
    // closed pipe). Every command's printing is checked with it on the way out.
    static void flushStandardOutput();

    // The next line of `in` (without its '\n'; false at the end), reading at most kMaxLineBytes of
    // it: a longer line throws core::Error "line N: the line has more than ... characters" once
    // kMaxLineBytes + 1 bytes are read, so a line without end (/dev/zero) takes no memory or time.
    static bool readLine(std::istream& in, std::string& line, long lineNumber);
    // The tokenizer's 10,000 characters at 4 bytes each in UTF-8, and a '\r': any longer line has
    // more characters than are read.
    static constexpr size_t kMaxLineBytes = 4 * 10000 + 1;

    // The line-by-line loop of translate, align and trace: `each` turns a line into its output
    // line. A core::Error is reported on stderr as "line N: message" and `onError` printed in its
    // place, so output lines stay parallel to input lines; a blank line (nothing visible:
    // core::Tokenizer::isBlank) prints `onBlank` (without one, it goes to `each` like any line).
    // Ctrl-C stops between lines; `watchdog` (optional) times each line. Returns the exit code:
    // 0, 1 when a line failed, 130 after Ctrl-C.
    int forEachLine(const std::string& command, const std::function<std::string(const std::string&)>& each, const std::string& onError,
                    const std::optional<std::string>& onBlank, SentenceWatchdog* watchdog = nullptr);

    // The same loop, `chunk` lines at a time (for batched decoding; memory stays bounded however
    // long the input): `each` gets the chunk's non-blank lines and returns, per line, its output or
    // an error (ok false: the text is the message, reported as "line N: message"). Output in input
    // order; the watchdog times each chunk.
    struct LineOutcome {
        bool ok = true;
        std::string text;
    };
    int forEachChunk(const std::string& command, size_t chunk,
                     const std::function<std::vector<LineOutcome>(const std::vector<std::string>&)>& each, const std::string& onError,
                     const std::optional<std::string>& onBlank, SentenceWatchdog* watchdog = nullptr);

private:
    std::unique_ptr<std::ifstream> inFile_;
    std::unique_ptr<core::AtomicFile> outFile_;
    std::string outputName_;
    std::uintmax_t inputBytes_ = 0;  // of a file input, for the progress bar
    bool progress_ = true;
    std::istream* in_ = &std::cin;
    std::ostream* out_ = &std::cout;
};

}  // namespace alignscope::cli
