// libFuzzer target: one input line of align, evaluate and trace ('source ||| target').
#include "core/Error.h"
#include "core/text/PairLine.h"
#include "core/text/Tokenizer.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    try {
        const auto pair = alignscope::core::PairLine::parse(line);
        alignscope::core::Tokenizer::isBlank(pair.source);
        if (pair.target) alignscope::core::Tokenizer::isBlank(*pair.target);
    } catch (const alignscope::core::Error&) {
    }
    return 0;
}
