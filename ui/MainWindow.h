#pragma once
#include "core/inspection/DecodingState.h"
#include "ui/FigureOptions.h"
#include "ui/PresenterLayout.h"
#include "ui/SentencePanel.h"
#include "ui/ViewState.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QSpinBox;
class QTimer;

namespace alignscope::core {
class Model;
}

namespace alignscope::ui {

class ActionRegistry;
class AlignmentView;
class RecentModelsMenu;
class BeamPanel;
class CandidatesView;
class ChoiceMenu;
class StepExplainedPanel;
class LessonPlayer;
class TimelinePanel;
class TrainingRunController;
class LessonPanel;
class PicturePanel;
class ComparePanel;
class ComparisonController;
class DecodingDocument;

// The main window: source (and optional target) input, decoding controls, the alignment figure,
// the candidates and beam panels. It renders the document it is handed and sends it commands.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(DecodingDocument* document, QWidget* parent = nullptr);
    ~MainWindow() override;

    void setSourceText(const QString& text);  // as if typed (and committed)
    void setTargetText(const QString& text);  // switches teacher forcing on (empty: off)
    void setBeamWidth(int width);
    void showStepPanel(bool visible);
    // Draws attention to one panel (heatmap, encoder, candidates, beam, explain), or none.
    void highlightPanel(ViewState::Panel panel);
    // Opens the lesson at `firstPage` (0-based) directly: a page opened and left at once would have its
    // decoding cancelled, which a model busy encoding may not honour in time. Errors are shown, nothing changes.
    void startLesson(const QString& path, int firstPage = 0);
    // The view on screen as one value, and one applied whole: what belongs to another view (a
    // comparison, a training run, a target, a beam) is closed unless the value names it, and the
    // document decodes it in one operation (one state). A lesson page is applied this way, and
    // End lesson applies the view captured when the lesson started, step and all.
    ViewState currentView() const;
    void applyView(const ViewState& view);
    // A new model (File > Open, Open recent, a dropped file): the sentence decoded freely from step
    // 0 once it opens; teacher forcing, a training run and test-set scores of the old model end.
    void openModel(const QString& path);
    // Large text everywhere and the whole screen (fillScreen false: the window's size, for screenshots),
    // the docks in one column beside the heatmap (PresenterLayout); off, the window as it was.
    void setPresenterMode(bool on, bool fillScreen = true);
    bool presenterMode() const { return presenter_.active(); }
    // The heatmap shows attention ("" ) or an attribution method's scores (View > Heatmap).
    void setHeatmapMethod(const QString& method);
    QString heatmapMethod() const { return heatmapMethod_; }
    // View > Links: the word links a rule reads ("argmax", "itermax", "agreement-intersection",
    // "agreement-grow-diag-final-and"; "" none) over the heatmap; false for a rule the menu lacks.
    bool setLinkRule(const QString& rule);
    QStringList linkRules() const;  // the rules View > Links offers
    // A training run's snapshots (train --snapshots K): a dock with a slider over them and the
    // loss curve; the sentence is forced along one target (the one typed, else the last
    // snapshot's translation) so every snapshot's rows line up. A folder without a run is an error
    // message, and the open model stays.
    // A comparison open before is closed (a run replaces model A). `snapshot`: 0-based; -1 the last.
    bool openTimeline(const QString& folderOrIndex, int snapshot = -1);
    // endItsTarget: teacher forcing along the run's own target (not a typed one) ends too.
    void closeTimeline(bool endItsTarget = true);
    TimelinePanel* timelinePanel() const { return timelinePanel_; }
    // A second model beside the first (File > Compare with…, --compare): the sentence decoded by
    // both (or both forced along the given target) in a dock with the two heatmaps and their
    // difference. A model that fails to open, or cannot take the sentence, is a message there and
    // model A stays as it was.
    void openComparison(const QString& path);
    void closeComparison();
    // Both models' BLEU (and AER, given gold links) on a test file, computed off the UI thread.
    void compareOnTestSet(const QString& testPath, const QString& goldPath = QString());
    DecodingDocument* comparisonDocument() const;  // model B's, null while not comparing
    ComparePanel* comparePanel() const { return comparePanel_; }
    QDockWidget* compareDock() const { return compareDock_; }
    // Runs the event loop until both documents and a test-set comparison have finished.
    bool waitUntilIdle(int timeoutMs = 60000);
    QString statusText() const;  // the status line (an error's first line after one)
    QDockWidget* timelineDock() const { return timelineDock_; }
    LessonPlayer* lessonPlayer() const { return lessonPlayer_; }
    LessonPanel* lessonPanel() const { return lessonPanel_; }

