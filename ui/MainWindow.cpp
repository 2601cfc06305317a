#include "ui/MainWindow.h"

#include "ui/ActionRegistry.h"
#include "ui/AlignmentView.h"
#include "ui/BeamPanel.h"
#include "ui/CandidatesView.h"
#include "ui/ChoiceMenu.h"
#include "ui/ComparePanel.h"
#include "ui/ComparisonController.h"
#include "ui/DecodingDocument.h"
#include "ui/DockToggles.h"
#include "ui/ExportDialog.h"
#include "ui/Lesson.h"
#include "ui/LessonPanel.h"
#include "ui/LessonPlayer.h"
#include "ui/LessonsMenu.h"
#include "ui/PicturePanel.h"
#include "ui/RecentModelsMenu.h"
#include "ui/SentencePanel.h"
#include "ui/StatusLine.h"
#include "ui/StepExplainedPanel.h"
#include "ui/TimelinePanel.h"
#include "ui/TrainingRunController.h"
#include "ui/UiLanguage.h"
#include "ui/WindowPlacement.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace alignscope::ui {
namespace {
// The checkable actions the settings keep between sessions: id, key, default.
struct SavedToggle {
    const char* id;
    const char* key;
    bool byDefault;
};
constexpr SavedToggle kSavedToggles[] = {{"type-ahead", "decoding/typeAhead", false},
                                         {"encoder-states", "figure/encoderStates", true},
                                         {"values", "figure/values", false},
                                         {"grayscale", "figure/grayscale", false},
                                         {"words", "figure/words", false}};
// View > the </s> column, as the settings number them (figure/endColumn).
const char* const kEndColumnIds[] = {"end-keep", "end-hide", "end-renormalise"};
}  // namespace

MainWindow::MainWindow(DecodingDocument* document, QWidget* parent)
    : QMainWindow(parent), document_(document), actions_(new ActionRegistry(this)) {
    setWindowTitle(tr("AlignScope"));
    setAcceptDrops(true);
    buildActions();
    buildLayout();
    buildMenus();

    QSettings settings;
    WindowPlacement::restore(this, settings);
    // What shows a lesson, a comparison or a training run stays closed: none of them is open at start.
    restoreState(settings.value("window/state").toByteArray());
    for (auto* dock : {lessonDock_, compareDock_, timelineDock_, pictureDock_}) dock->hide();
    beamWidth_->setValue(settings.value("decoding/beamWidth", 5).toInt());
    for (const auto& toggle : kSavedToggles) action(toggle.id)->setChecked(settings.value(toggle.key, toggle.byDefault).toBool());
    const int end = settings.value("figure/endColumn", 0).toInt();
    action(kEndColumnIds[end == 1 || end == 2 ? end : 0])->setChecked(true);
    applyFigureOptions();
    applyTextScale(1.0);

    connect(document_, &DecodingDocument::stateChanged, this, &MainWindow::render);
    connect(document_, &DecodingDocument::errorOccurred, this, &MainWindow::showError);
    connect(document_, &DecodingDocument::linkRuleDropped, this, [this] { linksMenu_->choose(QString()); });
    connect(document_, &DecodingDocument::modelChanged, this, [this](const QString& name, const QString& path) {
        setWindowTitle(tr("AlignScope — %1").arg(name));
        // A lesson's models and a training run's snapshots are not the user's recent files.
        if (!path.isEmpty() && !lessonPlayer_->running() && !run_->active()) recent_->remember(path);
        // Test-set scores are of the model that was A: none outlives it.
        comparison_->forgetScores();
        if (path != modelOpening_) return;
        modelOpening_.clear();
        // A model the user opened: the document decodes the sentence freely; the old model's target
        // and training run end with it.
        showTargetBox(QString());
        closeTimeline();
        // A comparison was of the old A: the new one is at step 0 with nothing to compare yet.
        closeComparison();
    });
    connect(document_, &DecodingDocument::busyChanged, this, [this](bool busy) {
        action("cancel")->setEnabled(busy);
        if (busy) status_->setText(tr("decoding…"));
        else if (state_) render(state_);
        if (!busy && !pendingStatus_.isEmpty()) {  // a message about what was undone outlasts the redraw
            status_->setText(pendingStatus_);
            pendingStatus_.clear();
        }
    });
    render(document_->state());
}

