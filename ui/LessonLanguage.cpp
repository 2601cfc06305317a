#include "ui/LessonLanguage.h"

#include "ui/Lesson.h"

#include "core/lesson/LessonFormat.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace alignscope::ui {

QString LessonLanguage::interfaceLanguage() {
    // UI language: wired to h60app's function at merge
    QString code;
    const QStringList arguments = QCoreApplication::arguments();
    for (int k = 1; k < arguments.size(); ++k) {
        if (arguments[k] == QLatin1String("--language") && k + 1 < arguments.size()) code = arguments[k + 1];
        else if (arguments[k].startsWith(QLatin1String("--language="))) code = arguments[k].mid(11);
    }
    if (code.isEmpty()) code = QLocale().name().left(2);  // "C" and "POSIX" name no language: English
    return core::LessonFormat::isLanguageCode(code.toStdString()) ? code : QStringLiteral("en");
}

QString LessonLanguage::fallbackNote(const Lesson& lesson) {
    if (lesson.missingLanguage.isEmpty()) return {};
    const QString name = QLocale(lesson.missingLanguage).nativeLanguageName();
    return QCoreApplication::translate("LessonLanguage", "in English: no %1 version")
        .arg(name.isEmpty() || QLocale(lesson.missingLanguage).language() == QLocale::C ? lesson.missingLanguage : name);
}

}  // namespace alignscope::ui
