#include "core/platform/BoundedFile.h"

#include "core/Error.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace alignscope::core {
namespace {

// Opened without blocking (a FIFO with no writer would hang open()) and checked on the open
// descriptor, so what is checked is what is read.
int openChecked(const std::string& path, uint64_t maxBytes, const std::string& what, uint64_t& size) {
    if (path.find('\0') != std::string::npos) throw Error(what + " has a NUL character in its name");
    if (path.empty()) throw Error(what + " has an empty name");
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        throw Error(what + " '" + path + "' " +
                    (error == ENOENT ? std::string("does not exist") : "cannot be read: " + std::string(std::strerror(error))));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        const char* kind = S_ISDIR(st.st_mode)                          ? "a folder"
                           : S_ISFIFO(st.st_mode)                       ? "a pipe"
                           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                        : "not a regular file";
        throw Error(what + " '" + path + "' is " + kind + ", not a regular file");
    }
    size = static_cast<uint64_t>(st.st_size);
    if (size > maxBytes) {
        ::close(fd);
        throw Error(what + " '" + path + "' is " + BoundedFile::sizeText(size) + "; at most " + BoundedFile::sizeText(maxBytes) +
                    " are read");
    }
    return fd;
}

}  // namespace

std::string BoundedFile::sizeText(uint64_t bytes) {
    return bytes >= (1 << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

uint64_t BoundedFile::check(const std::string& path, uint64_t maxBytes, const std::string& what) {
    uint64_t size = 0;
    ::close(openChecked(path, maxBytes, what, size));
    return size;
}

std::string BoundedFile::read(const std::string& path, uint64_t maxBytes, const std::string& what) {
    uint64_t size = 0;
    const int fd = openChecked(path, maxBytes, what, size);
    std::string bytes;
    bytes.reserve(static_cast<size_t>(size));
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            throw Error(what + " '" + path + "' cannot be read: " + std::strerror(error));
        }
        if (n == 0) break;
        if (bytes.size() + static_cast<size_t>(n) > maxBytes) {
            ::close(fd);
            throw Error(what + " '" + path + "' grew past " + sizeText(maxBytes) + " while it was read");
        }
        bytes.append(buffer, static_cast<size_t>(n));
    }
    ::close(fd);
    return bytes;
}

}  // namespace alignscope::core
