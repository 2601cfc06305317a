#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace alignscope::core {

// The checks a model file passes before LibTorch reads a byte of it (docs/model-format.md, "What
// the loader checks"). LibTorch 1.13 trusts its archives: it skips checksums, inflates whatever
// size an entry claims, unpickles without bounds and reads tensors wherever their sizes point.
// This reads the zip's own directory instead and checks, entry by entry:
//   - the directory is whole: every entry lies inside the file, none overlaps another, no name
//     appears twice, nothing is encrypted or compressed other than stored/deflated;
//   - every entry's bytes match its CRC-32 (a flipped byte in a weight is caught here);
//   - inflated sizes are capped in total and by ratio (a zip bomb);
//   - every pickle runs on PickleScanner: storages against their records, tensors inside their
//     storages, no instruction on an empty stack;
//   - code nests brackets at most kMaxCodeNesting deep (TorchScript's parser recurses per level).
// Torch-free, so the fuzz targets build it alone.
class ModelArchive {
public:
    // The limits come from python/alignscope/model_checks.json (ModelCheckLimits.h, generated).
    static const uint64_t kMaxInflatedBytes;  // all entries together
    static const uint64_t kMaxRatio;          // inflated : stored, per entry
    static const size_t kMaxEntries;
    static const int kMaxCodeNesting;

    struct Entry {
        std::string name;     // without the archive's top folder
        uint64_t offset = 0;  // of its data in the file
        uint64_t storedSize = 0;
        uint64_t size = 0;  // inflated
        uint32_t crc = 0;
        bool deflated = false;
    };

    // Throws Error naming `path`, the entry and what is wrong.
    static std::vector<Entry> check(const std::string& path);
    // The same checks on an archive held in memory (the fuzz target); `name` is for messages.
    static std::vector<Entry> checkBytes(const std::string& bytes, const std::string& name);
};

}  // namespace alignscope::core
