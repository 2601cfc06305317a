// The app in other languages (docs/languages.md): every catalogue complete, the language chosen
// from the command line, View > Language or the system locale, numbers in prose in the language's
// notation, and a walk over the window at 1024x768 in a pseudo-locale (every catalogue string
// wrapped and 40 % longer) and in German, French and Korean: no English left, no text cut.
#include "ui/DecodingDocument.h"
#include "ui/ExportDialog.h"
#include "ui/FigureExporter.h"
#include "ui/MainWindow.h"
#include "ui/StepExplainedPanel.h"
#include "ui/UiLanguage.h"

#include "core/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMap>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QToolBar>
#include <QToolButton>
#include <QTranslator>
#include <QXmlStreamReader>

#include <memory>

using namespace alignscope;

namespace {

const QString kCatalogues = QStringLiteral(ALIGNSCOPE_TRANSLATIONS_SOURCE);

// One catalogue's messages: context, source and translation, and whether any is unfinished.
struct Message {
    QString context, source, translation;
    bool unfinished = false;
};

std::vector<Message> readCatalogue(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    QXmlStreamReader xml(&file);
    std::vector<Message> out;
    QString context;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("name")) context = xml.readElementText();
        else if (xml.name() == QLatin1String("message")) out.push_back({context, {}, {}, false});
        else if (xml.name() == QLatin1String("source") && !out.empty()) out.back().source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation") && !out.empty()) {
            const auto type = xml.attributes().value(QLatin1String("type"));
            out.back().unfinished = !type.isEmpty();  // unfinished, obsolete or vanished
            out.back().translation = xml.readElementText();
        }
    }
    EXPECT_FALSE(xml.hasError()) << path.toStdString() << ": " << xml.errorString().toStdString();
    return out;
}

// The pseudo-locale: letters accented, markup, %1 placeholders, entities and mnemonics kept, the
// whole 40 % longer and bracketed, so a string that did not go through the catalogue stands out and
// a widget too small for a longer language shows it.
QString pseudo(const QString& s) {
    static const QString plain = QStringLiteral("aceinostuyACEINOSTUY");
    static const QString accented = QStringLiteral("áçéîñöŝţüýÅÇÉÎÑÖŜŢÜÝ");
    QString out;
    for (int i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('%') && i + 1 < s.size() && s[i + 1].isDigit()) {
            out += s.mid(i, 2);
            ++i;
        } else if (c == QLatin1Char('<')) {
            const int end = s.indexOf(QLatin1Char('>'), i);
            if (end < 0) {
                out += s.mid(i);
                break;
            }
            out += s.mid(i, end - i + 1);
            i = end;
        } else if (c == QLatin1Char('&') && s.indexOf(QLatin1Char(';'), i) > i && s.indexOf(QLatin1Char(';'), i) - i < 8 &&
                   !s.mid(i + 1, s.indexOf(QLatin1Char(';'), i) - i - 1).contains(QLatin1Char(' '))) {
            const int end = s.indexOf(QLatin1Char(';'), i);
            out += s.mid(i, end - i + 1);
            i = end;
        } else {
            const int k = static_cast<int>(plain.indexOf(c));
            out += k >= 0 ? accented[k] : c;
        }
    }
    // In words of four, so a wrapped label can break the padding as it would a longer sentence.
    QString padding;
    for (int k = 0; k < static_cast<int>(0.4 * static_cast<double>(s.size())) - 8; ++k)
        padding += k % 5 == 4 ? QChar(QLatin1Char(' ')) : QChar(0x2219);
    return QStringLiteral("[!! ") + out + padding + QStringLiteral(" !!]");
}

