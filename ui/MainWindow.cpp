#include "ui/MainWindow.h"

#include "ui/AlignmentView.h"
#include "ui/BeamPanel.h"
#include "ui/CandidatesView.h"
#include "ui/ChoiceMenu.h"
#include "ui/ComparePanel.h"
#include "ui/DecodingDocument.h"
#include "ui/ExportDialog.h"
#include "ui/SentencePanel.h"
#include "ui/StepExplainedPanel.h"
#include "ui/TimelineExporter.h"
#include "ui/TimelinePanel.h"
#include "ui/TrainingRunController.h"

#include "core/Error.h"
#include "core/platform/InstallLayout.h"
#include "core/alignment/AlignmentComparison.h"
#include "core/alignment/LinkSet.h"
#include "core/evaluation/ModelScorecard.h"
#include "core/text/Tokenizer.h"
#include "ui/Lesson.h"
#include "ui/LessonPanel.h"
#include "ui/LessonPlayer.h"

#include "core/text/Vocabulary.h"
#include "core/training/Corpus.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QCoreApplication>
#include <QInputMethodEvent>
#include <QLineEdit>
#include <QTextCharFormat>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace alignscope::ui {
namespace {
constexpr int kMaxRecent = 8;
constexpr QSize kFrameAllowance(16, 48);    // a window manager's frame and title bar: the whole window stays on screen
}

MainWindow::MainWindow(DecodingDocument* document, QWidget* parent) : QMainWindow(parent), document_(document) {
    setWindowTitle(tr("AlignScope"));
    setAcceptDrops(true);
    buildActions();
    buildLayout();
    buildMenus();

    QSettings settings;
    restoreWindow(settings);
    beamWidth_->setValue(settings.value("decoding/beamWidth", 5).toInt());
    typeAheadAction_->setChecked(settings.value("decoding/typeAhead", false).toBool());
    encoderAction_->setChecked(settings.value("figure/encoderStates", true).toBool());
    valuesAction_->setChecked(settings.value("figure/values", false).toBool());
    grayAction_->setChecked(settings.value("figure/grayscale", false).toBool());
    wordsAction_->setChecked(settings.value("figure/words", false).toBool());
    const int end = settings.value("figure/endColumn", 0).toInt();
    (end == 1 ? dropEndAction_ : end == 2 ? renormEndAction_ : keepEndAction_)->setChecked(true);
    applyFigureOptions();
    applyTextScale(1.0);

    connect(document_, &DecodingDocument::snapshotChanged, this, &MainWindow::render);
    connect(document_, &DecodingDocument::errorOccurred, this, &MainWindow::showError);
    connect(document_, &DecodingDocument::modelChanged, this, [this](const QString& name, const QString& path) {
        setWindowTitle(tr("AlignScope — %1").arg(name));
        rememberModel(path);
        // Test-set scores are of the model that was A: none outlives it.
        stopScoring();
        comparePanel_->setScoresMessage(QString());
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
        cancelAction_->setEnabled(busy);
        if (busy) status_->setText(tr("decoding…"));
        else if (snapshot_) render(snapshot_);
        if (!busy && !pendingStatus_.isEmpty()) {  // a message about what was undone outlasts the redraw
            status_->setText(pendingStatus_);
            pendingStatus_.clear();
        }
    });
    render(document_->snapshot());
}

