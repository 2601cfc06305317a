// Files written whole or not at all: what the CLI, the trainer and model saving rely on.
#include "TinyModel.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace alignscope;
namespace fs = std::filesystem;

namespace {

std::string contentOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const core::Error& e) {
        return e.what();
    }
    return "";
}

size_t filesIn(const std::string& folder) {
    return static_cast<size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

// Writes fail past `bytes` with EFBIG (as a full disk fails with ENOSPC) while the object lives.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        old_ = std::signal(SIGXFSZ, SIG_IGN);  // else the kernel ends the process at the limit
        getrlimit(RLIMIT_FSIZE, &saved_);
        rlimit limit = saved_;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, old_);
    }

private:
    rlimit saved_{};
    void (*old_)(int) = nullptr;
};

}  // namespace

TEST(AtomicFile, CommitReplacesTheFileWithTheUsualPermissions) {
    tests::TempDir dir;
    const auto path = dir.path("out.txt");
    std::ofstream(path) << "old\n";
    core::AtomicFile::write(path, "new\n");
    EXPECT_EQ(contentOf(path), "new\n");
    EXPECT_EQ(filesIn(dir.root()), 1u) << "no temporary file left";
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    const mode_t mask = umask(022);
    umask(mask);
    EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask) << "as a newly created file, not mkstemp's 0600";
}

TEST(AtomicFile, TheReplacedFileKeepsItsPermissions) {
    tests::TempDir dir;
    const auto path = dir.path("private.txt");
    std::ofstream(path) << "old\n";
    ASSERT_EQ(chmod(path.c_str(), 0600), 0);
    core::AtomicFile::write(path, "new\n");
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << "private output stays private";
}

TEST(AtomicFile, AnUncommittedWriteLeavesTheOldFile) {
    tests::TempDir dir;
    const auto path = dir.path("out.txt");
    std::ofstream(path) << "old\n";
    {
        core::AtomicFile file(path);
        file.stream() << "half of the new content";
    }  // stopped before commit, as by an error
    EXPECT_EQ(contentOf(path), "old\n");
    EXPECT_EQ(filesIn(dir.root()), 1u);
}

TEST(AtomicFile, AWriteThatRunsOutOfSpaceSaysWhyAndLeavesTheOldFile) {
    tests::TempDir dir;
    const auto path = dir.path("out.txt");
    std::ofstream(path) << "old\n";
    std::string message;
    {
        FileSizeLimit limit(4096);
        message = errorOf([&] { core::AtomicFile::write(path, std::string(200000, 'x')); });
    }
    EXPECT_NE(message.find("cannot write '" + path + "': File too large"), std::string::npos) << message;
    EXPECT_EQ(contentOf(path), "old\n");
    EXPECT_EQ(filesIn(dir.root()), 1u);
}

TEST(AtomicFile, FoldersAreRefusedBeforeAnythingIsWritten) {
    tests::TempDir dir;
    EXPECT_NE(errorOf([&] { core::AtomicFile::checkWritable(dir.path("missing/out.txt")); }).find("does not exist"), std::string::npos);
    EXPECT_NE(errorOf([&] { core::AtomicFile::checkWritable(dir.root()); }).find("it is a folder"), std::string::npos);
    std::ofstream(dir.path("file.txt")) << "x";
    EXPECT_NE(errorOf([&] { core::AtomicFile::checkWritable(dir.path("file.txt") + "/out.txt"); }).find("is not a folder"),
              std::string::npos);
}

TEST(AtomicFile, ASymbolicLinkIsWrittenThroughAndKept) {
    tests::TempDir dir;
    std::ofstream(dir.path("real.txt")) << "old\n";
    fs::create_symlink(dir.path("real.txt"), dir.path("link.txt"));
    core::AtomicFile::write(dir.path("link.txt"), "new\n");
    EXPECT_TRUE(fs::is_symlink(dir.path("link.txt")));
    EXPECT_EQ(contentOf(dir.path("real.txt")), "new\n");
    EXPECT_EQ(filesIn(dir.root()), 2u);
}

