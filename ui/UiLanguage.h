#pragma once
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace alignscope::ui {

// The language the app's own words are in (docs/languages.md): one of available(), chosen at start
// from --language, else View > Language (saved), else the system locale (LANG, LC_ALL), else
// English. Installed once, before the first widget: a change from View > Language applies when the
// app starts again. Numbers in prose follow the language's decimal sign (number()); matrices and
// exports keep a dot.
class UiLanguage {
public:
    // The code of the language in use: "en", "de", "fr" or "ko" ("pseudo" under the layout test).
    static QString current();
    // Every language the app speaks, English first.
    static QStringList available();
    // A language's own name ("Deutsch", "한국어"), as a menu lists it whatever the UI's language.
    static QString nativeName(const QString& code);
    // The language for this start: the command line's, else the saved choice, else the system
    // locale's when the app speaks it, else English.
    static QString choose(const QString& commandLine);
    // The saved choice of View > Language ("" : follow the system locale).
    static QString saved();
    static void save(const QString& code);
    // Loads the catalogue of `code` (alignscope_CODE.qm in translationsDirectory()) into the app and
    // makes its locale the default. Returns false, staying English, when the catalogue is missing.
    static bool install(const QString& code);
    // $ALIGNSCOPE_TRANSLATIONS, else the data folder's translations/ (build tree: build/share/alignscope/translations).
    static QString translationsDirectory();
    // A number inside a sentence, in the UI language's notation ("0,82" in German).
    static QString number(double value, int precision);
};

}  // namespace alignscope::ui
