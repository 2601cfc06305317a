#include "ui/ExportDialog.h"
#include "ui/UiLanguage.h"

#include "ui/TimelineExporter.h"

#include "ui/BatchExporter.h"

#include "core/Error.h"
#include "core/platform/LivePageMaker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QThread>
#include <QVBoxLayout>

#include <memory>

namespace alignscope::ui {
namespace {

using Format = FigureExporter::Format;

QString filterFor(Format f) {
    switch (f) {
    case Format::Png:
        return QObject::tr("PNG image (*.png)");
    case Format::Svg:
        return QObject::tr("SVG vector image (*.svg)");
    case Format::Pdf:
        return QObject::tr("PDF document (*.pdf)");
    case Format::Csv:
        return QObject::tr("CSV matrix (*.csv)");
    case Format::Json:
        return QObject::tr("JSON (*.json)");
    case Format::Pharaoh:
        return QObject::tr("Pharaoh links (*.align)");
    case Format::Gif:
        return QObject::tr("Animated GIF (*.gif)");
    case Format::Frames:
        return QObject::tr("PNG frames, NAME-stepKK.png (*.png)");
    case Format::Html:
        return QObject::tr("Interactive web page (*.html)");
    }
    return {};
}

bool animation(FigureExporter::Format f) { return f == FigureExporter::Format::Gif || f == FigureExporter::Format::Frames; }

}  // namespace

ExportDialog::ExportDialog(core::DecodingStatePtr snapshot, const FigureOptions& defaults, QWidget* parent)
    : QDialog(parent), state_(std::move(snapshot)), defaults_(defaults) {
    setWindowTitle(tr("Export alignment"));
    QSettings settings;

    format_ = new QComboBox;
    format_->setObjectName(QStringLiteral("exportFormat"));
    format_->addItem(tr("PNG image"), int(Format::Png));
    format_->addItem(tr("SVG (vector, text as text)"), int(Format::Svg));
    format_->addItem(tr("PDF (vector, text as text)"), int(Format::Pdf));
    format_->addItem(tr("CSV (the alpha matrix)"), int(Format::Csv));
    format_->addItem(tr("JSON (tokens, matrix, model, options)"), int(Format::Json));
    format_->addItem(tr("Pharaoh links (i-j)"), int(Format::Pharaoh));
    format_->addItem(tr("Web page (interactive, one file)"), int(Format::Html));
    format_->addItem(QString(), int(Format::Gif));  // named for what they animate (nameAnimations)
    format_->addItem(QString(), int(Format::Frames));
    const auto remembered = FigureExporter::parseFormat(settings.value("export/format", "png").toString());
    format_->setCurrentIndex(format_->findData(int(remembered.value_or(Format::Png))));

    path_ = new QLineEdit;
    path_->setObjectName(QStringLiteral("exportPath"));
    path_->setMinimumWidth(360);
    auto* browseButton = new QPushButton(tr("Browse…"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browseButton);
    QString folder = settings.value("export/folder").toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::homePath();
    std::string sourceText;  // the source's tokens without </s>
    if (state_)
        for (size_t i = 0; i + 1 < state_->source.tokens.size(); ++i) sourceText += state_->source.tokens[i] + " ";
    QString base = BatchExporter::slug(sourceText);
    if (base.isEmpty()) base = QStringLiteral("alignment");
    path_->setText(QDir(folder).filePath(base + FigureExporter::extension(Format(format_->currentData().toInt()))));

    dpi_ = new QSpinBox;
    dpi_->setObjectName(QStringLiteral("exportDpi"));
    dpi_->setRange(72, 1200);
    dpi_->setSingleStep(50);
    dpi_->setSuffix(tr(" dpi"));
    const bool animated = animation(Format(format_->currentData().toInt()));
    dpi_->setValue(settings.value(animated ? "export/animationDpi" : "export/dpi", animated ? kAnimationDpi : kFigureDpi).toInt());
    encoder_ = new QCheckBox(tr("Include the encoder-states panel"));
    encoder_->setObjectName(QStringLiteral("exportEncoderStates"));
    // Words (View → Words) have no encoder states of their own (the states are the model's tokens'),
    // so the figure has no such panel to include, as the window shows none.
    encoder_->setChecked(defaults.showEncoderStates && !defaults.mergeWords);
    if (defaults.mergeWords) encoder_->setToolTip(tr("View → Words shows no encoder states: they belong to the model's tokens"));
    colors_ = new QComboBox;
    colors_->addItem(tr("Viridis (perceptually uniform)"), int(FigureOptions::ColorMap::Viridis));
    colors_->addItem(tr("Grey-scale (for print)"), int(FigureOptions::ColorMap::Grayscale));
    colors_->setCurrentIndex(colors_->findData(int(defaults.colorMap)));
    values_ = new QCheckBox(tr("Write the values in the cells"));
    values_->setChecked(defaults.valuesInCells);
    fontSize_ = new QSpinBox;
    fontSize_->setRange(6, 32);
    fontSize_->setSuffix(tr(" pt"));
    fontSize_->setValue(defaults.fontSize);
    endColumn_ = new QComboBox;
    endColumn_->addItem(tr("Keep the </s> column"), int(FigureOptions::EndColumn::Keep));
    endColumn_->addItem(tr("Drop the </s> column"), int(FigureOptions::EndColumn::Drop));
    endColumn_->addItem(tr("Drop </s> and renormalise rows"), int(FigureOptions::EndColumn::Renormalize));
    endColumn_->setCurrentIndex(endColumn_->findData(int(defaults.endColumn)));
    // A title typed for the last export comes back (a series of figures for one paper shares it).
    title_ = new QLineEdit(defaults.title.isEmpty() ? settings.value("export/title").toString() : defaults.title);
    title_->setPlaceholderText(tr("No title"));
    highlight_ = new QCheckBox(tr("Frame the last step and its peak"));
    highlight_->setChecked(false);  // the app's cursor; rarely wanted in a paper
    animate_ = new QComboBox;
    animate_->setObjectName(QStringLiteral("exportAnimate"));
    animate_->addItem(tr("The steps of this sentence"), false);
    animate_->addItem(tr("The training run's snapshots (the sentence forced along one target)"), true);
    live_ = new QCheckBox(tr("Carry the model: type sentences and decode in the browser (a live page; about a minute)"));
    live_->setObjectName(QStringLiteral("exportLive"));
    live_->setToolTip(
        tr("The model's own encode and step run in the page (ONNX Runtime Web); the runtime and the model go in the "
           "folder alignscope-live beside the page. Needs Debian's python3-torch, python3-onnx and nodejs."));
    live_->setVisible(false);  // until setLiveModel
    sizeLabel_ = new QLabel;
    sizeLabel_->setObjectName(QStringLiteral("exportSize"));
    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("exportError"));
    error_->setStyleSheet(QStringLiteral("color: #b00020"));
    error_->setWordWrap(true);
    error_->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("Format"), format_);
    form->addRow(tr("File"), pathRow);
    form->addRow(tr("Animate"), animate_);
    form->addRow(tr("Resolution"), dpi_);
    form->addRow(QString(), sizeLabel_);
    form->addRow(tr("Colours"), colors_);
    form->addRow(tr("Font size"), fontSize_);
    form->addRow(tr("</s> column"), endColumn_);
    form->addRow(tr("Title"), title_);
    form->addRow(QString(), encoder_);
    form->addRow(QString(), values_);
    form->addRow(QString(), highlight_);
    form->addRow(QString(), live_);
    form->setContentsMargins(0, 0, 0, 0);
    fields_ = new QWidget;
    fields_->setLayout(form);
    busyLabel_ = new QLabel(tr("Making the live page: exporting the model and checking it in the browser's runtime…"));
    busyLabel_->setObjectName(QStringLiteral("exportBusyText"));
    busyLabel_->setWordWrap(true);
    busyLabel_->hide();
    busy_ = new QProgressBar;
    busy_->setObjectName(QStringLiteral("exportBusy"));
    busy_->setRange(0, 0);  // no steps to count: the exporter says nothing until it is done
    busy_->setTextVisible(false);
    busy_->hide();
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel);
    auto* buttons = buttons_;
    auto* exportButton = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    exportButton->setObjectName(QStringLiteral("exportButton"));
    exportButton->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(fields_);
    layout->addWidget(error_);
    layout->addWidget(busyLabel_);
    layout->addWidget(busy_);
    layout->addWidget(buttons);

    connect(format_, &QComboBox::currentIndexChanged, this, [this] {
        // A figure for print and an animation for a screen remember a resolution each.
        const bool nowAnimation = animation(Format(format_->currentData().toInt()));
        if (nowAnimation != animation(shownFormat_))
            dpi_->setValue(
                QSettings().value(nowAnimation ? "export/animationDpi" : "export/dpi", nowAnimation ? kAnimationDpi : kFigureDpi).toInt());
        formatChanged();
    });
    connect(animate_, &QComboBox::currentIndexChanged, this, [this] { nameAnimations(); });
    connect(browseButton, &QPushButton::clicked, this, [this] { browse(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { startExport(); });
    for (auto* box : {encoder_, values_}) connect(box, &QCheckBox::toggled, this, [this] { updateSizeHint(); });
    for (auto* spin : {dpi_, fontSize_}) connect(spin, &QSpinBox::valueChanged, this, [this] { updateSizeHint(); });
    for (auto* combo : {endColumn_}) connect(combo, &QComboBox::currentIndexChanged, this, [this] { updateSizeHint(); });
    connect(title_, &QLineEdit::textChanged, this, [this] { updateSizeHint(); });
    formatChanged();
}

void ExportDialog::setTimeline(const core::TrainingTimeline& timeline, const std::string& target) {
    timeline_ = timeline;
    timelineTarget_ = target;
    formatChanged();
}

void ExportDialog::setAnimateSnapshots(bool snapshots) { animate_->setCurrentIndex(snapshots ? 1 : 0); }

void ExportDialog::setLiveModel(const QString& modelPath) {
    liveModel_ = modelPath;
    live_->setVisible(!modelPath.isEmpty());
    formatChanged();
}

FigureExporter::Settings ExportDialog::settings() const {
    FigureExporter::Settings s;
    s.format = Format(format_->currentData().toInt());
    s.dpi = dpi_->value();
    return s;
}

FigureOptions ExportDialog::figureOptions() const {
    FigureOptions o = defaults_;
    o.showEncoderStates = encoder_->isChecked();
    o.colorMap = FigureOptions::ColorMap(colors_->currentData().toInt());
    o.valuesInCells = values_->isChecked();
    o.fontSize = fontSize_->value();
    o.endColumn = FigureOptions::EndColumn(endColumn_->currentData().toInt());
    o.title = title_->text().trimmed();
    o.highlightCurrentStep = highlight_->isChecked();
    return o;
}

int ExportDialog::dpi() const { return dpi_->value(); }

QString ExportDialog::formatText(Format format) const { return format_->itemText(format_->findData(int(format))); }

QString ExportDialog::path() const { return path_->text().trimmed(); }
void ExportDialog::setPath(const QString& path) { path_->setText(path); }
void ExportDialog::setFormat(Format format) { format_->setCurrentIndex(format_->findData(int(format))); }

void ExportDialog::nameAnimations() {
    const bool snapshots = animate_->currentData().toBool() && animate_->isEnabled();
    format_->setItemText(format_->findData(int(Format::Gif)), snapshots ? tr("Animated GIF (the run's snapshots, one frame each)")
                                                                        : tr("Animated GIF (the steps, one frame each)"));
    format_->setItemText(format_->findData(int(Format::Frames)), snapshots ? tr("PNG frames (the snapshots as NAME-snapshot01.png, ...)")
                                                                           : tr("PNG frames (the steps as NAME-step01.png, ...)"));
}

void ExportDialog::formatChanged() {
    const auto format = Format(format_->currentData().toInt());
    shownFormat_ = format;
    // Only an open training run can be animated over its snapshots; only animations have a choice.
    animate_->setEnabled(timeline_.has_value() && (format == Format::Gif || format == Format::Frames));
    if (!timeline_) animate_->setCurrentIndex(0);
    nameAnimations();
    const bool figure = FigureExporter::isFigure(format);
    dpi_->setEnabled(format == Format::Png || format == Format::Gif || format == Format::Frames);
    for (QWidget* w : std::initializer_list<QWidget*>{encoder_, colors_, values_, fontSize_, title_, highlight_}) w->setEnabled(figure);
    encoder_->setEnabled(figure && !defaults_.mergeWords);
    // The web page starts in the chosen colours, under the chosen title.
    if (format == Format::Html)
        for (QWidget* w : std::initializer_list<QWidget*>{colors_, title_}) w->setEnabled(true);
    endColumn_->setEnabled(format != Format::Pharaoh);
    live_->setEnabled(format == Format::Html && !liveModel_.isEmpty());
    // Follow the format with the file's extension.
    QString p = path();
    if (!p.isEmpty()) {
        const QFileInfo info(p);
        QString stem = info.fileName();
        for (Format f :
             {Format::Png, Format::Svg, Format::Pdf, Format::Csv, Format::Json, Format::Pharaoh, Format::Gif, Format::Frames, Format::Html})
            if (stem.endsWith(FigureExporter::extension(f), Qt::CaseInsensitive)) stem.chop(FigureExporter::extension(f).size());
        path_->setText(QDir(info.path()).filePath(stem + FigureExporter::extension(format)));
    }
    updateSizeHint();
}

void ExportDialog::updateSizeHint() {
    const auto s = settings();
    if (!state_ || !FigureExporter::isFigure(s.format)) {
        sizeLabel_->clear();
        return;
    }
    FigureExporter exporter;  // measuring only: no plot is made
    const auto o = figureOptions();
    const QSize f = exporter.figureSize(*state_, o, s);
    const QString inches =
        tr("%1 × %2 in").arg(UiLanguage::number(f.width() / exporter.dpi(), 1), UiLanguage::number(f.height() / exporter.dpi(), 1));
    if (s.format == Format::Png) {
        const QSize px = exporter.imageSize(*state_, o, s);
        sizeLabel_->setText(tr("%1, %2 × %3 pixels").arg(inches).arg(px.width()).arg(px.height()));
    } else {
        sizeLabel_->setText(inches);
    }
}

void ExportDialog::browse() {
    const auto format = Format(format_->currentData().toInt());
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export alignment"), path(), filterFor(format));
    if (chosen.isEmpty()) return;
    path_->setText(chosen.endsWith(FigureExporter::extension(format), Qt::CaseInsensitive) ? chosen
                                                                                           : chosen + FigureExporter::extension(format));
}

bool ExportDialog::liveChosen() const {
    return settings().format == Format::Html && live_->isEnabled() && live_->isChecked() && !liveModel_.isEmpty();
}

QString ExportDialog::writeFile(bool makeLive) {
    if (!state_) return tr("Nothing to export.");
    if (path().isEmpty()) return tr("Choose a file to export to.");
    try {
        const auto format = settings().format;
        if (timeline_ && animate_->currentData().toBool() && (format == Format::Gif || format == Format::Frames)) {
            TimelineExporter(*timeline_).write(state_->sourceText, timelineTarget_, figureOptions(), settings(), path());
        } else {
            FigureExporter exporter;
            exporter.write(*state_, figureOptions(), settings(), path());
            if (makeLive) core::LivePageMaker::makeLive({{path().toStdString(), liveModel_.toStdString()}});
        }
        QSettings settings;
        settings.setValue("export/folder", QFileInfo(path()).absolutePath());
        settings.setValue("export/format", FigureExporter::formatName(this->settings().format));
        settings.setValue(animation(format) ? "export/animationDpi" : "export/dpi", dpi_->value());
        if (title_->isEnabled()) settings.setValue("export/title", title_->text().trimmed());
    } catch (const core::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString ExportDialog::showResult(const QString& message) {
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
    return message;
}

QString ExportDialog::exportNow() { return showResult(writeFile(liveChosen())); }

void ExportDialog::setBusy(bool busy) {
    fields_->setEnabled(!busy);
    buttons_->setEnabled(!busy);
    busyLabel_->setVisible(busy);
    busy_->setVisible(busy);
    if (busy) setCursor(Qt::BusyCursor);
    else unsetCursor();
}

void ExportDialog::startExport() {
    if (exporting()) return;
    const bool live = liveChosen();
    // The page itself first, here (a moment); then, for a live page, the model's export in a thread.
    const QString written = showResult(writeFile(false));
    if (!written.isEmpty() || !live) {
        emit exportFinished(written);
        if (written.isEmpty()) accept();
        return;
    }
    const std::vector<core::LivePageMaker::Page> pages{{path().toStdString(), liveModel_.toStdString()}};
    auto failure = std::make_shared<std::string>();  // written by the thread, read once it has finished
    liveThread_ = QThread::create([pages, failure] {
        try {
            core::LivePageMaker::makeLive(pages);
        } catch (const std::exception& e) {
            *failure = e.what();
        }
    });
    connect(liveThread_, &QThread::finished, this, [this, failure] {
        liveThread_->deleteLater();
        liveThread_ = nullptr;
        setBusy(false);
        const QString message = showResult(QString::fromStdString(*failure));
        emit exportFinished(message);
        if (message.isEmpty()) accept();
    });
    setBusy(true);
    liveThread_->start();
}

void ExportDialog::reject() {
    if (!exporting()) QDialog::reject();
}

ExportDialog::~ExportDialog() {
    if (liveThread_) {  // the window closed under it: the child finishes its folder, then the thread ends
        liveThread_->disconnect(this);
        liveThread_->wait();
        delete liveThread_;
    }
}

}  // namespace alignscope::ui
