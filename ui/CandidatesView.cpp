#include "ui/CandidatesView.h"

#include "ui/FigureOptions.h"

#include <QMouseEvent>
#include <QPainter>

namespace alignscope::ui {
namespace {
constexpr int kRowHeight = 24;
constexpr int kLabelWidth = 110;
}  // namespace

CandidatesView::CandidatesView(QWidget* parent) : QWidget(parent) {
    setMinimumWidth(220);
    setToolTip(tr("Next-token candidates of this step. Click one to force it and decode on from there."));
}

void CandidatesView::setCandidates(std::vector<core::Candidate> candidates, int64_t chosen, bool enabled) {
    candidates_ = std::move(candidates);
    chosen_ = chosen;
    enabled_ = enabled;
    setMinimumHeight(static_cast<int>(candidates_.size()) * kRowHeight + 8);
    updateGeometry();
    update();
}

QSize CandidatesView::sizeHint() const { return {260, std::max(120, static_cast<int>(candidates_.size()) * kRowHeight + 8)}; }

QRect CandidatesView::barRect(int index) const { return {4, 4 + index * kRowHeight, width() - 8, kRowHeight - 4}; }

void CandidatesView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (candidates_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Step to see the next-token candidates"));
        return;
    }
    const QFontMetrics fm(font());
    for (size_t i = 0; i < candidates_.size(); ++i) {
        const auto& c = candidates_[i];
        const QRect r = barRect(static_cast<int>(i));
        const QRect label(r.left(), r.top(), kLabelWidth, r.height());
        const QRect bar(r.left() + kLabelWidth, r.top() + 2, r.width() - kLabelWidth - 50, r.height() - 4);
        const bool chosen = c.id == chosen_;
        p.setPen(palette().color(QPalette::WindowText));
        QFont f = font();
        f.setBold(chosen);
        p.setFont(f);
        p.drawText(label.adjusted(0, 0, -6, 0), Qt::AlignVCenter | Qt::AlignRight,
                   fm.elidedText(FigureOptions::tokenLabel(c.token), Qt::ElideRight, kLabelWidth - 8));
        p.fillRect(bar, palette().color(QPalette::AlternateBase));
        QRect filled = bar;
        filled.setWidth(std::max(1, static_cast<int>(bar.width() * c.probability)));
        p.fillRect(filled, chosen ? QColor("#ff7f0e") : QColor("#1f77b4"));
        p.drawText(QRect(bar.right() + 4, r.top(), 46, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
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
