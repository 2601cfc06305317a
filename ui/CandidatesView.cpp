#include "ui/CandidatesView.h"

#include "ui/FigureOptions.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace alignscope::ui {
CandidatesView::CandidatesView(QWidget* parent) : QWidget(parent) {
    setMinimumWidth(220);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(
        tr("Next-token candidates of this step. Click one, press its number (1-9), or pick it with "
           "Up/Down and Enter, to force it and decode on from there. With a sub-word model, a piece "
           "starting with ▁ begins a word; one without it continues the word before."));
}

int CandidatesView::rowHeight() const { return std::max(24, fontMetrics().height() + 8); }

int CandidatesView::numberWidth() const { return fontMetrics().horizontalAdvance(QStringLiteral("0.000")) + 10; }

// Numbered as the keys 1-9 that pick them; a forced token from outside the top k says so.
QString CandidatesView::rowText(size_t i) const {
    const QString token = FigureOptions::tokenLabel(candidates_[i].token);
    if (lastOutsideTop_ && i + 1 == candidates_.size()) return tr("not in top %1: %2").arg(candidates_.size() - 1).arg(token);
    return i < 9 ? QStringLiteral("%1  %2").arg(i + 1).arg(token) : token;
}

// As wide as the widest label, within a third of the row: long words elide only past that.
int CandidatesView::labelWidth() const {
    int widest = fontMetrics().horizontalAdvance(QStringLiteral("9 wwwww"));
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    for (size_t i = 0; i < candidates_.size(); ++i) widest = std::max(widest, fm.horizontalAdvance(rowText(i)));
    return std::min(widest + 12, std::max(110, (width() - numberWidth()) / 2));
}

void CandidatesView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        setMinimumHeight(static_cast<int>(candidates_.size()) * rowHeight() + 8);
        updateGeometry();
    }
}

void CandidatesView::focusInEvent(QFocusEvent* event) {
    QWidget::focusInEvent(event);
    update();
    QTimer::singleShot(0, this, [this] { showCursor(); });
}

// Tab out of the list: the scroll area then shows its last focused child's bottom edge, which for
// a list taller than the panel scrolled the first candidate out of view. The cursor's row back.
void CandidatesView::focusOutEvent(QFocusEvent* event) {
    QWidget::focusOutEvent(event);
    update();
    QTimer::singleShot(0, this, [this] { showCursor(); });
}

void CandidatesView::showCursor() {
    for (QWidget* w = parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(w)) {
            const QRect r = barRect(cursor_);
            area->ensureVisible(r.center().x(), r.center().y(), 0, r.height() / 2 + 4);
            return;
        }
}

void CandidatesView::keyPressEvent(QKeyEvent* event) {
    const int n = static_cast<int>(candidates_.size());
    if (event->key() == Qt::Key_Down && n > 0) cursor_ = std::min(cursor_ + 1, n - 1);
    else if (event->key() == Qt::Key_Up && n > 0) cursor_ = std::max(cursor_ - 1, 0);
    else if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) && enabled_ &&
             cursor_ < n) {
        emit candidateChosen(candidates_[static_cast<size_t>(cursor_)].id);
        return;
    } else {
        QWidget::keyPressEvent(event);
        return;
    }
    showCursor();
    update();
}

void CandidatesView::render(const core::DecodingState& s) {
    const auto* step = s.currentStep();
    auto candidates = step ? step->candidates : std::vector<core::Candidate>{};
    const bool outside =
        step && std::none_of(candidates.begin(), candidates.end(), [step](const auto& c) { return c.id == step->tokenId; });
    if (outside) candidates.push_back({step->tokenId, step->token, static_cast<float>(std::exp(step->logProb))});
    setCandidates(std::move(candidates), step ? step->tokenId : -1, !s.teacherForced && s.selectedHypothesis < 0, outside);
}

void CandidatesView::setCandidates(std::vector<core::Candidate> candidates, int64_t chosen, bool enabled, bool lastOutsideTop) {
    candidates_ = std::move(candidates);
    lastOutsideTop_ = lastOutsideTop && !candidates_.empty();
    chosen_ = chosen;
    enabled_ = enabled;
    cursor_ = 0;
    setMinimumHeight(static_cast<int>(candidates_.size()) * rowHeight() + 8);
    updateGeometry();
    update();
}

QSize CandidatesView::sizeHint() const {
    return {std::max(260, labelWidth() + numberWidth() + 80), std::max(120, static_cast<int>(candidates_.size()) * rowHeight() + 8)};
}

QRect CandidatesView::barRect(int index) const { return {4, 4 + index * rowHeight(), width() - 8, rowHeight() - 4}; }

void CandidatesView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (hasFocus()) {  // the focus mark
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawRect(rect().adjusted(1, 1, -1, -1));
    }
    if (candidates_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Step to see the next-token candidates"));
        return;
    }
    const int labelW = labelWidth(), numberW = numberWidth();
    for (size_t i = 0; i < candidates_.size(); ++i) {
        const auto& c = candidates_[i];
        const QRect r = barRect(static_cast<int>(i));
        const QRect label(r.left(), r.top(), labelW, r.height());
        const QRect bar(r.left() + labelW, r.top() + 2, std::max(10, r.width() - labelW - numberW), r.height() - 4);
        const bool chosen = c.id == chosen_;
        p.setPen(palette().color(QPalette::WindowText));
        QFont f = font();
        f.setBold(chosen);
        p.setFont(f);
        const QFontMetrics fm(f);
        const QString text = rowText(i);
        if (lastOutsideTop_ && i + 1 == candidates_.size()) {  // apart from the top k: a dashed rule above it
            p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
            p.drawLine(r.left(), r.top() - 2, r.right(), r.top() - 2);
            p.setPen(palette().color(QPalette::WindowText));
        }
        p.drawText(label.adjusted(0, 0, -6, 0), Qt::AlignVCenter | Qt::AlignRight, fm.elidedText(text, Qt::ElideRight, labelW - 8));
        if (hasFocus() && static_cast<int>(i) == cursor_) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(r.adjusted(1, 1, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
        }
        p.fillRect(bar, palette().color(QPalette::AlternateBase));
        QRect filled = bar;
        filled.setWidth(std::max(1, static_cast<int>(bar.width() * c.probability)));
        p.fillRect(filled, chosen ? QColor("#ff7f0e") : QColor("#1f77b4"));
        p.drawText(QRect(bar.right() + 4, r.top(), numberW, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
                   QString::number(c.probability, 'f', 3));
    }
}

void CandidatesView::mousePressEvent(QMouseEvent* event) {
    if (!enabled_) return;
    for (size_t i = 0; i < candidates_.size(); ++i)
        if (barRect(static_cast<int>(i)).contains(event->position().toPoint())) {
            emit candidateChosen(candidates_[i].id);
            return;
        }
}

}  // namespace alignscope::ui
