// Export speed, offscreen. Issue target: the batch export of 1,000 sentences to PNG takes under a
// minute on a 2-core machine, i.e. under 60 ms a sentence from input line to file (decode, draw,
// encode, write). BM_BatchLine is that whole path (ui::BatchExporter::exportLine, what
// `alignscope-cli export` runs per line); the others split it up.
//
// Model: the tests' tiny model, or $ALIGNSCOPE_BENCH_MODEL.
// `alignscope_export_benchmark --make-inputs DIR` writes DIR/tiny.pt and DIR/sentences-1000.txt
// (the sentences the benchmark uses) and exits, for timing the CLI:
//   time alignscope-cli export --model DIR/tiny.pt --format png --out DIR/png -i DIR/sentences-1000.txt
#include "TinyModel.h"

#include "ui/BatchExporter.h"
#include "ui/FigureExporter.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QStandardPaths>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <unistd.h>

using namespace alignscope;
using Format = ui::FigureExporter::Format;

namespace {

// 1,000 sentences of 3-14 words over the tiny model's source vocabulary, always the same.
const std::vector<std::string>& sentences() {
    static const std::vector<std::string> all = [] {
        const char* words[] = {"the", "red", "car", "a", "house", "is", "big", "small", ",", "the", "car", "house"};
        std::mt19937 rng(2014);
        std::vector<std::string> out;
        for (int n = 0; n < 1000; ++n) {
            const int length = 3 + static_cast<int>(rng() % 12);
            std::string s;
            for (int i = 0; i < length; ++i) s += std::string(words[rng() % 12]) + " ";
            s += (n % 3 == 0) ? "?" : ".";
            out.push_back(s);
        }
        return out;
    }();
    return all;
}

const core::Model& model() {
    static const core::Model m = [] {
        const char* path = std::getenv("ALIGNSCOPE_BENCH_MODEL");
        return path ? core::Model::load(path) : tests::tinyModel();
    }();
    return m;
}

// A typical figure: a 10-word sentence, decoded greedily.
const core::DecodingState& typical() {
    static const core::DecodingState s = ui::BatchExporter::decode(model(), "the red car is big , the house is small .");
    return s;
}

void Decode(benchmark::State& state) {
    size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(ui::BatchExporter::decode(model(), sentences()[i++ % 1000]));
}
BENCHMARK(Decode)->Unit(benchmark::kMillisecond);

void Render(benchmark::State& state) {
    ui::FigureExporter exporter;
    ui::FigureExporter::Settings settings;
    settings.format = static_cast<Format>(state.range(0));
    settings.dpi = static_cast<int>(state.range(1));
    ui::FigureOptions options;
    options.showEncoderStates = state.range(2) != 0;
    size_t bytes = 0;
    for (auto _ : state) bytes = static_cast<size_t>(exporter.render(typical(), options, settings).size());
    state.SetLabel(ui::FigureExporter::formatName(settings.format).toStdString() + " " + std::to_string(bytes / 1024) + " KiB");
}
BENCHMARK(Render)
    ->ArgNames({"format", "dpi", "encoder"})
    ->Args({int(Format::Png), 300, 1})
    ->Args({int(Format::Png), 300, 0})
    ->Args({int(Format::Png), 150, 1})
    ->Args({int(Format::Png), 600, 1})
    ->Args({int(Format::Svg), 300, 1})
    ->Args({int(Format::Pdf), 300, 1})
    ->Args({int(Format::Csv), 300, 1})
    ->Args({int(Format::Json), 300, 1})
    ->Args({int(Format::Pharaoh), 300, 1})
    ->Unit(benchmark::kMillisecond);

// One input line to one file on disk: what the CLI does per sentence.
void BatchLine(benchmark::State& state) {
    const auto folder = std::filesystem::temp_directory_path() / ("alignscope-bench-" + std::to_string(::getpid()));
    ui::BatchExporter::Settings settings;
    settings.file.format = static_cast<Format>(state.range(0));
    settings.file.dpi = static_cast<int>(state.range(1));
    ui::BatchExporter batch(model(), QString::fromStdString(folder.string()), settings);
    long line = 0;
    for (auto _ : state) {
        batch.exportLine(line + 1, sentences()[static_cast<size_t>(line % 1000)]);
        ++line;
    }
    std::filesystem::remove_all(folder);
    state.SetItemsProcessed(state.iterations());
    state.counters["s_per_1000"] =
        benchmark::Counter(static_cast<double>(state.iterations()) / 1000.0, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BatchLine)
    ->ArgNames({"format", "dpi"})
    ->Args({int(Format::Png), 300})
    ->Args({int(Format::Png), 150})
    ->Args({int(Format::Svg), 300})
    ->Args({int(Format::Pdf), 300})
    ->Args({int(Format::Json), 300})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3.0)
    ->UseRealTime();  // wall time: files on disk

// The same, queued as the CLI runs it: PNGs are encoded and written on worker threads while the
// next sentence is decoded and drawn.
void BatchQueued(benchmark::State& state) {
    const auto folder = std::filesystem::temp_directory_path() / ("alignscope-bench-q-" + std::to_string(::getpid()));
    ui::BatchExporter::Settings settings;
    settings.file.format = Format::Png;
    settings.file.dpi = static_cast<int>(state.range(0));
    long line = 0;
    for (auto _ : state) {
        ui::BatchExporter batch(model(), QString::fromStdString(folder.string()), settings);
        for (int i = 0; i < 100; ++i, ++line) batch.queueLine(line + 1, sentences()[static_cast<size_t>(line % 1000)]);
        batch.finish();
    }
    std::filesystem::remove_all(folder);
    state.SetItemsProcessed(100 * state.iterations());
    state.counters["s_per_1000"] = benchmark::Counter(100.0 * static_cast<double>(state.iterations()) / 1000.0,
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BatchQueued)->ArgName("dpi")->Arg(300)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--make-inputs") == 0) {
            const std::filesystem::path dir(argv[i + 1]);
            std::filesystem::create_directories(dir);
            tests::tinyModel().save((dir / "tiny.pt").string());
            std::ofstream out(dir / "sentences-1000.txt");
            for (const auto& s : sentences()) out << s << '\n';
            std::cout << "wrote " << (dir / "tiny.pt").string() << " and " << (dir / "sentences-1000.txt").string() << '\n';
            return 0;
        }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