void MainWindow::buildActions() {
    auto make = [this](const QString& text, const QString& tip, QList<QKeySequence> keys, auto slot) {
        auto* a = new QAction(text, this);
        a->setToolTip(tip + (keys.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(keys.first().toString(QKeySequence::NativeText))));
        a->setShortcuts(keys);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    openAction_ = make(tr("&Open model…"), tr("Open a model file"), {QKeySequence::Open}, [this] { openModelDialog(); });
    stepAction_ = make(tr("&Step →"), tr("Decode one more token"), {QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_F10)},
                       [this] { document_->step(); });
    backAction_ = make(tr("← &Back"), tr("Undo the last step"), {QKeySequence(Qt::Key_Left), QKeySequence(Qt::SHIFT | Qt::Key_F10)},
                       [this] { document_->back(); });
    runAction_ = make(tr("&Run to end"), tr("Decode until </s>"), {QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)},
                      [this] { document_->runToEnd(); });
    resetAction_ = make(tr("R&eset"), tr("Back to the first step"), {QKeySequence(Qt::CTRL | Qt::Key_Home)},
                        [this] { document_->reset(); });
    beamAction_ = make(tr("Bea&m search"), tr("Run beam search and list every hypothesis"), {QKeySequence(Qt::CTRL | Qt::Key_B)},
                       [this] {
                           focusBeamWhenDone_ = true;  // Up and Down then pick a hypothesis
                           document_->runBeam(beamWidth_->value());
                       });
    cancelAction_ = make(tr("&Cancel"), tr("Stop a running search"), {QKeySequence(Qt::Key_Escape)}, [this] { document_->cancel(); });
    cancelAction_->setEnabled(false);
    typeAheadAction_ = make(tr("Translate as you t&ype"), tr("Decode the whole sentence after each edit"), {}, [this] {
        if (!typeAheadAction_->isChecked()) return;
        document_->cancel();
        decodeSource(sentence_->source());
    });
    typeAheadAction_->setCheckable(true);
    teacherAction_ = make(tr("&Teacher forcing"), tr("Type a target too and see the alignment the model gives that pair"),
                          {QKeySequence(Qt::CTRL | Qt::Key_T)}, [this] {
                              sentence_->setTargetVisible(teacherAction_->isChecked());
                              // Typing goes where the target is asked for; off, the arrows step again.
                              if (teacherAction_->isChecked()) sentence_->targetEdit()->setFocus();
                              else view_->setFocus();
                              targetEdited();
                          });
    teacherAction_->setCheckable(true);
    auto figureToggle = [&](const QString& text) {
        auto* a = make(text, text, {}, [this] { applyFigureOptions(); });
        a->setCheckable(true);
        return a;
    };
    encoderAction_ = figureToggle(tr("Show &encoder states"));
    valuesAction_ = figureToggle(tr("Show &values in cells"));
    grayAction_ = figureToggle(tr("&Grey-scale colours"));
    wordsAction_ = figureToggle(tr("&Words (merge sub-word pieces)"));
    wordsAction_->setToolTip(tr("The heatmap over the words of the text: a source word's piece columns summed, a target "
                                "word's piece rows averaged (the encoder panel, one column per piece, is left out)"));
    auto* endGroup = new QActionGroup(this);
    keepEndAction_ = figureToggle(tr("&Keep the </s> column"));
    dropEndAction_ = figureToggle(tr("Hi&de the </s> column"));
    renormEndAction_ = figureToggle(tr("Hide </s> and re&normalise rows"));
    for (auto* a : {keepEndAction_, dropEndAction_, renormEndAction_}) endGroup->addAction(a);
    exportAction_ = make(tr("&Export…"), tr("Export the alignment as PNG, SVG, PDF, CSV, JSON or Pharaoh links"),
                         {QKeySequence(Qt::CTRL | Qt::Key_E)}, [this] { openExportDialog(); });
    exportAction_->setEnabled(false);
    // 1-9 pick that candidate of the current step (what-if), as a click on it would.
    for (int k = 1; k <= 9; ++k)
        make(tr("Choose candidate %1").arg(k), tr("Choose candidate %1").arg(k), {QKeySequence(Qt::Key_0 + k)}, [this, k] { chooseCandidate(k - 1); });
}