QAction* MainWindow::action(const QString& id) const { return actions_->action(id); }
QMenu* MainWindow::recentMenu() const { return recent_->menu(); }

void MainWindow::buildActions() {
    auto& r = *actions_;
    r.add("open", tr("&Open model…"), tr("Open a model file"), {QKeySequence::Open}, [this] { openModelDialog(); });
    r.add("step", tr("&Step →"), tr("Decode one more token"), {QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_F10)},
          [this] { document_->step(); });
    r.add("back", tr("← &Back"), tr("Undo the last step"), {QKeySequence(Qt::Key_Left), QKeySequence(Qt::SHIFT | Qt::Key_F10)},
          [this] { document_->back(); });
    r.add("run", tr("&Run to end"), tr("Decode until </s>"), {QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)},
          [this] { document_->runToEnd(); });
    r.add("reset", tr("R&eset"), tr("Back to the first step"), {QKeySequence(Qt::CTRL | Qt::Key_Home)}, [this] { document_->reset(); });
    r.add("beam-search", tr("Bea&m search"), tr("Run beam search and list every hypothesis"), {QKeySequence(Qt::CTRL | Qt::Key_B)}, [this] {
        focusBeamWhenDone_ = true;  // Up and Down then pick a hypothesis
        document_->runBeam(beamWidth_->value());
    });
    r.add("cancel", tr("&Cancel"), tr("Stop a running search"), {QKeySequence(Qt::Key_Escape)}, [this] {
         document_->cancel();
     })->setEnabled(false);
    r.addToggle("type-ahead", tr("Translate as you t&ype"), tr("Decode the whole sentence after each edit"), {}, [this] {
        if (!action("type-ahead")->isChecked()) return;
        document_->cancel();
        decodeSource(sentence_->source());
    });
    r.addToggle("teacher-forcing", tr("&Teacher forcing"), tr("Type a target too and see the alignment the model gives that pair"),
                {QKeySequence(Qt::CTRL | Qt::Key_T)}, [this] {
                    const bool on = action("teacher-forcing")->isChecked();
                    sentence_->setTargetVisible(on);
                    // Typing goes where the target is asked for; off, the arrows step again.
                    if (on) sentence_->targetEdit()->setFocus();
                    else view_->setFocus();
                    targetEdited();
                });
    const auto figureToggle = [&](const char* id, const QString& text) {
        return r.addToggle(id, text, text, {}, [this] { applyFigureOptions(); });
    };
    figureToggle("encoder-states", tr("Show &encoder states"));
    figureToggle("values", tr("Show &values in cells"));
    figureToggle("grayscale", tr("&Grey-scale colours"));
    figureToggle("words", tr("&Words (merge sub-word pieces)"))
        ->setToolTip(tr("The heatmap over the words of the text: a source word's piece columns summed, a target "
                        "word's piece rows averaged (the encoder panel, one column per piece, is left out)"));
    auto* endGroup = new QActionGroup(this);
    endGroup->addAction(figureToggle(kEndColumnIds[0], tr("&Keep the </s> column")));
    endGroup->addAction(figureToggle(kEndColumnIds[1], tr("Hi&de the </s> column")));
    endGroup->addAction(figureToggle(kEndColumnIds[2], tr("Hide </s> and re&normalise rows")));
    r.add("export", tr("&Export…"), tr("Export the alignment as PNG, SVG, PDF, CSV, JSON or Pharaoh links"),
          {QKeySequence(Qt::CTRL | Qt::Key_E)}, [this] { openExportDialog(); })
        ->setEnabled(false);
    // 1-9 pick that candidate of the current step (what-if), as a click on it would.
    for (int k = 1; k <= 9; ++k)
        r.add(QStringLiteral("choose-%1").arg(k), tr("Choose candidate %1").arg(k), tr("Choose candidate %1").arg(k),
              {QKeySequence(Qt::Key_0 + k)}, [this, k] { chooseCandidate(k - 1); });
    r.add("open-run", tr("Open &training run…"), tr("Open a training run's snapshots"), {}, [this] { openTimelineDialog(); });
    r.add("compare", tr("&Compare with…"), tr("Decode the sentence with a second model beside this one"), {},
          [this] { openComparisonDialog(); });
    r.add("compare-test", tr("Compare on a test set…"), tr("Both models' BLEU on a test file"), {}, [this] {
         openComparisonTestDialog();
     })->setEnabled(false);
    r.add("stop-compare", tr("Stop comparing"), tr("Close the second model"), {}, [this] { closeComparison(); })->setEnabled(false);
    r.add("quit", tr("&Quit"), tr("Quit AlignScope"), {QKeySequence::Quit}, [this] { close(); });
    // A page's text longer than its panel (a small projector) scrolls a screenful first, as a
    // presentation clicker (which sends these keys) expects; at its end the page turns.
    r.add("next-page", tr("&Next page"), tr("The lesson's next page"), {QKeySequence(Qt::Key_PageDown)}, [this] {
        // On the stage the caption band holds the whole page: the key turns it.
        if (presenter_.active() || !lessonDock_->isVisible() || !lessonPanel_->scrollPage(1)) lessonPlayer_->next();
    });
    r.add("previous-page", tr("&Previous page"), tr("The lesson's previous page"), {QKeySequence(Qt::Key_PageUp)}, [this] {
        if (presenter_.active() || !lessonDock_->isVisible() || !lessonPanel_->scrollPage(-1)) lessonPlayer_->previous();
    });
    r.addToggle("presenter", tr("Presenter &mode"), tr("Large text, the whole screen, the panels in one column"),
                {QKeySequence(Qt::Key_F11)}, [this] { setPresenterMode(action("presenter")->isChecked()); });
    // A page's picture (a chart with its own text) is small in presenter mode's column: full size,
    // fitted to the screen, from the keyboard too (Esc closes it).
    r.add("picture", tr("Show the page's p&icture full size"), tr("The lesson page's picture, fitted to the screen"),
          {QKeySequence(Qt::CTRL | Qt::Key_I)}, [this] { lessonPanel_->enlargeImage(); })
        ->setEnabled(false);
    r.add("keys", tr("&Keys…"), tr("Every key and what it does"), {QKeySequence(Qt::Key_F1)}, [this] { showKeys(); });
    r.add("end-lesson", tr("&End lesson"), tr("Back to the view before the lesson"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L)},
          [this] { lessonPlayer_->stop(); });
}

