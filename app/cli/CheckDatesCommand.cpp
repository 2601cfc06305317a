#include "cli/Commands.h"

#include "core/model/Model.h"
#include "core/training/SyntheticDates.h"
#include "core/text/JsonText.h"

#include <cstdio>
#include <iostream>

namespace alignscope::cli {
namespace {

std::string share(size_t part, size_t whole) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%zu/%zu (%.1f%%)", part, whole,
                  whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

}  // namespace

Command addCheckDatesCommand(CLI::App& app) {
    struct Options {
        std::string model;
        size_t count = 1000;
        uint64_t seed = 12345;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("check-dates",
                                 "Check a dates model on fresh dates: exact translations, and whether the attention "
                                 "of the year, month and day tokens peaks on the right words");
    c->add_option("-m,--model", o->model, "Model trained on make-dates data")->required();
    c->add_option("-n,--count", o->count, "Fresh dates to check")->check(CLI::Range(1, 1000000))->capture_default_str();
    c->add_option("--seed", o->seed, "Seed of the fresh dates (use one the training data did not)")->capture_default_str();
    c->add_flag("--json", o->json, "Print JSON");
    return [o, c]() -> int {
        if (!*c) return -1;
        const auto model = core::Model::load(o->model);
        const auto r = core::SyntheticDates::check(model, core::SyntheticDates::generate(o->count, o->seed));
        using Form = core::SyntheticDates::Form;
        if (o->json) {
            nlohmann::json forms = nlohmann::json::array();
            for (int f = 0; f < core::SyntheticDates::kForms; ++f)
                forms.push_back({{"form", core::SyntheticDates::formName(static_cast<Form>(f))},
                                 {"examples", r.formExamples[static_cast<size_t>(f)]},
                                 {"exact", r.formExact[static_cast<size_t>(f)]},
                                 {"aligned_tokens", r.formAligned[static_cast<size_t>(f)]}});
            nlohmann::json j = {{"model", model.origin()},       {"seed", o->seed},
                                {"examples", r.examples},        {"exact", r.exact},
                                {"year_aligned", r.yearAligned}, {"month_aligned", r.monthAligned},
                                {"day_aligned", r.dayAligned},   {"forms", forms}};
            std::cout << core::JsonText::dump(j, 2) << '\n';
            return 0;
        }
        std::cout << "model: " << model.origin() << "\nfresh dates: " << r.examples << " (seed " << o->seed << ")\n"
                  << "exact greedy translations: " << share(r.exact, r.examples) << '\n'
                  << "teacher-forced attention peaks on the right source word:\n"
                  << "  year  token: " << share(r.yearAligned, r.examples) << '\n'
                  << "  month token: " << share(r.monthAligned, r.examples) << '\n'
                  << "  day   token: " << share(r.dayAligned, r.examples) << '\n'
                  << "  all        : " << share(r.yearAligned + r.monthAligned + r.dayAligned, 3 * r.examples) << '\n'
                  << "by form (exact; aligned tokens):\n";
        for (int f = 0; f < core::SyntheticDates::kForms; ++f) {
            const auto i = static_cast<size_t>(f);
            std::cout << "  " << core::SyntheticDates::formName(static_cast<Form>(f)) << ": " << share(r.formExact[i], r.formExamples[i])
                      << "; " << share(r.formAligned[i], 3 * r.formExamples[i]) << '\n';
        }
        return 0;
    };
}

}  // namespace alignscope::cli
