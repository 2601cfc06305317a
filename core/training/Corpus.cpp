#include "core/training/Corpus.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/text/Tokenizer.h"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <fstream>
#include <sstream>

namespace alignscope::core {
namespace {

// FNV-1a with a MurmurHash3 finaliser: stable across machines and library versions (std::hash
// is not), and the finaliser spreads sentences that differ only in their last characters, which
// plain FNV-1a leaves in the same part.
uint64_t stableHash(const std::string& s, uint64_t seed) {
    uint64_t h = 1469598103934665603ull ^ (seed * 0x9E3779B97F4A7C15ull);
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

std::string tooLong(const std::string& line, size_t tab, size_t maxCharacters) {
    const auto second = line.find('\t', tab + 1);
    const std::pair<const char*, std::string_view> sides[] = {
        {"source", std::string_view(line).substr(0, tab)},
        {"target", std::string_view(line).substr(tab + 1, second == std::string::npos ? std::string::npos : second - tab - 1)}};
    for (const auto& [side, text] : sides) {
        const auto characters = static_cast<size_t>(
            std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
        if (characters > maxCharacters)
            return std::string("the ") + side + " has " + std::to_string(characters) + " characters; at most " +
                   std::to_string(maxCharacters);
    }
    return {};
}

}  // namespace

Corpus Corpus::read(const std::string& path, OnBadLine policy, size_t maxSideCharacters) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error("corpus '" + path + "' does not exist or is not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read corpus '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path, policy, maxSideCharacters);
}

Corpus Corpus::parse(const std::string& text, const std::string& name, OnBadLine policy, size_t maxSideCharacters) {
    Corpus c;
    c.name_ = name;
    std::istringstream in(text);
    std::string line;
    long number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::string reason;
        const long bad = Tokenizer::invalidUtf8Offset(line);
        const auto tab = line.find('\t');
        if (bad >= 0) reason = "invalid UTF-8 at byte " + std::to_string(bad + 1);
        else if (tab == std::string::npos) reason = "missing tab between source and target";
        else if (tab == 0 || tab + 1 >= line.size()) reason = "empty source or target";
        // translate's blank-line rule (Tokenizer::isBlank): a side with nothing visible is empty too
        else if (Tokenizer::isBlank(line.substr(0, tab)) || Tokenizer::isBlank(line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1)))
            reason = "empty source or target (nothing visible)";
        else if (maxSideCharacters > 0) reason = tooLong(line, tab, maxSideCharacters);
        if (!reason.empty()) {
            if (policy == OnBadLine::Reject)
                throw Error(name + ":" + std::to_string(number) + ": " + reason + " (use --skip-bad-lines to skip such lines)");
            c.problems_.push_back({number, reason});
            continue;
        }
        const auto second = line.find('\t', tab + 1);  // a third column (attribution) is ignored
        c.pairs_.push_back(
            {line.substr(0, tab), line.substr(tab + 1, second == std::string::npos ? std::string::npos : second - tab - 1), number});
    }
    c.lines_ = number;
    return c;
}

Corpus::Split Corpus::split(double validationFraction, double testFraction, uint64_t seed) const {
    Split s;
    for (const auto& p : pairs_) {
        const double u = static_cast<double>(stableHash(p.source, seed) >> 11) / static_cast<double>(1ull << 53);
        if (u < testFraction) s.test.push_back(p);
        else if (u < testFraction + validationFraction) s.validation.push_back(p);
        else s.train.push_back(p);
    }
    return s;
}

void Corpus::writeTsv(const std::string& path, const std::vector<SentencePair>& pairs) {
    std::string text;
    for (const auto& p : pairs) text += p.source + "\t" + p.target + "\n";
    AtomicFile::write(path, text);
}

}  // namespace alignscope::core