void MainWindow::chooseCandidate(int index) {
    if (!state_ || state_->teacherForced || state_->selectedHypothesis >= 0 || document_->busy()) return;
    const auto* step = state_->currentStep();
    if (!step || index < 0 || index >= static_cast<int>(step->candidates.size())) return;
    document_->replaceLast(step->candidates[static_cast<size_t>(index)].id);
}

void MainWindow::buildMenus() {
    const auto add = [this](QMenu* menu, std::initializer_list<const char*> ids) {
        for (const char* id : ids) {
            if (id) menu->addAction(action(id));
            else menu->addSeparator();
        }
    };
    auto* file = menuBar()->addMenu(tr("&File"));
    add(file, {"open"});
    recent_ = new RecentModelsMenu(file->addMenu(tr("Open &recent")));
    connect(recent_, &RecentModelsMenu::openRequested, this, &MainWindow::openModel);
    add(file, {"open-run", "compare", "compare-test", "stop-compare", "export", nullptr, "quit"});
    add(menuBar()->addMenu(tr("&Decode")),
        {"step", "back", "run", "reset", nullptr, "beam-search", "cancel", nullptr, "type-ahead", "teacher-forcing"});

    auto* lessons = menuBar()->addMenu(tr("&Lessons"));
    LessonsMenu::addLessons(lessons, this, [this](const QString& path) { startLesson(path); });
    add(lessons, {nullptr, "next-page", "previous-page", "presenter", "picture", "end-lesson", nullptr, "keys"});
    connect(lessonPlayer_, &LessonPlayer::pageChanged, this,
            [this] { action("picture")->setEnabled(!lessonPanel_->pageImage().isNull()); });

    auto* view = viewMenu_ = menuBar()->addMenu(tr("&View"));
    auto* explain = stepDock_->toggleViewAction();
    explain->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    addAction(explain);  // its key also on the stage, where the menu bar is hidden
    // Every panel and toolbar, so one closed with its × comes back from here.
    const std::pair<QDockWidget*, QString> panels[] = {{candidatesDock_, tr("&Candidates")}, {beamDock_, tr("&Beam hypotheses")},
                                                       {stepDock_, tr("Step e&xplained")},   {lessonDock_, tr("&Lesson")},
                                                       {timelineDock_, tr("T&raining run")}, {compareDock_, tr("Com&pare models")},
                                                       {pictureDock_, tr("Pict&ure")}};
    for (const auto& [dock, text] : panels) DockToggles::add(view, dock, text);
    view->addSeparator();
    add(view, {"encoder-states", "values", "grayscale", "words", nullptr, kEndColumnIds[0], kEndColumnIds[1], kEndColumnIds[2]});
    // What the heatmap shows: attention, or what each source token did for the chosen token
    // (core/attribution), filled in as the steps come; Step explained holds the two side by side.
    heatmapMenu_ = new ChoiceMenu(view->addMenu(tr("&Heatmap")), QStringLiteral("heatmap-"),
                                  {{QString(), tr("&Attention weights")},
                                   {QStringLiteral("grad-x-input"), tr("&Gradient × input")},
                                   {QStringLiteral("integrated-gradients"), tr("&Integrated gradients")},
                                   {QStringLiteral("occlusion"), tr("&Occlusion")},
                                   {QStringLiteral("attention-x-occlusion"), tr("Attention × o&cclusion (where they agree)")}},
                                  [this](const QString& method) { setHeatmapMethod(method); });
    // Word links over the heatmap, read as `align` reads them (core::Aligner, off the UI thread)
    // from the heatmap's method once the target is complete; exported with the figure.
    linksMenu_ =
        new ChoiceMenu(view->addMenu(tr("L&inks")), QStringLiteral("links-"),
                       {{QString(), tr("&None")},
                        {QStringLiteral("argmax"), tr("&Argmax (each target word's peak)")},
                        {QStringLiteral("argmax-skip-eos"), tr("Argmax, </s> &skipped (each target word's peak among the source words)")},
                        {QStringLiteral("itermax"), tr("&Itermax (mutual peaks)")},
                        {QStringLiteral("agreement-intersection"), tr("A&greement with the reverse model")},
                        {QStringLiteral("agreement-grow-diag-final-and"), tr("Agreement, grow-diag-&final-and")}},
                       [this](const QString& rule) { setLinkRule(rule); });
    // The app's language, saved and applied at the next start (docs/languages.md): each name in
    // its own language, so one can find one's way back from a language one does not read.
    ChoiceMenu::Choices languages = {{QString(), tr("&System language")}};
    for (const QString& code : UiLanguage::available()) languages.append(qMakePair(code, UiLanguage::nativeName(code)));
    auto* language = new ChoiceMenu(view->addMenu(tr("L&anguage")), QStringLiteral("language-"), languages, [this](const QString& code) {
        UiLanguage::save(code);
        const QString next = UiLanguage::choose(QString());
        status_->setText(next == UiLanguage::current() ? tr("AlignScope speaks %1.").arg(UiLanguage::nativeName(next))
                                                       : tr("AlignScope speaks %1 from its next start.").arg(UiLanguage::nativeName(next)));
    });
    language->choose(UiLanguage::saved());

    // Two toolbars, so that a narrow window or presenter mode's large text puts the second on its
    // own row (fitToolBars) instead of hiding actions behind an overflow arrow.
    auto* decoding = decodingBar_ = addToolBar(tr("Decoding toolbar"));
    decoding->setObjectName(QStringLiteral("decodingToolBar"));
    decoding->addAction(action("open"));
    decoding->addSeparator();
    for (const char* id : {"back", "step", "run", "reset"}) decoding->addAction(action(id));
    auto* search = searchBar_ = addToolBar(tr("Beam search toolbar"));
    search->setObjectName(QStringLiteral("searchToolBar"));
    search->addWidget(new QLabel(tr(" beam width ")));
    search->addWidget(beamWidth_);
    search->addAction(action("beam-search"));
    search->addAction(action("cancel"));
    auto* tools = toolsBar_ = addToolBar(tr("Modes and export toolbar"));
    tools->setObjectName(QStringLiteral("toolsToolBar"));
    tools->addAction(action("type-ahead"));
    tools->addAction(action("teacher-forcing"));
    tools->addSeparator();
    tools->addAction(action("export"));
    view->addSeparator();
    const QString barTexts[] = {tr("Dec&oding toolbar"), tr("Beam &search toolbar"), tr("Modes and export &toolbar")};
    for (int k = 0; k < 3; ++k) {
        toolBars()[k]->toggleViewAction()->setText(barTexts[k]);  // the mnemonic in the menu only
        view->addAction(toolBars()[k]->toggleViewAction());
    }
}