void MainWindow::chooseCandidate(int index) {
    if (!snapshot_ || snapshot_->teacherForced || snapshot_->selectedHypothesis >= 0 || document_->busy()) return;
    const auto* step = snapshot_->currentStep();
    if (!step || index < 0 || index >= static_cast<int>(step->candidates.size())) return;
    document_->replaceLast(step->candidates[static_cast<size_t>(index)].id);
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(openAction_);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("Open &training run…"), this, &MainWindow::openTimelineDialog);
    file->addAction(tr("&Compare with…"), this, &MainWindow::openComparisonDialog);
    compareTestAction_ = file->addAction(tr("Compare on a test set…"), this, &MainWindow::openComparisonTestDialog);
    stopCompareAction_ = file->addAction(tr("Stop comparing"), this, &MainWindow::closeComparison);
    compareTestAction_->setEnabled(false);
    stopCompareAction_->setEnabled(false);
    updateRecentMenu();
    file->addAction(exportAction_);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto* decode = menuBar()->addMenu(tr("&Decode"));
    for (auto* a : {stepAction_, backAction_, runAction_, resetAction_}) decode->addAction(a);
    decode->addSeparator();
    decode->addAction(beamAction_);
    decode->addAction(cancelAction_);
    decode->addSeparator();
    decode->addAction(typeAheadAction_);
    decode->addAction(teacherAction_);

    auto* lessons = menuBar()->addMenu(tr("&Lessons"));
    // Numbered as shipped: Alt+L then the lesson's number starts it (the numbers alone pick candidates).
    int number = 0;
    for (const auto& path : Lesson::shippedLessons()) {
        ++number;
        const QString mnemonic = number <= 9 ? QStringLiteral("&%1 ").arg(number) : QStringLiteral("%1 ").arg(number);
        try {
            const auto lesson = Lesson::loadHeading(path);
            lessons->addAction(mnemonic + QString(lesson.title).replace(QLatin1Char('&'), QStringLiteral("&&")), this, [this, path] { startLesson(path); })
                ->setToolTip(lesson.summary);
        } catch (const std::exception& e) {
            lessons->addAction(mnemonic + QFileInfo(path).fileName())->setEnabled(false);
        }
    }
    lessons->addAction(tr("&Open lesson file…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open lesson"), QString::fromStdString(core::InstallLayout::lessonsDirectory()),
                                                          tr("Lessons (*.json)"));
        if (!path.isEmpty()) startLesson(path);
    });
    lessons->addSeparator();
    // A page's text longer than its panel (a small projector) scrolls a screenful first, as a
    // presentation clicker (which sends these keys) expects; at its end the page turns.
    auto* nextPage = lessons->addAction(tr("&Next page"), this, [this] {
        if (!lessonDock_->isVisible() || !lessonPanel_->scrollPage(1)) lessonPlayer_->next();
    });
    nextPage->setShortcut(QKeySequence(Qt::Key_PageDown));
    auto* previousPage = lessons->addAction(tr("&Previous page"), this, [this] {
        if (!lessonDock_->isVisible() || !lessonPanel_->scrollPage(-1)) lessonPlayer_->previous();
    });
    previousPage->setShortcut(QKeySequence(Qt::Key_PageUp));
    presenterAction_ = lessons->addAction(tr("Presenter &mode"), this, [this] { setPresenterMode(presenterAction_->isChecked()); });
    presenterAction_->setCheckable(true);
    presenterAction_->setShortcut(QKeySequence(Qt::Key_F11));
    // A page's picture (a chart with its own text) is small in presenter mode's column: full size,
    // fitted to the screen, from the keyboard too (Esc closes it).
    pictureAction_ = lessons->addAction(tr("Show the page's p&icture full size"), lessonPanel_, &LessonPanel::enlargeImage);
    pictureAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    pictureAction_->setEnabled(false);
    connect(lessonPlayer_, &LessonPlayer::pageChanged, this, [this] { pictureAction_->setEnabled(!lessonPanel_->pageImage().isNull()); });
    auto* endLesson = lessons->addAction(tr("&End lesson"), lessonPlayer_, &LessonPlayer::stop);
    endLesson->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));

    auto* view = viewMenu_ = menuBar()->addMenu(tr("&View"));
    auto* explain = stepDock_->toggleViewAction();
    explain->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    // Every panel and toolbar, so one closed with its × comes back from here.
    const std::pair<QDockWidget*, QString> panels[] = {{candidatesDock_, tr("&Candidates of the last step")}, {beamDock_, tr("&Beam hypotheses")},
                                                       {stepDock_, tr("Step e&xplained")},           {lessonDock_, tr("&Lesson")},
                                                       {timelineDock_, tr("T&raining run")},          {compareDock_, tr("Com&pare models")}};
    for (const auto& [dock, text] : panels) {
        // The menu's mnemonic, not in the dock's title; a title that grows ("Compare models: A = …")
        // keeps it (QDockWidget renames its action to each new title).
        auto* toggle = dock->toggleViewAction();
        const auto name = [toggle, text = text](const QString& title) {
            const QString plain = QString(text).remove(QLatin1Char('&'));
            toggle->setText(title.startsWith(plain) ? text + title.mid(plain.size()).replace(QLatin1Char('&'), QStringLiteral("&&")) : title);
        };
        name(dock->windowTitle());
        connect(dock, &QWidget::windowTitleChanged, toggle, name);
        view->addAction(toggle);
    }
    view->addSeparator();
    for (auto* a : {encoderAction_, valuesAction_, grayAction_, wordsAction_}) view->addAction(a);
    view->addSeparator();
    for (auto* a : {keepEndAction_, dropEndAction_, renormEndAction_}) view->addAction(a);
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
    linksMenu_ = new ChoiceMenu(view->addMenu(tr("&Links")), QStringLiteral("links-"),
                                {{QString(), tr("&None")},
                                 {QStringLiteral("argmax"), tr("&Argmax (each target word's peak)")},
                                 {QStringLiteral("itermax"), tr("&Itermax (mutual peaks)")},
                                 {QStringLiteral("agreement-intersection"), tr("A&greement with the reverse model")},
                                 {QStringLiteral("agreement-grow-diag-final-and"), tr("Agreement, &grow-diag-final-and")}},
                                [this](const QString& rule) { setLinkRule(rule); });

    // Two toolbars, so that a narrow window or presenter mode's large text puts the second on its
    // own row (fitToolBars) instead of hiding actions behind an overflow arrow.
    auto* decoding = decodingBar_ = addToolBar(tr("Decoding toolbar"));
    decoding->setObjectName(QStringLiteral("decodingToolBar"));
    decoding->addAction(openAction_);
    decoding->addSeparator();
    for (auto* a : {backAction_, stepAction_, runAction_, resetAction_}) decoding->addAction(a);
    auto* search = searchBar_ = addToolBar(tr("Beam search toolbar"));
    search->setObjectName(QStringLiteral("searchToolBar"));
    search->addWidget(new QLabel(tr(" beam width ")));
    search->addWidget(beamWidth_);
    search->addAction(beamAction_);
    search->addAction(cancelAction_);
    auto* tools = toolsBar_ = addToolBar(tr("Modes and export toolbar"));
    tools->setObjectName(QStringLiteral("toolsToolBar"));
    tools->addAction(typeAheadAction_);
    tools->addAction(teacherAction_);
    tools->addSeparator();
    tools->addAction(exportAction_);
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

