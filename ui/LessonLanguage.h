#pragma once
#include <QString>

namespace alignscope::ui {

struct Lesson;

// The language lessons are shown in: the interface's. Lesson, LessonsMenu and LessonSite take
// a language as a parameter; this is the one place the app reads it.
class LessonLanguage {
public:
    // The interface's language as an ISO 639-1 code: the one UiLanguage installed (--language, View →
    // Language, the system locale), as the default locale says it; "en" where that names none.
    static QString interfaceLanguage();
    // What to tell a reader of a lesson shown in English because the file lacks the language
    // asked for ("" where it has it): "in English: no 한국어 version".
    static QString fallbackNote(const Lesson& lesson);
};

}  // namespace alignscope::ui