// The toolbars packed into rows: a bar that would not fit beside the ones before it starts a new
// row, so no action ever hides behind an overflow arrow (a narrow window, presenter mode's text).
void MainWindow::fitToolBars() {
    int used = 0;
    for (auto* bar : toolBars()) {
        if (!bar || bar->isHidden()) continue;
        const int need = bar->sizeHint().width() + 16;
        const bool newRow = used > 0 && used + need > width();
        if (newRow != toolBarBreak(bar)) {
            if (newRow) insertToolBarBreak(bar);
            else removeToolBarBreak(bar);
        }
        used = newRow ? need : used + need;
    }
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    fitToolBars();
    if (presenter_.active()) {
        presenter_.arrange();
        return;
    }
    fitBottomDocks();
}

// The compare view's three heatmaps keep a fair share of a window that grows; the training run's
// loss curve no more than a third, so the heatmap above it keeps its rows.
void MainWindow::fitBottomDocks() {
    if (presenter_.active()) return;
    if (compareDock_->isVisible() && !compareDock_->isFloating() && compareDock_->height() < height() * 2 / 5)
        resizeDocks({compareDock_}, {height() / 2}, Qt::Vertical);
    else if (timelineDock_->isVisible() && !timelineDock_->isFloating() && timelineDock_->height() > height() / 3)
        resizeDocks({timelineDock_}, {height() / 3}, Qt::Vertical);
}

