// A lesson site's shared files (issue 59, lesson-picture-amplification): each picture written once
// beside the pages under its content's hash, within a budget for the whole site.
#include "Refusal.h"
#include "CommandRunner.h"
#include "TinyModel.h"

#include "ui/SiteFiles.h"

#include "core/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <sys/stat.h>

using namespace alignscope;

namespace {

std::string write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

using tests::refusal;

}  // namespace

TEST(SiteFiles, APictureIsWrittenOnceUnderItsHashWithinTheSitesBudget) {
    tests::TempDir dir;
    std::filesystem::create_directories(dir.path("site"));
    const std::string png = std::string("\x89PNG\r\n\x1a\n") + std::string(52, 'a');
    const auto a = write(dir.path("a.png"), png), same = write(dir.path("same.png"), png);
    const auto other = write(dir.path("b.png"), std::string("\x89PNG\r\n\x1a\n") + std::string(52, 'b'));
    ui::SiteFiles files(QString::fromStdString(dir.path("site")), 100);
    const QString name = files.picture(QString::fromStdString(a));
    EXPECT_TRUE(name.startsWith("pictures/") && name.endsWith(".png")) << name.toStdString();
    EXPECT_EQ(files.picture(QString::fromStdString(a)), name);
    EXPECT_EQ(files.picture(QString::fromStdString(same)), name);  // the same bytes elsewhere: the same file
    EXPECT_EQ(files.bytesWritten(), 60);
    EXPECT_EQ(tests::readFile(dir.path("site/" + name.toStdString())), png);
    EXPECT_EQ(refusal([&] { files.picture(QString::fromStdString(other)); }),
              "the picture '" + other +
                  "' (60 bytes) would bring the site's pictures past 100 bytes (60 bytes written): use fewer or smaller pictures");
    write(dir.path("c.gif"), "GIF89a");
    EXPECT_NE(refusal([&] { files.picture(QString::fromStdString(dir.path("c.gif"))); }).find("is neither PNG nor JPEG"),
              std::string::npos);
    ASSERT_EQ(mkfifo(dir.path("pipe.png").c_str(), 0600), 0);
    EXPECT_EQ(refusal([&] { files.picture(QString::fromStdString(dir.path("pipe.png"))); }),
              "the picture '" + dir.path("pipe.png") + "' is a pipe, not a regular file");
}
