// Export, offscreen: every format parses back (PNG/PDF/SVG headers and sizes; CSV and JSON equal
// to the engine's alpha), batch file names are stable, an unwritable folder fails cleanly and
// leaves nothing behind, the GUI's Export action and dialog write a file, and alignscope-cli export
// runs end to end without a display.
#include "CommandRunner.h"
#include "TinyModel.h"

#include "core/alignment/SoftAlignment.h"
#include "core/alignment/LinkSet.h"

#include "ui/AlignmentFigure.h"
#include "ui/AlignmentView.h"
#include "ui/BatchExporter.h"
#include "ui/DecodingDocument.h"
#include "ui/ExportDialog.h"
#include "ui/FigureExporter.h"
#include "ui/HtmlPage.h"
#include "ui/PageData.h"
#include "ui/StepExplainedPanel.h"
#include "ui/MainWindow.h"

#include "core/decoding/DecodingSession.h"
#include "core/text/PairLine.h"
#include "core/Error.h"

#include <numeric>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QCheckBox>
#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QRawFont>
#include <QTextLayout>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <regex>
#include <sstream>

using namespace alignscope;
namespace fs = std::filesystem;
using Format = ui::FigureExporter::Format;

namespace {

const std::string kSentence = "the red car is big .";

std::vector<std::string> entries(const std::string& folder) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(folder)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// RFC 4180 records, '#' comment lines skipped.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, lineStart = true, comment = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (lineStart && c == '#') comment = true;
        lineStart = false;
        if (comment) {
            if (c == '\n') comment = false, lineStart = true;
            continue;
        }
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') quoted = true;
        else if (c == ',') row.push_back(field), field.clear();
        else if (c == '\n') {
            row.push_back(field), field.clear();
            rows.push_back(row), row.clear();
            lineStart = true;
        } else field += c;
    }
    return rows;
}

bool canCreateIn(const std::string& folder) {
    const std::string probe = folder + "/.probe";
    const int fd = ::open(probe.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0) return false;
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

// A folder nobody can write into: mode 0555, and, where that is not enough (root ignores modes),
// the immutable attribute. ok() is false where neither works.
class ReadOnlyFolder {
public:
    explicit ReadOnlyFolder(std::string path) : path_(std::move(path)) {
        fs::create_directories(path_);
        fs::permissions(path_, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                                   fs::perms::others_read | fs::perms::others_exec);
        if (canCreateIn(path_)) setImmutable(true);
    }
    ~ReadOnlyFolder() {
        if (immutable_) setImmutable(false);
        fs::permissions(path_, fs::perms::owner_all);
    }
    bool ok() const { return !canCreateIn(path_); }
    const std::string& path() const { return path_; }

private:
    void setImmutable(bool on) {
        const int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY);
        if (fd < 0) return;
        int flags = 0;
        if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
            flags = on ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
            if (::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0) immutable_ = on;
        }
        ::close(fd);
    }
    std::string path_;
    bool immutable_ = false;
};

struct Run {
    int exitCode;
    std::string out;
};

Run run(const std::string& args) {
    // No display, no platform chosen: the subcommand picks "offscreen" itself.
    const auto r = tests::runCommand("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM " + std::string(ALIGNSCOPE_CLI) + " " + args);
    return {r.exitCode, r.output};
}

class Export : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new tests::TempDir;
        tests::tinyModel().save(dir_->path("tiny.pt"));
        model_ = new core::Model(core::Model::load(dir_->path("tiny.pt")));
    }
    static void TearDownTestSuite() {
        delete model_;
        delete dir_;
    }
    void SetUp() override { snapshot = ui::BatchExporter::decode(*model_, kSentence); }

    // The engine's own alpha for the sentence, decoded greedily from scratch.
    static std::vector<std::vector<float>> engineAlpha(const std::string& sentence = kSentence) {
        core::DecodingSession session(*model_, sentence);
        session.runToEnd();
        std::vector<std::vector<float>> rows;
        for (const auto& step : session.steps()) rows.push_back(step.alpha);
        return rows;
    }

    std::string write(Format format, const ui::FigureOptions& options = {}, int dpi = 300) {
        ui::FigureExporter::Settings settings;
        settings.format = format;
        settings.dpi = dpi;
        const std::string path = out.path("figure" + ui::FigureExporter::extension(format).toStdString());
        exporter.write(snapshot, options, settings, QString::fromStdString(path));
        return path;
    }

    static tests::TempDir* dir_;
    static core::Model* model_;
    tests::TempDir out;
    core::DecodingState snapshot;
    ui::FigureExporter exporter;
};

tests::TempDir* Export::dir_ = nullptr;
core::Model* Export::model_ = nullptr;

}  // namespace

TEST_F(Export, SnapshotIsTheEnginesGreedyDecoding) {
    const auto alpha = engineAlpha();
    ASSERT_FALSE(alpha.empty());
    EXPECT_EQ(snapshot.alignment().weights(), alpha);
    EXPECT_TRUE(snapshot.finished);
    EXPECT_EQ(snapshot.modelName, "tiny-test");
}

TEST_F(Export, PngHasTheDpiScaledSizeAndResolution) {
    const auto path = write(Format::Png);
    QImage image;
    ASSERT_TRUE(image.load(QString::fromStdString(path), "PNG"));
    EXPECT_EQ(tests::readFile(path).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    ui::FigureExporter::Settings settings;  // png, 300 dpi
    const QSize figure = exporter.figureSize(snapshot, {}, settings);
    EXPECT_EQ(image.size(), exporter.imageSize(snapshot, {}, settings));
    EXPECT_NEAR(image.width(), figure.width() * 300.0 / exporter.dpi(), 1.0);
    EXPECT_NEAR(image.height(), figure.height() * 300.0 / exporter.dpi(), 1.0);
    EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, 300, 0.5);
    EXPECT_FALSE(image.hasAlphaChannel());
    // Drawn, not blank: many colours (viridis cells, the colour bar, text).
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 50);

    settings.dpi = 150;
    const auto half = write(Format::Png, {}, 150);
    QImage small(QString::fromStdString(half));
    EXPECT_EQ(small.size(), exporter.imageSize(snapshot, {}, settings));
    EXPECT_NEAR(small.width() * 2.0, image.width(), 2.0);
}