void MainWindow::buildLayout() {
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    sentence_ = new SentencePanel;
    layout->addWidget(sentence_);
    view_ = new AlignmentView;
    layout->addWidget(view_, 1);
    setCentralWidget(central);
    // Type-ahead decodes once typing pauses; Enter decodes what is there and hands the arrows back.
    connect(sentence_, &SentencePanel::sourcePaused, this, [this](const QString& text) {
        if (!action("type-ahead")->isChecked()) return;
        document_->cancel();
        decodeSource(text);
    });
    connect(sentence_, &SentencePanel::sourceSubmitted, this, [this](const QString& text) {
        decodeSource(text);
        view_->setFocus();  // arrows step from here on
    });
    connect(sentence_, &SentencePanel::targetPaused, this, &MainWindow::targetEdited);
    connect(sentence_, &SentencePanel::targetSubmitted, this, [this] {
        targetEdited();
        view_->setFocus();
    });

    candidates_ = new CandidatesView;
    connect(candidates_, &CandidatesView::candidateChosen, this, [this](int64_t id) { document_->replaceLast(id); });
    auto* candidatesScroll = new QScrollArea;
    candidatesScroll->setWidget(candidates_);
    candidatesScroll->setWidgetResizable(true);
    candidatesScroll->setFocusPolicy(Qt::NoFocus);  // the list itself takes the focus, visibly
    auto* candidatesDock = candidatesDock_ = new QDockWidget(tr("Candidates"), this);
    candidatesDock->setObjectName(QStringLiteral("candidatesDock"));
    candidatesDock->setWidget(candidatesScroll);
    addDockWidget(Qt::RightDockWidgetArea, candidatesDock);

    auto* beamPanel = beamPanel_ = new BeamPanel;
    beamList_ = beamPanel->list();
    connect(beamPanel, &BeamPanel::hypothesisChosen, this, [this](int row) {
        if (state_ && row != state_->selectedHypothesis) document_->selectHypothesis(row);
    });
    auto* beamDock = beamDock_ = new QDockWidget(tr("Beam hypotheses"), this);
    beamDock->setObjectName(QStringLiteral("beamDock"));
    beamDock->setWidget(beamPanel);
    addDockWidget(Qt::RightDockWidgetArea, beamDock);

    stepPanel_ = new StepExplainedPanel;
    stepDock_ = new QDockWidget(tr("Step explained"), this);
    stepDock_->setObjectName(QStringLiteral("stepDock"));
    stepDock_->setWidget(stepPanel_);
    addDockWidget(Qt::LeftDockWidgetArea, stepDock_);
    stepDock_->hide();  // off by default: one toggle away (View menu, Ctrl+L)

    lessonPlayer_ = new LessonPlayer(this, document_, this);
    lessonPanel_ = new LessonPanel(lessonPlayer_);
    lessonDock_ = new QDockWidget(tr("Lesson"), this);
    lessonDock_->setObjectName(QStringLiteral("lessonDock"));
    lessonDock_->setWidget(lessonPanel_);
    addDockWidget(Qt::LeftDockWidgetArea, lessonDock_);
    lessonDock_->hide();
    connect(lessonPlayer_, &LessonPlayer::pageChanged, this, [this] {
        lessonDock_->show();
        fitStage();
        fitCentralView();                                               // a comparison the page keeps takes the heatmap's place
        QTimer::singleShot(0, this, [this] { presenter_.arrange(); });  // presenter mode: the page's share of the column
        view_->setFocus();                                              // the arrows step, Page Down turns the page; no box takes the keys
    });
    connect(lessonPlayer_, &LessonPlayer::stopped, this, [this] {
        lessonDock_->hide();
        applyView(viewBeforeLesson_);                                         // back to what was open before the lesson, at its step
        if (frontBeforeLesson_) presenter_.bringForward(frontBeforeLesson_);  // and the tab that was in front
        fitCentralView();  // a comparison open before the lesson is beside the heatmap again
        fitStage();
        view_->setFocus();
    });
    timelinePanel_ = new TimelinePanel;
    timelineDock_ = new QDockWidget(tr("Training run"), this);
    timelineDock_->setObjectName(QStringLiteral("timelineDock"));
    timelineDock_->setWidget(timelinePanel_);
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock_);
    timelineDock_->hide();
    run_ = new TrainingRunController(
        document_, timelinePanel_,
        [this] {
            DecodingRequest request;
            request.source = sentence_->source();
            request.attribution = heatmapMethod_;
            return request;
        },
        this);
    connect(run_, &TrainingRunController::targetShown, this, &MainWindow::showTargetBox);
    connect(run_, &TrainingRunController::targetFound, this, &MainWindow::setTargetText);
    connect(run_, &TrainingRunController::refused, this, [this](const QString& message) {
        showError(message);
        pendingStatus_ = message;
    });
    connect(timelinePanel_, &TimelinePanel::exportRequested, this, &MainWindow::exportTimelineDialog);

    comparePanel_ = new ComparePanel;
    // A lesson page's picture on the stage (the window keeps it in the lesson's own panel).
    picturePanel_ = new PicturePanel;
    connect(picturePanel_, &PicturePanel::enlargeRequested, this, [this] { lessonPanel_->enlargeImage(); });
    pictureDock_ = new QDockWidget(tr("Picture"), this);
    pictureDock_->setObjectName(QStringLiteral("pictureDock"));
    pictureDock_->setWidget(picturePanel_);
    addDockWidget(Qt::RightDockWidgetArea, pictureDock_);
    pictureDock_->hide();
    presenter_.setPictureDock(pictureDock_);

    compareDock_ = new QDockWidget(tr("Compare models"), this);
    compareDock_->setObjectName(QStringLiteral("compareDock"));
    compareDock_->setWidget(comparePanel_);
    addDockWidget(Qt::BottomDockWidgetArea, compareDock_);
    compareDock_->hide();
    connect(compareDock_, &QDockWidget::visibilityChanged, this, [this] { fitCentralView(); });
    comparison_ = new ComparisonController(comparePanel_, this);
    connect(comparison_, &ComparisonController::modelOpened, this, [this] { action("compare-test")->setEnabled(true); });
    connect(comparison_, &ComparisonController::titleChanged, compareDock_, &QDockWidget::setWindowTitle);
    connect(comparison_, &ComparisonController::status, this, [this](const QString& line) { status_->setText(line); });

    connect(stepDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && state_) stepPanel_->render(state_);
    });

    beamWidth_ = new QSpinBox;
    beamWidth_->setRange(1, 32);
    beamWidth_->setToolTip(tr("Beam width"));
    beamWidth_->setFocusPolicy(Qt::ClickFocus);  // not a Tab stop: arrows over it would change the width
    // Tab goes round what the keyboard works with, each with a visible focus mark.
    setTabOrder(sentence_->sourceEdit(), sentence_->targetEdit());
    setTabOrder(sentence_->targetEdit(), view_);
    setTabOrder(view_, candidates_);
    setTabOrder(candidates_, beamList_);
    status_ = new QLabel;
    statusBar()->addWidget(status_, 1);
}