    // Widgets and actions, for tests that drive the real window.
    AlignmentView* alignmentView() const { return view_; }
    CandidatesView* candidatesView() const { return candidates_; }
    StepExplainedPanel* stepPanel() const { return stepPanel_; }
    QDockWidget* stepDock() const { return stepDock_; }
    QDockWidget* lessonDock() const { return lessonDock_; }
    QDockWidget* candidatesDock() const { return candidatesDock_; }
    QDockWidget* beamDock() const { return beamDock_; }
    QListWidget* beamList() const { return beamList_; }
    QLineEdit* sourceEdit() const { return sentence_->sourceEdit(); }
    QLineEdit* targetEdit() const { return sentence_->targetEdit(); }
    QLabel* translationLabel() const { return sentence_->translationLabel(); }
    QLabel* tokensLabel() const { return sentence_->tokensLabel(); }
    QSpinBox* beamWidthBox() const { return beamWidth_; }
    QMenu* viewMenu() const { return viewMenu_; }
    QMenu* recentMenu() const;
    QList<QToolBar*> toolBars() const { return {decodingBar_, searchBar_, toolsBar_}; }
    // Every command of the menus, toolbars and keys by its id (ActionRegistry): "step", "back",
    // "run", "reset", "beam-search", "teacher-forcing", "words", "export", "presenter", "picture", …
    QAction* action(const QString& id) const;
    const ActionRegistry& actions() const { return *actions_; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void buildActions();
    void openTimelineDialog();
    bool runOpen() const;  // a training run's dock is open over its snapshots
    void exportTimelineDialog();
    void openComparisonDialog();
    void openComparisonTestDialog();
    void buildMenus();
    void buildLayout();
    void render(core::DecodingStatePtr state);
    void showError(const QString& message);
    void openModelDialog();
    void showTargetBox(const QString& text);  // the Target box and Teacher forcing, without decoding
    void decodeSource(const QString& text);   // the sentence encoded (and, typing ahead, translated)
    void targetEdited();
    void applyFigureOptions();
    void openExportDialog();
    void chooseCandidate(int index);    // 0-based, of the current step's list (keys 1-9)
    void applyTextScale(double scale);  // 1: normal; presenter mode: every text and chart label larger
    void fitToolBars();                 // a second toolbar row when one row cannot show every action
    void fitCentralView();              // presenter mode: a comparison in the heatmap's place
    FigureOptions compareOptions() const;
    FigureOptions heatmapOptions() const;  // the window's heatmap: on the stage, the encoder states only where the page names them
    void fitBottomDocks();                 // the compare and training-run docks' share of the height
    void fitStage();                       // presenter mode: the panels the page names, none left empty
    void showKeys();                       // F1, ?: every command that has a key, from the registry

    DecodingDocument* document_;
    ActionRegistry* actions_;
    RecentModelsMenu* recent_ = nullptr;  // File > Open recent
    AlignmentView* view_ = nullptr;
    CandidatesView* candidates_ = nullptr;
    StepExplainedPanel* stepPanel_ = nullptr;
    LessonPlayer* lessonPlayer_ = nullptr;
    LessonPanel* lessonPanel_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
    PicturePanel* picturePanel_ = nullptr;
    QDockWidget* pictureDock_ = nullptr;  // presenter mode's stage: a page's picture in the column
    QDockWidget* candidatesDock_ = nullptr;
    QDockWidget* beamDock_ = nullptr;
    PresenterLayout presenter_{this};
    ChoiceMenu* heatmapMenu_ = nullptr;  // View > Heatmap: attention or an attribution method
    ChoiceMenu* linksMenu_ = nullptr;    // View > Links: a link rule or none
    TimelinePanel* timelinePanel_ = nullptr;
    QDockWidget* timelineDock_ = nullptr;
    TrainingRunController* run_ = nullptr;
    QString pendingStatus_;  // shown once the document is idle again
    // View > Heatmap: attention or one attribution method
    QString heatmapMethod_;
    QFont normalFont_;
    bool focusBeamWhenDone_ = false;  // after Ctrl+B: the hypothesis list takes the focus when results arrive
    QMenu* viewMenu_ = nullptr;
    QToolBar *decodingBar_ = nullptr, *searchBar_ = nullptr, *toolsBar_ = nullptr;
    ViewState viewBeforeLesson_;
    QDockWidget* frontBeforeLesson_ = nullptr;  // the tab in front when the lesson started
    QString modelOpening_;                      // a model the user asked for (openModel): its arrival ends the old model's view
    QWidget* highlighted_ = nullptr;
    ViewState::Panel highlightedPanel_ = ViewState::Panel::None;  // the panel a lesson page points at
    QDockWidget* stepDock_ = nullptr;
    QListWidget* beamList_ = nullptr;  // beamPanel_->list()
    BeamPanel* beamPanel_ = nullptr;
    SentencePanel* sentence_ = nullptr;
    QLabel* status_ = nullptr;
    QSpinBox* beamWidth_ = nullptr;
    FigureOptions figureOptions_;
    ComparisonController* comparison_ = nullptr;  // model B and its scoring
    ComparePanel* comparePanel_ = nullptr;
    QDockWidget* compareDock_ = nullptr;
    QString givenTarget_;  // what A is forced along ("" : free decoding)
    core::DecodingStatePtr state_;
};

}  // namespace alignscope::ui
