#include "cli/Commands.h"

#include "core/alignment/AerComparison.h"
#include "core/alignment/AlignmentErrorRate.h"
#include "core/alignment/LinkSet.h"
#include "core/text/PairLine.h"
#include "core/platform/BoundedFile.h"
#include "core/Error.h"
#include "core/text/JsonText.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

namespace alignscope::cli {

namespace {

std::vector<std::string> readLines(const std::string& path, const char* what) {
    core::BoundedFile::check(path, core::LinkSet::kMaxFileBytes, "the " + std::string(what) + " file");
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
        std::string gold, hyp, pairs, versus;
        bool oneBased = false, goldOneBased = false, hypOneBased = false, json = false;
        int resamples = 10000;
        uint64_t seed = 1;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("aer", "Alignment error rate of hypothesis links against gold links (Och & Ney 2003)");
    c->add_option("--gold", o->gold, "Gold links, one line per pair: i-j sure, ipj or i?j possible (source word first)")->required();
    c->add_option("--hyp", o->hyp, "Hypothesis links, one line per pair (i-j; as align writes them)")->required();
    c->add_flag("--one-based", o->oneBased, "Both files count words from 1 (default: from 0, as Pharaoh and align do)");
    c->add_flag("--gold-one-based", o->goldOneBased, "The gold file counts words from 1 (as standard gold sets do)");
    c->add_flag("--hyp-one-based", o->hypOneBased, "The hypothesis files (--hyp, --versus) count words from 1");
    c->add_option("--pairs", o->pairs,
                  "The sentence pairs ('source ||| target' or source<TAB>target per line): links outside a pair's words are refused");
    c->add_flag("--json", o->json, "Print the scores as one JSON object");
    c->add_option("--versus", o->versus,
                  "A second hypothesis file: both scored, and their difference tested by a paired bootstrap over the "
                  "sentence pairs (is it more than which pairs the gold set holds?)");
    c->add_option("--resamples", o->resamples, "--versus: bootstrap resamples")->check(CLI::Range(100, 1000000))->capture_default_str();
    c->add_option("--seed", o->seed, "--versus: the bootstrap's seed (the same seed, the same interval)")->capture_default_str();
    return [o, c]() -> int {
        if (!*c) return -1;
        const auto gold = readLines(o->gold, "gold");
        const auto hyp = readLines(o->hyp, "hypothesis");
        if (gold.size() != hyp.size())
            throw core::Error("'" + o->gold + "' has " + std::to_string(gold.size()) + " lines and '" + o->hyp + "' " +
                              std::to_string(hyp.size()) + ": each line holds the links of one sentence pair");
        std::vector<std::string> versus;
        if (!o->versus.empty()) {
            versus = readLines(o->versus, "--versus hypothesis");
            if (versus.size() != gold.size())
                throw core::Error("'" + o->gold + "' has " + std::to_string(gold.size()) + " lines and '" + o->versus + "' " +
                                  std::to_string(versus.size()) + ": each line holds the links of one sentence pair");
        }
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
        core::AlignmentErrorRate score, versusScore;
        core::AerComparison comparison;
        const bool goldOneBased = o->oneBased || o->goldOneBased, hypOneBased = o->oneBased || o->hypOneBased;
        const auto read = [&](const std::string& file, const std::string& line, size_t k, bool oneBased) {
            core::LinkSet set;
            try {
                set = core::LinkSet::parse(line, oneBased);
            } catch (const core::Error& e) {
                throw core::Error(file + ":" + std::to_string(k + 1) + ": " + e.what());
            }
            if (!sizes.empty() &&
                (set.maxSource() >= static_cast<int>(sizes[k].first) || set.maxTarget() >= static_cast<int>(sizes[k].second))) {
                const int base = oneBased ? 1 : 0;
                throw core::Error(file + ":" + std::to_string(k + 1) + ": a link reaches source word " +
                                  std::to_string(set.maxSource() + base) + " or target word " + std::to_string(set.maxTarget() + base) +
                                  ", but the pair has " + std::to_string(sizes[k].first) + " source and " +
                                  std::to_string(sizes[k].second) + " target words (" + o->pairs + ":" + std::to_string(k + 1) +
                                  "; counting from " + std::to_string(base) + ")");
            }
            return set;
        };
        const auto allLinks = [](const core::LinkSet& set) {  // hypothesis links are all one kind
            std::set<core::LinkSet::Link> links(set.sure.begin(), set.sure.end());
            links.insert(set.possible.begin(), set.possible.end());
            return links;
        };
        for (size_t k = 0; k < gold.size(); ++k) {
            const auto g = read(o->gold, gold[k], k, goldOneBased);
            const auto h = allLinks(read(o->hyp, hyp[k], k, hypOneBased));
            score.add(g, h);
            if (versus.empty()) continue;
            const auto v = allLinks(read(o->versus, versus[k], k, hypOneBased));
            versusScore.add(g, v);
            comparison.add(g, h, v);
        }
        // Recall and AER divide by the sure links: with none (an empty gold file from a broken
        // pipeline) they are 0/0, which would print as a perfect score.
        if (score.sureLinks() == 0)
            throw core::Error("'" + o->gold + "' has no sure links (" + std::to_string(score.possibleLinks()) + " possible, " +
                              std::to_string(gold.size()) + " lines): recall and AER are undefined");
        const auto test = versus.empty() ? core::AerComparison::Result{} : comparison.bootstrap(o->resamples, o->seed);
        const auto scores = [](const core::AlignmentErrorRate& r) {
            return nlohmann::json{{"aer", r.aer() * 100},
                                  {"precision", r.precision() * 100},
                                  {"recall", r.recall() * 100},
                                  {"sentences", r.sentences()},
                                  {"hypothesis_links", r.hypothesisLinks()},
                                  {"sure_links", r.sureLinks()},
                                  {"possible_links", r.possibleLinks()}};
        };
        const auto text = [](const core::AlignmentErrorRate& r) {
            char line[256];
            std::snprintf(line, sizeof line,
                          "AER %.2f  precision %.2f  recall %.2f  (%lld pairs; %lld links, gold %lld sure, %lld possible)", r.aer() * 100,
                          r.precision() * 100, r.recall() * 100, static_cast<long long>(r.sentences()),
                          static_cast<long long>(r.hypothesisLinks()), static_cast<long long>(r.sureLinks()),
                          static_cast<long long>(r.possibleLinks()));
            return std::string(line);
        };
        if (o->json) {
            auto j = scores(score);
            if (!versus.empty()) {
                j["versus"] = scores(versusScore);
                j["bootstrap"] = {{"difference", test.difference * 100},
                                  {"interval_95", {test.low * 100, test.high * 100}},
                                  {"hyp_better_share", test.firstBetter},
                                  {"resamples", test.resamples},
                                  {"seed", o->seed}};
            }
            std::cout << core::JsonText::dump(j) << "\n";
        } else {
            std::cout << text(score) << "\n";
            if (!versus.empty()) {
                char line[320];
                std::snprintf(line, sizeof line,
                              "versus %s: %s\ndifference %+.2f (hyp - versus); paired bootstrap, %d resamples of the "
                              "pairs: 95%% within [%+.2f, %+.2f], hyp lower in %.1f%%\n",
                              o->versus.c_str(), text(versusScore).c_str(), test.difference * 100, test.resamples, test.low * 100,
                              test.high * 100, test.firstBetter * 100);
                std::cout << line;
            }
        }
        return 0;
    };
}

}  // namespace alignscope::cli