// Answers every string of the catalogues (their sources, as the German one lists them) with its
// pseudo form; a string the catalogues lack stays English, which the walk then reports.
class PseudoTranslator : public QTranslator {
public:
    PseudoTranslator() {
        for (const auto& m : readCatalogue(kCatalogues + QStringLiteral("/alignscope_de.ts")))
            known_.insert(m.context + QLatin1Char('\n') + m.source);
    }
    bool isEmpty() const override { return false; }
    QString translate(const char* context, const char* sourceText, const char* /*disambiguation*/, int /*n*/) const override {
        QString name = QString::fromUtf8(context);
        name = name.mid(name.lastIndexOf(QStringLiteral("::")) + (name.contains(QStringLiteral("::")) ? 2 : 0));
        const QString source = QString::fromUtf8(sourceText);
        return known_.contains(name + QLatin1Char('\n') + source) ? pseudo(source) : QString();
    }

private:
    QSet<QString> known_;
};

QString plainText(const QString& text) {
    if (!Qt::mightBeRichText(text)) return text;
    QTextDocument d;
    d.setHtml(text);
    return d.toPlainText();
}

// English words outside every pseudo bracket: a string that did not go through tr().
bool englishLeft(const QString& text) {
    QString rest = plainText(text);
    // Innermost brackets first: a translated phrase may sit inside a translated sentence.
    const QRegularExpression bracket(QStringLiteral("\\[!! (?:(?!\\[!! ).)*? !!\\]"), QRegularExpression::DotMatchesEverythingOption);
    for (QString before; before != rest;) {
        before = rest;
        rest.remove(bracket);
    }
    // A tooltip's keys, "(Ctrl+O)", are Qt's names of the keys (qtbase's catalogue translates them).
    rest.remove(
        QRegularExpression(QStringLiteral("\\((?:[A-Za-z]+\\+)*(?:[A-Z0-9]|F\\d+|Left|Right|Up|Down|Esc|PgUp|PgDown|Home|End)\\)$")));
    rest.remove(QLatin1Char('&'));
    return rest.contains(QRegularExpression(QStringLiteral("[A-Za-z]{3,}")));
}

// A window walked as its user sees it: every visible text, and whether it has the room it needs.
class Walk {
public:
    Walk(ui::MainWindow* window, const QString& code) : window_(window), code_(code) {}

