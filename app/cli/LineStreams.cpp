#include "cli/LineStreams.h"

#include "core/Error.h"

namespace alignscope::cli {

LineStreams::LineStreams(const std::string& input, const std::string& output) {
    if (!input.empty() && input != "-") {
        inFile_ = std::make_unique<std::ifstream>(input);
        if (!*inFile_) throw core::Error("cannot read '" + input + "'");
        in_ = inFile_.get();
    }
    if (!output.empty() && output != "-") {
        outFile_ = std::make_unique<std::ofstream>(output);
        if (!*outFile_) throw core::Error("cannot write '" + output + "'");
        out_ = outFile_.get();
    }
}

}  // namespace alignscope::cli