void MainWindow::setSourceText(const QString& text) {
    sentence_->setSource(text);
    document_->setSource(text);
}

void MainWindow::decodeSource(const QString& text) {
    sentence_->stopTyping();
    document_->setSource(text);
    if (action("type-ahead")->isChecked() && !action("teacher-forcing")->isChecked()) document_->runToEnd();
}

void MainWindow::setTargetText(const QString& text) {
    showTargetBox(text);
    targetEdited();
}

void MainWindow::showTargetBox(const QString& text) {
    action("teacher-forcing")->setChecked(!text.isEmpty());
    sentence_->showTarget(text);
    givenTarget_ = text;
}

void MainWindow::setBeamWidth(int width) { beamWidth_->setValue(width); }

void MainWindow::targetEdited() {
    givenTarget_ = action("teacher-forcing")->isChecked() ? sentence_->target() : QString();
    run_->targetTyped();
    // A run's snapshots are compared along one target: cleared, it is the last snapshot's translation.
    if (runOpen() && givenTarget_.trimmed().isEmpty() && !run_->findingTarget()) {
        run_->forceAlongLastTranslation();
        return;
    }
    document_->setTarget(givenTarget_);
}

void MainWindow::applyFigureOptions() {
    figureOptions_.showEncoderStates = action("encoder-states")->isChecked();
    figureOptions_.valuesInCells = action("values")->isChecked();
    const bool wordsChanged = figureOptions_.mergeWords != action("words")->isChecked();
    figureOptions_.mergeWords = action("words")->isChecked();
    figureOptions_.colorMap = action("grayscale")->isChecked() ? FigureOptions::ColorMap::Grayscale : FigureOptions::ColorMap::Viridis;
    figureOptions_.endColumn = action(kEndColumnIds[1])->isChecked()   ? FigureOptions::EndColumn::Drop
                               : action(kEndColumnIds[2])->isChecked() ? FigureOptions::EndColumn::Renormalize
                                                                       : FigureOptions::EndColumn::Keep;
    view_->setOptions(heatmapOptions());
    comparePanel_->setOptions(compareOptions());
    if (wordsChanged) comparison_->follow(state_, givenTarget_, figureOptions_.mergeWords);  // compared over words or tokens
}

