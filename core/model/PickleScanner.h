#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace alignscope::core {

// Runs a pickle (data.pkl, constants.pkl, a .debug_pkl) on a small stack machine that builds
// nothing but plain values, before LibTorch's unpickler sees it: LibTorch's crashes on an empty
// stack, allocates whatever a damaged length says and trusts every tensor's declared extent.
// Memory is bounded by the pickle's size (each instruction makes at most one value) and nesting
// by kMaxNesting, so a hostile pickle cannot exhaust this scanner either.
class PickleScanner {
public:
    static const int kMaxNesting;  // python/alignscope/model_checks.json

    // A storage the pickle refers to: ("storage", torch.<Type>Storage, key, location, numel).
    struct StorageReference {
        std::string key;      // record name under the pickle's folder (data/<key>, constants/<key>)
        std::string type;     // e.g. "FloatStorage"
        int64_t elementSize;  // bytes per element of `type`
        int64_t elements;     // numel the pickle declares
    };
    // Answers the record size of `key`, or -1 when the archive has no such record.
    using RecordSize = std::function<int64_t(const std::string& key)>;

    // Throws Error("byte N: why") when the pickle is malformed, uses an instruction LibTorch does
    // not read, refers to a missing storage or to one whose record holds a different number of bytes
    // than it declares, or rebuilds a tensor reaching past the end of its storage. `recordSize`
    // may be empty for pickles that must not refer to storages at all.
    static std::vector<StorageReference> scan(std::string_view pickle, const RecordSize& recordSize);

    // Bytes per element of a storage type LibTorch knows ("FloatStorage": 4); 0 when unknown.
    static int64_t elementSize(const std::string& storageType);
};

}  // namespace alignscope::core
