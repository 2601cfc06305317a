#pragma once
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

namespace alignscope::cli {

// Input lines from a file or stdin ("" or "-"), output to a file or stdout.
class LineStreams {
public:
    // Throws core::Error when the input cannot be read or the output cannot be created.
    LineStreams(const std::string& input, const std::string& output);

    std::istream& in() { return *in_; }
    std::ostream& out() { return *out_; }

private:
    std::unique_ptr<std::ifstream> inFile_;
    std::unique_ptr<std::ofstream> outFile_;
    std::istream* in_ = &std::cin;
    std::ostream* out_ = &std::cout;
};

}  // namespace alignscope::cli