void MainWindow::setHeatmapMethod(const QString& method) {
    heatmapMethod_ = method;
    heatmapMenu_->choose(method);
    document_->setAttributionMethod(method);
}

bool MainWindow::setLinkRule(const QString& rule) {
    if (!linksMenu_->choose(rule)) return false;
    document_->setLinkRule(rule);
    return true;
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
        if (!typeAheadAction_->isChecked()) return;
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
    auto* candidatesDock = candidatesDock_ = new QDockWidget(tr("Candidates of the last step"), this);
    candidatesDock->setObjectName(QStringLiteral("candidatesDock"));
    candidatesDock->setWidget(candidatesScroll);
    addDockWidget(Qt::RightDockWidgetArea, candidatesDock);

    auto* beamPanel = beamPanel_ = new BeamPanel;
    beamList_ = beamPanel->list();
    connect(beamPanel, &BeamPanel::hypothesisChosen, this, [this](int row) {
        if (snapshot_ && row != snapshot_->selectedHypothesis) document_->selectHypothesis(row);
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
        fitCentralView();  // a comparison the page keeps takes the heatmap's place
        QTimer::singleShot(0, this, [this] { presenter_.arrange(); });  // presenter mode: the page's share of the column
        view_->setFocus();  // the arrows step, Page Down turns the page; no box takes the keys
    });
    connect(lessonPlayer_, &LessonPlayer::stopped, this, [this] {
        lessonDock_->hide();
        applyView(viewBeforeLesson_);  // back to what was open before the lesson, at its step
        if (frontBeforeLesson_) presenter_.bringForward(frontBeforeLesson_);  // and the tab that was in front
        fitCentralView();  // a comparison open before the lesson is beside the heatmap again
        view_->setFocus();
    });
    timelinePanel_ = new TimelinePanel;
    timelineDock_ = new QDockWidget(tr("Training run"), this);
    timelineDock_->setObjectName(QStringLiteral("timelineDock"));
    timelineDock_->setWidget(timelinePanel_);
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock_);
    timelineDock_->hide();
    run_ = new TrainingRunController(document_, timelinePanel_, [this] {
        DecodingRequest request;
        request.source = sentence_->source();
        request.attribution = heatmapMethod_;
        return request;
    }, this);
    connect(run_, &TrainingRunController::targetShown, this, &MainWindow::showTargetBox);
    connect(run_, &TrainingRunController::targetFound, this, &MainWindow::setTargetText);
    connect(run_, &TrainingRunController::refused, this, [this](const QString& message) {
        showError(message);
        pendingStatus_ = message;
    });
    connect(timelinePanel_, &TimelinePanel::exportRequested, this, &MainWindow::exportTimelineDialog);

    comparePanel_ = new ComparePanel;
    compareDock_ = new QDockWidget(tr("Compare models"), this);
    compareDock_->setObjectName(QStringLiteral("compareDock"));
    compareDock_->setWidget(comparePanel_);
    addDockWidget(Qt::BottomDockWidgetArea, compareDock_);
    compareDock_->hide();
    connect(compareDock_, &QDockWidget::visibilityChanged, this, [this] { fitCentralView(); });

    connect(stepDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && snapshot_) stepPanel_->render(snapshot_);
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

