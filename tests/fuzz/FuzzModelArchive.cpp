// libFuzzer target: a model file's bytes through the checks that run before LibTorch reads it
// (ModelArchive: zip directory, checksums, inflation caps, every pickle through PickleScanner).
// Refusing is fine; crashing, hanging or running out of memory is not.
#include "core/Error.h"
#include "core/model/ModelArchive.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        alignscope::core::ModelArchive::checkBytes(bytes, "fuzz.pt");
    } catch (const alignscope::core::Error&) {
    }
    return 0;
}
