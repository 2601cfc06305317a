#include "cli/Commands.h"

#include "core/alignment/AlignmentComparison.h"
#include "core/alignment/LinkSet.h"
#include "core/decoding/DecodingSession.h"
#include "core/evaluation/ModelScorecard.h"
#include "core/text/Tokenizer.h"
#include "core/training/Corpus.h"
#include "core/Error.h"
#include "core/runtime/Runtime.h"
#include "core/text/JsonText.h"

#include <cstdio>
#include <iostream>

namespace alignscope::cli {

namespace {

// One model's alignment of the sentence: its greedy translation, or the forced target.
core::AlignmentComparison::Side decode(const core::Model& model, const std::string& source, const std::string& target,
                                       core::Alignment& alignment) {
    core::DecodingSession session(model, source);
    if (target.empty()) session.runToEnd();
    else session.alignTo(target);
    alignment = session.alignment();
    return {model.name(), target.empty() ? session.translation() : target, {}, {}};
}

}  // namespace

Command addCompareCommand(CLI::App& app) {
    struct Options {
        std::string model, other, source, target, test, gold;
        int beam = 1;
        bool oneBased = false, json = false, words = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("compare", "Two models on one sentence (their alignments and difference), or on a test set (BLEU, AER)");
    c->add_option("-m,--model", o->model, "Model A (default: the bundled en-fr-subword model)");
    c->add_option("--with", o->other, "Model B")->required();
    auto* source =
        c->add_option("--source", o->source, "A sentence both decode: prints both alignments and A - B where the targets agree (JSON)");
    c->add_option("--target", o->target, "With --source: force both along this target, so every row compares")->needs(source);
    c->add_flag("--words", o->words,
                "With --source: compare over the words of the text even where both models read the same "
                "tokens (a source word's columns summed, a target word's rows averaged)")
        ->needs(source);
    auto* test =
        c->add_option("--test", o->test, "Test pairs (source<TAB>target per line): BLEU of each model's translations")->excludes(source);
    c->add_option("--gold", o->gold,
                  "With --test: gold word links, one line per pair (i-j sure, ipj possible): AER of each model's attention")
        ->needs(test);
    c->add_flag("--one-based", o->oneBased, "--gold counts words from 1 (default: from 0)");
    c->add_option("--beam", o->beam, "With --test: translate with beam search of this width (1: greedy)")
        ->check(CLI::Range(1, 32))
        ->capture_default_str();
    c->add_flag("--json", o->json, "With --test: print the scores as one JSON object");
    return [o, c, source, test]() -> int {
        if (!*c) return -1;
        if (source->count() == 0 && test->count() == 0) throw core::Error("compare needs --source TEXT or --test FILE");
        if (source->count() > 0 && core::Tokenizer::isBlank(o->source))
            throw core::Error("compare --source needs a source sentence (this one has nothing visible)");
        const auto a = core::Model::load(o->model.empty() ? core::Runtime::defaultModelPath() : o->model);
        const auto b = core::Model::load(o->other);
        if (source->count() > 0) {
            core::Alignment alignmentA, alignmentB;
            auto sideA = decode(a, o->source, o->target, alignmentA);
            core::AlignmentComparison::Side sideB;
            try {
                sideB = decode(b, o->source, o->target, alignmentB);
            } catch (const core::Error& e) {
                throw core::Error("model B '" + b.origin() + "' cannot take the sentence: " + e.what());
            }
            const auto comparison =
                core::AlignmentComparison::compare(o->source, std::move(sideA), alignmentA, std::move(sideB), alignmentB, o->words);
            std::cout << core::JsonText::dump(comparison.toJson()) << '\n';
            return 0;
        }
        const auto corpus = core::Corpus::read(o->test, core::Corpus::OnBadLine::Reject);
        std::vector<core::LinkSet> gold;
        if (!o->gold.empty()) gold = core::LinkSet::readFile(o->gold, o->oneBased);
        nlohmann::json out{{"test", o->test}, {"pairs", corpus.pairs().size()}, {"models", nlohmann::json::array()}};
        std::vector<core::ModelScorecard> cards;
        for (const auto* m : {&a, &b}) {
            cards.push_back(core::ModelScorecard::score(*m, corpus.pairs(), o->test, gold, o->gold, o->beam));
            out["models"].push_back(cards.back().toJson());
            out["models"].back()["file"] = m->origin();
        }
        if (o->json) {
            std::cout << core::JsonText::dump(out) << '\n';
            return 0;
        }
        std::cout << "test: " << o->test << " (" << corpus.pairs().size() << " pairs, " << cards[0].segments
                  << " sources; cased BLEU over words and punctuation, " << cards[0].search << ")\n";
        for (size_t k = 0; k < cards.size(); ++k) {
            char line[512];
            std::snprintf(line, sizeof line, "%c  %-24s BLEU %6.2f", k == 0 ? 'A' : 'B', cards[k].model.c_str(), cards[k].bleu);
            std::cout << line;
            if (cards[k].hasAer) {
                std::snprintf(line, sizeof line, "  AER %6.2f  precision %6.2f  recall %6.2f", cards[k].aer, cards[k].precision,
                              cards[k].recall);
                std::cout << line;
            }
            std::cout << "  (" << (k == 0 ? a : b).origin() << ")\n";
        }
        return 0;
    };
}

}  // namespace alignscope::cli