TEST_F(Export, PdfIsOnePageOfTheFiguresSizeWithEmbeddedText) {
    const auto path = write(Format::Pdf);
    const std::string pdf = tests::readFile(path);
    ASSERT_EQ(pdf.substr(0, 5), "%PDF-");
    EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
    const std::regex page(R"(/Type\s*/Page[^s])");
    EXPECT_EQ(std::distance(std::sregex_iterator(pdf.begin(), pdf.end(), page), std::sregex_iterator()), 1);
    std::smatch box;
    const std::regex mediaBox(R"(/MediaBox\s*\[\s*0\s+0\s+([0-9.]+)\s+([0-9.]+)\s*\])");
    ASSERT_TRUE(std::regex_search(pdf, box, mediaBox));
    const QSize figure = exporter.figureSize(snapshot, {}, {});
    EXPECT_NEAR(std::stod(box[1]), figure.width() * 72.0 / exporter.dpi(), 1.0);
    EXPECT_NEAR(std::stod(box[2]), figure.height() * 72.0 / exporter.dpi(), 1.0);
    EXPECT_NE(pdf.find("/FontFile2"), std::string::npos) << "text is text: an embedded font";
    EXPECT_NE(pdf.find("/ToUnicode"), std::string::npos) << "and searchable";
    // Where poppler's pdftotext is installed, read the words back.
    if (std::system("command -v pdftotext >/dev/null 2>&1") == 0) {
        const std::string txt = out.path("figure.txt");
        ASSERT_EQ(std::system(("pdftotext " + path + " " + txt).c_str()), 0);
        const std::string text = tests::readFile(txt);
        for (const char* word : {"red", "car", "big", "source", "attention"})
            EXPECT_NE(text.find(word), std::string::npos) << word << " in\n" << text;
    }
}

TEST_F(Export, SvgIsXmlWithTheTokensAsText) {
    const auto path = write(Format::Svg);
    QFile file(QString::fromStdString(path));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QStringList texts;
    QString root, width, viewBox, description;
    int rectangles = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("rect")) ++rectangles;
        if (xml.name() == QLatin1String("desc")) {
            description = xml.readElementText();
            continue;
        }
        if (root.isEmpty()) {
            root = xml.name().toString();
            width = xml.attributes().value("width").toString();
            viewBox = xml.attributes().value("viewBox").toString();
        }
        if (xml.name() == QLatin1String("text")) texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_EQ(root, QStringLiteral("svg"));
    const QSize figure = exporter.figureSize(snapshot, {}, {});
    EXPECT_EQ(viewBox, QStringLiteral("0 0 %1 %2").arg(figure.width()).arg(figure.height()));
    ASSERT_TRUE(width.endsWith(QStringLiteral("mm"))) << width.toStdString();
    EXPECT_NEAR(width.chopped(2).toDouble(), figure.width() * 25.4 / exporter.dpi(), 0.01) << "the figure's physical size";
    for (const char* token : {"the", "red", "car", "big", "</s>"}) EXPECT_TRUE(texts.contains(QString::fromUtf8(token))) << token;
    const auto alignment = snapshot.alignment();
    for (const auto& t : alignment.targetTokens()) EXPECT_TRUE(texts.contains(QString::fromStdString(t))) << t;
    // Issue 46: the heatmap's cells are vector rectangles (renderers blurred the embedded bitmap), and the file says so.
    EXPECT_TRUE(description.contains(QStringLiteral("heatmap cells as vector rectangles"))) << description.toStdString();
    EXPECT_GE(rectangles, static_cast<int>(alignment.targetTokens().size() * alignment.sourceTokens().size())) << "a rectangle a cell";
}

TEST_F(Export, CsvValuesEqualTheEnginesAlpha) {
    const std::string text = tests::readFile(write(Format::Csv));
    EXPECT_NE(text.find("# model: tiny-test"), std::string::npos);
    EXPECT_NE(text.find("\"end_column\":\"keep\""), std::string::npos);
    const auto rows = parseCsv(text);
    const auto alpha = engineAlpha();
    const auto alignment = snapshot.alignment();
    ASSERT_EQ(rows.size(), alpha.size() + 1);
    ASSERT_EQ(rows[0].size(), alignment.sourceTokens().size() + 1);
    for (size_t i = 0; i < alignment.sourceTokens().size(); ++i) EXPECT_EQ(rows[0][i + 1], alignment.sourceTokens()[i]);
    for (size_t t = 0; t < alpha.size(); ++t) {
        EXPECT_EQ(rows[t + 1][0], alignment.targetTokens()[t]);
        ASSERT_EQ(rows[t + 1].size(), alpha[t].size() + 1);
        for (size_t i = 0; i < alpha[t].size(); ++i) EXPECT_EQ(std::strtof(rows[t + 1][i + 1].c_str(), nullptr), alpha[t][i]);
    }
}

TEST_F(Export, CsvQuotesTokensWithCommasAndQuotes) {
    snapshot = ui::BatchExporter::decode(*model_, "the car , the \"house\" ||| la voiture , la maison");
    const auto rows = parseCsv(tests::readFile(write(Format::Csv)));
    ASSERT_GE(rows.size(), 2u);
    const auto& header = rows[0];
    EXPECT_EQ(std::count(header.begin(), header.end(), ","), 1) << "the ',' token is one quoted field";
    EXPECT_EQ(header.size(), snapshot.source.size() + 1);
}

TEST_F(Export, JsonHasTokensMatrixModelAndOptions) {
    ui::FigureOptions options;
    options.colorMap = ui::FigureOptions::ColorMap::Grayscale;
    const auto j = nlohmann::json::parse(tests::readFile(write(Format::Json, options)));
    EXPECT_EQ(j.at("model"), "tiny-test");
    EXPECT_EQ(j.at("options").at("color_map"), "grey");
    EXPECT_EQ(j.at("options").at("end_column"), "keep");
    const auto alignment = snapshot.alignment();
    EXPECT_EQ(j.at("source_tokens").get<std::vector<std::string>>(), alignment.sourceTokens());
    EXPECT_EQ(j.at("target_tokens").get<std::vector<std::string>>(), alignment.targetTokens());
    EXPECT_EQ(j.at("alpha").get<std::vector<std::vector<float>>>(), engineAlpha());
    EXPECT_EQ(j.at("links"), core::SoftAlignment::attentionPharaoh(alignment));
    EXPECT_EQ(j.at("translation"), snapshot.translation);
}

