// libFuzzer target: any bytes as a JSON string (and as a key) through JsonText, the one writer of
// the project's JSON (trace, align --json, exports, pages): it never throws on bytes that are not
// UTF-8, never leaves U+0085, U+2028 or U+2029 raw, its script-safe form never holds '<', '>' or
// '&', and what it writes parses back.
#include "core/text/JsonText.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json value = {{"text", text}, {"list", {text, 1.5, nullptr}}};
    for (const bool script : {false, true}) {
        const std::string out = script ? alignscope::core::JsonText::scriptSafe(value) : alignscope::core::JsonText::dump(value, 1);
        for (const char* raw : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"})
            if (out.find(raw) != std::string::npos) std::abort();
        if (script && out.find_first_of("<>&") != std::string::npos) std::abort();
        const auto back = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
        if (back.is_discarded() || !back["text"].is_string()) std::abort();
    }
    return 0;
}
