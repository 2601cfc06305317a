#include "core/training/GuidedAlignment.h"

#include "core/Error.h"
#include "core/platform/FileDigest.h"
#include "core/alignment/LinkSet.h"
#include "core/training/Corpus.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace alignscope::core {

GuidedAlignment GuidedAlignment::read(const std::string& path, double weight) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error("the links file '" + path + "' (--guided-alignment) does not exist or is not a file");
    if (!(weight > 0) || !std::isfinite(weight)) throw Error("--guided-weight must be positive (and finite)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open the links file '" + path + "'");
    GuidedAlignment g;
    g.path_ = path;
    g.weight_ = weight;
    // Line by line into flat vectors, not LinkSet::readFile's sets: a corpus of a million pairs
    // has tens of millions of links.
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        LinkSet links;
        try {
            links = LinkSet::parse(line);
        } catch (const Error& e) {
            throw Error(path + ":" + std::to_string(g.lines_.size() + 1) + ": " + e.what());
        }
        WordLinks& out = g.lines_.emplace_back(links.sure.begin(), links.sure.end());
        out.insert(out.end(), links.possible.begin(), links.possible.end());
    }
    if (in.bad()) throw Error("cannot read the links file '" + path + "'");
    g.sha256_ = FileDigest::sha256(path);
    return g;
}

void GuidedAlignment::checkLinesOf(const Corpus& corpus) const {
    const auto links = static_cast<long>(lines_.size());
    for (const auto& p : corpus.pairs())
        if (p.line > links)
            throw Error(corpus.name() + ":" + std::to_string(p.line) + ": a pair with no line of links: '" + path_ + "' has " +
                        std::to_string(links) + " lines (one line of links per line of the corpus)");
    for (long k = corpus.lines(); k < links; ++k)
        if (!lines_[static_cast<size_t>(k)].empty())
            throw Error(path_ + ":" + std::to_string(k + 1) + ": links past the last line of the corpus '" + corpus.name() + "' (" +
                        std::to_string(corpus.lines()) + " lines): one line of links per line of the corpus");
}

std::optional<GuidedAlignment::TokenLinks> GuidedAlignment::tokenLinks(const SentencePair& pair, const std::vector<Token>& source,
                                                                       const std::vector<Token>& target) const {
    if (pair.line < 1 || pair.line > static_cast<long>(lines_.size())) return std::nullopt;
    const auto& links = lines_[static_cast<size_t>(pair.line - 1)];
    // The tokens' words must be the text's whitespace words, every one of them reached.
    auto matches = [](const std::vector<Token>& tokens, const std::string& text) {
        int last = -1;
        for (const auto& t : tokens) last = std::max(last, t.word);
        return last + 1 == static_cast<int>(LinkSet::wordCount(text));
    };
    if (!matches(source, pair.source) || !matches(target, pair.target)) return std::nullopt;
    const int sourceWords = static_cast<int>(LinkSet::wordCount(pair.source));
    const int targetWords = static_cast<int>(LinkSet::wordCount(pair.target));
    std::map<int, std::vector<int>> sourceTokensOf;  // source word -> its tokens
    for (size_t i = 0; i < source.size(); ++i) sourceTokensOf[source[i].word].push_back(static_cast<int>(i));
    std::map<int, std::set<int>> linked;  // target word -> source tokens
    for (const auto& [s, t] : links) {
        if (s >= sourceWords || t >= targetWords) return std::nullopt;
        const auto& tokens = sourceTokensOf[s];
        linked[t].insert(tokens.begin(), tokens.end());
    }
    TokenLinks out;
    for (size_t j = 0; j < target.size(); ++j) {
        const auto it = linked.find(target[j].word);
        if (it == linked.end()) continue;
        for (int i : it->second) out.emplace_back(static_cast<int>(j), i);
    }
    out.emplace_back(static_cast<int>(target.size()), static_cast<int>(source.size()));
    return out;
}

nlohmann::json GuidedAlignment::record() const {
    return {{"links", std::filesystem::path(path_).filename().string()}, {"links_sha256", sha256_}, {"weight", weight_}};
}

}  // namespace alignscope::core
