#include "core/training/SyntheticDates.h"

#include "core/decoding/DecodingSession.h"
#include "core/Error.h"
#include "core/model/Model.h"

#include <algorithm>
#include <cstdio>

namespace alignscope::core {
namespace {

const char* const kMonths[12] = {"january", "february", "march",     "april",   "may",      "june",
                                 "july",    "august",   "september", "october", "november", "december"};
const char* const kShortMonths[12] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
const char* const kWeekdays[7] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
// One word each: the tokenizer keeps a hyphen between letters inside the word.
const char* const kOrdinalWords[31] = {
    "first",        "second",       "third",          "fourth",        "fifth",        "sixth",         "seventh",      "eighth",
    "ninth",        "tenth",        "eleventh",       "twelfth",       "thirteenth",   "fourteenth",    "fifteenth",    "sixteenth",
    "seventeenth",  "eighteenth",   "nineteenth",     "twentieth",     "twenty-first", "twenty-second", "twenty-third", "twenty-fourth",
    "twenty-fifth", "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth",     "thirty-first"};

std::string ordinalNumber(int day) {  // 1st 2nd 3rd 4th .. 11th 12th 13th .. 21st 22nd 23rd .. 31st
    const char* suffix = "th";
    if (day % 100 < 11 || day % 100 > 13) {
        if (day % 10 == 1) suffix = "st";
        else if (day % 10 == 2) suffix = "nd";
        else if (day % 10 == 3) suffix = "rd";
    }
    return std::to_string(day) + suffix;
}

std::string twoDigits(int n) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02d", n);
    return buf;
}

}  // namespace

SyntheticDates::SyntheticDates(uint64_t seed) : rng_(seed) {}

int SyntheticDates::daysInMonth(int year, int month) {
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12) return 0;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return days[month - 1] + (month == 2 && leap ? 1 : 0);
}

int SyntheticDates::dayOfWeek(int year, int month, int day) {
    // Sakamoto's method gives 0 = sunday; shift to 0 = monday.
    static const int t[12] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    if (month < 3) year -= 1;
    const int sundayFirst = (year + year / 4 - year / 100 + year / 400 + t[month - 1] + day) % 7;
    return (sundayFirst + 6) % 7;
}

std::string SyntheticDates::isoTarget(int year, int month, int day) {
    return std::to_string(year) + " - " + twoDigits(month) + " - " + twoDigits(day);
}

std::string SyntheticDates::formName(Form form) {
    switch (form) {
    case Form::MonthDayYear:
        return "month day , year";
    case Form::DayMonthYear:
        return "day month year";
    case Form::OrdinalWordOfMonth:
        return "the ordinal of month , year";
    case Form::MonthOrdinalYear:
        return "month day-th , year";
    case Form::ShortMonthDayYear:
        return "mon day , year";
    case Form::OrdinalOfMonthYear:
        return "day-th of month year";
    }
    return "?";
}

