// Step -> repainted window: one engine step plus every view updated and painted, measured on the
// real main window offscreen. Issue target: under one frame (16 ms) for a 30-token sentence.
#include "ui/AlignmentView.h"
#include "ui/DecodingDocument.h"
#include "ui/MainWindow.h"

#include "core/runtime/BlasThreadChooser.h"
#include "core/runtime/Runtime.h"

#include <benchmark/benchmark.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QStandardPaths>

#include <cstdlib>

using namespace alignscope;

namespace {

QString sentenceOf(int words) {
    static const char* vocabulary[] = {"the", "red", "car", "is", "very", "fast", "and", "my", "house", "small"};
    QString s;
    for (int i = 0; i < words; ++i) s += QString::fromLatin1(vocabulary[i % 10]) + ' ';
    return s;
}

void StepToRepaint(benchmark::State& state) {
    const char* model = std::getenv("ALIGNSCOPE_BENCH_MODEL");
    ui::DecodingDocument document;
    ui::MainWindow window(&document);
    window.resize(1400, 900);
    window.show();
    document.openModel(QString::fromLocal8Bit(model ? model : core::Runtime::defaultModelPath().c_str()));
    window.setSourceText(sentenceOf(static_cast<int>(state.range(0)) - 1));  // + </s>
    auto options = window.alignmentView()->options();
    options.showEncoderStates = state.range(1) != 0;
    window.alignmentView()->setOptions(options);
    if (!document.waitUntilIdle() || !document.hasModel()) {
        state.SkipWithError("model did not load (set ALIGNSCOPE_BENCH_MODEL)");
        return;
    }
    for (auto _ : state) {
        if (document.state()->finished) {
            state.PauseTiming();
            document.reset();
            document.waitUntilIdle();
            state.ResumeTiming();
        }
        document.step();
        document.waitUntilIdle();
        window.alignmentView()->plot()->repaint();  // paint now, not at the next event-loop turn
        window.repaint();
    }
}
BENCHMARK(StepToRepaint)
    ->ArgNames({"tokens", "encoder"})
    ->Args({10, 1})
    ->Args({30, 1})
    ->Args({30, 0})
    ->Args({100, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
    if (!std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    core::BlasThreadChooser::shared().enable(core::Runtime::threads());  // as app/gui_main.cpp
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
