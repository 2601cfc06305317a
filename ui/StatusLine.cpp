#include "ui/StatusLine.h"

namespace alignscope::ui {

QString StatusLine::describe(const core::DecodingState& s, bool awaitingTarget) {
    const QString model = s.modelName.empty() ? tr("no model") : QString::fromStdString(s.modelName);
    QString line = s.selectedHypothesis >= 0 ? tr("%1 · %2 source tokens · beam hypothesis %3 of %4, %5 tokens")
                                                   .arg(model)
                                                   .arg(s.sourceTokenCount())
                                                   .arg(s.selectedHypothesis + 1)
                                                   .arg(s.beam.size())
                                                   .arg(s.hypothesisSteps.size())
                   : awaitingTarget  ? tr("Teacher forcing: type the target sentence in Target and press Enter")
                   : s.teacherForced ? tr("%1 · %2 source tokens · teacher forcing, step %3 of %4")
                                           .arg(model)
                                           .arg(s.sourceTokenCount())
                                           .arg(s.steps.size())
                                           .arg(s.forcedSteps)
                                     : tr("%1 · %2 source tokens · step %3%4")
                                           .arg(model)
                                           .arg(s.sourceTokenCount())
                                           .arg(s.steps.size())
                                           .arg(s.finished ? tr(" · finished") : QString());
    if (s.linkRule.empty()) return line;
    return line + (s.linksError.empty() ? tr(" · %1 links (%2)").arg(s.links.size()).arg(QString::fromStdString(s.linkRule))
                                        : tr(" · no links: %1").arg(QString::fromStdString(s.linksError)));
}

}  // namespace alignscope::ui
