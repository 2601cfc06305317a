#include "ui/BeamPanel.h"

#include "core/inspection/DecodingState.h"

#include <QFontMetrics>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace alignscope::ui {

namespace {

QStringList words(const std::string& text) { return QString::fromStdString(text).split(QLatin1Char(' '), Qt::SkipEmptyParts); }

}  // namespace

BeamPanel::BeamPanel(QWidget* parent) : QWidget(parent), list_(new QListWidget) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* header = new QLabel(tr("score · hypothesis (score = log P / length, higher is better; ↑↓ to pick)"));
    header->setWordWrap(true);
    layout->addWidget(header);
    list_->setObjectName(QStringLiteral("beamList"));
    list_->setTextElideMode(Qt::ElideRight);
    list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // shortened to the width, not scrolled
    list_->setFocusPolicy(Qt::NoFocus);                           // a Tab stop once it has hypotheses (fill())
    layout->addWidget(list_, 1);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row != selected_) emit hypothesisChosen(row);
    });
}

void BeamPanel::render(const core::DecodingState& s) {
    texts_.clear();
    scores_.clear();
    for (size_t k = 0; k < s.beam.size(); ++k) {
        texts_.push_back(k < s.beamTexts.size() ? s.beamTexts[k] : std::string());
        scores_.push_back(s.beam[k].score);
    }
    selected_ = s.selectedHypothesis;
    fill();
}

void BeamPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!texts_.empty()) fill();
}

void BeamPanel::fill() {
    const QSignalBlocker block(list_);
    list_->clear();
    const QFontMetrics metrics(list_->font());
    for (size_t k = 0; k < texts_.size(); ++k) {
        const QString score = QStringLiteral("%1  ").arg(scores_[k], 7, 'f', 3);
        const int width = list_->viewport()->width() - metrics.horizontalAdvance(score) - 2 * list_->frameWidth() - 8;
        auto* item = new QListWidgetItem(score + shownText(texts_, k, metrics, width), list_);
        item->setToolTip(QString::fromStdString(texts_[k]));
    }
    list_->setCurrentRow(selected_);
    // No Tab stop while empty: an empty list has no row to draw the focus mark on.
    list_->setFocusPolicy(texts_.empty() ? Qt::NoFocus : Qt::StrongFocus);
}

QString BeamPanel::shownText(const std::vector<std::string>& texts, size_t k, const QFontMetrics& metrics, int width) {
    const QString whole = QString::fromStdString(texts[k]);
    if (metrics.horizontalAdvance(whole) <= width || texts.size() < 2) return metrics.elidedText(whole, Qt::ElideRight, width);
    const QStringList mine = words(texts[k]);
    // Where it differs from the best hypothesis (the best: from the runner-up), the list's anchor.
    const QStringList theirs = words(texts[k == 0 ? 1 : 0]);
    qsizetype prefix = 0;
    while (prefix < mine.size() && prefix < theirs.size() && mine[prefix] == theirs[prefix]) ++prefix;
    qsizetype suffix = 0;
    while (suffix < mine.size() - prefix && suffix < theirs.size() - prefix &&
           mine[mine.size() - 1 - suffix] == theirs[theirs.size() - 1 - suffix])
        ++suffix;
    QStringList shown;
    const QString ellipsis(QChar(0x2026));
    if (prefix > 1) shown << ellipsis;
    for (qsizetype i = std::max<qsizetype>(0, prefix - 1); i < mine.size() - std::max<qsizetype>(0, suffix - 1); ++i) shown << mine[i];
    if (suffix > 1) shown << ellipsis;
    return metrics.elidedText(shown.join(QLatin1Char(' ')), Qt::ElideRight, width);
}

}  // namespace alignscope::ui
