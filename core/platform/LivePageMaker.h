#pragma once
#include <string>
#include <vector>

namespace alignscope::core {

// Makes written pages live (issue 57, docs/live-page.md): the runtime and each model's exported
// graphs in a folder beside them, the pages given the scripts that load them. The ONNX export
// exists only in Python (torch.onnx; LibTorch has none), so this runs the Python package's
// `alignscope.live_page pages` in a child process: one source of that logic.
class LivePageMaker {
public:
    struct Page {
        std::string page;   // a page alignscope wrote (export --format html, export-lesson)
        std::string model;  // the model file whose decoding it shows
    };
    // $ALIGNSCOPE_PYTHON_PACKAGE, else InstallLayout::dataDirectory()/python: the folder holding
    // alignscope/ (the build tree links it to the source tree's python/, install copies it there).
    static std::string pythonPackageDirectory();
    // $ALIGNSCOPE_ORT_WEB, else dataDirectory()/onnxruntime-web (scripts/fetch_onnxruntime_web.sh's
    // folder, linked from the build tree, installed beside the package when it was fetched).
    static std::string runtimeDirectory();
    // $ALIGNSCOPE_PYTHON, else /usr/bin/python3 where it exists, else python3 from PATH.
    static std::string pythonProgram();
    // All pages in one folder. Throws Error naming what is missing (python3, the package, Debian's
    // python3-torch or python3-onnx, node, the npm runtime) or the exporter's own refusal.
    static void makeLive(const std::vector<Page>& pages);
};

}  // namespace alignscope::core