SyntheticDates::Example SyntheticDates::make(int year, int month, int day, Form form, bool weekday) {
    if (year < kFirstYear || year > kLastYear || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
        throw Error("not a date this generator writes: " + std::to_string(year) + "-" + std::to_string(month) + "-" + std::to_string(day) +
                    " (years " + std::to_string(kFirstYear) + " to " + std::to_string(kLastYear) + ")");
    Example e;
    e.year = year;
    e.month = month;
    e.day = day;
    e.form = form;
    e.weekday = weekday;
    std::vector<std::string> w;
    if (weekday) w = {kWeekdays[dayOfWeek(year, month, day)], ","};
    auto add = [&](const std::string& word, int* index) {
        if (index) *index = static_cast<int>(w.size());
        w.push_back(word);
    };
    const std::string y = std::to_string(year), m = kMonths[month - 1], d = std::to_string(day);
    switch (form) {
    case Form::MonthDayYear:  // march 5 , 1998
        add(m, &e.monthWord);
        add(d, &e.dayWord);
        add(",", nullptr);
        add(y, &e.yearWord);
        break;
    case Form::DayMonthYear:  // 5 march 1998
        add(d, &e.dayWord);
        add(m, &e.monthWord);
        add(y, &e.yearWord);
        break;
    case Form::OrdinalWordOfMonth:  // the fifth of march , 1998
        add("the", nullptr);
        add(kOrdinalWords[day - 1], &e.dayWord);
        add("of", nullptr);
        add(m, &e.monthWord);
        add(",", nullptr);
        add(y, &e.yearWord);
        break;
    case Form::MonthOrdinalYear:  // march 5th , 1998
        add(m, &e.monthWord);
        add(ordinalNumber(day), &e.dayWord);
        add(",", nullptr);
        add(y, &e.yearWord);
        break;
    case Form::ShortMonthDayYear:  // mar 5 , 1998
        add(kShortMonths[month - 1], &e.monthWord);
        add(d, &e.dayWord);
        add(",", nullptr);
        add(y, &e.yearWord);
        break;
    case Form::OrdinalOfMonthYear:  // 5th of march 1998
        add(ordinalNumber(day), &e.dayWord);
        add("of", nullptr);
        add(m, &e.monthWord);
        add(y, &e.yearWord);
        break;
    }
    for (size_t i = 0; i < w.size(); ++i) e.source += (i ? " " : "") + w[i];
    e.target = isoTarget(year, month, day);
    return e;
}

SyntheticDates::Example SyntheticDates::next() {
    // Fixed draw order (year, month, day, form, weekday) so a seed always gives the same list.
    const int year = kFirstYear + static_cast<int>(below(kLastYear - kFirstYear + 1));
    const int month = 1 + static_cast<int>(below(12));
    const int day = 1 + static_cast<int>(below(static_cast<uint64_t>(daysInMonth(year, month))));
    const auto form = static_cast<Form>(below(kForms));
    const bool weekday = below(4) == 0;
    return make(year, month, day, form, weekday);
}

std::vector<SyntheticDates::Example> SyntheticDates::generate(size_t count, uint64_t seed) {
    SyntheticDates g(seed);
    std::vector<Example> out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) out.push_back(g.next());
    return out;
}

SyntheticDates::Check SyntheticDates::check(const Model& model, const std::vector<Example>& examples) {
    Check c;
    SearchOptions greedy;
    for (const auto& e : examples) {
        const auto f = static_cast<size_t>(e.form);
        ++c.examples;
        ++c.formExamples[f];
        DecodingSession session(model, e.source);
        const auto target = model.tokenizeTarget(e.target);
        const auto found = session.search(greedy);
        auto ids = found.empty() ? std::vector<int64_t>{} : found.front().ids;
        if (!ids.empty() && ids.back() == Vocabulary::kEos) ids.pop_back();
        // Unknown target tokens have id <unk>: never counted as right.
        const bool known = std::none_of(target.unknown.begin(), target.unknown.end(), [](bool u) { return u; });
        if (known && ids == target.ids) {
            ++c.exact;
            ++c.formExact[f];
        }
        session.alignTo(e.target);
        // Target tokens: 0 year, 1 "-", 2 month, 3 "-", 4 day.
        auto peaksOn = [&](size_t step, int word) {
            const auto& alpha = session.steps()[step].alpha;
            const auto peak = static_cast<size_t>(std::max_element(alpha.begin(), alpha.end()) - alpha.begin());
            return session.source().words[peak] == word;
        };
        const bool year = peaksOn(0, e.yearWord), month = peaksOn(2, e.monthWord), day = peaksOn(4, e.dayWord);
        c.yearAligned += year;
        c.monthAligned += month;
        c.dayAligned += day;
        c.formAligned[f] += static_cast<size_t>(year) + month + day;
    }
    return c;
}

}  // namespace alignscope::core
