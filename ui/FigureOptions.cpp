#include "ui/FigureOptions.h"

#include "core/model/Model.h"

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

}  // namespace alignscope::ui
