// The lesson task's generator: known dates give known sentences and ISO targets, every example's
// word indices point at its year, month and day, and a seed always gives the same data. A small
// dates model learns where the month is; the bundled lesson model's alignments are right.
#include "TinyModel.h"

#include "core/Error.h"
#include "core/model/Model.h"
#include "core/runtime/Runtime.h"
#include "core/training/SyntheticDates.h"
#include "core/text/Tokenizer.h"
#include "core/training/Trainer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

using namespace alignscope;
using core::SyntheticDates;
using Form = SyntheticDates::Form;

TEST(SyntheticDates, KnownDatesInEveryForm) {
    const std::vector<std::pair<Form, std::string>> expected = {
        {Form::MonthDayYear, "march 5 , 1998"},
        {Form::DayMonthYear, "5 march 1998"},
        {Form::OrdinalWordOfMonth, "the fifth of march , 1998"},
        {Form::MonthOrdinalYear, "march 5th , 1998"},
        {Form::ShortMonthDayYear, "mar 5 , 1998"},
        {Form::OrdinalOfMonthYear, "5th of march 1998"},
    };
    ASSERT_EQ(expected.size(), static_cast<size_t>(SyntheticDates::kForms));
    for (const auto& [form, source] : expected) {
        const auto e = SyntheticDates::make(1998, 3, 5, form);
        EXPECT_EQ(e.source, source);
        EXPECT_EQ(e.target, "1998 - 03 - 05");
    }
    // 5 march 1998 was a thursday.
    const auto w = SyntheticDates::make(1998, 3, 5, Form::MonthDayYear, true);
    EXPECT_EQ(w.source, "thursday , march 5 , 1998");
    EXPECT_EQ(w.yearWord, 5);
    EXPECT_EQ(w.monthWord, 2);
    EXPECT_EQ(w.dayWord, 3);
    EXPECT_EQ(SyntheticDates::make(2021, 11, 23, Form::OrdinalWordOfMonth).source, "the twenty-third of november , 2021");
    EXPECT_EQ(SyntheticDates::make(1950, 1, 31, Form::ShortMonthDayYear).target, "1950 - 01 - 31");
    EXPECT_EQ(SyntheticDates::make(2012, 9, 11, Form::MonthOrdinalYear).source, "september 11th , 2012");
    EXPECT_EQ(SyntheticDates::make(2012, 9, 22, Form::OrdinalOfMonthYear).source, "22nd of september 2012");
}

TEST(SyntheticDates, CalendarFacts) {
    EXPECT_EQ(SyntheticDates::daysInMonth(2000, 2), 29);  // divisible by 400
    EXPECT_EQ(SyntheticDates::daysInMonth(1900, 2), 28);  // by 100 only
    EXPECT_EQ(SyntheticDates::daysInMonth(2024, 2), 29);
    EXPECT_EQ(SyntheticDates::daysInMonth(2023, 4), 30);
    EXPECT_EQ(SyntheticDates::dayOfWeek(2000, 1, 1), 5);   // saturday
    EXPECT_EQ(SyntheticDates::dayOfWeek(1969, 7, 20), 6);  // sunday
    EXPECT_EQ(SyntheticDates::dayOfWeek(2024, 2, 29), 3);  // thursday
    EXPECT_NO_THROW(SyntheticDates::make(2000, 2, 29, Form::MonthDayYear));
    EXPECT_THROW(SyntheticDates::make(1999, 2, 29, Form::MonthDayYear), core::Error);
    EXPECT_THROW(SyntheticDates::make(1949, 1, 1, Form::MonthDayYear), core::Error);
    EXPECT_THROW(SyntheticDates::make(2000, 13, 1, Form::MonthDayYear), core::Error);
}