    // `checkEnglish`: the pseudo-locale, where every text of the app must be bracketed.
    // `dialog`: a dialog of the window, walked as well (its widgets only).
    QStringList problems(bool checkEnglish, QWidget* dialog = nullptr) {
        QStringList out;
        const auto english = [&](const QString& where, const QString& text) {
            if (checkEnglish && !text.isEmpty() && englishLeft(text))
                out << QStringLiteral("English left in %1: '%2'").arg(where, text.left(80));
        };
        // What shows data (the sentence, its tokens, the translation, lesson texts) is not the app's words.
        const QStringList data = {QStringLiteral("sourceEdit"), QStringLiteral("targetEdit"), QStringLiteral("translationLabel"),
                                  QStringLiteral("lessonText")};
        QList<QWidget*> widgets = window_->findChildren<QWidget*>();
        if (dialog) widgets << dialog << dialog->findChildren<QWidget*>();
        for (QWidget* w : widgets) {
            if (!w->isVisible() || w->visibleRegion().isEmpty()) continue;
            const bool isData = data.contains(w->objectName()) || w == window_->tokensLabel();
            if (!isData) english(QStringLiteral("the tooltip of %1").arg(w->metaObject()->className()), w->toolTip());
            if (auto* label = qobject_cast<QLabel*>(w)) {
                if (!isData) english(QStringLiteral("a label"), label->text());
                // Text that runs past the right edge of the panel that scrolls it.
                for (QWidget* up = label->parentWidget(); up; up = up->parentWidget())
                    if (auto* area = qobject_cast<QScrollArea*>(up)) {
                        if (label->mapTo(area->viewport(), QPoint(label->width(), 0)).x() > area->viewport()->width() + 1)
                            out << QStringLiteral("label past its panel's right edge: '%1'").arg(plainText(label->text()).left(80));
                        break;
                    }
                if (!label->text().isEmpty() && label->pixmap().isNull()) {
                    const QSize need = label->sizeHint();
                    if (label->wordWrap() ? label->heightForWidth(label->width()) > label->height() + 1
                                          : need.width() > label->width() + 1 || need.height() > label->height() + 1)
                        out << QStringLiteral("cut label (%1x%2 in %3x%4): '%5'")
                                   .arg(need.width())
                                   .arg(need.height())
                                   .arg(label->width())
                                   .arg(label->height())
                                   .arg(plainText(label->text()).left(80));
                }
            } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
                // A dialog's standard buttons (Cancel) are Qt's words: qtbase's catalogue translates them.
                if (!qobject_cast<QDialogButtonBox*>(button->parentWidget())) english(QStringLiteral("a button"), button->text());
                if (!button->text().isEmpty() && button->sizeHint().width() > button->width() + 1)
                    out << QStringLiteral("cut button (%1 in %2): '%3'")
                               .arg(button->sizeHint().width())
                               .arg(button->width())
                               .arg(button->text());
                if (button->objectName() == QLatin1String("qt_toolbar_ext_button"))
                    out << QStringLiteral("a toolbar's actions hide behind its overflow arrow");
            } else if (auto* edit = qobject_cast<QLineEdit*>(w)) {
                english(QStringLiteral("a field's placeholder"), edit->placeholderText());
            } else if (auto* dock = qobject_cast<QDockWidget*>(w)) {
                english(QStringLiteral("a panel's title"), dock->windowTitle());
                // The title bar shares the width with its float and close buttons.
                const int need = dock->fontMetrics().horizontalAdvance(dock->windowTitle()) +
                                 2 * dock->style()->pixelMetric(QStyle::PM_DockWidgetTitleBarButtonMargin) + 44;
                if (!dock->titleBarWidget() && !dock->isFloating() && need > dock->width())
                    out << QStringLiteral("cut panel title (%1 in %2): '%3'").arg(need).arg(dock->width()).arg(dock->windowTitle());
            } else if (auto* tabs = qobject_cast<QTabBar*>(w)) {
                for (int k = 0; k < tabs->count(); ++k) {
                    english(QStringLiteral("a tab"), tabs->tabText(k));
                    if (tabs->fontMetrics().horizontalAdvance(tabs->tabText(k)) > tabs->tabRect(k).width() ||
                        tabs->tabRect(k).right() > tabs->width())
                        out << QStringLiteral("cut tab '%1'").arg(tabs->tabText(k));
                }
            }
        }
        english(QStringLiteral("the window title"), window_->windowTitle());
        // Menus: every entry's words, and the menu bar holding every menu without an overflow.
        QMenuBar* bar = window_->menuBar();
        for (QAction* top : bar->actions()) {
            english(QStringLiteral("the menu bar"), top->text());
            if (bar->isVisible() && (bar->actionGeometry(top).isEmpty() || bar->actionGeometry(top).right() > bar->width()))
                out << QStringLiteral("menu '%1' does not fit the menu bar").arg(top->text());
            if (top->menu()) walkMenu(top->menu(), english);
        }
        if (code_ != QLatin1String("pseudo")) out += mnemonics_;
        mnemonics_.clear();
        for (QToolBar* toolBar : window_->toolBars()) {
            english(QStringLiteral("a toolbar's name"), toolBar->windowTitle());
            for (QAction* a : toolBar->actions()) english(QStringLiteral("a toolbar tooltip"), a->toolTip());
        }
        return out;
    }

