#include "core/platform/AtomicFile.h"

#include "core/Error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace alignscope::core {
namespace fs = std::filesystem;

namespace {

fs::path folderOf(const std::string& path) {
    const fs::path p(path);
    return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

[[noreturn]] void failToWrite(const std::string& path, int error) {
    const std::string message = "cannot write '" + path + "': " + (error ? std::strerror(error) : "write failed");
    if (error == ENOSPC || error == EDQUOT) throw StorageFullError(message);
    throw Error(message);
}

// The process's umask, read without changing it (umask() can only be read by setting it).
mode_t currentUmask() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    return 022;
}

// /dev/stdout and the like name a stream the process already has: never replaced, only written.
bool isStreamName(const std::string& p) {
    return p == "/dev/stdout" || p == "/dev/stderr" || p.rfind("/dev/fd/", 0) == 0 ||
           (p.rfind("/proc/", 0) == 0 && p.find("/fd/") != std::string::npos);
}

// Where the bytes of `given` go: the end of its chain of symbolic links (so a link is written
// through and kept), and whether that is a stream, a device, a pipe or a socket, written directly.
struct Target {
    std::string path;
    bool direct = false;
};

Target resolve(const std::string& given) {
    fs::path p(given);
    for (int i = 0; i < 40; ++i) {
        if (isStreamName(p.string())) return {p.string(), true};
        std::error_code ec;
        if (!fs::is_symlink(p, ec)) break;
        const auto next = fs::read_symlink(p, ec);
        if (ec) break;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    struct stat st {};
    const bool special =
        stat(p.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
    return {p.lexically_normal().string(), special};
}

// A new empty file beside `path` (mkostemp: a unique name, so two writers never share it), with
// the permissions and owner of the file it will replace, else those a new file would get
// (mkostemp gives 0600). -1 with errno set when the folder takes no new file.
int createTemporaryBeside(const std::string& path, std::string* name) {
    const std::string pattern = (folderOf(path) / ("." + fs::path(path).filename().string() + ".XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const int fd = mkostemp(buffer.data(), O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        fchmod(fd, st.st_mode & 07777);
        [[maybe_unused]] const int owned = fchown(fd, st.st_uid, st.st_gid);  // only root may; else ours
    } else {
        fchmod(fd, 0666 & ~currentUmask());
    }
    *name = buffer.data();
    return fd;
}

// A name the tool made in a folder (Naming::InFolder): nothing but a regular file or nothing may be
// there, told by lstat, so a link is never followed and a pipe never opened.
void checkInFolder(const std::string& path) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return;
    const auto quoted = "'" + path + "'";
    if (S_ISLNK(st.st_mode)) throw Error(quoted + " is a symbolic link: not written through");
    if (S_ISDIR(st.st_mode)) throw Error("cannot write " + quoted + ": it is a folder");
    if (S_ISFIFO(st.st_mode)) throw Error(quoted + " is a pipe, not a regular file");
    if (S_ISSOCK(st.st_mode)) throw Error(quoted + " is a socket, not a regular file");
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) throw Error(quoted + " is a device, not a regular file");
    throw Error(quoted + " is not a regular file");
}

// Whether a file that cannot get a temporary file beside it (a folder we may not write, a file
// bind-mounted on its own) can still be written in place: then it is, without the whole-file guarantee.
bool writableInPlace(const std::string& path, int error) {
    std::error_code ec;
    return (error == EACCES || error == EPERM || error == EROFS) && fs::is_regular_file(path, ec) && access(path.c_str(), W_OK) == 0;
}

// The process's own descriptor a stream name stands for (/dev/stdout: 1), or -1.
int descriptorOf(const std::string& p) {
    if (p == "/dev/stdout") return 1;
    if (p == "/dev/stderr") return 2;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"})
        if (p.rfind(prefix, 0) == 0 && p.size() > std::strlen(prefix) &&
            p.find_first_not_of("0123456789", std::strlen(prefix)) == std::string::npos)
            return std::stoi(p.substr(std::strlen(prefix)));
    return -1;
}

// The descriptor the bytes are written to, and the temporary file's name when there is one.
int openOutput(const std::string& given, AtomicFile::Naming naming, std::string* path, std::string* temporary) {
    if (naming == AtomicFile::Naming::InFolder) {
        // The name itself, never what it points to; mkostemp's O_EXCL follows no link either.
        *path = given;
        int fd = createTemporaryBeside(given, temporary);
        if (fd < 0 && writableInPlace(given, errno)) {
            fd = open(given.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
            struct stat st {};
            if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
                close(fd);
                checkInFolder(given);
                throw Error("'" + given + "' is not a regular file");
            }
            if (fd >= 0 && ftruncate(fd, 0) != 0) {
                const int error = errno;
                close(fd);
                failToWrite(given, error);
            }
        }
        if (fd < 0) failToWrite(given, errno);
        return fd;
    }
    const auto target = resolve(given);
    *path = target.path;
    int fd = -1;
    if (target.direct) {
        // A copy of the process's own descriptor shares its position: `-o /dev/stdout > log`
        // writes where the shell's next line would go, as printing does.
        const int own = descriptorOf(*path);
        fd = own >= 0 ? fcntl(own, F_DUPFD_CLOEXEC, 0) : open(path->c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    } else {
        fd = createTemporaryBeside(*path, temporary);
        if (fd < 0 && writableInPlace(*path, errno)) fd = open(path->c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    }
    if (fd < 0) failToWrite(*path, errno);
    return fd;
}

// Copies the temporary file over a target that cannot be renamed over (a bind mount, another
// file system), then removes it.
void copyInto(const std::string& from, const std::string& to) {
    std::ifstream in(from, std::ios::binary);
    const int fd = open(to.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) failToWrite(to, errno);
    std::vector<char> chunk(1 << 16);
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
        const char* p = chunk.data();
        auto left = static_cast<size_t>(in.gcount());
        while (left > 0) {
            const ssize_t n = ::write(fd, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const int error = n < 0 ? errno : EIO;
                close(fd);
                failToWrite(to, error);
            }
            p += n;
            left -= static_cast<size_t>(n);
        }
    }
    const bool ok = fsync(fd) == 0 && close(fd) == 0;
    if (!ok) failToWrite(to, errno);
    std::error_code ec;
    fs::remove(from, ec);
}

}  // namespace

AtomicFile::DescriptorBuffer::DescriptorBuffer(int fd) : fd_(fd), buffer_(1 << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool AtomicFile::DescriptorBuffer::drain() {
    const char* p = pbase();
    while (p < pptr() && error_ == 0) {
        const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) error_ = n < 0 ? errno : EIO;
        else p += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0;
}

AtomicFile::DescriptorBuffer::int_type AtomicFile::DescriptorBuffer::overflow(int_type c) {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

int AtomicFile::DescriptorBuffer::sync() { return drain() ? 0 : -1; }

namespace {

// What can be told about `given` without writing: the folder, a folder in the way, a read-only file.
Target checkTarget(const std::string& given, AtomicFile::Naming naming) {
    if (given.empty()) throw Error("no output file given");
    if (naming == AtomicFile::Naming::InFolder) checkInFolder(given);
    const auto target = naming == AtomicFile::Naming::InFolder ? Target{given, false} : resolve(given);
    if (target.direct) return target;
    const std::string& path = target.path;
    std::error_code ec;
    const auto folder = folderOf(path);
    if (!fs::exists(folder, ec)) throw Error("cannot write '" + given + "': the folder '" + folder.string() + "' does not exist");
    if (!fs::is_directory(folder, ec)) throw Error("cannot write '" + given + "': '" + folder.string() + "' is not a folder");
    if (fs::is_directory(path, ec)) throw Error("cannot write '" + given + "': it is a folder");
    if (fs::exists(path, ec) && access(path.c_str(), W_OK) != 0) failToWrite(given, errno);  // a read-only file stays
    return target;
}

}  // namespace

void AtomicFile::checkWritable(const std::string& given, Naming naming) {
    const auto target = checkTarget(given, naming);
    if (target.direct) return;
    const std::string& path = target.path;
    std::error_code ec;
    std::string name;
    const int fd = createTemporaryBeside(path, &name);
    if (fd < 0) {
        if (!writableInPlace(path, errno)) failToWrite(given, errno);
        return;
    }
    close(fd);
    fs::remove(name, ec);
}

AtomicFile::AtomicFile(std::string path, Naming naming)
    : naming_(naming), fd_((checkTarget(path, naming), openOutput(path, naming, &path_, &temporary_))), buffer_(fd_), out_(&buffer_) {}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) close(fd_);
    if (committed_ || temporary_.empty()) return;
    std::error_code ec;
    fs::remove(temporary_, ec);
}

void AtomicFile::commit() {
    out_.flush();
    if (!out_ || buffer_.error()) failToWrite(path_, buffer_.error());
    // The bytes reach the disk before the rename, so a crash never leaves an empty file in place
    // (devices and pipes have nothing to sync).
    if (fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) failToWrite(path_, errno);
    const int closed = close(fd_);
    fd_ = -1;
    if (closed != 0) failToWrite(path_, errno);
    if (!temporary_.empty()) {
        // Made meanwhile (a link, a FIFO): left alone, and the write refused by name.
        if (naming_ == Naming::InFolder) checkInFolder(path_);
        if (rename(temporary_.c_str(), path_.c_str()) != 0) {
            if (errno != EBUSY && errno != EXDEV) failToWrite(path_, errno);
            copyInto(temporary_, path_);
        }
    }
    committed_ = true;
}

void AtomicFile::write(const std::string& path, const std::string& bytes, Naming naming) {
    AtomicFile file(path, naming);
    file.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    file.commit();
}

}  // namespace alignscope::core
