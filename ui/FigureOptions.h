#pragma once
#include <QString>

#include <string>
#include <vector>

namespace alignscope::ui {

// How an alignment figure is drawn, in the app and in exported files alike.
struct FigureOptions {
    enum class ColorMap { Viridis, Grayscale };        // perceptually uniform, or print-friendly grey
    enum class EndColumn { Keep, Drop, Renormalize };  // the </s> source column (display only)

    bool showEncoderStates = true;  // the encoder-states panel below the heatmap
    ColorMap colorMap = ColorMap::Viridis;
    bool valuesInCells = false;  // write each alpha into its cell
    int fontSize = 10;           // token labels, in points
    EndColumn endColumn = EndColumn::Keep;
    QString title;                     // empty: no title
    bool highlightCurrentStep = true;  // frame the newest row and its peak
    bool mergeWords = false;           // View > Words: sub-word pieces merged into the words of the text
                                       // (a source word's columns summed, a target word's rows averaged)
    int reservedRows = 0;              // room for this many target rows (an animation's frames keep the last one's layout)
    // The heatmap's cells as vector rectangles instead of one image (the SVG export), where the
    // matrix has at most kMaxVectorCells cells; a larger one stays an image.
    bool vectorCells = false;
    static constexpr int kMaxVectorCells = 10000;
    // In a panel (AlignmentFigure::fit): the smallest cell, in pixels, before the heatmap shows a
    // window of its cells; above it the tick labels shrink (to kSmallestLabelPx) and then thin
    // rather than scroll. The window's panel allows 8 px, presenter mode's stage 12.
    int smallestCell = 8;
    static constexpr int kSmallestLabelPx = 10;
    int linkDotPx = 0;  // View > Links' dots, in pixels (0: from the font); the stage's are read from the back of a room
    // Rows and columns a lesson page talks about: framed, always labelled, never thinned away.
    // Each is a 1-based position, or a label as the axis shows it ("voiture": every such row).
    struct Mark {
        int position = 0;  // > 0: this position
        QString label;     // else every row (column) of this label
        bool operator==(const Mark& o) const { return position == o.position && label == o.label; }
    };
    std::vector<Mark> markedRows, markedColumns;

    // The source columns the figure shows: all, or all but the </s> column that endColumn drops.
    // endColumn only acts where the last column is the model's </s> (not where a model's sources
    // have none, nor on a model's own <padding> column).
    size_t shownColumns(const std::vector<std::string>& sourceTokens, const std::vector<int>& sourceWords) const;
    // A token as a label: a whitespace token (a character model's space) shows as "␣".
    static QString tokenLabel(const std::string& token);
    // An axis's labels: each token's tokenLabel, byte pieces that spell a character as that
    // character and its join mark (core::PieceText::labels).
    static std::vector<QString> tokenLabels(const std::vector<std::string>& tokens);
    // An axis's name with the language a model declares and a detail: "target (German, decoded)",
    // "target (decoded)" for a model that declares none.
    static QString sideLabel(const QString& side, const std::string& languageCode, const QString& detail = {});
};

}  // namespace alignscope::ui
