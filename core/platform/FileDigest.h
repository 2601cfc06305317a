#pragma once
#include <string>

namespace alignscope::core {

// SHA-256 of a file's bytes, as lower-case hex: what identifies a model file (the verified-model
// cache) or a corpus (a training record that a later run goes on from) across machines.
class FileDigest {
public:
    // Empty when the file cannot be read (callers report that in their own words).
    static std::string sha256(const std::string& path);
};

}  // namespace alignscope::core