void MainWindow::fitToScreen() {
    const QSize wanted(1280, 820);
    const QScreen* screen = this->screen();
    if (!screen) {
        resize(wanted);
        return;
    }
    const QRect room = screen->availableGeometry();
    resize(wanted.boundedTo(room.size() - kFrameAllowance));
    move(room.topLeft() + QPoint((room.width() - width()) / 2, (room.height() - height() - kFrameAllowance.height()) / 2));
}

// The last window's rectangle, fitted to the screen it opens on (a window saved on a larger
// screen, or a projector's, shows whole: title bar, status bar and docks on screen), and its docks.
// What shows a lesson, a comparison or a training run stays closed: none of them is open at start.
void MainWindow::restoreWindow(const QSettings& settings) {
    const QRect saved = settings.value("window/rect").toRect();
    if (saved.isValid()) {
        const QScreen* screen = QGuiApplication::screenAt(saved.center());
        if (!screen) screen = this->screen();
        const QRect room = screen ? screen->availableGeometry() : saved;
        const QSize size = saved.size().boundedTo(room.size() - kFrameAllowance);
        const QPoint lowest = room.bottomRight() - QPoint(size.width(), size.height()) - QPoint(kFrameAllowance.width(), kFrameAllowance.height()) +
                              QPoint(1, 1);
        const int titleBar = kFrameAllowance.height() - kFrameAllowance.width() / 2;  // above the rectangle
        setGeometry(QRect(QPoint(std::clamp(saved.x(), room.left(), std::max(room.left(), lowest.x())),
                                 std::clamp(saved.y(), room.top() + titleBar, std::max(room.top() + titleBar, lowest.y() + titleBar))),
                          size));
        if (settings.value("window/maximized", false).toBool()) setWindowState(Qt::WindowMaximized);
    } else {
        fitToScreen();
    }
    restoreState(settings.value("window/state").toByteArray());
    for (auto* dock : {lessonDock_, compareDock_, timelineDock_}) dock->hide();
}

void MainWindow::setSourceText(const QString& text) {
    sentence_->setSource(text);
    document_->setSource(text);
}

void MainWindow::decodeSource(const QString& text) {
    sentence_->stopTyping();
    document_->setSource(text);
    if (typeAheadAction_->isChecked() && !teacherAction_->isChecked()) document_->runToEnd();
}

void MainWindow::setTargetText(const QString& text) {
    showTargetBox(text);
    targetEdited();
}

void MainWindow::showTargetBox(const QString& text) {
    teacherAction_->setChecked(!text.isEmpty());
    sentence_->showTarget(text);
    givenTarget_ = text;
}

void MainWindow::setBeamWidth(int width) { beamWidth_->setValue(width); }

