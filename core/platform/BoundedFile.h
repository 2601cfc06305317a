#pragma once
#include <cstdint>
#include <string>

namespace alignscope::core {

// Files a user or a shared folder hands over (lessons, gold links, training-run indexes): a
// regular file of bounded size, checked before a byte is read, so a FIFO does not block, a
// device is not read forever and a huge file is refused by its size instead of filling memory.
// Torch- and Qt-free (the fuzz targets build it alone).
class BoundedFile {
public:
    // Throws Error "<what> 'path' ..." when the path is missing, not a regular file (a folder, a
    // pipe, a device; symbolic links are followed), holds a NUL in its name or has more than
    // maxBytes. Returns its size.
    static uint64_t check(const std::string& path, uint64_t maxBytes, const std::string& what);
    // check(), then the whole content (at most maxBytes, even when the file grows meanwhile).
    static std::string read(const std::string& path, uint64_t maxBytes, const std::string& what);
    // "12 MiB", "512 bytes": sizes in messages.
    static std::string sizeText(uint64_t bytes);
};

}  // namespace alignscope::core
