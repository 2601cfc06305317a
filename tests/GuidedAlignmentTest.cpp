// Guided alignment in the C++ trainer (train --guided-alignment): word links become token links,
// a links file that does not go with its corpus is named by file and line, and training with the
// links pulls attention toward them far more than training without.
#include "TinyModel.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/text/Tokenizer.h"
#include "core/training/Corpus.h"
#include "core/training/GuidedAlignment.h"
#include "core/training/Trainer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

using namespace alignscope;

namespace {

// The reversal corpus's true links, "i-(n-1-i)", one line per pair; `edit` may change the lines.
std::string writeReversalLinks(const tests::TempDir& dir, const std::function<void(std::vector<std::string>&)>& edit = {}) {
    std::vector<std::string> lines;
    for (const auto& p : tests::reversalPairs(2000, 11)) {  // what reversalTraining writes
        const int n = static_cast<int>((p.source.size() + 1) / 2);
        std::string line;
        for (int i = 0; i < n; ++i) line += (i ? " " : "") + std::to_string(i) + "-" + std::to_string(n - 1 - i);
        lines.push_back(line);
    }
    if (edit) edit(lines);
    const auto path = dir.path("reverse.links");
    std::ofstream out(path);
    for (const auto& l : lines) out << l << '\n';
    return path;
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(no error)";
}

// The share of attention on the reversal's true source token, over the target words of fresh pairs.
double attentionOnTheLinks(const std::string& modelPath) {
    const auto model = core::Model::load(modelPath);
    double mass = 0;
    int steps = 0;
    for (const auto& pair : tests::reversalPairs(60, 99)) {
        core::DecodingSession s(model, pair.source);
        s.alignTo(pair.target);
        const int n = static_cast<int>(s.sourceLength()) - 1;
        for (int j = 0; j < n; ++j) {
            mass += s.steps()[static_cast<size_t>(j)].alpha[static_cast<size_t>(n - 1 - j)];
            ++steps;
        }
    }
    return mass / steps;
}

}  // namespace

TEST(GuidedAlignment, EveryTokenOfALinkedWordIsGuidedAndEosToEos) {
    tests::TempDir dir;
    { std::ofstream(dir.path("l.links")) << "0-1 1p0 2-2\n"; }
    const auto g = core::GuidedAlignment::read(dir.path("l.links"), 0.5);
    const core::Tokenizer words;  // "cats?" is two tokens of one word
    core::SentencePair pair{"big cats? here", "gros chats ici", 1};
    const auto links = g.tokenLinks(pair, words.tokenize(pair.source), words.tokenize(pair.target));
    ASSERT_TRUE(links.has_value());
    // source tokens big cats ? here (</s> 4); target gros chats ici (</s> 3)
    const core::GuidedAlignment::TokenLinks want{{0, 1}, {0, 2}, {1, 0}, {2, 3}, {3, 4}};
    EXPECT_EQ(*links, want);
    EXPECT_EQ(g.record()["links"], "l.links");
    EXPECT_EQ(g.record()["weight"], 0.5);
    EXPECT_EQ(g.record()["links_sha256"].get<std::string>().size(), 64u);

    // A link to a word the pair lacks: the pair trains unguided rather than wrongly guided.
    core::SentencePair shorter{"big cats?", "gros chats ici", 1};
    EXPECT_FALSE(g.tokenLinks(shorter, words.tokenize(shorter.source), words.tokenize(shorter.target)).has_value());
    // Tokens that do not cover the words (a word of control characters only makes none).
    core::SentencePair control{"big \x01 cats? here", "gros chats ici", 1};
    EXPECT_FALSE(g.tokenLinks(control, words.tokenize(control.source), words.tokenize(control.target)).has_value());
}

TEST(GuidedAlignment, SubWordPiecesOfALinkedWordAreAllGuided) {
    tests::TempDir dir;
    { std::ofstream(dir.path("l.links")) << "0-0 1-1 1-2\n"; }
    const auto g = core::GuidedAlignment::read(dir.path("l.links"), 1.0);
    const auto model = tests::tinyPieceModel();
    core::SentencePair pair{"the zebra-car", "la voiture zébrée", 1};  // unseen words: several pieces each
    const auto source = model.sourceTokenizer().tokenize(pair.source);
    const auto target = model.targetTokenizer().tokenize(pair.target);
    ASSERT_GT(source.size(), 2u);
    ASSERT_GT(target.size(), 3u);
    const auto links = g.tokenLinks(pair, source, target);
    ASSERT_TRUE(links.has_value());
    core::GuidedAlignment::TokenLinks want;
    for (size_t j = 0; j < target.size(); ++j)
        for (size_t i = 0; i < source.size(); ++i)
            if (source[i].word == (target[j].word == 0 ? 0 : 1)) want.emplace_back(static_cast<int>(j), static_cast<int>(i));
    want.emplace_back(static_cast<int>(target.size()), static_cast<int>(source.size()));
    EXPECT_EQ(*links, want);
}