// The web page: one file with the renderer and the whole decoding in it (numbers rounded to 4
// decimals, the </s> column kept for the page to drop), every step with its ten candidates and
// Step explained's numbers; nothing fetched from anywhere.
TEST_F(Export, HtmlIsOneSelfContainedPageOfTheWholeDecoding) {
    snapshot = ui::BatchExporter::decode(*model_, kSentence, 1, 0, nullptr, 10);
    ui::FigureOptions options;
    options.endColumn = ui::FigureOptions::EndColumn::Drop;
    const auto html = tests::readFile(write(Format::Html, options));
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
    EXPECT_EQ(html.find("{{"), std::string::npos) << "every slot filled";
    EXPECT_EQ(html.find("src=\"http"), std::string::npos);
    const std::string open = "<script type=\"application/json\" class=\"alignscope-data\">";
    const auto begin = html.find(open) + open.size();
    const auto j = nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
    EXPECT_EQ(j.at("format_version"), 2);
    EXPECT_EQ(j.at("rounded"), 4);
    EXPECT_EQ(j.at("options").at("end_column"), "drop");
    const auto alpha = engineAlpha();
    const auto tokens = snapshot.alignment().sourceTokens();
    ASSERT_EQ(j.at("source_tokens").get<std::vector<std::string>>(), tokens) << "the whole matrix: the page drops </s> itself";
    EXPECT_EQ(j.at("end_column"), tokens.size() - 1);
    ASSERT_EQ(j.at("alpha").size(), alpha.size());
    for (size_t t = 0; t < alpha.size(); ++t)
        for (size_t i = 0; i < alpha[t].size(); ++i) EXPECT_NEAR(j["alpha"][t][i].get<double>(), alpha[t][i], 5.01e-5);
    const auto& steps = j.at("steps");
    ASSERT_EQ(steps.size(), alpha.size());
    for (size_t t = 0; t < steps.size(); ++t) {
        const auto& step = steps[t];
        const auto& record = snapshot.steps[t];
        EXPECT_EQ(step.at("token"), record.token);
        EXPECT_EQ(step.at("candidates").size(), record.candidates.size());
        EXPECT_EQ(step.at("candidates")[0].at("token"), record.candidates[0].token);
        EXPECT_EQ(step.at("chosen"), 0) << "greedy: the most probable";
        EXPECT_NEAR(step.at("p").get<double>(), std::exp(record.logProb), 5.01e-5);
        EXPECT_EQ(step.at("explain").at("query_size"), record.previousState.size());
        EXPECT_EQ(step.at("explain").at("context_size"), record.context.size());
    }
    bool parameters = false;
    for (const auto& fact : j.at("model_card")) parameters = parameters || fact.at("label") == "parameters";
    EXPECT_TRUE(parameters);
    EXPECT_EQ(j.at("decoder").at("cell"), snapshot.cell);
}

// The page's Step explained reads the numbers the app's panel prints: at every step, the query's,
// the context's and the states' lengths and the largest energy, as the panel shows them (3 decimals).
TEST_F(Export, PageDataHoldsTheNumbersStepExplainedShows) {
    snapshot = ui::BatchExporter::decode(*model_, kSentence, 1, 0, nullptr, 10);
    const auto j = ui::PageData::build(snapshot, {}, {});
    ui::StepExplainedPanel panel;
    const auto shown = [](double v) { return QString::number(v, 'f', 3); };
    for (size_t t = 1; t <= snapshot.steps.size(); ++t) {
        SCOPED_TRACE("step " + std::to_string(t));
        panel.render(std::make_shared<const core::DecodingState>(snapshot.prefix(t)));
        const auto& x = j.at("steps")[t - 1].at("explain");
        EXPECT_TRUE(panel.text(1).contains(shown(x.at("query_norm")))) << panel.text(1).toStdString();
        EXPECT_TRUE(panel.text(4).contains(shown(x.at("context_norm")))) << panel.text(4).toStdString();
        EXPECT_TRUE(panel.text(5).contains(shown(x.at("state_change")))) << panel.text(5).toStdString();
        EXPECT_TRUE(panel.text(5).contains(shown(x.at("state_norm")))) << panel.text(5).toStdString();
        if (x.contains("energies")) {
            ASSERT_EQ(panel.shownEnergies().size(), x.at("energies").size());
            for (size_t i = 0; i < panel.shownEnergies().size(); ++i)
                EXPECT_NEAR(panel.shownEnergies()[i], x["energies"][i].get<double>(), 1e-6);
        }
    }
}

TEST_F(Export, PageDataCannotEndItsScriptElementAndSlotsAreFilledOnce) {
    const nlohmann::json data = {{"token", "</script><img src=x onerror=alert(1)>&amp;<!--\u2028"}};
    const auto safe = ui::PageData::scriptSafe(data);
    EXPECT_EQ(safe.find_first_of("<>&"), std::string::npos) << safe;
    EXPECT_EQ(safe.find("\u2028"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(safe), data);
    EXPECT_EQ(ui::HtmlPage::escapeText("<b>\"x\" & 'y'</b>"), "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;");
    // Text put into one slot is never read for another: a title "{{JS}}" stays that text.
    EXPECT_EQ(ui::HtmlPage::fill("<t>{{TITLE}}</t>{{DATA}}{{OTHER}}", "{{JS}}", "c", "j", "{{TITLE}}"), "<t>{{JS}}</t>{{TITLE}}{{OTHER}}");
}

// Sub-word models: the JSON carries the pieces' matrix with each piece's character offsets in the
// typed text, and the same matrix merged to words; links stay over words.
TEST_F(Export, JsonOfAPieceModelHasCharacterOffsetsAndTheWordMatrix) {
    const auto pieces = tests::tinyPieceModel();
    snapshot = ui::BatchExporter::decode(pieces, "the café house ||| la maison");
    const auto j = nlohmann::json::parse(tests::readFile(write(Format::Json)));
    const auto alignment = snapshot.alignment();
    EXPECT_EQ(j.at("source_text"), "the café house");
    const auto& offsets = j.at("source_offsets");
    ASSERT_EQ(offsets.size(), alignment.sourceTokens().size());
    EXPECT_TRUE(offsets.back().is_null()) << "</s> has no characters";
    const std::u32string text = U"the café house";
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
        const size_t begin = offsets[i][0], end = offsets[i][1];
        ASSERT_LE(end, text.size()) << "characters, not bytes: 'é' is one";
        EXPECT_LE(begin, end);
    }
    EXPECT_EQ(offsets[offsets.size() - 2][1], 14) << "the last piece ends at the last character";
    // </s> is a column of its own after the words (the JSON keeps it), so each row still sums to 1.
    EXPECT_EQ(j.at("words").at("source"), (std::vector<std::string>{"the", "café", "house", "</s>"}));
    EXPECT_EQ(j.at("words").at("target"), (std::vector<std::string>{"la", "maison"}));
    const auto merged = j.at("words").at("alpha").get<std::vector<std::vector<float>>>();
    ASSERT_EQ(merged.size(), 2u);
    ASSERT_EQ(merged[0].size(), 4u);
    for (const auto& row : merged) EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0), 1.0, 1e-4);
    for (const auto& link : core::LinkSet::parse(core::SoftAlignment::attentionPharaoh(alignment)).sure)
        EXPECT_LT(link.first, 3) << "links over words";
}

