#include "cli/ProgressBar.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace alignscope::cli {

ProgressBar::ProgressBar(IntoLog intoLog, bool enabled)
    : terminal_(enabled && isatty(STDERR_FILENO)), log_(enabled && !terminal_ && intoLog == IntoLog::EveryHalfMinute) {}

ProgressBar::~ProgressBar() { clear(); }

std::string ProgressBar::clock(double seconds) {
    const long s = static_cast<long>(std::max(0.0, seconds) + 0.5);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

double ProgressBar::seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

void ProgressBar::update(long long done, long long total, const std::string& unit, const std::string& detail, bool force) {
    if (total > 0)
        draw(std::min(1.0, static_cast<double>(done) / static_cast<double>(total)), done,
             std::to_string(done) + "/" + std::to_string(total) + " " + unit, unit, detail, force || done >= total);
    else draw(-1.0, done, std::to_string(done) + " " + unit, unit, detail, force);
}

void ProgressBar::updateFraction(double fraction, long long done, const std::string& unit, const std::string& detail, bool force) {
    draw(std::min(1.0, fraction), done, std::to_string(done) + " " + unit, unit, detail, force);
}

void ProgressBar::draw(double fraction, long long done, const std::string& counts, const std::string& unit, const std::string& detail,
                       bool force) {
    if (!terminal_ && !log_) return;
    const auto now = Clock::now();
    if (!started_) {
        started_ = true;
        firstUpdate_ = now;
        firstFraction_ = std::max(0.0, fraction);
    }
    const auto interval = terminal_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(30000);
    if (!force && !redraw_ && now - lastDraw_ < interval) return;
    lastDraw_ = now;
    redraw_ = false;
    std::string line;
    char buf[64];
    if (fraction >= 0) {
        if (terminal_) {
            const int width = 30, filled = static_cast<int>(fraction * width);
            line = "[" + std::string(static_cast<size_t>(filled), '#') + std::string(static_cast<size_t>(width - filled), '.') + "] ";
        }
        std::snprintf(buf, sizeof buf, "%3.0f%%  ", 100 * fraction);
        line += buf;
    }
    line += counts;
    if (!detail.empty()) line += "  " + detail;
    const double elapsed = seconds(), since = std::chrono::duration<double>(now - firstUpdate_).count();
    line += "  " + clock(elapsed);
    if (fraction >= 0 && fraction < 1 && fraction > firstFraction_ && since > 1) {
        line += ", about " + clock((1 - fraction) * since / (fraction - firstFraction_)) + " left";
    } else if (fraction < 0 && elapsed > 0.5) {
        std::snprintf(buf, sizeof buf, ", %.0f ", static_cast<double>(done) / elapsed);
        line += buf + unit + "/s";
    }
    std::cerr << (terminal_ ? "\r\033[K" : "") << line << (terminal_ ? "" : "\n") << std::flush;
    shown_ = terminal_;
}

void ProgressBar::print(const std::string& line) {
    clear();
    std::cerr << line << '\n' << std::flush;
    redraw_ = true;
}

void ProgressBar::clear() {
    if (shown_) std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
}

}  // namespace alignscope::cli