TEST(SyntheticDates, SameSeedSameDataAndTargetsAreRight) {
    const auto a = SyntheticDates::generate(2000, 7), b = SyntheticDates::generate(2000, 7);
    const auto c = SyntheticDates::generate(2000, 8);
    ASSERT_EQ(a.size(), 2000u);
    size_t differ = 0;
    std::set<int> forms;
    int weekdays = 0;
    const core::Tokenizer tokenizer;  // what a model's source side does
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].source, b[i].source);
        EXPECT_EQ(a[i].target, b[i].target);
        differ += a[i].source != c[i].source;
        const auto& e = a[i];
        forms.insert(static_cast<int>(e.form));
        weekdays += e.weekday;
        char iso[32];
        std::snprintf(iso, sizeof iso, "%d - %02d - %02d", e.year, e.month, e.day);
        EXPECT_EQ(e.target, iso);
        EXPECT_LE(e.day, SyntheticDates::daysInMonth(e.year, e.month));
        // One token per word, and the indices name the right ones.
        const auto tokens = tokenizer.tokenize(e.source);
        ASSERT_EQ(tokens.size(), static_cast<size_t>(std::count(e.source.begin(), e.source.end(), ' ') + 1)) << e.source;
        for (size_t k = 0; k < tokens.size(); ++k) EXPECT_EQ(tokens[k].word, static_cast<int>(k)) << e.source;
        EXPECT_EQ(tokens[static_cast<size_t>(e.yearWord)].text, std::to_string(e.year)) << e.source;
        EXPECT_EQ(SyntheticDates::make(e.year, e.month, e.day, e.form, e.weekday).source, e.source);
        const auto& day = tokens[static_cast<size_t>(e.dayWord)].text;
        EXPECT_TRUE(day.rfind(std::to_string(e.day), 0) == 0 || !std::isdigit(static_cast<unsigned char>(day[0]))) << e.source;
        EXPECT_EQ(core::Tokenizer().tokenize(e.target).size(), 5u) << e.target;
    }
    EXPECT_GT(differ, 1900u);
    EXPECT_EQ(forms.size(), static_cast<size_t>(SyntheticDates::kForms));
    EXPECT_NEAR(weekdays, 500, 100);
    // Pinned: the generator's output must not drift between versions or machines.
    EXPECT_EQ(a[0].source + " | " + a[0].target, "july 3 , 1965 | 1965 - 07 - 03");
    EXPECT_EQ(a[1].source, "monday , october 16th , 1978");  // a monday indeed
}

// ~5-8 s on 2 shared cores. The month's attention is the last thing learned: the translation is
// exact well before it (the bidirectional encoder spreads the month over its neighbours), and at
// lr 1e-3 it takes ~1000 steps; at 5e-3 it is there by 500 (seeds 1-3 and 700 steps with seeds 1-4
// all gave 100%).
TEST(SyntheticDates, SmallModelLearnsWhereTheMonthIs) {
    tests::TempDir dir;
    {
        std::ofstream out(dir.path("dates.tsv"));
        for (const auto& e : SyntheticDates::generate(4000, 1)) out << e.source << '\t' << e.target << '\n';
    }
    auto o = tests::smallTraining(dir.path("dates.tsv"), dir.path("dates.pt"), 32);
    o.dropout = 0.2;
    o.batchSize = 64;
    o.learningRate = 0.005;
    o.maxSteps = 500;
    ASSERT_TRUE(tests::trainToEnd(o).completed);
    const auto check = SyntheticDates::check(core::Model::load(o.outputPath), SyntheticDates::generate(200, 99));
    EXPECT_GE(check.monthAligned, 180u) << "month attention peaks on the month word for " << check.monthAligned << "/200";
    EXPECT_GE(check.yearAligned, 180u);
    EXPECT_GE(check.exact, 180u);
}

// The bundled lesson model (models/lesson-dates.pt, see models/lesson-dates.md): exact, and its
// year, month and day tokens attend to the right words on dates it has not been trained on.
TEST(SyntheticDates, LessonModelAlignmentsAreRight) {
    const auto path = (std::filesystem::path(core::Runtime::modelsDirectory()) / "lesson-dates.pt").string();
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
    const auto check = SyntheticDates::check(core::Model::load(path), SyntheticDates::generate(300, 4242));
    EXPECT_GE(check.exact, 297u);
    EXPECT_GE(check.yearAligned, 285u);
    EXPECT_GE(check.monthAligned, 285u);
    EXPECT_GE(check.dayAligned, 285u);
}