TEST(AtomicFile, APipeIsWrittenDirectly) {
    tests::TempDir dir;
    const auto fifo = dir.path("pipe");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = contentOf(fifo); });
    std::string error = errorOf([&] { core::AtomicFile::write(fifo, "through the pipe\n"); });
    const int release = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // a reader still waiting gets its end of file
    if (release >= 0) close(release);
    reader.join();
    EXPECT_EQ(error, "");
    EXPECT_EQ(received, "through the pipe\n");
    EXPECT_EQ(filesIn(dir.root()), 1u) << "no temporary file beside a pipe";
}

// Names the tool makes in a folder (export --out) never leave it: what is there and is not a
// regular file is refused by name, without following it or opening it.
TEST(AtomicFile, AToolMadeNameRefusesLinksAndPipesWithoutOpeningThem) {
    tests::TempDir dir;
    const auto inFolder = core::AtomicFile::Naming::InFolder;
    fs::create_directory(dir.path("out"));
    std::ofstream(dir.path("victim.txt")) << "old\n";
    fs::create_symlink(dir.path("victim.txt"), dir.path("out/link.html"));
    fs::create_symlink(dir.path("created.txt"), dir.path("out/dangling.html"));
    ASSERT_EQ(mkfifo(dir.path("out/pipe.html").c_str(), 0600), 0);

    const auto link = errorOf([&] { core::AtomicFile::write(dir.path("out/link.html"), "new\n", inFolder); });
    EXPECT_EQ(link, "'" + dir.path("out/link.html") + "' is a symbolic link: not written through");
    EXPECT_NE(errorOf([&] { core::AtomicFile::checkWritable(dir.path("out/dangling.html"), inFolder); }).find("is a symbolic link"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { core::AtomicFile::write(dir.path("out/dangling.html"), "new\n", inFolder); }).find("dangling.html"),
              std::string::npos);
    // A FIFO with no reader would block open() for ever: refused at once instead.
    EXPECT_EQ(errorOf([&] { core::AtomicFile::write(dir.path("out/pipe.html"), "new\n", inFolder); }),
              "'" + dir.path("out/pipe.html") + "' is a pipe, not a regular file");
    EXPECT_NE(errorOf([&] { core::AtomicFile::checkWritable("/dev/null", inFolder); }).find("is a device"), std::string::npos);

    EXPECT_EQ(contentOf(dir.path("victim.txt")), "old\n");
    EXPECT_FALSE(fs::exists(dir.path("created.txt")));
    EXPECT_EQ(filesIn(dir.path("out")), 3u) << "no temporary file left behind";

    // A regular file or no file is written as ever.
    core::AtomicFile::write(dir.path("out/new.html"), "page\n", inFolder);
    core::AtomicFile::write(dir.path("out/new.html"), "page 2\n", inFolder);
    EXPECT_EQ(contentOf(dir.path("out/new.html")), "page 2\n");
}

TEST(AtomicFile, AToolMadeNameTurnedIntoALinkBeforeTheRenameIsRefused) {
    tests::TempDir dir;
    std::ofstream(dir.path("victim.txt")) << "old\n";
    std::string error;
    {
        core::AtomicFile file(dir.path("page.html"), core::AtomicFile::Naming::InFolder);
        file.stream() << "page\n";
        fs::create_symlink(dir.path("victim.txt"), dir.path("page.html"));
        error = errorOf([&] { file.commit(); });
    }
    EXPECT_NE(error.find("is a symbolic link"), std::string::npos) << error;
    EXPECT_EQ(contentOf(dir.path("victim.txt")), "old\n");
    EXPECT_TRUE(fs::is_symlink(dir.path("page.html")));
    EXPECT_EQ(filesIn(dir.root()), 2u);
}
