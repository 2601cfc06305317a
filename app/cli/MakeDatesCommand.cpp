#include "cli/Commands.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"
#include "core/training/SyntheticDates.h"

#include <fstream>
#include <iostream>

namespace alignscope::cli {

Command addMakeDatesCommand(CLI::App& app) {
    struct Options {
        std::string out;
        size_t count = 20000;
        uint64_t seed = 1;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("make-dates",
                                 "Write the lesson corpus: English dates (\"the fifth of march , 1998\") to ISO (\"1998 - 03 - 05\")");
    c->add_option("-o,--out", o->out, "TSV file to write: source<TAB>target per line")->required();
    c->add_option("-n,--count", o->count, "Number of pairs")->check(CLI::Range(1, 10000000))->capture_default_str();
    c->add_option("--seed", o->seed, "Seed: the same seed and count give the same file")->capture_default_str();
    return [o, c]() -> int {
        if (!*c) return -1;
        core::AtomicFile file(o->out);
        core::SyntheticDates dates(o->seed);
        for (size_t i = 0; i < o->count; ++i) {
            const auto e = dates.next();
            file.stream() << e.source << '\t' << e.target << '\n';
        }
        file.commit();
        std::cerr << "wrote " << o->count << " date pairs (seed " << o->seed << ") to " << o->out << '\n';
        return 0;
    };
}

}  // namespace alignscope::cli