TEST(GuidedAlignment, ALinksFileThatDoesNotGoWithItsCorpusIsNamedByFileAndLine) {
    tests::TempDir dir;
    auto o = tests::reversalTraining(dir);
    o.maxSteps = 1;
    auto prepare = [&] { core::Trainer(o).prepare(); };

    o.guidedAlignment = writeReversalLinks(dir, [](auto& lines) { lines.pop_back(); });
    auto e = errorOf(prepare);
    EXPECT_NE(e.find(o.corpusPath + ":2000: a pair with no line of links"), std::string::npos) << e;
    EXPECT_NE(e.find("'" + o.guidedAlignment + "' has 1999 lines"), std::string::npos) << e;

    o.guidedAlignment = writeReversalLinks(dir, [](auto& lines) { lines[2] = "0-0 1-x"; });
    e = errorOf(prepare);
    EXPECT_NE(e.find(o.guidedAlignment + ":3: '1-x' is not a link"), std::string::npos) << e;

    o.guidedAlignment = writeReversalLinks(dir, [](auto& lines) { lines.push_back(""), lines.push_back("0-0"); });
    e = errorOf(prepare);
    EXPECT_NE(e.find(o.guidedAlignment + ":2002: links past the last line of the corpus"), std::string::npos) << e;

    o.guidedAlignment = dir.path("absent.links");
    e = errorOf(prepare);
    EXPECT_NE(e.find("the links file '" + o.guidedAlignment + "' (--guided-alignment) does not exist"), std::string::npos) << e;

    o.guidedAlignment = writeReversalLinks(dir);
    o.guidedWeight = 0;
    EXPECT_NE(errorOf(prepare).find("--guided-weight must be positive"), std::string::npos);
}

TEST(GuidedAlignment, GuidedTrainingMovesAttentionTowardTheLinks) {
    tests::TempDir dir;
    auto o = tests::reversalTraining(dir);
    o.maxSteps = 150;
    o.validationFraction = 0;
    const auto links = writeReversalLinks(dir);

    ASSERT_TRUE(tests::trainToEnd(o).completed);
    const double unguided = attentionOnTheLinks(o.outputPath);

    o.guidedAlignment = links;
    o.outputPath = dir.path("guided.pt");
    core::Trainer trainer(o);
    trainer.prepare();
    EXPECT_EQ(trainer.guidedPairs(), trainer.trainingPairs());
    std::optional<double> firstCe, lastCe;
    const auto result = trainer.run([&](const core::TrainingProgress& p) {
        if (!p.event.empty()) return;
        ASSERT_TRUE(p.attentionCrossEntropy.has_value()) << "the progress reports the attention's cross-entropy";
        if (!firstCe) firstCe = p.attentionCrossEntropy;
        lastCe = p.attentionCrossEntropy;
    });
    ASSERT_TRUE(result.completed);
    ASSERT_TRUE(firstCe && lastCe);
    EXPECT_LT(*lastCe, *firstCe / 2) << "the attention's cross-entropy against the links falls: " << *firstCe << " to " << *lastCe;
    const double guided = attentionOnTheLinks(o.outputPath);
    EXPECT_GT(guided, unguided + 0.2) << "guided " << guided << ", unguided " << unguided;

    const auto meta = core::Model::load(o.outputPath).metadata();
    ASSERT_TRUE(meta.contains("guided_alignment"));
    EXPECT_EQ(meta["guided_alignment"]["links"], "reverse.links");
    EXPECT_EQ(meta["guided_alignment"]["weight"], 1.0);

    // The links are part of the run's data: a resumed run with other links (or none) is refused.
    o.resume = true;
    o.maxSteps = 300;
    o.guidedAlignment = writeReversalLinks(dir, [](auto& lines) { lines[0] = ""; });
    EXPECT_NE(errorOf([&] { core::Trainer(o).prepare(); }).find("--guided-alignment links differ from the checkpoint's"),
              std::string::npos);
}
