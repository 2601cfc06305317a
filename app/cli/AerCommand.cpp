#include "cli/Commands.h"

#include "core/alignment/AlignmentErrorRate.h"
#include "core/alignment/LinkSet.h"
#include "core/text/PairLine.h"
#include "core/Error.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

namespace alignscope::cli {

namespace {

std::vector<std::string> readLines(const std::string& path, const char* what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw core::Error("cannot open the " + std::string(what) + " file '" + path + "'");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    if (in.bad()) throw core::Error("cannot read the " + std::string(what) + " file '" + path + "'");
    return lines;
}

}  // namespace

Command addAerCommand(CLI::App& app) {
    struct Options {
        std::string gold, hyp, pairs;
        bool oneBased = false, json = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("aer", "Alignment error rate of hypothesis links against gold links (Och & Ney 2003)");
    c->add_option("--gold", o->gold, "Gold links, one line per pair: i-j sure, ipj or i?j possible (source word first)")->required();
    c->add_option("--hyp", o->hyp, "Hypothesis links, one line per pair (i-j; as align writes them)")->required();
    c->add_flag("--one-based", o->oneBased, "Both files count words from 1 (default: from 0, as Pharaoh and align do)");
    c->add_option("--pairs", o->pairs,
                  "The sentence pairs ('source ||| target' or source<TAB>target per line): links outside a pair's words are refused");
    c->add_flag("--json", o->json, "Print the scores as one JSON object");
    return [o, c]() -> int {
        if (!*c) return -1;
        const auto gold = readLines(o->gold, "gold");
        const auto hyp = readLines(o->hyp, "hypothesis");
        if (gold.size() != hyp.size())
            throw core::Error("'" + o->gold + "' has " + std::to_string(gold.size()) + " lines and '" + o->hyp + "' " +
                              std::to_string(hyp.size()) + ": each line holds the links of one sentence pair");
        std::vector<std::pair<size_t, size_t>> sizes;  // words per side, when the pairs are given
        if (!o->pairs.empty()) {
            const auto pairs = readLines(o->pairs, "pairs");
            if (pairs.size() != gold.size())
                throw core::Error("'" + o->pairs + "' has " + std::to_string(pairs.size()) + " lines and '" + o->gold + "' " +
                                  std::to_string(gold.size()));
            for (size_t k = 0; k < pairs.size(); ++k) {
                std::string source, target;
                const auto tab = pairs[k].find('\t');
                if (pairs[k].find("|||") == std::string::npos && tab != std::string::npos) {
                    source = pairs[k].substr(0, tab);
                    target = pairs[k].substr(tab + 1);
                } else {
                    try {
                        const auto pair = core::PairLine::parse(pairs[k]);
                        if (!pair.target) throw core::Error("expected 'source ||| target' or source<TAB>target");
                        source = pair.source;
                        target = *pair.target;
                    } catch (const core::Error& e) {
                        throw core::Error(o->pairs + ":" + std::to_string(k + 1) + ": " + e.what());
                    }
                }
                sizes.emplace_back(core::LinkSet::wordCount(source), core::LinkSet::wordCount(target));
            }
        }
        core::AlignmentErrorRate score;
        for (size_t k = 0; k < gold.size(); ++k) {
            core::LinkSet g, h;
            for (auto [file, line, set] : {std::tuple<const std::string*, const std::string*, core::LinkSet*>{&o->gold, &gold[k], &g},
                                           {&o->hyp, &hyp[k], &h}}) {
                try {
                    *set = core::LinkSet::parse(*line, o->oneBased);
                } catch (const core::Error& e) {
                    throw core::Error(*file + ":" + std::to_string(k + 1) + ": " + e.what());
                }
                if (!sizes.empty() && (set->maxSource() >= static_cast<int>(sizes[k].first) ||
                                       set->maxTarget() >= static_cast<int>(sizes[k].second))) {
                    const int base = o->oneBased ? 1 : 0;
                    throw core::Error(*file + ":" + std::to_string(k + 1) + ": a link reaches source word " +
                                      std::to_string(set->maxSource() + base) + " or target word " +
                                      std::to_string(set->maxTarget() + base) + ", but the pair has " +
                                      std::to_string(sizes[k].first) + " source and " + std::to_string(sizes[k].second) +
                                      " target words (" + o->pairs + ":" + std::to_string(k + 1) + "; counting from " +
                                      std::to_string(base) + ")");
                }
            }
            std::set<core::LinkSet::Link> links(h.sure.begin(), h.sure.end());
            links.insert(h.possible.begin(), h.possible.end());
            score.add(g, links);
        }
        if (o->json) {
            std::cout << nlohmann::json{{"aer", score.aer() * 100},
                                        {"precision", score.precision() * 100},
                                        {"recall", score.recall() * 100},
                                        {"sentences", score.sentences()},
                                        {"hypothesis_links", score.hypothesisLinks()},
                                        {"sure_links", score.sureLinks()},
                                        {"possible_links", score.possibleLinks()}}
                             .dump()
                      << "\n";
        } else {
            char line[256];
            std::snprintf(line, sizeof line, "AER %.2f  precision %.2f  recall %.2f  (%lld pairs; %lld links, gold %lld sure, %lld possible)\n",
                          score.aer() * 100, score.precision() * 100, score.recall() * 100,
                          static_cast<long long>(score.sentences()), static_cast<long long>(score.hypothesisLinks()),
                          static_cast<long long>(score.sureLinks()), static_cast<long long>(score.possibleLinks()));
            std::cout << line;
        }
        return 0;
    };
}

}  // namespace alignscope::cli
