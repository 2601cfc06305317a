#pragma once
#include <stdexcept>
#include <string>

namespace alignscope::core {

// Every failure a user can cause (bad model file, bad input, unwritable path) surfaces as this,
// with a message written for the user; nothing of LibTorch's internals leaks past core/.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Writing failed because the disk (or the user's quota) is full: every further write would fail
// too, so a batch stops at the first.
class StorageFullError : public Error {
public:
    using Error::Error;
};

// A model's numbers came out NaN or infinite; the message says where ("... produced NaN at step 3").
class NonFiniteOutput : public Error {
public:
    using Error::Error;
};

// LibTorch messages carry a C++ backtrace; the user needs the first line only.
inline std::string firstLine(const std::string& text) {
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

}  // namespace alignscope::core
