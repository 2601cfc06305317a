#include "core/text/PairLine.h"

#include "core/Error.h"

namespace alignscope::core {

namespace {
std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}
}  // namespace

std::string PairLine::sourceText(const std::string& line) { return trimmed(line.substr(0, line.find("|||"))); }

PairLine PairLine::parse(const std::string& line) {
    PairLine p;
    p.source = sourceText(line);
    const auto sep = line.find("|||");
    if (sep == std::string::npos) return p;
    if (line.find("|||", sep + 3) != std::string::npos) throw Error("more than one '|||' in the line");
    p.target = trimmed(line.substr(sep + 3));
    if (p.source.empty() || p.target->empty()) throw Error("expected 'source ||| target' with words on both sides");
    return p;
}

}  // namespace alignscope::core