TEST_F(Export, EndColumnOptionMatchesTheFigure) {
    QCustomPlot plot;
    ui::AlignmentFigure figure(&plot);
    for (auto end : {ui::FigureOptions::EndColumn::Drop, ui::FigureOptions::EndColumn::Renormalize}) {
        ui::FigureOptions options;
        options.endColumn = end;
        figure.show(snapshot, options);
        const auto& shown = figure.displayedWeights();
        const auto j = nlohmann::json::parse(tests::readFile(write(Format::Json, options)));
        const auto rows = parseCsv(tests::readFile(write(Format::Csv, options)));
        ASSERT_EQ(j.at("alpha").size(), shown.size());
        ASSERT_EQ(j.at("source_tokens").size(), snapshot.source.size() - 1) << "no </s> column";
        ASSERT_EQ(rows[0].size(), snapshot.source.size());
        for (size_t t = 0; t < shown.size(); ++t)
            for (size_t i = 0; i < shown[t].size(); ++i) {
                EXPECT_EQ(j.at("alpha")[t][i].get<double>(), shown[t][i]);
                const char* cell = rows[t + 1][i + 1].c_str();  // floats as floats, renormalised rows as doubles
                EXPECT_EQ(end == ui::FigureOptions::EndColumn::Drop ? double(std::strtof(cell, nullptr)) : std::strtod(cell, nullptr),
                          shown[t][i]);
            }
    }
}

TEST_F(Export, PharaohLinksAreTheAlignmentsLinks) {
    const std::string text = tests::readFile(write(Format::Pharaoh));
    EXPECT_EQ(text, core::SoftAlignment::attentionPharaoh(snapshot.alignment()) + "\n");
    EXPECT_TRUE(std::regex_match(text, std::regex(R"(((\d+-\d+)( \d+-\d+)*)?\n)"))) << text;
}

// Links number the words of the given target as `alignscope-cli align` does ("rouge." is one
// word), and the words of the translation when decoding: never a token index past the last word.
TEST_F(Export, LinksNumberTheGivenTargetsWordsAsAlignDoes) {
    snapshot = ui::BatchExporter::decode(*model_, "the red car ||| la voiture rouge.");
    core::DecodingSession session(*model_, "the red car");
    session.alignTo("la voiture rouge.");
    EXPECT_EQ(snapshot.alignment().targetWords(), (std::vector<int>{0, 1, 2, 2, -1}));
    EXPECT_EQ(snapshot.alignment().targetWords(), session.alignment().targetWords());
    EXPECT_EQ(tests::readFile(write(Format::Pharaoh)), core::SoftAlignment::attentionPharaoh(session.alignment()) + "\n");
}

TEST_F(Export, LinksOfADecodedSentenceNumberTheTranslationsWords) {
    for (int beam : {1, 3}) {
        snapshot = ui::BatchExporter::decode(*model_, kSentence, beam);
        std::istringstream in(snapshot.translation);
        const auto count = std::distance(std::istream_iterator<std::string>(in), std::istream_iterator<std::string>());
        const auto alignment = snapshot.alignment();
        const auto& words = alignment.targetWords();
        ASSERT_EQ(words.size(), alignment.targetTokens().size());
        int last = -1;
        for (size_t t = 0; t < words.size(); ++t) {
            if (alignment.targetTokens()[t] == "</s>") {
                EXPECT_EQ(words[t], -1);
                continue;
            }
            EXPECT_TRUE(words[t] == last || words[t] == last + 1) << "beam " << beam << ", token " << t;
            last = words[t];
        }
        EXPECT_EQ(last + 1, count) << "beam " << beam << ": " << snapshot.translation;
    }
}

// A figure too long for QCustomPlot's 3x vector-export pixmap (past the raster limit) still holds
// its heatmaps: they were empty images, with a Qt warning, in a file reported as written.
QStringList* qtWarnings = nullptr;
void collectQtWarnings(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (qtWarnings && type >= QtWarningMsg && message.contains(QStringLiteral("image"))) qtWarnings->push_back(message);
}

TEST_F(Export, PdfOfAVeryLongSentenceHoldsItsHeatmaps) {
    std::string words;
    for (int i = 0; i < 997; ++i) words += "car ";  // 998 tokens: 3 x the heatmap's width is past 65,500 pixels
    snapshot = ui::BatchExporter::decode(*model_, words, 1, 5);
    QStringList warnings;
    qtWarnings = &warnings;
    const auto previous = qInstallMessageHandler(collectQtWarnings);
    const auto path = write(Format::Pdf);
    qInstallMessageHandler(previous);
    qtWarnings = nullptr;
    EXPECT_TRUE(warnings.isEmpty()) << warnings.join(QStringLiteral("; ")).toStdString();
    const std::string pdf = tests::readFile(path);
    size_t images = 0;
    for (size_t at = pdf.find("/Subtype /Image"); at != std::string::npos; at = pdf.find("/Subtype /Image", at + 1)) ++images;
    EXPECT_GE(images, 3u) << "the heatmap, the encoder states and the colour scale";
}

// The app's --screenshot mode runs from scripts: every problem is on stderr with an exit code,
// and no picture is written for a run that could not start.
TEST_F(Export, ScreenshotModeReportsProblemsWithAnExitCode) {
    const std::string app = std::string(ALIGNSCOPE_APP) + " --model " + dir_->path("tiny.pt");
    const auto shot = dir_->path("shot.png");
    auto r = tests::runCommand(app + " --source 'the red car' --steps 2 --screenshot " + shot);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_FALSE(QImage(QString::fromStdString(shot)).isNull());
    fs::remove(shot);
    r = tests::runCommand(app + " --lesson " + dir_->path("missing.json") + " --screenshot " + shot);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("missing.json"), std::string::npos) << r.output;
    r = tests::runCommand(app + " --screenshot " + shot + " --size 100000x100000");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.output.find("--size"), std::string::npos) << r.output;
    r = tests::runCommand(app + " --screenshot ''");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_FALSE(fs::exists(shot));
    std::string words;
    for (int i = 0; i < 1200; ++i) words += "car ";
    r = tests::runCommand(app + " --source '" + words + "' --screenshot " + shot);
    EXPECT_EQ(r.exitCode, 1) << "the window is drawn, but the sentence was refused";
    EXPECT_NE(r.output.find("at most"), std::string::npos) << r.output;
    // The compare view: a second model beside the first, or the reason it is not there.
    fs::copy_file(dir_->path("tiny.pt"), dir_->path("twin.pt"));
    r = tests::runCommand(app + " --source 'the red car' --run --compare " + dir_->path("twin.pt") + " --screenshot " + shot);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_FALSE(QImage(QString::fromStdString(shot)).isNull());
    r = tests::runCommand(app + " --source 'the red car' --run --compare " + dir_->path("missing.pt") + " --screenshot " + shot);
    EXPECT_EQ(r.exitCode, 1) << "the window is drawn, but model B did not open";
    EXPECT_NE(r.output.find("missing.pt"), std::string::npos) << r.output;
}

