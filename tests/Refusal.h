#pragma once
#include "core/Error.h"

#include <functional>
#include <string>

namespace alignscope::tests {

// What a call refused, as its core::Error says it; "(accepted)" where it did not throw.
inline std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace alignscope::tests
