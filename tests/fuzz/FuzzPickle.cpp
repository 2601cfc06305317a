// libFuzzer target: one pickle through PickleScanner, with records "0".."9" of 16 bytes each.
#include "core/Error.h"
#include "core/model/PickleScanner.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string pickle(reinterpret_cast<const char*>(data), size);
    auto records = [](const std::string& key) -> int64_t { return key.size() == 1 && key[0] >= '0' && key[0] <= '9' ? 16 : -1; };
    try {
        alignscope::core::PickleScanner::scan(pickle, records);
    } catch (const alignscope::core::Error&) {
    }
    return 0;
}
