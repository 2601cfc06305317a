#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace alignscope::core {

class Model;

// The lesson task: English dates as people write them ("the fifth of march , 1998") to ISO dates
// ("1998 - 03 - 05"), generated here so anyone can make the data. Its right alignment is known
// and checkable by eye, and it reorders: the year comes last in the source and first in the
// target. Every word is its own token (spaces around "," and "-": the tokenizer keeps a hyphen
// between letters inside a word), so source word i is source token i.
class SyntheticDates {
public:
    enum class Form {
        MonthDayYear,        // "march 5 , 1998"
        DayMonthYear,        // "5 march 1998"
        OrdinalWordOfMonth,  // "the fifth of march , 1998"
        MonthOrdinalYear,    // "march 5th , 1998"
        ShortMonthDayYear,   // "mar 5 , 1998"
        OrdinalOfMonthYear,  // "5th of march 1998"
    };
    static constexpr int kForms = 6;
    static constexpr int kFirstYear = 1950;  // years drawn from kFirstYear..kLastYear
    static constexpr int kLastYear = 2049;

    struct Example {
        std::string source;  // "thursday , march 5 , 1998"
        std::string target;  // "1998 - 03 - 05"
        int year = 0, month = 0, day = 0;
        Form form = Form::MonthDayYear;
        bool weekday = false;  // the source starts with the (correct) day of the week
        int yearWord = 0;      // source word (= token) index of the year
        int monthWord = 0;     // ... of the month
        int dayWord = 0;       // ... of the day
    };

    // How well a model does on dates: exact greedy translations, and where the teacher-forced
    // attention of the year, month and day target tokens peaks.
    struct Check {
        size_t examples = 0;
        size_t exact = 0;                           // greedy translation equals the target, token for token
        size_t yearAligned = 0;                     // alpha of target token 0 (year) peaks on the year word
        size_t monthAligned = 0;                    // ... token 2 (month) on the month word
        size_t dayAligned = 0;                      // ... token 4 (day) on the day word
        std::array<size_t, kForms> formExamples{};  // [form] examples
        std::array<size_t, kForms> formExact{};     // [form] exact translations
        std::array<size_t, kForms> formAligned{};   // [form] year, month and day tokens aligned (of 3 per example)
    };

    explicit SyntheticDates(uint64_t seed);

    // A random valid date in a random form, a weekday in front of one in four.
    Example next();
    // `count` examples from a fresh generator with `seed`: the same arguments give the same list.
    static std::vector<Example> generate(size_t count, uint64_t seed);

    // Throws Error for a date outside kFirstYear..kLastYear or not in the calendar.
    static Example make(int year, int month, int day, Form form, bool weekday = false);
    static std::string isoTarget(int year, int month, int day);  // "1998 - 03 - 05"
    static int daysInMonth(int year, int month);                 // Gregorian, leap years included
    static int dayOfWeek(int year, int month, int day);          // 0 = monday .. 6 = sunday
    static std::string formName(Form form);                      // "month day , year", ...

    // Runs `model` over `examples` (greedy, then teacher-forced on the ISO target). A target token
    // missing from the model's vocabulary is forced as <unk> and simply counts as a miss.
    static Check check(const Model& model, const std::vector<Example>& examples);

private:
    std::mt19937_64 rng_;  // the standard fixes its output sequence, so data repeat across machines
    uint64_t below(uint64_t n) { return rng_() % n; }
};

}  // namespace alignscope::core