void MainWindow::render(core::DecodingStatePtr state) {
    state_ = state;
    const auto& s = *state;
    sentence_->render(state);
    view_->render(state);
    if (stepDock_->isVisible()) stepPanel_->render(state);
    candidates_->render(s);
    beamPanel_->render(s);
    fitStage();  // a beam's hypotheses appear on the stage with its results
    const bool ready = !s.source.tokens.empty();
    // Teacher forcing on with no target yet: Step would decode freely under a button that says
    // otherwise, so it waits for the target.
    const bool awaitingTarget = action("teacher-forcing")->isChecked() && sentence_->target().trimmed().isEmpty();
    action("step")->setEnabled(ready && !s.finished && !awaitingTarget);
    action("back")->setEnabled(ready && !s.steps.empty());
    action("run")->setEnabled(ready && !s.finished && !awaitingTarget);
    action("reset")->setEnabled(ready && !s.steps.empty());
    action("beam-search")->setEnabled(ready && !s.teacherForced && !awaitingTarget);
    if (focusBeamWhenDone_ && !s.beam.empty()) {
        focusBeamWhenDone_ = false;
        beamList_->setFocus();
    }
    action("export")->setEnabled(!s.steps.empty() || s.selectedHypothesis >= 0);  // an alignment to export
    comparison_->follow(state_, givenTarget_, figureOptions_.mergeWords);
    if (!document_->busy()) status_->setText(StatusLine::describe(s, awaitingTarget));
}

