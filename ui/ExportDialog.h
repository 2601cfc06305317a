#pragma once
#include "ui/DecodingSnapshot.h"
#include "ui/FigureExporter.h"
#include "ui/FigureOptions.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace alignscope::ui {

// File → Export…: the current alignment as PNG (at a chosen DPI), SVG, PDF, CSV, JSON or Pharaoh
// links, with the figure options (encoder-states panel, colour map, values in cells, font size,
// the </s> column, a title). Starts from the view's options; writes through FigureExporter.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(SnapshotPtr snapshot, const FigureOptions& defaults, QWidget* parent = nullptr);

    FigureExporter::Settings settings() const;
    FigureOptions figureOptions() const;
    QString path() const;
    void setPath(const QString& path);
    void setFormat(FigureExporter::Format format);

    // Writes the file; on failure shows the message in the dialog and returns it (empty: written).
    QString exportNow();

private:
    void formatChanged();
    void browse();
    void updateSizeHint();

    SnapshotPtr snapshot_;
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
    QLabel* sizeLabel_;
    QLabel* error_;
};

}  // namespace alignscope::ui