private:
    template <typename F>
    void walkMenu(QMenu* menu, const F& english) {
        // Recent files and lessons are named by their files; the languages by their own names.
        if (menu == window_->recentMenu()) return;
        // One key per entry: Alt and a letter that two entries share only selects between them.
        QMap<QChar, QString> keys;
        for (QAction* a : menu->actions()) {
            const QString text = QString(a->text()).replace(QStringLiteral("&&"), QString());
            if (const int at = static_cast<int>(text.indexOf(QLatin1Char('&'))); at >= 0 && at + 1 < text.size() && a->isVisible()) {
                const QChar key = text[at + 1].toLower();
                if (keys.contains(key))
                    mnemonics_ << QStringLiteral("menu '%1': '%2' and '%3' share Alt+%4").arg(menu->title(), keys[key], a->text(), key);
                keys[key] = a->text();
            }
        }
        for (QAction* a : menu->actions()) {
            if (a->isSeparator()) continue;
            const bool named = a->objectName().startsWith(QLatin1String("language-")) && a->objectName() != QLatin1String("language-none");
            const bool lesson = a->text().contains(QRegularExpression(QStringLiteral("^&?\\d+ ")));
            if (!named && !lesson) {
                english(QStringLiteral("menu '%1'").arg(menu->title()), a->text());
                if (a->toolTip() != a->text()) english(QStringLiteral("a menu entry's tooltip"), a->toolTip());
            }
            if (a->menu()) walkMenu(a->menu(), english);
        }
    }
    ui::MainWindow* window_;
    QString code_;
    QStringList mnemonics_;
};

// The app's settings are the test process's own (GuiTest.cpp's main); each test leaves English.
class Language : public ::testing::Test {
protected:
    void TearDown() override {
        QCoreApplication::removeTranslator(&pseudo_);
        ui::UiLanguage::install(QStringLiteral("en"));
        ui::UiLanguage::save(QString());
    }
    void speak(const QString& code) {
        if (code == QLatin1String("pseudo")) {
            ui::UiLanguage::install(QStringLiteral("en"));
            QCoreApplication::installTranslator(&pseudo_);
        } else {
            ASSERT_TRUE(ui::UiLanguage::install(code))
                << "no catalogue for " << code.toStdString() << " in " << ui::UiLanguage::translationsDirectory().toStdString();
        }
    }
    PseudoTranslator pseudo_;
};

}  // namespace

TEST_F(Language, EveryCatalogueIsCompleteWithTheSourcesPlaceholdersAndMarkup) {
    const auto german = readCatalogue(kCatalogues + QStringLiteral("/alignscope_de.ts"));
    ASSERT_GT(german.size(), 250u);
    for (const QString& code : ui::UiLanguage::available()) {
        if (code == QLatin1String("en")) continue;
        const auto messages = readCatalogue(kCatalogues + QStringLiteral("/alignscope_%1.ts").arg(code));
        EXPECT_EQ(messages.size(), german.size()) << code.toStdString() << " lists other strings than de";
        const QRegularExpression placeholder(QStringLiteral("%\\d")), tag(QStringLiteral("</?[a-z]+"));
        const auto all = [](const QRegularExpression& re, const QString& s) {
            QStringList found;
            for (auto it = re.globalMatch(s); it.hasNext();) found << it.next().captured();
            found.sort();
            found.removeDuplicates();
            return found;
        };
        for (const auto& m : messages) {
            const std::string where = code.toStdString() + " " + m.context.toStdString() + ": " + m.source.toStdString();
            EXPECT_FALSE(m.unfinished) << where;
            EXPECT_FALSE(m.translation.trimmed().isEmpty() && !m.source.trimmed().isEmpty()) << where;
            EXPECT_EQ(all(placeholder, m.translation), all(placeholder, m.source)) << where;
            EXPECT_EQ(all(tag, m.translation), all(tag, m.source)) << where;
            EXPECT_LE(m.translation.count(QLatin1Char('&')) - m.translation.count(QStringLiteral("&&")),
                      std::max<qsizetype>(1, m.source.count(QLatin1Char('&'))))
                << where << ": one mnemonic";
        }
    }
}

TEST_F(Language, TheBuiltCataloguesTranslateTheWindow) {
    for (const auto& [code, file] : {std::pair{"de", "&Datei"}, std::pair{"fr", "&Fichier"}, std::pair{"ko", "파일(&F)"}}) {
        speak(QString::fromLatin1(code));
        EXPECT_EQ(ui::UiLanguage::current(), QString::fromLatin1(code));
        ui::DecodingDocument document;
        ui::MainWindow window(&document);
        EXPECT_EQ(window.menuBar()->actions().value(0)->text(), QString::fromUtf8(file)) << code;
    }
}

