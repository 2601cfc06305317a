// MainWindow's views: the state on screen as one value (a lesson page, End lesson), lessons,
// the panels a page points at, and presenter mode's text and layout.
#include "ui/MainWindow.h"

#include "ui/ActionRegistry.h"
#include "ui/AlignmentView.h"
#include "ui/CandidatesView.h"
#include "ui/ComparePanel.h"
#include "ui/ComparisonController.h"
#include "ui/ChoiceMenu.h"
#include "ui/DecodingDocument.h"
#include "ui/Lesson.h"
#include "ui/LessonPanel.h"
#include "ui/LessonLanguage.h"
#include "ui/LessonPlayer.h"
#include "ui/PicturePanel.h"
#include "ui/StepExplainedPanel.h"
#include "ui/TimelinePanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QKeyEvent>
#include <QMessageBox>
#include <QSpinBox>
#include <QTimer>

#include <cmath>

namespace alignscope::ui {
namespace {
constexpr double kPresenterScale = 1.6;     // presenter mode: every text, for the back of a room
constexpr double kTranslationScale = 1.25;  // the translation line, above the rest
constexpr int kStageCell = 12;              // the smallest heatmap cell on the stage before it scrolls (pixels)
constexpr int kWindowCell = 8;              // and in the window's panel
constexpr int kStageLinkDot = 14;           // View > Links' dots on the stage (pixels)
}  // namespace

ViewState MainWindow::currentView() const {
    ViewState v;
    const bool run = runOpen();
    v.model = document_->modelPath();
    v.source = state_ ? QString::fromStdString(state_->sourceText) : sentence_->source();
    v.target = state_ && state_->teacherForced ? givenTarget_ : QString();
    v.steps = state_ ? static_cast<int>(state_->steps.size()) : 0;
    v.stepsOfTarget = true;
    v.beam = state_ && !state_->beam.empty() ? beamWidth_->value() : 0;
    v.explain = stepDock_->isVisible();
    v.highlight = highlightedPanel_;
    v.heatmap = heatmapMethod_;
    if (run) {
        v.timeline = QString::fromStdString(timelinePanel_->timeline().folder());
        v.snapshot = timelinePanel_->current() + 1;
    }
    v.compare = comparison_->modelPath();
    v.markRows = figureOptions_.markedRows;
    v.markColumns = figureOptions_.markedColumns;
    return v;
}

void MainWindow::applyView(const ViewState& view) {
    // A copy: the view may be a lesson's page, and what this opens (a training run) can change the lesson.
    const ViewState v = view;
    sentence_->stopTyping();
    document_->cancel();
    modelOpening_.clear();
    const QString compare = LessonPlayer::resolveModel(v.compare);
    if (compare.isEmpty()) closeComparison();
    if (v.timeline.isEmpty()) closeTimeline(/*endItsTarget=*/false);  // the view sets its own target
    sentence_->setSource(v.source);
    showTargetBox(v.target);
    heatmapMethod_ = v.heatmap;
    heatmapMenu_->choose(v.heatmap);
    if (v.beam > 0) beamWidth_->setValue(v.beam);
    if (!v.timeline.isEmpty()) {
        // The run's snapshot, the sentence forced along the target (else the last snapshot's translation).
        openTimeline(LessonPlayer::resolveTimeline(v.timeline), v.snapshot - 1);
    } else {
        const QString model = LessonPlayer::resolveModel(v.model);
        const bool same = model.isEmpty() || QFileInfo(model).absoluteFilePath() == QFileInfo(document_->modelPath()).absoluteFilePath();
        DecodingRequest request;
        request.modelPath = same ? QString() : model;
        request.source = v.source;
        request.target = v.target;
        request.steps = v.target.isEmpty() || v.stepsOfTarget ? v.steps : -1;
        request.run = v.run;
        request.beam = v.beam;
        request.attribution = v.heatmap;
        document_->apply(request);
    }
    if (!compare.isEmpty() && comparison_->modelPath() != compare) openComparison(compare);
    figureOptions_.markedRows = v.markRows;
    figureOptions_.markedColumns = v.markColumns;
    view_->setOptions(heatmapOptions());
    showStepPanel(v.explain || v.highlight == ViewState::Panel::Explain);
    stepPanel_->showPart(v.explainPart);
    highlightPanel(v.highlight);
}

void MainWindow::showStepPanel(bool visible) {
    stepDock_->setVisible(visible);
    if (visible) presenter_.bringForward(stepDock_);
}

void MainWindow::highlightPanel(ViewState::Panel panel) {
    using Panel = ViewState::Panel;
    view_->setHighlighted(false);
    if (highlighted_ && highlighted_ != view_) {
        highlighted_->setStyleSheet(QString());
        highlighted_->setContentsMargins(0, 0, 0, 0);
    }
    // The widget framed, and the dock whose tab comes to the front in presenter mode's column.
    QDockWidget* dock = nullptr;
    switch (panel) {
    case Panel::Heatmap:
    case Panel::Encoder:
        highlighted_ = view_;
        break;
    case Panel::Candidates:
        highlighted_ = candidates_->parentWidget()->parentWidget(), dock = candidatesDock_;  // the scroll area round them
        break;
    case Panel::Beam:
        highlighted_ = beamList_, dock = beamDock_;
        break;
    case Panel::Explain:
        highlighted_ = stepPanel_, dock = stepDock_;
        break;
    case Panel::None:
        highlighted_ = nullptr;
        break;
    }
    if (highlighted_ == view_) view_->setHighlighted(true);  // its frame also shows the focus
    else if (highlighted_) {
        // The panel's own frame only: a rule without a selector reached every label inside it
        // (Step explained's parts each came out framed, the named one no more than the rest).
        if (highlighted_->objectName().isEmpty()) highlighted_->setObjectName(QStringLiteral("highlightedPanel"));
        highlighted_->setAttribute(Qt::WA_StyledBackground, true);  // a plain QWidget draws no style sheet frame else
        highlighted_->setContentsMargins(3, 3, 3, 3);               // and its children would cover it
        highlighted_->setStyleSheet(QStringLiteral("#%1 { border: 3px solid #ff7f0e; }").arg(highlighted_->objectName()));
    }
    const bool encoderChanged = (highlightedPanel_ == ViewState::Panel::Encoder) != (panel == ViewState::Panel::Encoder);
    highlightedPanel_ = panel;
    if (encoderChanged && presenter_.active()) view_->setOptions(heatmapOptions());
    // On a projector and on a lesson's pages the rows come before the encoder states, unless the
    // page names them.
    view_->setRowsFirst((presenter_.active() || lessonPlayer_->running()) && panel != Panel::Encoder);
    presenter_.bringForward(dock);
}

void MainWindow::startLesson(const QString& path, int firstPage) {
    try {
        auto lesson = Lesson::load(path, LessonLanguage::interfaceLanguage());
        if (!lessonPlayer_->running()) {
            viewBeforeLesson_ = currentView();
            // The panel whose tab is in front (presenter mode's column, or docks a user tabbed).
            frontBeforeLesson_ = nullptr;
            for (auto* dock : {candidatesDock_, stepDock_, beamDock_, timelineDock_})
                if (!frontBeforeLesson_ && dock->isVisible() && !dock->visibleRegion().isEmpty()) frontBeforeLesson_ = dock;
        }
        lessonPlayer_->start(lesson, firstPage);
    } catch (const std::exception& e) {
        showError(QString::fromUtf8(e.what()));
    }
}

void MainWindow::setPresenterMode(bool on, bool fillScreen) {
    action("presenter")->setChecked(on);
    figureOptions_.smallestCell = on ? kStageCell : kWindowCell;
    figureOptions_.linkDotPx = on ? kStageLinkDot : 0;
    sentence_->setStage(on);
    lessonPanel_->setStage(on);
    applyTextScale(on ? kPresenterScale : 1.0);
    // The panels a lesson shows or hides keep what the lesson made of them when presenter mode ends.
    if (on)
        presenter_.enter(fillScreen, lessonDock_, {candidatesDock_, stepDock_, beamDock_, timelineDock_, pictureDock_}, compareDock_,
                         {lessonDock_, stepDock_, timelineDock_, compareDock_, pictureDock_});
    else presenter_.leave();
    if (!on) pictureDock_->hide();        // the window shows the picture in the lesson's panel
    view_->setOptions(heatmapOptions());  // the encoder states on the stage only where a page names them
    fitStage();
    fitCentralView();
    highlightPanel(highlightedPanel_);  // its tab in front, the rows first
    fitToolBars();
    QTimer::singleShot(0, this, [this] {  // once the larger text is laid out
        fitToolBars();
        presenter_.arrange();
    });
}

// The compare view's labels at the stage's size too: ComparePanel shrinks them a point at a time,
// down to the window's size, only where three whole matrices would not fit so.
FigureOptions MainWindow::compareOptions() const { return figureOptions_; }

FigureOptions MainWindow::heatmapOptions() const {
    FigureOptions o = figureOptions_;
    if (presenter_.active()) o.showEncoderStates = o.showEncoderStates && highlightedPanel_ == ViewState::Panel::Encoder;
    return o;
}

// Presenter mode and a lesson's pages give a comparison the heatmap's place: its A is the
// heatmap, and three heatmaps need the room (beside the heatmap, or in a column beside the lesson,
// each was a strip). Outside them both show.
void MainWindow::fitCentralView() {
    const bool comparing = (presenter_.active() || lessonPlayer_->running()) && !compareDock_->isHidden() && !compareDock_->isFloating();
    view_->setVisible(!comparing);
    if (presenter_.active()) QTimer::singleShot(0, this, [this] { presenter_.arrange(); });
    else if (comparing)
        QTimer::singleShot(
            0, this, [this] { resizeDocks({compareDock_}, {static_cast<int>(height() * PresenterLayout::kWideShare)}, Qt::Vertical); });
}

// Every text scales from the application's font: the panels' own larger texts (translation,
// lesson) and the charts' labels are set relative to it here, not fixed once at start.
void MainWindow::applyTextScale(double scale) {
    if (normalFont_.pointSizeF() <= 0) normalFont_ = QApplication::font();
    QFont base = normalFont_;
    base.setPointSizeF(normalFont_.pointSizeF() * scale);
    QApplication::setFont(base);
    QFont big = base;
    big.setPointSizeF(base.pointSizeF() * kTranslationScale);
    sentence_->setTranslationFont(big);
    lessonPanel_->setTextScale(base, scale);
    stepPanel_->setLabelFont(base);
    timelinePanel_->setLabelFont(base);
    candidates_->setFont(base);
    // Dock titles: QDockWidget draws its title in the font it was made with ("QDockWidgetTitle")
    // while its own font is the class's; a class font of the normal size tells the two apart, so a
    // dock of larger text draws its title in it.
    QApplication::setFont(normalFont_, "QDockWidget");
    for (auto* dock : findChildren<QDockWidget*>()) dock->setFont(base);
    menuBar()->setFont(base);
    figureOptions_.fontSize = static_cast<int>(std::lround(FigureOptions().fontSize * scale));
    view_->setOptions(heatmapOptions());
    comparePanel_->setOptions(compareOptions());
}

void MainWindow::fitStage() {
    if (!presenter_.active()) return;
    using Panel = ViewState::Panel;
    // On a lesson's page the stage shows the panels the page names (Step explained follows the
    // page's "explain"); outside one, the candidates. A beam's list only once it has hypotheses.
    const bool candidates = !lessonPlayer_->running() || highlightedPanel_ == Panel::Candidates;
    const bool beam = state_ && !state_->beam.empty();
    // A page's picture has its own panel beside the heatmap (in the band a chart was a strip).
    const QPixmap picture = lessonPlayer_->running() ? lessonPanel_->pageImage() : QPixmap();
    picturePanel_->setPicture(picture);
    const bool showPicture = !picture.isNull();
    if (candidatesDock_->isHidden() == !candidates && beamDock_->isHidden() == !beam && pictureDock_->isHidden() == !showPicture) return;
    candidatesDock_->setVisible(candidates);
    beamDock_->setVisible(beam);
    pictureDock_->setVisible(showPicture);
    QTimer::singleShot(0, this, [this] { presenter_.arrange(); });
}

void MainWindow::showKeys() {
    QStringList rows;
    for (const auto& id : actions_->ids()) {
        const auto* a = action(id);
        if (a->shortcuts().isEmpty() || id.startsWith(QLatin1String("choose-"))) continue;
        QStringList keys;
        for (const auto& key : a->shortcuts()) keys << key.toString(QKeySequence::NativeText).toHtmlEscaped();
        rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.join(QStringLiteral(", ")), a->text().remove(QLatin1Char('&')).toHtmlEscaped());
    }
    rows << QStringLiteral("<tr><td><b>1–9</b></td><td>%1</td></tr>").arg(tr("Choose that candidate").toHtmlEscaped());
    if (presenter_.active())
        rows << QStringLiteral("<tr><td><b>Esc</b></td><td>%1</td></tr>").arg(tr("Leave presenter mode").toHtmlEscaped());
    QMessageBox box(QMessageBox::NoIcon, tr("Keys"), QStringLiteral("<table cellspacing='6'>%1</table>").arg(rows.join(QString())),
                    QMessageBox::Close, this);
    box.exec();
}

void MainWindow::keyPressEvent(QKeyEvent* event) {
    // Esc leaves the stage (a running search takes it first: Cancel); ? lists the keys there.
    if (presenter_.active() && event->key() == Qt::Key_Escape && !document_->busy()) {
        setPresenterMode(false);
        return;
    }
    if (presenter_.active() && event->text() == QLatin1String("?")) {
        showKeys();
        return;
    }
    QMainWindow::keyPressEvent(event);
}

void MainWindow::setHeatmapMethod(const QString& method) {
    heatmapMethod_ = method;
    heatmapMenu_->choose(method);
    document_->setAttributionMethod(method);
}

QStringList MainWindow::linkRules() const {
    auto rules = linksMenu_->names();
    rules.removeAll(QString());
    return rules;
}

bool MainWindow::setLinkRule(const QString& rule) {
    if (!linksMenu_->choose(rule)) return false;
    document_->setLinkRule(rule);
    return true;
}

}  // namespace alignscope::ui
