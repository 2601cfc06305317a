// python/alignscope/model_checks.json is the one list of the model loader's checks (issue 59): the
// build generates the C++ limits from it, and the Python side reads it. Here the loader refuses, at
// each limit read from the JSON itself, what one step past it brings, and accepts the limit.
#include "Refusal.h"
#include "TinyModel.h"

#include "core/Error.h"
#include "core/model/AttributeJson.h"
#include "core/model/ModelArchive.h"
#include "core/model/PickleScanner.h"
#include "core/text/NormalizedText.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <string>

using namespace alignscope;

namespace {

const nlohmann::json& checks() {
    static const nlohmann::json json =
        nlohmann::json::parse(std::ifstream(std::string(ALIGNSCOPE_SOURCE_DIR) + "/python/alignscope/model_checks.json"));
    return json;
}

using tests::refusal;

std::string nested(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST(ModelChecks, TheGeneratedLimitsAreTheJsons) {
    const auto& c = checks();
    EXPECT_EQ(core::ModelArchive::kMaxInflatedBytes, c["archive"]["max_inflated_bytes"].get<uint64_t>());
    EXPECT_EQ(core::ModelArchive::kMaxRatio, c["archive"]["max_ratio"].get<uint64_t>());
    EXPECT_EQ(core::ModelArchive::kMaxEntries, c["archive"]["max_entries"].get<size_t>());
    EXPECT_EQ(core::ModelArchive::kMaxCodeNesting, c["archive"]["max_code_nesting"].get<int>());
    EXPECT_EQ(core::PickleScanner::kMaxNesting, c["pickle"]["max_nesting"].get<int>());
    EXPECT_EQ(core::Model::kMaxSourceTokens, c["model"]["max_source_tokens"].get<size_t>());
    EXPECT_EQ(core::Tokenizer::kMaxLineCharacters, c["text"]["max_line_characters"].get<size_t>());
    EXPECT_EQ(core::TextBudget::kMaxGrowth, c["text"]["max_growth"].get<size_t>());
    EXPECT_EQ(core::TextBudget::kMaxNormalizedCharacters, c["text"]["max_normalized_characters"].get<size_t>());
}

TEST(ModelChecks, StorageElementSizesAreTheJsons) {
    const auto& storages = checks()["pickle"]["storage_element_bytes"];
    for (const auto& [name, bytes] : storages.items()) EXPECT_EQ(core::PickleScanner::elementSize(name), bytes.get<int64_t>()) << name;
    EXPECT_EQ(core::PickleScanner::elementSize("PythonObjectStorage"), 0);  // a storage the list does not name is no tensor's
}

TEST(ModelChecks, AttributeJsonIsRefusedPastTheJsonsDepthAndSize) {
    const auto depth = checks()["attributes"]["max_json_depth"].get<size_t>();
    EXPECT_EQ(refusal([&] { core::AttributeJson::parse(nested(depth)); }), "(accepted)");
    EXPECT_NE(
        refusal([&] { core::AttributeJson::parse(nested(depth + 1)); }).find("nests objects or lists deeper than " + std::to_string(depth)),
        std::string::npos);
    const auto bytes = checks()["attributes"]["max_json_bytes"].get<size_t>();
    const std::string big = "\"" + std::string(bytes - 2, 'a') + "\"";
    EXPECT_EQ(refusal([&] { core::AttributeJson::parse(big); }), "(accepted)");
    EXPECT_NE(refusal([&] { core::AttributeJson::parse(big + " "); }), "(accepted)");
}

TEST(ModelChecks, LinesAndSourcesAreRefusedPastTheJsonsLimits) {
    const auto model = tests::tinyModel();
    const auto characters = checks()["text"]["max_line_characters"].get<size_t>();
    EXPECT_EQ(refusal([&] { model.sourceTokenizer().tokenize(std::string(characters, 'a')); }), "(accepted)");
    EXPECT_EQ(refusal([&] { model.sourceTokenizer().tokenize(std::string(characters + 1, 'a')); }),
              "the line has " + std::to_string(characters + 1) + " characters; at most " + std::to_string(characters) + " are read");
    // The source's </s> (the tiny model appends one) is one of the max_source_tokens.
    const auto tokens = checks()["model"]["max_source_tokens"].get<size_t>();
    std::string sentence;
    for (size_t k = 0; k + 1 < tokens; ++k) sentence += k ? " a" : "a";
    EXPECT_EQ(refusal([&] { model.tokenizeSource(sentence); }), "(accepted)");
    EXPECT_EQ(refusal([&] { model.tokenizeSource(sentence + " a"); }),
              "the sentence has " + std::to_string(tokens) + " tokens; this model takes at most " + std::to_string(tokens - 1));
}
