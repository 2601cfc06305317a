#pragma once
#include <QString>

namespace alignscope::ui {

struct Lesson;

// The language lessons are shown in: the interface's. Lesson, LessonsMenu and LessonSite take
// a language as a parameter; this is the one place the app reads it.
class LessonLanguage {
public:
    // The interface's language as an ISO 639-1 code: `--language xx` where the command line
    // gives it, else the system locale's ("ko" for ko_KR.UTF-8); "en" where neither names one.
    static QString interfaceLanguage();
    // What to tell a reader of a lesson shown in English because the file lacks the language
    // asked for ("" where it has it): "in English: no 한국어 version".
    static QString fallbackNote(const Lesson& lesson);
};

}  // namespace alignscope::ui