void MainWindow::targetEdited() {
    givenTarget_ = teacherAction_->isChecked() ? sentence_->target() : QString();
    run_->targetTyped();
    // A run's snapshots are compared along one target: cleared, it is the last snapshot's translation.
    if (runOpen() && givenTarget_.trimmed().isEmpty() && !run_->findingTarget()) {
        run_->forceAlongLastTranslation();
        return;
    }
    document_->setTarget(givenTarget_);
}

void MainWindow::applyFigureOptions() {
    figureOptions_.showEncoderStates = encoderAction_->isChecked();
    figureOptions_.valuesInCells = valuesAction_->isChecked();
    const bool wordsChanged = figureOptions_.mergeWords != wordsAction_->isChecked();
    figureOptions_.mergeWords = wordsAction_->isChecked();
    figureOptions_.colorMap = grayAction_->isChecked() ? FigureOptions::ColorMap::Grayscale : FigureOptions::ColorMap::Viridis;
    figureOptions_.endColumn = dropEndAction_->isChecked()     ? FigureOptions::EndColumn::Drop
                               : renormEndAction_->isChecked() ? FigureOptions::EndColumn::Renormalize
                                                               : FigureOptions::EndColumn::Keep;
    view_->setOptions(figureOptions_);
    comparePanel_->setOptions(compareOptions());
    if (wordsChanged && comparison_) renderComparison();  // the comparison itself is made over words or tokens
}

void MainWindow::render(SnapshotPtr snapshot) {
    snapshot_ = snapshot;
    const auto& s = *snapshot;
    sentence_->render(snapshot);
    view_->render(snapshot);
    if (stepDock_->isVisible()) stepPanel_->render(snapshot);
    const auto* step = s.currentStep();
    // A shown beam hypothesis is read-only: a click would change the steps, which are not on screen.
    // A forced token outside the top k is listed too, after them (marked), with its probability.
    auto candidates = step ? step->candidates : std::vector<core::Candidate>{};
    const bool outside = step && std::none_of(candidates.begin(), candidates.end(), [step](const auto& c) { return c.id == step->tokenId; });
    if (outside) candidates.push_back({step->tokenId, step->token, static_cast<float>(std::exp(step->logProb))});
    candidates_->setCandidates(std::move(candidates), step ? step->tokenId : -1, !s.teacherForced && s.selectedHypothesis < 0, outside);
    beamPanel_->render(s);
    const bool ready = !s.source.tokens.empty();
    // Teacher forcing on with no target yet: Step would decode freely under a button that says
    // otherwise, so it waits for the target.
    const bool awaitingTarget = teacherAction_->isChecked() && sentence_->target().trimmed().isEmpty();
    stepAction_->setEnabled(ready && !s.finished && !awaitingTarget);
    backAction_->setEnabled(ready && !s.steps.empty());
    runAction_->setEnabled(ready && !s.finished && !awaitingTarget);
    resetAction_->setEnabled(ready && !s.steps.empty());
    beamAction_->setEnabled(ready && !s.teacherForced && !awaitingTarget);
    if (focusBeamWhenDone_ && !s.beam.empty()) {
        focusBeamWhenDone_ = false;
        beamList_->setFocus();
    }
    exportAction_->setEnabled(!s.steps.empty() || s.selectedHypothesis >= 0);  // an alignment to export
    if (comparison_) {
        syncComparison();
        renderComparison();
    }
    if (!document_->busy())
        status_->setText(s.selectedHypothesis >= 0
                             ? tr("%1 · %2 source tokens · beam hypothesis %3 of %4, %5 tokens")
                                   .arg(s.modelName.empty() ? tr("no model") : QString::fromStdString(s.modelName))
                                   .arg(s.sourceTokenCount())
                                   .arg(s.selectedHypothesis + 1)
                                   .arg(s.beam.size())
                                   .arg(s.hypothesisSteps.size())
                         : awaitingTarget ? tr("Teacher forcing: type the target sentence in Target and press Enter")
                         : s.teacherForced ? tr("%1 · %2 source tokens · teacher forcing, step %3 of %4")
                                                 .arg(s.modelName.empty() ? tr("no model") : QString::fromStdString(s.modelName))
                                                 .arg(s.sourceTokenCount())
                                                 .arg(s.steps.size())
                                                 .arg(s.forcedSteps)
                             : tr("%1 · %2 source tokens · step %3%4")
                                   .arg(s.modelName.empty() ? tr("no model") : QString::fromStdString(s.modelName))
                                   .arg(s.sourceTokenCount())
                                   .arg(s.steps.size())
                                   .arg(s.finished ? tr(" · finished") : QString()));
    // View > Links: what was read, or why nothing was.
    if (!document_->busy() && !s.linkRule.empty())
        status_->setText(status_->text() + (s.linksError.empty() ? tr(" · %1 links (%2)").arg(s.links.size()).arg(QString::fromStdString(s.linkRule))
                                                                 : tr(" · no links: %1").arg(QString::fromStdString(s.linksError))));
}

