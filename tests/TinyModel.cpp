#include "TinyModel.h"

#include "core/ModelBuilder.h"

#include <filesystem>
#include <random>

namespace alignscope::tests {

core::ModelSpec tinySpec(core::ModelSpec::Cell cell, core::ModelSpec::Attention attention, bool bidirectional) {
    core::ModelSpec s;
    s.cell = cell;
    s.attention = attention;
    s.bidirectional = bidirectional;
    s.embeddingSize = 8;
    s.encoderHidden = 8;
    s.decoderHidden = attention == core::ModelSpec::Attention::Dot ? s.encoderOutputSize() : 12;
    s.attentionSize = 8;
    s.readoutSize = 8;
    s.tieOutput = true;
    s.seed = 7;
    return s;
}

core::Model tinyModel(const core::ModelSpec& spec) {
    core::ModelBuilder::Input in;
    in.spec = spec;
    std::vector<std::string> src = core::Vocabulary::specialTokens(), tgt = src;
    for (const char* w : {"the", "red", "car", "a", "house", "is", "big", "small", ".", "?", "!", ","})
        src.push_back(w);
    for (const char* w : {"la", "voiture", "rouge", "une", "maison", "est", "grande", "petite", ".", "?", "l'"})
        tgt.push_back(w);
    in.sourceVocabulary = core::Vocabulary(src);
    in.targetVocabulary = core::Vocabulary(tgt);
    core::Tokenizer::Settings fr;
    fr.splitElision = true;
    in.targetTokenizer = core::Tokenizer(fr);
    in.name = "tiny-test";
    return core::Model(core::ModelBuilder::build(in));
}

TempDir::TempDir() {
    std::random_device rd;
    root_ = (std::filesystem::temp_directory_path() / ("alignscope-test-" + std::to_string(rd()))).string();
    std::filesystem::create_directories(root_);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(root_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(root_, ec);
}

std::string TempDir::path(const std::string& name) const { return (std::filesystem::path(root_) / name).string(); }

}  // namespace alignscope::tests