TEST_F(Export, AttributionsAreExportedAsFiguresCsvAndJson) {
    std::ofstream(dir_->path("attr-in.txt")) << "the red car ||| la voiture rouge\n";
    for (const char* format : {"json", "csv", "png"}) {
        const std::string out = dir_->path(std::string("attr-") + format);
        auto r = run("export --model " + dir_->path("tiny.pt") + " --heatmap integrated-gradients --no-progress -f " + format + " -i " +
                     dir_->path("attr-in.txt") + " -o " + out);
        ASSERT_EQ(r.exitCode, 0) << r.out;
        const auto file = out + "/0001-the-red-car." + format;
        ASSERT_TRUE(std::filesystem::exists(file)) << file << ": " << r.out;
        if (std::string(format) == "json") {
            const auto j = nlohmann::json::parse(tests::readFile(file));
            ASSERT_TRUE(j.contains("attribution")) << j.dump();
            EXPECT_EQ(j["attribution"]["method"], "integrated-gradients");
            EXPECT_TRUE(j["attribution"]["signed"].get<bool>());
            EXPECT_EQ(j["attribution"]["scores"].size(), j["alpha"].size()) << "one row per target token, beside alpha";
        } else if (std::string(format) == "csv") {
            const auto text = tests::readFile(file);
            EXPECT_NE(text.find("# cells: integrated-gradients attribution"), std::string::npos) << text;
        }
    }
    auto r = run("export --model " + dir_->path("tiny.pt") + " --heatmap saliency -f json -i " + dir_->path("attr-in.txt") + " -o " +
                 dir_->path("attr-bad"));
    EXPECT_NE(r.exitCode, 0);
}

TEST_F(Export, GifAnimatesTheStepsOneFrameEach) {
    std::ofstream(dir_->path("gif-in.txt")) << "the red car ||| la voiture rouge\n";
    const std::string out = dir_->path("gif");
    auto r = run("export --model " + dir_->path("tiny.pt") + " --no-progress -f gif --frame-ms 500 -i " + dir_->path("gif-in.txt") +
                 " -o " + out);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto file = QString::fromStdString(out + "/0001-the-red-car.gif");
    QImageReader reader(file);
    ASSERT_TRUE(reader.canRead()) << reader.errorString().toStdString();
    const auto expected = ui::BatchExporter::decode(*model_, "the red car ||| la voiture rouge").alignment().targetTokens().size();
    EXPECT_EQ(reader.imageCount(), static_cast<int>(expected)) << "one frame per step: la voiture rouge </s>";
    QSize size;
    std::vector<QImage> frames;
    for (int k = 0; k < reader.imageCount(); ++k) {
        QImage frame = reader.read();
        const int delay = reader.nextImageDelay();  // Qt: the delay of the frame just read
        ASSERT_FALSE(frame.isNull()) << "frame " << k;
        if (k == 0) size = frame.size();
        EXPECT_EQ(frame.size(), size) << "every frame on one canvas";
        EXPECT_EQ(delay, k + 1 == reader.imageCount() ? 1500 : 500) << "frame " << k;
        frames.push_back(frame);
    }
    ASSERT_GE(frames.size(), 2u);
    EXPECT_NE(frames.front(), frames.back()) << "rows appear step by step";
    EXPECT_EQ(reader.loopCount(), -1) << "loops for ever";
}

TEST_F(Export, FramesAreANumberedPngSequenceOfOneSize) {
    std::ofstream(dir_->path("frames-in.txt")) << "the red car ||| la voiture rouge\n";
    const std::string out = dir_->path("frames");
    auto r = run("export --model " + dir_->path("tiny.pt") + " --no-progress -f frames --dpi 96 -i " + dir_->path("frames-in.txt") +
                 " -o " + out);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto steps = ui::BatchExporter::decode(*model_, "the red car ||| la voiture rouge").alignment().targetTokens().size();
    QSize size;
    for (size_t k = 1; k <= steps; ++k) {
        const auto path = ui::FigureExporter::framePath(QString::fromStdString(out + "/0001-the-red-car.png"), k, steps);
        QImage frame(path);
        ASSERT_FALSE(frame.isNull()) << path.toStdString() << ": " << r.out;
        if (k == 1) size = frame.size();
        EXPECT_EQ(frame.size(), size);
    }
    EXPECT_TRUE(ui::FigureExporter::framePath("a/0001-x.png", 3, 12).endsWith("0001-x-step03.png"));
    EXPECT_FALSE(std::filesystem::exists(out + "/0001-the-red-car.png")) << "only the numbered frames";
}

TEST_F(Export, BatchFileNamesAreStable) {
    using ui::BatchExporter;
    EXPECT_EQ(BatchExporter::fileName(1, "The red car is very fast.", Format::Png), "0001-the-red-car-is-very-fast.png");
    EXPECT_EQ(BatchExporter::fileName(42, "Ça va ? Très bien !", Format::Svg), "0042-ca-va-tres-bien.svg");
    EXPECT_EQ(BatchExporter::fileName(7, "l'homme  |||  the man", Format::Pharaoh), "0007-l-homme-the-man.align");
    EXPECT_EQ(BatchExporter::fileName(12345, "a house", Format::Csv), "12345-a-house.csv");
    EXPECT_EQ(BatchExporter::fileName(3, "a house", Format::Json, 6), "000003-a-house.json");
    EXPECT_EQ(BatchExporter::fileName(9, "东京 ...", Format::Pdf), "0009.pdf") << "nothing left of the slug";
    const QString longName = BatchExporter::fileName(5, std::string(200, 'x') + " and more words here", Format::Png);
    EXPECT_LE(longName.size(), 4 + 1 + 40 + 4);
    const QString words = BatchExporter::slug("one two three four five six seven eight nine ten eleven twelve");
    EXPECT_EQ(words, "one-two-three-four-five-six-seven-eight") << "cut at a word boundary";
    EXPECT_EQ(BatchExporter::fileName(1, "The red car", Format::Png), BatchExporter::fileName(1, "The red car", Format::Png));
    EXPECT_EQ(core::PairLine::sourceText("the car ||| la voiture"), "the car") << "what the file name and {source} come from";
}

TEST_F(Export, ReadOnlyFolderFailsCleanlyAndLeavesNothing) {
    ReadOnlyFolder folder(out.path("locked"));
    if (!folder.ok()) GTEST_SKIP() << "cannot make a folder read-only here";
    const QString path = QString::fromStdString(folder.path() + "/figure.png");
    ui::FigureExporter::Settings settings;
    try {
        exporter.write(snapshot, {}, settings, path);
        FAIL() << "wrote into a read-only folder";
    } catch (const core::Error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("cannot write"), std::string::npos) << message;
        EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    }
    EXPECT_TRUE(entries(folder.path()).empty()) << "no partial or temporary file";
    EXPECT_THROW(ui::FigureExporter::checkWritableFolder(QString::fromStdString(folder.path())), core::Error);
    EXPECT_THROW(ui::BatchExporter(*model_, QString::fromStdString(folder.path()), {}), core::Error);
    EXPECT_TRUE(entries(folder.path()).empty());
}