TEST_F(Language, ViewLanguageSavesTheChoiceForTheNextStart) {
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    auto* german = window.findChild<QAction*>(QStringLiteral("language-de"));
    ASSERT_NE(german, nullptr);
    german->trigger();
    EXPECT_EQ(ui::UiLanguage::saved(), QStringLiteral("de"));
    EXPECT_EQ(ui::UiLanguage::choose(QString()), QStringLiteral("de"));
    EXPECT_EQ(ui::UiLanguage::choose(QStringLiteral("fr")), QStringLiteral("fr")) << "--language wins over the saved choice";
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("Deutsch"))) << window.statusText().toStdString();
    window.findChild<QAction*>(QStringLiteral("language-none"))->trigger();
    EXPECT_EQ(ui::UiLanguage::saved(), QString());
}

TEST_F(Language, TheAppTakesItsLanguageFromTheCommandLineElseTheSystemLocale) {
    QTemporaryDir home;
    const auto languageOf = [&](const QString& lang, const QStringList& extra) {
        QProcess app;
        auto env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES"}) env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("LANG"), lang);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(env);
        const QString shot = home.filePath(QStringLiteral("shot.png")), report = home.filePath(QStringLiteral("view.json"));
        app.start(QStringLiteral(ALIGNSCOPE_APP),
                  QStringList{QStringLiteral("--screenshot"), shot, QStringLiteral("--size"), QStringLiteral("1024x768"),
                              QStringLiteral("--view-report"), report, QStringLiteral("--steps"), QStringLiteral("1")} +
                      extra);
        EXPECT_TRUE(app.waitForFinished(60000));
        EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().toStdString();
        QFile file(report);
        if (!file.open(QIODevice::ReadOnly)) return QString();
        return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("language")).toString();
    };
    EXPECT_EQ(languageOf(QStringLiteral("de_DE.UTF-8"), {}), QStringLiteral("de"));
    EXPECT_EQ(languageOf(QStringLiteral("ko_KR.UTF-8"), {}), QStringLiteral("ko"));
    EXPECT_EQ(languageOf(QStringLiteral("ja_JP.UTF-8"), {}), QStringLiteral("en")) << "a language the app does not speak: English";
    EXPECT_EQ(languageOf(QStringLiteral("de_DE.UTF-8"), {QStringLiteral("--language"), QStringLiteral("fr")}), QStringLiteral("fr"));
}

TEST_F(Language, NumbersInProseTakeTheLanguagesDecimalSignDataKeepsADot) {
    speak(QStringLiteral("de"));
    EXPECT_EQ(ui::UiLanguage::number(0.5, 2), QStringLiteral("0,50"));
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    document.openModel(QString::fromStdString(core::Runtime::defaultModelPath()));
    window.show();
    window.showStepPanel(true);  // Step explained renders while it shows
    window.setSourceText(QStringLiteral("The red car is very fast."));
    document.step();
    ASSERT_TRUE(window.waitUntilIdle());
    const auto* softmax = window.stepPanel()->findChild<QLabel*>(QStringLiteral("stepPart3"));
    ASSERT_NE(softmax, nullptr);
    const QString text = plainText(softmax->text());
    EXPECT_TRUE(text.contains(QRegularExpression(QStringLiteral("\\d,\\d{3}")))) << text.toStdString();
    EXPECT_FALSE(text.contains(QRegularExpression(QStringLiteral("\\d\\.\\d")))) << text.toStdString();
    // The matrix exported from the German window: a dot, as every program reading CSV expects.
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("alpha.csv"));
    ui::FigureExporter::Settings settings;
    settings.format = ui::FigureExporter::Format::Csv;
    ui::FigureExporter().write(*document.state(), ui::FigureOptions{}, settings, csv);
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString data = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(data.contains(QRegularExpression(QStringLiteral("0\\.\\d")))) << data.toStdString();
}

