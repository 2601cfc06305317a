#include "ui/UiLanguage.h"

#include "core/platform/InstallLayout.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace alignscope::ui {
namespace {

const char* const kSettingsKey = "ui/language";

QString& currentCode() {
    static QString code = QStringLiteral("en");
    return code;
}

// lupdate does not read C++17's `namespace alignscope::ui {`, so the catalogues name a class's
// context without it ("MainWindow"); tr() asks with it ("alignscope::ui::MainWindow").
class UnqualifiedTranslator : public QTranslator {
public:
    using QTranslator::QTranslator;
    QString translate(const char* context, const char* sourceText, const char* disambiguation, int n) const override {
        QByteArray name(context ? context : "");
        const int colons = name.lastIndexOf("::");
        if (colons >= 0) name = name.mid(colons + 2);
        return QTranslator::translate(name.constData(), sourceText, disambiguation, n);
    }
};

}  // namespace

QString UiLanguage::current() { return currentCode(); }

QStringList UiLanguage::available() { return {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("fr"), QStringLiteral("ko")}; }

QString UiLanguage::nativeName(const QString& code) {
    if (code == QLatin1String("de")) return QStringLiteral("Deutsch");
    if (code == QLatin1String("fr")) return QStringLiteral("Français");
    if (code == QLatin1String("ko")) return QStringLiteral("한국어");
    return QStringLiteral("English");
}

QString UiLanguage::saved() { return QSettings().value(kSettingsKey).toString(); }

void UiLanguage::save(const QString& code) {
    QSettings settings;
    if (code.isEmpty()) settings.remove(kSettingsKey);
    else settings.setValue(kSettingsKey, code);
}

QString UiLanguage::choose(const QString& commandLine) {
    if (!commandLine.isEmpty()) return commandLine;
    if (const QString s = saved(); available().contains(s)) return s;
    // uiLanguages() follows LANGUAGE, LC_ALL, LC_MESSAGES and LANG, first that is set.
    for (const QString& name : QLocale::system().uiLanguages()) {
        const QString code = name.section(QLatin1Char('-'), 0, 0).section(QLatin1Char('_'), 0, 0).toLower();
        if (available().contains(code)) return code;
    }
    return QStringLiteral("en");
}

QString UiLanguage::translationsDirectory() {
    const QByteArray given = qgetenv("ALIGNSCOPE_TRANSLATIONS");
    if (!given.isEmpty()) return QString::fromLocal8Bit(given);
    return QDir(QString::fromStdString(core::InstallLayout::dataDirectory())).filePath(QStringLiteral("translations"));
}

bool UiLanguage::install(const QString& code) {
    // The catalogues of a language installed before go (tests switch languages in one process).
    static QList<QTranslator*> installed;
    for (auto* t : installed) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
    installed.clear();
    currentCode() = QStringLiteral("en");
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    if (code == QLatin1String("en")) return true;
    auto* translator = new UnqualifiedTranslator;
    if (!translator->load(QStringLiteral("alignscope_") + code, translationsDirectory())) {
        delete translator;
        return false;
    }
    installed << translator;
    // Qt's own words (a file dialog's buttons), where Debian's qt6-translations-l10n is installed.
    auto* qtBase = new QTranslator;
    if (qtBase->load(QStringLiteral("qtbase_") + code, QLibraryInfo::path(QLibraryInfo::TranslationsPath))) installed << qtBase;
    else delete qtBase;
    for (auto* t : installed) QCoreApplication::installTranslator(t);
    currentCode() = code;
    QLocale::setDefault(QLocale(code));
    return true;
}

QString UiLanguage::number(double value, int precision) {
    QLocale locale;
    locale.setNumberOptions(QLocale::OmitGroupSeparator);
    return locale.toString(value, 'f', precision);
}

}  // namespace alignscope::ui
