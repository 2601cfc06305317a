// alignscope-cli plot-bleu: the BLEU-by-source-length figure (Bahdanau et al. 2014, Fig. 2) and its
// table, from the JSON files `alignscope-cli evaluate --json` writes; drawn offscreen.
#include "cli/Commands.h"
#include "cli/OffscreenQt.h"

#include "ui/BleuByLengthPlot.h"

#include "core/platform/AtomicFile.h"
#include "core/Error.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

namespace alignscope::cli {
namespace {

struct Evaluation {
    std::string file;
    nlohmann::json json;
};

Evaluation readEvaluation(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw core::Error("cannot read '" + path + "'");
    Evaluation e{path, {}};
    try {
        in >> e.json;
        (void)e.json.at("model").at("name").get<std::string>();
        for (const auto& b : e.json.at("buckets")) {
            (void)b.at("label").get<std::string>();
            (void)b.at("sentences").get<int>();
        }
        for (const auto& s : e.json.at("searches")) {
            (void)s.at("name").get<std::string>();
            for (const auto& b : s.at("buckets")) (void)b.at("label");
        }
    } catch (const std::exception&) {
        throw core::Error("'" + path + "' is not a scores file of `alignscope-cli evaluate --json`");
    }
    return e;
}

// A name inside a Markdown table cell: '|' would end the cell.
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string fixed(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", value);
    return buf;
}

}  // namespace

Command addPlotBleuCommand(CLI::App& app) {
    struct Options {
        std::vector<std::string> evaluations;
        std::vector<std::string> names;
        std::string out, table, search = "all", title = "BLEU by source sentence length";
        int width = 1600, height = 1000, dpi = 200;
    };
    auto o = std::make_shared<Options>();
    auto* c = app.add_subcommand("plot-bleu",
                                 "Plot corpus BLEU against source length (Bahdanau et al. 2014, Fig. 2) from the "
                                 "JSON files of `evaluate --json`, and write the table");
    c->add_option("--eval", o->evaluations, "Scores of one model (evaluate --json); repeat for each model")->required();
    c->add_option("--name", o->names, "Legend name of each --eval, in order (default: the model's name)");
    c->add_option("-o,--out", o->out, "PNG file to write")->required();
    c->add_option("--table", o->table, "Also write the numbers as a Markdown table to this file");
    c->add_option("--search", o->search, "Lines to draw: all, greedy or beam")
        ->check(CLI::IsMember({"all", "greedy", "beam"}))
        ->capture_default_str();
    c->add_option("--title", o->title, "Figure title (empty: none)")->capture_default_str();
    c->add_option("--width", o->width, "Width in pixels")->check(CLI::Range(100, 10000))->capture_default_str();
    c->add_option("--height", o->height, "Height in pixels")->check(CLI::Range(100, 10000))->capture_default_str();
    c->add_option("--dpi", o->dpi, "Resolution recorded in the PNG (text scales with it)")
        ->check(CLI::Range(10, 1200))
        ->capture_default_str();
    return [o, c]() -> int {
        if (!*c) return -1;
        if (!o->names.empty() && o->names.size() != o->evaluations.size()) throw core::Error("give one --name per --eval, or none");
        std::vector<Evaluation> evals;
        for (const auto& path : o->evaluations) evals.push_back(readEvaluation(path));
        // One x axis: every file must have been scored on the same buckets.
        const auto& buckets = evals.front().json["buckets"];
        for (const auto& e : evals)
            if (e.json["buckets"] != buckets)
                throw core::Error("'" + e.file + "' and '" + evals.front().file +
                                  "' have different length buckets or test sets; evaluate both with the same "
                                  "--test and --buckets");
        QStringList labels;
        QVector<int> sentences;
        for (const auto& b : buckets) {
            labels << QString::fromStdString(b.at("label").get<std::string>());
            sentences << b.at("sentences").get<int>();
        }

        struct Line {
            std::string name;
            std::vector<double> bleu;  // [buckets], NaN: empty bucket
            bool greedy;
            int model;   // index of its --eval: one colour per model
            double all;  // corpus BLEU over every sentence
        };
        std::vector<Line> lines;
        for (size_t i = 0; i < evals.size(); ++i) {
            const auto model = o->names.empty() ? evals[i].json["model"]["name"].get<std::string>() : o->names[i];
            for (const auto& s : evals[i].json["searches"]) {
                const bool greedy = s.value("beam_width", 1) == 1;
                if ((o->search == "greedy" && !greedy) || (o->search == "beam" && greedy)) continue;
                Line line{model + ", " + s["name"].get<std::string>(), {}, greedy, static_cast<int>(i), s.value("bleu", 0.0)};
                for (const auto& b : s["buckets"])
                    line.bleu.push_back(b.value("sentences", 0) > 0 ? b.value("bleu", 0.0) : std::numeric_limits<double>::quiet_NaN());
                lines.push_back(std::move(line));
            }
        }
        if (lines.empty()) throw core::Error("no " + o->search + " search in the given files");

        // Check the table's path before drawing, so a bad path fails before anything is written.
        if (!o->table.empty()) core::AtomicFile::checkWritable(o->table);
        const auto qt = startOffscreenQt("plot-bleu");
        ui::BleuByLengthPlot plot(labels, sentences, QString::fromStdString(o->title));
        for (const auto& l : lines)
            plot.addSeries({QString::fromStdString(l.name), QVector<double>(l.bleu.begin(), l.bleu.end()), l.greedy, l.model});
        plot.savePng(QString::fromStdString(o->out), o->width, o->height, o->dpi);  // the table only after it
        std::cout << "wrote " << o->out << '\n';

        if (!o->table.empty()) {
            core::AtomicFile file(o->table);
            auto& t = file.stream();
            t << "| source length (tokens) | sentences |";
            for (const auto& l : lines) t << ' ' << cell(l.name) << " |";
            t << "\n| --- | --- |";
            for (size_t i = 0; i < lines.size(); ++i) t << " --- |";
            t << '\n';
            for (int b = 0; b < labels.size(); ++b) {
                t << "| " << labels[b].toStdString() << " | " << sentences[b] << " |";
                for (const auto& l : lines) t << ' ' << (std::isnan(l.bleu[b]) ? "–" : fixed(l.bleu[b])) << " |";
                t << '\n';
            }
            t << "| all | " << evals.front().json.value("sentences", 0) << " |";
            for (const auto& l : lines) t << ' ' << fixed(l.all) << " |";
            t << '\n';
            file.commit();
            std::cout << "wrote " << o->table << '\n';
        }
        return 0;
    };
}

}  // namespace alignscope::cli