// The window at a small projector's size in each language, and on the stage: Step explained, the
// candidates and the status line after a few steps.
class LanguageLayout : public Language, public ::testing::WithParamInterface<std::tuple<const char*, bool>> {};

TEST_P(LanguageLayout, NothingEnglishLeftNothingCutAt1024x768) {
    const QString code = QString::fromLatin1(std::get<0>(GetParam()));
    const bool presenter = std::get<1>(GetParam());
    speak(code);
    QSettings().remove(QStringLiteral("window"));
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.show();
    window.resize(1024, 768);
    if (presenter) window.setPresenterMode(true, /*fillScreen=*/false);
    document.openModel(QString::fromStdString(core::Runtime::defaultModelPath()));
    window.setSourceText(QStringLiteral("The red car is very fast."));
    window.showStepPanel(true);
    for (int k = 0; k < 3; ++k) document.step();
    ASSERT_TRUE(window.waitUntilIdle());
    for (int k = 0; k < 3; ++k) QApplication::processEvents();
    // LANGUAGE_SHOTS=folder: the window as walked, to look at.
    if (const QString shots = qEnvironmentVariable("LANGUAGE_SHOTS"); !shots.isEmpty())
        window.grab().save(
            QDir(shots).filePath(QStringLiteral("%1-%2.png").arg(code, presenter ? QStringLiteral("stage") : QStringLiteral("window"))));
    for (const QString& p : Walk(&window, code).problems(code == QLatin1String("pseudo"))) ADD_FAILURE() << p.toStdString();
    // A second model beside the first (its panel's summary and titles), then a training run (its
    // slider's line and loss curve).
    const QString models = QString::fromStdString(core::Runtime::modelsDirectory());
    window.openComparison(QDir(models).filePath(QStringLiteral("en-fr-subword-bahdanau.pt")));
    ASSERT_TRUE(window.waitUntilIdle());
    for (int k = 0; k < 3; ++k) QApplication::processEvents();
    for (const QString& p : Walk(&window, code).problems(code == QLatin1String("pseudo")))
        ADD_FAILURE() << "comparing: " << p.toStdString();
    ASSERT_TRUE(window.openTimeline(QDir(models).filePath(QStringLiteral("dates-run"))));
    ASSERT_TRUE(window.waitUntilIdle());
    for (int k = 0; k < 3; ++k) QApplication::processEvents();
    if (const QString shots = qEnvironmentVariable("LANGUAGE_SHOTS"); !shots.isEmpty())
        window.grab().save(QDir(shots).filePath(
            QStringLiteral("%1-%2-run.png").arg(code, presenter ? QStringLiteral("stage") : QStringLiteral("window"))));
    for (const QString& p : Walk(&window, code).problems(code == QLatin1String("pseudo")))
        ADD_FAILURE() << "training run: " << p.toStdString();
    // File > Export…'s dialog, at its own size, over the window.
    ui::ExportDialog dialog(document.state(), {}, &window);
    dialog.show();
    for (int k = 0; k < 3; ++k) QApplication::processEvents();
    if (const QString shots = qEnvironmentVariable("LANGUAGE_SHOTS"); !shots.isEmpty() && !presenter)
        dialog.grab().save(QDir(shots).filePath(QStringLiteral("%1-export.png").arg(code)));
    for (const QString& p : Walk(&window, code).problems(code == QLatin1String("pseudo"), &dialog))
        ADD_FAILURE() << "export dialog: " << p.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Languages, LanguageLayout,
                         ::testing::Combine(::testing::Values("pseudo", "en", "de", "fr", "ko"), ::testing::Bool()), [](const auto& info) {
                             return std::string(std::get<0>(info.param)) + (std::get<1>(info.param) ? "_stage" : "_window");
                         });
