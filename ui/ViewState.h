#pragma once
#include "core/lesson/LessonFormat.h"
#include "ui/FigureOptions.h"

#include <QString>

#include <algorithm>
#include <vector>

namespace alignscope::ui {

// The state of a view, as one value: the model, the sentence, the target and teacher forcing, the
// step, what the heatmap shows, the training run and its snapshot, the compare partner and the
// panels. A lesson page is one (Lesson.h); the window captures the one on screen before a lesson
// and restores it whole at End lesson (MainWindow::currentView, applyView), so nothing of one view
// is left over in the next.
struct ViewState {
    // The panels a page can point at, in the order of LessonFormat::highlights(), their names in files.
    enum class Panel { None, Heatmap, Encoder, Candidates, Beam, Explain };
    static Panel panelNamed(const QString& name) {  // "" and names no file may give: None
        const auto& names = core::LessonFormat::highlights();
        const auto found = std::find(names.begin(), names.end(), name.toStdString());
        return found == names.end() ? Panel::None : static_cast<Panel>(found - names.begin() + 1);
    }
    static QString panelName(Panel panel) {  // None: ""
        return panel == Panel::None ? QString() : QString::fromStdString(core::LessonFormat::highlights()[static_cast<size_t>(panel) - 1]);
    }

    QString model;                                 // bundled model name ("en-fr") or a path; empty: keep the current one
    QString source;                                // sentence to decode
    QString target;                                // non-empty: teacher forcing along this target
    int steps = 0;                                 // decoding steps taken (of the target too, with stepsOfTarget)
    bool stepsOfTarget = false;                    // with target: `steps` of it (End lesson); false: the whole target
    bool run = false;                              // decode to the end
    int beam = 0;                                  // > 0: run beam search of this width
    bool explain = false;                          // show the Step explained panel
    QString explainPart;                           // with explain: the part scrolled into view (StepExplainedPanel::partNames)
    Panel highlight = Panel::None;                 // the panel to draw attention to
    QString heatmap;                               // what the heatmap shows: "" (attention) or an attribution method's name
    QString timeline;                              // a training run to open (a bundled run's name, e.g. "dates-run", or a folder)
    int snapshot = 0;                              // with timeline: the snapshot shown, 1-based (0: the last)
    std::vector<FigureOptions::Mark> markRows;     // target rows the view talks about (framed and kept in view)
    std::vector<FigureOptions::Mark> markColumns;  // source columns, likewise
    QString compare;                               // model B beside the first (a bundled name or a path); empty: none. A
                                                   // comparison and a training run exclude each other: the comparison wins
};

}  // namespace alignscope::ui