TEST_F(Export, MissingFolderAndEmptyAlignmentAreClearErrors) {
    try {
        write(Format::Png);  // fine
        exporter.write(snapshot, {}, {}, QString::fromStdString(out.path("no/such/folder/x.png")));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
    }
    core::DecodingState empty = snapshot;
    empty.steps.clear();
    try {
        exporter.write(empty, {}, {}, QString::fromStdString(out.path("empty.png")));
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("nothing to export"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(out.path("empty.png")));
}

TEST_F(Export, RewritingReplacesTheFileWhole) {
    const auto path = write(Format::Json);
    snapshot = ui::BatchExporter::decode(*model_, "a small house");
    write(Format::Json);
    const auto j = nlohmann::json::parse(tests::readFile(path));
    EXPECT_EQ(j.at("source_tokens").size(), 4u);
    EXPECT_EQ(entries(out.root()).size(), 1u) << "no temporary file left beside it";
}

TEST_F(Export, BeamAndTeacherForcedSnapshots) {
    const auto beam = ui::BatchExporter::decode(*model_, kSentence, 3);
    ASSERT_FALSE(beam.beam.empty());
    EXPECT_EQ(beam.selectedHypothesis, 0);
    EXPECT_EQ(beam.alignment().weights(), beam.beam[0].alpha);
    EXPECT_EQ(beam.steps.size(), beam.beam[0].ids.size()) << "stepped along the best hypothesis";
    const auto forced = ui::BatchExporter::decode(*model_, "the red car ||| la voiture rouge");
    EXPECT_TRUE(forced.teacherForced);
    EXPECT_EQ(forced.alignment().targetTokens(), (std::vector<std::string>{"la", "voiture", "rouge", "</s>"}));
    EXPECT_THROW(ui::BatchExporter::decode(*model_, "the red car |||  "), core::Error);
}

TEST_F(Export, BatchExporterWritesOneNamedFilePerLine) {
    ui::BatchExporter::Settings settings;
    settings.file.format = Format::Png;
    settings.file.dpi = 100;
    settings.titleTemplate = QStringLiteral("{line}: {source}");
    ui::BatchExporter batch(*model_, QString::fromStdString(out.path("batch")), settings);
    EXPECT_EQ(batch.exportLine(1, "the red car"), QString::fromStdString(out.path("batch/0001-the-red-car.png")));
    EXPECT_EQ(batch.exportLine(3, "a house ||| une maison"), QString::fromStdString(out.path("batch/0003-a-house.png")));
    EXPECT_EQ(entries(out.path("batch")), (std::vector<std::string>{"0001-the-red-car.png", "0003-a-house.png"}));
}

TEST_F(Export, MainWindowExportActionAndDialogWriteTheCurrentAlignment) {
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.show();
    document.openModel(QString::fromStdString(dir_->path("tiny.pt")));
    window.setSourceText(QString::fromStdString(kSentence));
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_FALSE(window.action("export")->isEnabled()) << "no rows yet";
    document.runToEnd();
    ASSERT_TRUE(document.waitUntilIdle());
    EXPECT_TRUE(window.action("export")->isEnabled());

    QSettings().remove(QStringLiteral("export"));  // no remembered format, folder or dpi
    auto options = window.alignmentView()->options();
    ui::ExportDialog dialog(document.state(), options);
    if (const char* shot = std::getenv("ALIGNSCOPE_EXPORT_DIALOG_SHOT")) {  // a picture of the dialog, for a look
        dialog.show();
        dialog.grab().save(QString::fromLocal8Bit(shot));
    }
    EXPECT_EQ(dialog.settings().dpi, 300);
    EXPECT_TRUE(dialog.path().endsWith(QStringLiteral("the-red-car-is-big.png"))) << dialog.path().toStdString();
    dialog.setFormat(Format::Svg);
    EXPECT_TRUE(dialog.path().endsWith(QStringLiteral(".svg")));
    dialog.setPath(QString::fromStdString(out.path("from-gui.svg")));
    EXPECT_EQ(dialog.exportNow(), QString());
    EXPECT_NE(tests::readFile(out.path("from-gui.svg")).find("<svg"), std::string::npos);
    dialog.setFormat(Format::Json);
    dialog.setPath(QString::fromStdString(out.path("from-gui.json")));
    ASSERT_EQ(dialog.exportNow(), QString());
    const auto j = nlohmann::json::parse(tests::readFile(out.path("from-gui.json")));
    EXPECT_EQ(j.at("alpha").get<std::vector<std::vector<float>>>(), engineAlpha());
    dialog.setFormat(Format::Html);
    EXPECT_TRUE(dialog.path().endsWith(QStringLiteral("from-gui.html")));
    ASSERT_EQ(dialog.exportNow(), QString());
    const auto html = tests::readFile(out.path("from-gui.html"));
    EXPECT_NE(html.find("class=\"alignscope-data\""), std::string::npos);
    EXPECT_NE(html.find(ui::HtmlPage::scriptText()), std::string::npos) << "the renderer is in the file";
    dialog.setPath(QString::fromStdString(out.path("missing/x.json")));
    EXPECT_NE(dialog.exportNow(), QString()) << "the error is shown, the dialog stays";

    // Issue 46: the size the dialog announces is the size written, with a title too; the title
    // comes back in the next export's dialog.
    dialog.setFormat(Format::Png);
    for (auto* edit : dialog.findChildren<QLineEdit*>())
        if (edit->placeholderText() == QStringLiteral("No title")) edit->setText(QStringLiteral("Figure 3: the red car"));
    dialog.setPath(QString::fromStdString(out.path("titled.png")));
    const QString announced = dialog.findChild<QLabel*>(QStringLiteral("exportSize"))->text();
    ASSERT_EQ(dialog.exportNow(), QString());
    const QImage written(QString::fromStdString(out.path("titled.png")));
    EXPECT_TRUE(announced.contains(QStringLiteral("%1 × %2 pixels").arg(written.width()).arg(written.height())))
        << announced.toStdString() << " but wrote " << written.width() << "x" << written.height();
    ui::ExportDialog next(document.state(), options);
    EXPECT_EQ(next.figureOptions().title, QStringLiteral("Figure 3: the red car"));

    // View → Words shows no encoder-states panel, and the dialog does not offer one either.
    window.action("words")->trigger();
    auto words = window.alignmentView()->options();
    ASSERT_TRUE(words.mergeWords);
    ui::ExportDialog wordsDialog(document.state(), words);
    auto* encoderBox = wordsDialog.findChild<QCheckBox*>(QStringLiteral("exportEncoderStates"));
    ASSERT_NE(encoderBox, nullptr);
    EXPECT_FALSE(encoderBox->isChecked()) << "the encoder-states panel ticked while View > Words hides it";
    EXPECT_FALSE(encoderBox->isEnabled());
    wordsDialog.setFormat(Format::Svg);
    EXPECT_FALSE(encoderBox->isEnabled()) << "a format change enabled it again";
    EXPECT_FALSE(wordsDialog.figureOptions().showEncoderStates);
}

TEST_F(Export, CliExportsEveryLineWithoutADisplay) {
    std::ofstream(out.path("in.txt")) << "the red car\n\na small house .\nthe car ||| la voiture\nbad \xff utf8\n";
    const std::string folder = out.path("figs");
    auto r = run("export --model " + dir_->path("tiny.pt") + " --format png --dpi 120 --out " + folder + " -i " + out.path("in.txt"));
    EXPECT_EQ(r.exitCode, 1) << r.out;  // one bad line
    EXPECT_NE(r.out.find("line 5: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("exported 3 of 4 sentences"), std::string::npos) << r.out;
    EXPECT_EQ(entries(folder), (std::vector<std::string>{"0001-the-red-car.png", "0003-a-small-house.png", "0004-the-car.png"}));
    QImage image(QString::fromStdString(folder + "/0001-the-red-car.png"));
    ASSERT_FALSE(image.isNull());
    EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, 120, 0.5);

    // The same figure as the library draws for that line.
    ui::BatchExporter::Settings settings;
    settings.file.dpi = 120;
    const auto snap = ui::BatchExporter::decode(*model_, "the red car");
    EXPECT_EQ(image.size(), exporter.imageSize(snap, {}, settings.file));

    r = run("export --model " + dir_->path("tiny.pt") + " --format json --beam 3 --end-column drop --out " + folder + " -i " +
            out.path("in.txt"));
    const auto j = nlohmann::json::parse(tests::readFile(folder + "/0001-the-red-car.json"));
    EXPECT_EQ(j.at("beam_hypothesis"), 0);
    EXPECT_EQ(j.at("options").at("end_column"), "drop");
    EXPECT_EQ(j.at("source_tokens").size(), 3u);
    const auto beam = ui::BatchExporter::decode(*model_, "the red car", 3);
    for (size_t t = 0; t < beam.beam[0].alpha.size(); ++t)
        for (size_t i = 0; i < 3; ++i) EXPECT_EQ(j.at("alpha")[t][i].get<float>(), beam.beam[0].alpha[t][i]);
    // Beam search chose every token, though the hypothesis is stepped through by forcing them (issue 58);
    // a hypothesis' own rows are only over the whole matrix (here cut: </s> dropped).
    for (const auto& step : j.at("steps")) EXPECT_FALSE(step.at("forced").get<bool>());
    for (const auto& h : j.at("beam")) EXPECT_FALSE(h.contains("alpha"));
}

// export --links: each line's word links read as `align --links` reads them, written into the data
// and drawn over the heatmap; a rule the model cannot read fails its line with the reason.
TEST_F(Export, CliExportsARulesLinksAsAlignReadsThem) {
    std::ofstream(out.path("pairs.txt")) << "the red car ||| la voiture rouge\n";
    const std::string model = " --model " + dir_->path("tiny.pt"), in = " -i " + out.path("pairs.txt");
    auto r = run("export" + model + " --format json --links argmax-skip-eos --out " + out.path("json") + in);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto j = nlohmann::json::parse(tests::readFile(out.path("json") + "/0001-the-red-car.json"));
    EXPECT_EQ(j.at("link_rule"), "argmax-skip-eos");
    const auto aligned = run("align" + model + " --links argmax-skip-eos" + in);
    ASSERT_EQ(aligned.exitCode, 0) << aligned.out;
    EXPECT_EQ(j.at("links").get<std::string>() + "\n", aligned.out);
    EXPECT_EQ(std::count(aligned.out.begin(), aligned.out.end(), '-'), 3) << "every target word links one source word";

    // Drawn: the same figure with the dots differs from the one without.
    ASSERT_EQ(run("export" + model + " --format png --dpi 96 --out " + out.path("plain") + in).exitCode, 0);
    ASSERT_EQ(run("export" + model + " --format png --dpi 96 --links argmax-skip-eos --out " + out.path("linked") + in).exitCode, 0);
    const QImage plain(QString::fromStdString(out.path("plain") + "/0001-the-red-car.png"));
    const QImage linked(QString::fromStdString(out.path("linked") + "/0001-the-red-car.png"));
    ASSERT_FALSE(plain.isNull());
    EXPECT_EQ(plain.size(), linked.size());
    EXPECT_NE(plain, linked);

    // The tiny model declares no reverse model: agreement cannot be read, and the run stops before
    // its first line saying why, as align does (issue 59: it failed every line).
    r = run("export" + model + " --format json --links agreement-intersection --out " + out.path("agree") + in);
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_EQ(r.out.find("line 1: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("give --reverse-model FILE"), std::string::npos) << r.out;
    r = run("export" + model + " --format json --links argmax --reverse-model " + dir_->path("tiny.pt") + " --out " + out.path("agree") +
            in);
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("--reverse-model is used by --links"), std::string::npos) << r.out;
    r = run("export" + model + " --format json --links nearest --out " + out.path("agree") + in);
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("--links"), std::string::npos) << r.out;
}

// --workers decodes lines on threads of their own while the main thread draws: the same files, and
// a bad line still reported by its number.
TEST_F(Export, CliWorkersWriteTheSameFilesAndNameABadLine) {
    std::ofstream in(out.path("in.txt"));
    for (int i = 0; i < 12; ++i) in << (i == 6 ? std::string("bad \xff utf8") : "the red car number " + std::to_string(i)) << "\n";
    in << "the car ||| la voiture\n";
    in.close();
    for (const std::string format : {"json", "png"}) {
        std::vector<std::string> files[2];
        for (int w = 0; w < 2; ++w) {
            const std::string folder = out.path(format + std::to_string(w));
            auto r = run("export --model " + dir_->path("tiny.pt") + " --format " + format + " --dpi 60 --workers " + (w ? "3" : "1") +
                         " --out " + folder + " -i " + out.path("in.txt"));
            EXPECT_EQ(r.exitCode, 1) << r.out;
            EXPECT_NE(r.out.find("line 7: "), std::string::npos) << r.out;
            EXPECT_NE(r.out.find("exported 12 of 13 sentences"), std::string::npos) << r.out;
            for (const auto& name : entries(folder)) files[w].push_back(name + "\n" + tests::readFile(folder + "/" + name));
        }
        EXPECT_EQ(files[0].size(), 12u);
        EXPECT_TRUE(files[0] == files[1]) << format;
    }
}

TEST_F(Export, CliRefusesAnUnwritableOutFolder) {
    ReadOnlyFolder folder(out.path("locked"));
    if (!folder.ok()) GTEST_SKIP() << "cannot make a folder read-only here";
    std::ofstream(out.path("in.txt")) << "the red car\n";
    auto r = run("export --model " + dir_->path("tiny.pt") + " --format pdf --out " + folder.path() + " -i " + out.path("in.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("cannot write to the folder '" + folder.path() + "'"), std::string::npos) << r.out;
    EXPECT_TRUE(entries(folder.path()).empty());
    std::ofstream(out.path("file")) << "x";
    r = run("export --model " + dir_->path("tiny.pt") + " --format png --out " + out.path("file") + " -i " + out.path("in.txt"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("not a folder"), std::string::npos) << r.out;
}

// The BLEU-by-length figure from two models' `evaluate --json` files: one PNG of the asked size
// and a table with a column per model and search.
TEST_F(Export, CliPlotsBleuByLengthFromEvaluations) {
    std::ofstream(out.path("test.tsv")) << "the red car\tla voiture rouge\na house\tune maison\n"
                                           "the red car is in the small house\tla voiture rouge est dans la petite maison\n";
    for (const char* name : {"a", "b"}) {
        auto r = run("evaluate --model " + dir_->path("tiny.pt") + " --test " + out.path("test.tsv") +
                     " --beam 2 --max-len 8 --buckets 2,4 --json " + out.path(std::string(name) + ".json"));
        ASSERT_EQ(r.exitCode, 0) << r.out;
    }
    auto r = run("plot-bleu --eval " + out.path("a.json") + " --eval " + out.path("b.json") +
                 " --name first --name second --width 800 --height 500 --dpi 100 -o " + out.path("bleu.png") + " --table " +
                 out.path("bleu.md"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    QImage image(QString::fromStdString(out.path("bleu.png")));
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(800, 500));
    EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, 100, 0.5);
    const auto table = tests::readLines(out.path("bleu.md"));
    ASSERT_EQ(table.size(), 2u + 3u + 1u);  // header, rule, three buckets, all
    EXPECT_EQ(table[0], "| source length (tokens) | sentences | first, greedy | first, beam 2 | second, greedy | second, beam 2 |");
    EXPECT_EQ(table[2].rfind("| 1-2 | 1 |", 0), 0u) << table[2];  // "a house"
    EXPECT_EQ(table[3].rfind("| 3-4 | 1 |", 0), 0u) << table[3];
    EXPECT_EQ(table[4].rfind("| 5+ | 1 |", 0), 0u) << table[4];

    // Files scored on other buckets cannot share an axis; a file that is not a scores file is named.
    r = run("evaluate --model " + dir_->path("tiny.pt") + " --test " + out.path("test.tsv") + " --beam 1 --max-len 8 --json " +
            out.path("c.json"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    r = run("plot-bleu --eval " + out.path("a.json") + " --eval " + out.path("c.json") + " -o " + out.path("x.png"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("different length buckets"), std::string::npos) << r.out;
    r = run("plot-bleu --eval " + out.path("test.tsv") + " -o " + out.path("x.png"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("is not a scores file"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists(out.path("x.png")));
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // QSettings go to a scratch place of this process's own (ctest runs tests in parallel processes).
    QTemporaryDir settingsHome;
    qputenv("XDG_CONFIG_HOME", settingsHome.path().toUtf8());
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

namespace {

// The state with every source and target token replaced by `words` in turn ("</s>" kept).
core::DecodingState retokened(core::DecodingState s, const std::vector<std::string>& words) {
    size_t k = 0;
    for (auto& t : s.source.tokens)
        if (t != "</s>") t = words[k++ % words.size()];
    for (auto& step : s.steps)
        if (step.token != "</s>") step.token = words[k++ % words.size()];
    return s;
}

// An image of `text` in `font`, black on white, of a fixed size (for comparing glyphs).
QImage drawn(const QString& text, const QFont& font) {
    QImage image(160, 80, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font);
    painter.setPen(Qt::black);
    painter.drawText(image.rect(), Qt::AlignCenter, text);
    return image;
}

}  // namespace

// Issue 60: Hangul (주의 집중, "attention") draws as letters in the figures, not as the missing-glyph
// box: every syllable has a glyph in a font of the figure font's fallback chain (fonts-noto-cjk), its
// picture differs from an unassigned code point's (the box), and a PNG of a heatmap with Korean
// tokens differs from the same heatmap whose tokens are unassigned code points.
TEST_F(Export, HangulTokensDrawAsLettersNotMissingGlyphBoxes) {
    const QString korean = QStringLiteral("주의 집중 가중치");
    QFont font = QApplication::font();
    font.setPointSize(ui::FigureOptions{}.fontSize);
    QTextLayout layout(korean, font);
    layout.beginLayout();
    layout.createLine();
    layout.endLayout();
    QStringList families;
    int glyphs = 0;
    for (const auto& run : layout.glyphRuns()) {
        for (quint32 index : run.glyphIndexes()) EXPECT_NE(index, 0u) << "a glyph of " << korean.toStdString() << " is the missing glyph";
        glyphs += static_cast<int>(run.glyphIndexes().size());
        families << run.rawFont().familyName();
    }
    EXPECT_EQ(glyphs, korean.size()) << families.join(", ").toStdString();
    bool supported = false;
    for (const auto& run : layout.glyphRuns()) supported = supported || run.rawFont().supportsCharacter(QChar(0xC8FC));  // 주
    EXPECT_TRUE(supported) << "no font of the chain (" << families.join(", ").toStdString() << ") has 주";
    const QImage box = drawn(QString(QChar(0x0378)), font);  // unassigned: the missing-glyph box
    for (const QChar c : korean)
        if (!c.isSpace()) EXPECT_NE(drawn(QString(c), font), box) << QString(c).toStdString() << " draws as the missing-glyph box";

    snapshot = retokened(snapshot, {"주의", "집중", "가중치"});
    const QImage hangul(QString::fromStdString(write(Format::Png, {}, 96)));
    snapshot = retokened(snapshot, {"\xCD\xB8\xCD\xB8", "\xCD\xB8\xCD\xB8", "\xCD\xB8\xCD\xB8\xCD\xB8"});  // U+0378 each
    const QImage boxes(QString::fromStdString(write(Format::Png, {}, 96)));
    ASSERT_FALSE(hangul.isNull());
    // Labels of other widths lay the figure out otherwise: a different size is a difference too.
    int differing = hangul.size() == boxes.size() ? 0 : 1000000;
    for (int y = 0; y < std::min(hangul.height(), boxes.height()); ++y)
        for (int x = 0; x < std::min(hangul.width(), boxes.width()); ++x) differing += hangul.pixel(x, y) != boxes.pixel(x, y);
    EXPECT_GT(differing, 200) << "the Korean labels draw as the missing-glyph boxes";
}
