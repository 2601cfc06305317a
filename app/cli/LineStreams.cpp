#include "cli/LineStreams.h"

#include "cli/InterruptGuard.h"
#include "cli/ProgressBar.h"
#include "cli/SentenceWatchdog.h"

#include "core/Error.h"
#include "core/text/Tokenizer.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace alignscope::cli {
namespace fs = std::filesystem;

namespace {
bool isFile(const std::string& path) { return !path.empty() && path != "-"; }
}  // namespace

LineStreams::LineStreams(const std::string& input, const std::string& output) {
    std::error_code ec;
    if (isFile(input)) {
        if (fs::is_directory(input, ec)) throw core::Error("cannot read '" + input + "': it is a folder");
        inFile_ = std::make_unique<std::ifstream>(input);
        if (!*inFile_) throw core::Error("cannot read '" + input + "': " + std::strerror(errno));
        in_ = inFile_.get();
        inputBytes_ = fs::is_regular_file(input, ec) ? fs::file_size(input, ec) : 0;
        if (ec) inputBytes_ = 0;
    }
    if (isFile(output)) {
        if (isFile(input) && fs::equivalent(input, output, ec))
            throw core::Error("the output '" + output + "' is the input file; write the output elsewhere");
        outFile_ = std::make_unique<core::AtomicFile>(output);
        outputName_ = output;
        out_ = &outFile_->stream();
    }
}

int LineStreams::stopAfterInterrupt(const std::string& command, long linesDone) {
    std::cerr << command << ": interrupted after line " << linesDone << "; "
              << (outFile_ ? "'" + outputName_ + "' is left as it was" : std::string("the lines so far are printed")) << '\n';
    if (!outFile_) finish();
    return 130;
}

void LineStreams::abandon() {
    if (outFile_) {
        std::cerr << "'" << outputName_ << "' is left as it was\n";
        outFile_.reset();  // removes the temporary file
        return;
    }
    std::cout.flush();
}

void LineStreams::finish() {
    if (outFile_) {
        outFile_->commit();
        return;
    }
    flushStandardOutput();
}

void LineStreams::flushStandardOutput() {
    errno = 0;
    std::cout.flush();
    if (!std::cout) throw core::Error(std::string("cannot write to standard output: ") + (errno ? std::strerror(errno) : "write failed"));
}

bool LineStreams::readLine(std::istream& in, std::string& line, long lineNumber) {
    static_assert(kMaxLineBytes > 4 * core::Tokenizer::kMaxLineCharacters);
    line.clear();
    const std::istream::sentry ready(in, true);
    if (!ready) return false;
    auto* buffer = in.rdbuf();
    using Traits = std::istream::traits_type;
    for (bool any = false;; any = true) {
        const auto c = buffer->sbumpc();
        if (Traits::eq_int_type(c, Traits::eof())) {
            in.setstate(any ? std::ios::eofbit : std::ios::eofbit | std::ios::failbit);
            return any;
        }
        if (Traits::to_char_type(c) == '\n') return true;
        if (line.size() >= kMaxLineBytes)
            throw core::Error("line " + std::to_string(lineNumber) + ": the line has more than " +
                              std::to_string(core::Tokenizer::kMaxLineCharacters) + " characters (over " + std::to_string(kMaxLineBytes) +
                              " bytes without a newline); at most " + std::to_string(core::Tokenizer::kMaxLineCharacters) + " are read");
        line.push_back(Traits::to_char_type(c));
    }
}

// One line at a time is a chunk of one: the same reporting, order and watchdog.
int LineStreams::forEachLine(const std::string& command, const std::function<std::string(const std::string&)>& each,
                             const std::string& onError, const std::optional<std::string>& onBlank, SentenceWatchdog* watchdog) {
    return forEachChunk(
        command, 1,
        [&](const std::vector<std::string>& lines) {
            try {
                return std::vector<LineOutcome>{{true, each(lines.front())}};
            } catch (const core::Error& e) {
                return std::vector<LineOutcome>{{false, e.what()}};
            }
        },
        onError, onBlank, watchdog);
}

int LineStreams::forEachChunk(const std::string& command, size_t chunk,
                              const std::function<std::vector<LineOutcome>(const std::vector<std::string>&)>& each,
                              const std::string& onError, const std::optional<std::string>& onBlank, SentenceWatchdog* watchdog) {
    long lineNo = 0;
    int failures = 0;
    const InterruptGuard interrupt([this] { abandon(); });
    ProgressBar progress(ProgressBar::IntoLog::Nothing, progress_);
    auto showProgress = [&] {
        double fraction = -1.0;  // not known: stdin
        if (inputBytes_ > 0 && inFile_) {
            const auto at = inFile_->tellg();
            fraction = at >= 0 ? static_cast<double>(at) / static_cast<double>(inputBytes_) : inFile_->eof() ? 1.0 : -1.0;
        }
        progress.updateFraction(fraction, lineNo, "lines", command);
    };
    std::vector<long> numbers;       // of the chunk's lines
    std::vector<std::string> lines;  // the chunk's non-blank lines
    std::vector<int> slot;           // per chunk line: index into lines, or -1 for blank
    auto flush = [&] {
        std::vector<LineOutcome> outcomes;
        if (!lines.empty()) {
            if (watchdog) watchdog->start(numbers.front(), numbers.back());
            try {
                outcomes = each(lines);
            } catch (const core::Error& e) {  // the whole chunk failed: each line says so
                outcomes.assign(lines.size(), LineOutcome{false, e.what()});
            }
            if (watchdog) watchdog->stop();
        }
        progress.clear();  // stdout and stderr may share a terminal: the lines start on a line of their own
        for (size_t k = 0; k < slot.size(); ++k) {
            if (slot[k] < 0) {
                out() << *onBlank << '\n';
                continue;
            }
            const auto& o = outcomes.at(static_cast<size_t>(slot[k]));
            if (o.ok) {
                out() << o.text << '\n';
            } else {
                progress.print("line " + std::to_string(numbers[k]) + ": " + o.text);
                out() << onError << '\n';
                ++failures;
            }
        }
        numbers.clear();
        lines.clear();
        slot.clear();
        showProgress();
    };
    for (std::string line;;) {
        try {
            if (!readLine(in(), line, lineNo + 1)) break;
        } catch (const core::Error&) {
            flush();  // the lines before it are answered; then the run stops: the rest may never end
            progress.clear();
            throw;
        }
        if (interrupt.raised()) {
            flush();
            progress.clear();
            return stopAfterInterrupt(command, lineNo);
        }
        ++lineNo;
        numbers.push_back(lineNo);
        if (onBlank && core::Tokenizer::isBlank(line)) {
            slot.push_back(-1);
        } else {
            slot.push_back(static_cast<int>(lines.size()));
            lines.push_back(std::move(line));
        }
        if (slot.size() >= chunk) flush();  // blank lines count too: a typed blank line answers at once
    }
    flush();
    progress.clear();
    finish();
    return failures ? 1 : 0;
}

}  // namespace alignscope::cli