void MainWindow::openExportDialog() {
    if (!state_ || (state_->steps.empty() && state_->selectedHypothesis < 0)) return;
    ExportDialog dialog(state_, figureOptions_, this);
    dialog.setLiveModel(document_->modelPath());
    if (timelineDock_->isVisible() && !timelinePanel_->timeline().snapshots().empty())
        dialog.setTimeline(timelinePanel_->timeline(), givenTarget_.toStdString());
    if (dialog.exec() == QDialog::Accepted) status_->setText(tr("exported %1").arg(dialog.path()));
}

bool MainWindow::waitUntilIdle(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    // B starts when A's state arrives, so wait round both until neither has anything left.
    while (clock.elapsed() < timeoutMs) {
        const int left = static_cast<int>(timeoutMs - clock.elapsed());
        if (!document_->waitUntilIdle(left)) return false;
        if (!comparison_->waitUntilIdle(static_cast<int>(timeoutMs - clock.elapsed()))) return false;
        QCoreApplication::processEvents();
        if (!document_->busy() && !comparison_->busy()) return true;
    }
    return false;
}

QString MainWindow::statusText() const { return status_->text(); }

void MainWindow::showError(const QString& message) {
    status_->setText(message.section('\n', 0, 0));
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) return;  // screenshots and tests: no modal dialogs
    QMessageBox::warning(this, tr("AlignScope"), message);
}

void MainWindow::openModelDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QFileInfo(document_->modelPath()).path(),
                                                      tr("AlignScope models (*.pt);;All files (*)"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::openModel(const QString& path) {
    modelOpening_ = path;
    document_->openModel(path);  // the sentence decoded freely from step 0 (the document drops the target)
}

MainWindow::~MainWindow() {
    comparison_->forgetScores();                   // its thread runs LibTorch: never past the window
    if (presenter_.active()) applyTextScale(1.0);  // the application's font is shared: back to normal
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    // Presenter mode's full screen and column are never saved: the window as it is outside it.
    WindowPlacement::save(settings, presenter_.normalGeometry(), presenter_.normalWindowState() & Qt::WindowMaximized);
    settings.setValue("window/state", presenter_.normalLayout());
    settings.setValue("decoding/beamWidth", beamWidth_->value());
    for (const auto& toggle : kSavedToggles) settings.setValue(toggle.key, action(toggle.id)->isChecked());
    settings.setValue("figure/endColumn", action(kEndColumnIds[1])->isChecked() ? 1 : action(kEndColumnIds[2])->isChecked() ? 2 : 0);
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) openModel(urls.first().toLocalFile());
}

}  // namespace alignscope::ui
