#include "ui/LessonLanguage.h"

#include "ui/Lesson.h"

#include "core/lesson/LessonFormat.h"

#include <QCoreApplication>
#include <QLocale>

namespace alignscope::ui {

QString LessonLanguage::interfaceLanguage() {
    // UiLanguage::install makes the interface's language the default locale (English where the app
    // stays English; "C" and a pseudo-locale name no language: English too).
    const QString code = QLocale().name().left(2);
    return core::LessonFormat::isLanguageCode(code.toStdString()) ? code : QStringLiteral("en");
}

QString LessonLanguage::fallbackNote(const Lesson& lesson) {
    if (lesson.missingLanguage.isEmpty()) return {};
    const QString name = QLocale(lesson.missingLanguage).nativeLanguageName();
    return QCoreApplication::translate("LessonLanguage", "in English: no %1 version")
        .arg(name.isEmpty() || QLocale(lesson.missingLanguage).language() == QLocale::C ? lesson.missingLanguage : name);
}

}  // namespace alignscope::ui
