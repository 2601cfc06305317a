#pragma once
#include "core/inspection/DecodingState.h"
#include "ui/FigureExporter.h"
#include "ui/FigureOptions.h"

#include "core/training/TrainingTimeline.h"

#include <optional>

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QDialogButtonBox;
class QLineEdit;
class QProgressBar;
class QSpinBox;
class QThread;

namespace alignscope::ui {

// File → Export…: the current alignment as PNG (at a chosen DPI), SVG, PDF, CSV, JSON or Pharaoh
// links, or animated (GIF, PNG frames: the steps, or an open training run's snapshots), with the figure options (encoder-states panel,
// colour map, values in cells, font size, the </s> column, a title). Starts from the view's options; writes through FigureExporter.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(core::DecodingStatePtr snapshot, const FigureOptions& defaults, QWidget* parent = nullptr);

    FigureExporter::Settings settings() const;
    FigureOptions figureOptions() const;
    QString path() const;
    void setPath(const QString& path);
    void setFormat(FigureExporter::Format format);
    // A training run is open: a GIF or PNG frames may animate its snapshots (the sentence forced
    // along `target`, or the last snapshot's translation) instead of the steps.
    void setTimeline(const core::TrainingTimeline& timeline, const std::string& target);
    void setAnimateSnapshots(bool snapshots);  // with a timeline: what a GIF or frames animate
    // The open model's file: a web page may then carry it (a live page, core/platform/LivePageMaker).
    void setLiveModel(const QString& modelPath);

    ~ExportDialog() override;

    // Writes the file (and makes the page live, where chosen) before it returns; on failure shows
    // the message in the dialog and returns it (empty: written).
    QString exportNow();
    // The Export button: as exportNow, but a live page's making (the model's ONNX export and check,
    // 20-50 s) runs off the GUI thread while the dialog shows it is busy, its buttons and fields
    // disabled; exportFinished tells the result, and the dialog closes when it was written.
    void startExport();
    bool exporting() const { return liveThread_ != nullptr; }
    void reject() override;  // refused while a live page is being made (its child cannot be stopped half-way)
    int dpi() const;
    QString formatText(FigureExporter::Format format) const;  // the format's entry as the list shows it

    // Default resolutions, each remembered apart: a figure for print, an animation for a screen.
    static constexpr int kFigureDpi = 300;
    static constexpr int kAnimationDpi = 96;

signals:
    void exportFinished(const QString& message);  // startExport's result: empty when written

private:
    bool liveChosen() const;
    QString writeFile(bool makeLive);  // the export itself; its error message, empty when written
    QString showResult(const QString& message);
    void setBusy(bool busy);
    void formatChanged();
    void nameAnimations();  // GIF and frames named for what they animate: the steps or the snapshots
    void browse();
    void updateSizeHint();

    core::DecodingStatePtr state_;
    FigureOptions defaults_;
    QComboBox* format_;
    QLineEdit* path_;
    QSpinBox* dpi_;
    QCheckBox* encoder_;
    QComboBox* colors_;
    QCheckBox* values_;
    QSpinBox* fontSize_;
    QComboBox* endColumn_;
    QLineEdit* title_;
    QCheckBox* highlight_;
    QComboBox* animate_;  // the steps, or the training run's snapshots
    QCheckBox* live_;     // web page: carry the model (setLiveModel)
    QString liveModel_;
    std::optional<core::TrainingTimeline> timeline_;
    std::string timelineTarget_;
    QLabel* sizeLabel_;
    QLabel* error_;
    QWidget* fields_;
    QDialogButtonBox* buttons_;
    QLabel* busyLabel_;
    QProgressBar* busy_;
    QThread* liveThread_ = nullptr;  // making the live page (startExport)
    FigureExporter::Format shownFormat_ = FigureExporter::Format::Png;
};

}  // namespace alignscope::ui
