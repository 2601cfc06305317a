#include "ui/FigureOptions.h"

#include <QCoreApplication>
#include <QLocale>

#include "core/model/Model.h"
#include "core/text/PieceText.h"

namespace alignscope::ui {

size_t FigureOptions::shownColumns(const std::vector<std::string>& tokens, const std::vector<int>& words) const {
    const size_t S = tokens.size();
    const bool endIsEos = S > 1 && words.size() == S && words.back() == -1 && !core::Model::endsWithPaddingColumn(tokens) &&
                          !tokenLabel(tokens.back()).startsWith(QStringLiteral("\u2423"));
    return endColumn != EndColumn::Keep && endIsEos ? S - 1 : S;
}

QString FigureOptions::tokenLabel(const std::string& token) {
    const QString s = QString::fromStdString(token);
    return !s.isEmpty() && s.trimmed().isEmpty() ? QString(QChar(0x2423)).repeated(s.size()) : s;
}

std::vector<QString> FigureOptions::tokenLabels(const std::vector<std::string>& tokens) {
    std::vector<QString> out;
    for (const auto& l : core::PieceText::labels(tokens)) out.push_back(tokenLabel(l));
    return out;
}

QString FigureOptions::sideLabel(const QString& side, const std::string& languageCode, const QString& detail) {
    QStringList parts;
    if (!languageCode.empty()) {
        const QLocale locale(QString::fromStdString(languageCode));
        // QLocale falls back to C for a code it does not know: then the code itself is the name.
        // Qt names a language in English only: the shipped models' languages are in the catalogues.
        [[maybe_unused]] static const char* const kTranslated[] = {
            QT_TRANSLATE_NOOP("FigureOptions", "English"), QT_TRANSLATE_NOOP("FigureOptions", "French"),
            QT_TRANSLATE_NOOP("FigureOptions", "German"), QT_TRANSLATE_NOOP("FigureOptions", "Korean")};
        parts << (locale.language() == QLocale::C
                      ? QString::fromStdString(languageCode)
                      : QCoreApplication::translate("FigureOptions", QLocale::languageToString(locale.language()).toUtf8().constData()));
    }
    if (!detail.isEmpty()) parts << detail;
    return parts.isEmpty() ? side : side + QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

}  // namespace alignscope::ui
