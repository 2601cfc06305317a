#include "core/platform/InstallLayout.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace fs = std::filesystem;
using alignscope::core::InstallLayout;

namespace {

// Sets an environment variable for one test and puts back what was there.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_) setenv(name_, old_->c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace

// The test program lives in build/tests: the build tree has the installed layout's shape.
TEST(InstallLayoutTest, BuildTreeHasTheInstalledShape) {
    const ScopedEnv models("ALIGNSCOPE_MODELS", nullptr), lessons("ALIGNSCOPE_LESSONS", nullptr);
    const fs::path program = InstallLayout::programDirectory();
    ASSERT_FALSE(program.empty());
    EXPECT_EQ(fs::path(InstallLayout::dataDirectory()), (program / ".." / "share/alignscope").lexically_normal());
    EXPECT_TRUE(fs::is_regular_file(fs::path(InstallLayout::modelsDirectory()) / "en-fr-subword.pt"));
    EXPECT_TRUE(fs::is_regular_file(fs::path(InstallLayout::lessonsDirectory()) / "01-fixed-context-bottleneck.json"));
    EXPECT_TRUE(fs::is_regular_file(fs::path(InstallLayout::privateLibraryDirectory()) / "libalignscope_sentencepiece.so"));
}

TEST(InstallLayoutTest, DataBesideTheProgramComeBeforeAlignscopeDataDir) {
    const std::string beside = InstallLayout::dataDirectory();
    const ScopedEnv data("ALIGNSCOPE_DATA_DIR", "/nonexistent/alignscope-data");
    EXPECT_EQ(InstallLayout::dataDirectory(), beside);
}

TEST(InstallLayoutTest, OneThingOverridesWinOverTheLayout) {
    const ScopedEnv models("ALIGNSCOPE_MODELS", "/somewhere/models"), lessons("ALIGNSCOPE_LESSONS", "/somewhere/lessons");
    EXPECT_EQ(InstallLayout::modelsDirectory(), "/somewhere/models");
    EXPECT_EQ(InstallLayout::lessonsDirectory(), "/somewhere/lessons");
    const ScopedEnv empty("ALIGNSCOPE_MODELS", "");  // set but empty: as unset
    EXPECT_EQ(fs::path(InstallLayout::modelsDirectory()), fs::path(InstallLayout::dataDirectory()) / "models");
}
