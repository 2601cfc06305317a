#include "core/alignment/LinkSet.h"

#include "core/platform/BoundedFile.h"
#include "core/Error.h"
#include "core/text/Utf8.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace alignscope::core {

namespace {

bool number(const std::string& text, int& value) {
    if (text.empty() || text.size() > 9) return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && value >= 0;
}

}  // namespace

LinkSet LinkSet::parse(const std::string& line, bool oneBased) {
    LinkSet links;
    std::istringstream in(line);
    std::string token;
    while (in >> token) {
        const auto at = token.find_first_of("-p?");
        int s = 0, t = 0;
        if (at == std::string::npos || !number(token.substr(0, at), s) || !number(token.substr(at + 1), t))
            throw Error("'" + token + "' is not a link (i-j sure, ipj or i?j possible, word indices)");
        if (oneBased) {
            if (s == 0 || t == 0)
                throw Error("'" + token +
                            "' has index 0, but the links were said to count from 1 (--one-based, --gold-one-based or --hyp-one-based)");
            --s, --t;
        }
        if (token[at] == '-') links.sure.emplace(s, t);
        else links.possible.emplace(s, t);
    }
    for (const auto& l : links.sure) links.possible.erase(l);
    return links;
}

std::string LinkSet::pharaoh() const {
    std::set<std::pair<Link, bool>> all;
    for (const auto& l : sure) all.emplace(l, true);
    for (const auto& l : possible) all.emplace(l, false);
    std::string out;
    for (const auto& [l, isSure] : all) {
        if (!out.empty()) out += ' ';
        out += std::to_string(l.first) + (isSure ? "-" : "p") + std::to_string(l.second);
    }
    return out;
}

std::vector<LinkSet> LinkSet::readFile(const std::string& path, bool oneBased) {
    BoundedFile::check(path, kMaxFileBytes, "the links file");  // a FIFO or /dev/zero is refused before reading
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open the links file '" + path + "'");
    std::vector<LinkSet> sets;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        try {
            sets.push_back(parse(line, oneBased));
        } catch (const Error& e) {
            throw Error(path + ":" + std::to_string(sets.size() + 1) + ": " + e.what());
        }
    }
    if (in.bad()) throw Error("cannot read the links file '" + path + "'");
    return sets;
}

size_t LinkSet::wordCount(const std::string& text) { return words(text).size(); }

std::vector<std::string> LinkSet::words(const std::string& text) {
    std::vector<std::string> out;
    bool inWord = false;
    for (const auto& c : utf8::codePoints(text)) {
        const bool space = utf8::isSpace(c.cp);
        if (!space && !inWord) out.emplace_back();
        if (!space) out.back().append(text, c.at, c.size);
        inWord = !space;
    }
    return out;
}

int LinkSet::maxSource() const {
    int m = -1;
    for (const auto* s : {&sure, &possible})
        for (const auto& l : *s) m = std::max(m, l.first);
    return m;
}

int LinkSet::maxTarget() const {
    int m = -1;
    for (const auto* s : {&sure, &possible})
        for (const auto& l : *s) m = std::max(m, l.second);
    return m;
}

}  // namespace alignscope::core
