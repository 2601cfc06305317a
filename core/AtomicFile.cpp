#include "core/AtomicFile.h"

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

// A new empty file beside `path` (mkstemp: a unique name, so two writers never share it), with
// the permissions a newly created file would have (mkstemp gives 0600). Returns its descriptor.
int createTemporaryBeside(const std::string& path, std::string* name) {
    const std::string pattern = (folderOf(path) / ("." + fs::path(path).filename().string() + ".XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const int fd = mkstemp(buffer.data());
    if (fd < 0) failToWrite(path, errno);
    fchmod(fd, 0666 & ~currentUmask());
    *name = buffer.data();
    return fd;
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

// Where the bytes go: a symbolic link is written through (its target replaced, the link kept).
std::string resolvedTarget(const std::string& path) {
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) return path;
    const auto target = fs::weakly_canonical(path, ec);
    return ec ? path : target.string();
}

// Devices, pipes and /dev/stdout-like names cannot be replaced by a rename: they are written
// directly, appending (so `-o /dev/stdout > log` adds to log as printing would).
bool isSpecial(const std::string& path) {
    if (path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0) return true;
    std::error_code ec;
    return fs::exists(path, ec) && !fs::is_regular_file(path, ec) && !fs::is_directory(path, ec);
}

}  // namespace

void AtomicFile::checkWritable(const std::string& given) {
    if (given.empty()) throw Error("no output file given");
    if (isSpecial(given)) return;
    const std::string path = resolvedTarget(given);
    std::error_code ec;
    const auto folder = folderOf(path);
    if (!fs::exists(folder, ec)) throw Error("cannot write '" + path + "': the folder '" + folder.string() + "' does not exist");
    if (!fs::is_directory(folder, ec)) throw Error("cannot write '" + path + "': '" + folder.string() + "' is not a folder");
    if (fs::is_directory(path, ec)) throw Error("cannot write '" + path + "': it is a folder");
    std::string name;
    close(createTemporaryBeside(path, &name));
    fs::remove(name, ec);
}

namespace {
int openDirectly(const std::string& path) {
    const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) failToWrite(path, errno);
    return fd;
}
}  // namespace

AtomicFile::AtomicFile(std::string path)
    : path_((checkWritable(path), isSpecial(path) ? path : resolvedTarget(path))),
      fd_(isSpecial(path_) ? openDirectly(path_) : createTemporaryBeside(path_, &temporary_)),
      buffer_(fd_),
      out_(&buffer_) {}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) close(fd_);
    if (committed_ || temporary_.empty()) return;
    std::error_code ec;
    fs::remove(temporary_, ec);
}

void AtomicFile::commit() {
    out_.flush();
    if (!out_ || buffer_.error()) failToWrite(path_, buffer_.error());
    if (temporary_.empty()) {  // a device or a pipe, written directly
        const int closed = close(fd_);
        fd_ = -1;
        if (closed != 0) failToWrite(path_, errno);
        committed_ = true;
        return;
    }
    // The bytes reach the disk before the rename, so a crash never leaves an empty file in place.
    if (fsync(fd_) != 0) failToWrite(path_, errno);
    const int closed = close(fd_);
    fd_ = -1;
    if (closed != 0) failToWrite(path_, errno);
    std::error_code ec;
    fs::rename(temporary_, path_, ec);
    if (ec) throw Error("cannot write '" + path_ + "': " + ec.message());
    committed_ = true;
}

void AtomicFile::write(const std::string& path, const std::string& bytes) {
    AtomicFile file(path);
    file.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    file.commit();
}

}  // namespace alignscope::core