void MainWindow::openExportDialog() {
    if (!snapshot_ || (snapshot_->steps.empty() && snapshot_->selectedHypothesis < 0)) return;
    ExportDialog dialog(snapshot_, figureOptions_, this);
    if (timelineDock_->isVisible() && !timelinePanel_->timeline().snapshots().empty())
        dialog.setTimeline(timelinePanel_->timeline(), givenTarget_.toStdString());
    if (dialog.exec() == QDialog::Accepted) status_->setText(tr("exported %1").arg(dialog.path()));
}

bool MainWindow::waitUntilIdle(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    // B starts when A's snapshot arrives, so wait round both until neither has anything left.
    while (clock.elapsed() < timeoutMs) {
        const int left = static_cast<int>(timeoutMs - clock.elapsed());
        if (!document_->waitUntilIdle(left)) return false;
        if (comparison_ && !comparison_->waitUntilIdle(static_cast<int>(timeoutMs - clock.elapsed()))) return false;
        while (scoring_ && clock.elapsed() < timeoutMs) {
            QEventLoop loop;
            QTimer::singleShot(20, &loop, &QEventLoop::quit);
            loop.exec();
        }
        QCoreApplication::processEvents();
        if (!document_->busy() && !(comparison_ && comparison_->busy()) && !scoring_) return true;
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

void MainWindow::rememberModel(const QString& given) {
    // One entry per file, however it was named (relative, through a link).
    const QString canonical = QFileInfo(given).canonicalFilePath();
    const QString path = canonical.isEmpty() ? QFileInfo(given).absoluteFilePath() : canonical;
    QSettings settings;
    auto recent = settings.value("recentModels").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue("recentModels", recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const auto recent = QSettings().value("recentModels").toStringList();
    for (const auto& path : recent) {
        // Two files of one name are told apart by their folder.
        const QString name = QFileInfo(path).fileName();
        const bool shared = std::count_if(recent.begin(), recent.end(), [&](const QString& p) { return QFileInfo(p).fileName() == name; }) > 1;
        const QString text = shared ? QStringLiteral("%1 — %2").arg(name, QDir::toNativeSeparators(QFileInfo(path).absolutePath())) : name;
        recentMenu_->addAction(text, this, [this, path] { openModel(path); })->setToolTip(path);
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

MainWindow::~MainWindow() {
    stopScoring();                                  // its thread runs LibTorch: never past the window
    if (presenter_.active()) applyTextScale(1.0);  // the application's font is shared: back to normal
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    // Presenter mode's full screen and column are never saved: the window as it is outside it.
    settings.remove("window/geometry");  // an older version's, which could hold presenter mode's
    settings.setValue("window/rect", presenter_.normalGeometry());
    settings.setValue("window/maximized", bool(presenter_.normalWindowState() & Qt::WindowMaximized));
    settings.setValue("window/state", presenter_.normalLayout());
    settings.setValue("decoding/beamWidth", beamWidth_->value());
    settings.setValue("decoding/typeAhead", typeAheadAction_->isChecked());
    settings.setValue("figure/encoderStates", encoderAction_->isChecked());
    settings.setValue("figure/values", valuesAction_->isChecked());
    settings.setValue("figure/grayscale", grayAction_->isChecked());
    settings.setValue("figure/words", wordsAction_->isChecked());
    settings.setValue("figure/endColumn", dropEndAction_->isChecked() ? 1 : renormEndAction_->isChecked() ? 2 : 0);
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
