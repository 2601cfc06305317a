#pragma once
#include <chrono>
#include <string>

namespace alignscope::cli {

// The one progress line of the long commands (train, evaluate, export, translate, align), on stderr.
// On a terminal: "[#######.......]  41%  412/1000 sentences  greedy  0:12, about 0:17 left", redrawn in
// place at most five times a second and cleared at the end. Into a log (stderr not a terminal): the
// same line without the bar every 30 s and at the end when asked for (IntoLog::EveryHalfMinute),
// otherwise nothing, so a command whose stderr carries its per-line errors keeps it for them.
class ProgressBar {
public:
    enum class IntoLog { Nothing, EveryHalfMinute };
    explicit ProgressBar(IntoLog intoLog = IntoLog::Nothing, bool enabled = true);
    ~ProgressBar();
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    // `done` of `total` `unit`s (total 0: not known, so a count and a rate instead of a bar); `detail`
    // follows. The time left is estimated from the progress since the first update, so a resumed
    // run's earlier work does not count as speed.
    void update(long long done, long long total, const std::string& unit, const std::string& detail = {}, bool force = false);
    // As update, where the fraction done is known apart from the count (lines of a file read by bytes);
    // fraction < 0: not known.
    void updateFraction(double fraction, long long done, const std::string& unit, const std::string& detail = {}, bool force = false);
    // A line of its own (an event, an error) without tearing the bar: the bar is cleared, the line
    // printed, and the bar drawn again at the next update.
    void print(const std::string& line);
    // A new pass over other work (evaluate's beam after its greedy search): the time left is
    // estimated from here on.
    void restart() { started_ = false; }
    // Takes the bar off the terminal (on destruction too).
    void clear();
    // Since construction.
    double seconds() const;

    // h:mm:ss, or m:ss under an hour.
    static std::string clock(double seconds);

private:
    void draw(double fraction, long long done, const std::string& counts, const std::string& unit, const std::string& detail, bool force);

    using Clock = std::chrono::steady_clock;
    bool terminal_;
    bool log_;
    bool shown_ = false;
    bool started_ = false;
    bool redraw_ = false;
    double firstFraction_ = 0;
    Clock::time_point start_ = Clock::now(), firstUpdate_{}, lastDraw_{};
};

}  // namespace alignscope::cli
