#pragma once
#include "core/inspection/DecodingState.h"

#include <QCoreApplication>
#include <QString>

namespace alignscope::ui {

// The status bar's line for a decoding state: the model, the source's tokens, where decoding
// stands (a step, teacher forcing, a beam hypothesis) and what View > Links read, or why nothing.
class StatusLine {
    Q_DECLARE_TR_FUNCTIONS(StatusLine)
public:
    // awaitingTarget: teacher forcing is on and no target has been typed yet.
    static QString describe(const core::DecodingState& s, bool awaitingTarget);
};

}  // namespace alignscope::ui
