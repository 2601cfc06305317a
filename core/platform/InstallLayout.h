#pragma once
#include <string>

namespace alignscope::core {

// Where the programs find what they ship with, relative to the running executable, so the same
// binaries work from the build tree and from any install prefix (no path is compiled in):
//
//   PREFIX/bin/alignscope, alignscope-cli        the programs (build tree: build/app/, build/tests/)
//   PREFIX/lib/alignscope/                       private modules (libalignscope_sentencepiece.so)
//   PREFIX/share/alignscope/models, lessons      bundled models and lessons (build tree: links into
//                                                the source tree, made by CMake at configure time)
//
// Environment overrides, most specific first: ALIGNSCOPE_MODELS, ALIGNSCOPE_LESSONS and
// ALIGNSCOPE_SENTENCEPIECE_MODULE name one thing each; ALIGNSCOPE_DATA_DIR is the data folder
// used when none lies beside the program (a program linked elsewhere, an unusual layout).
class InstallLayout {
public:
    // The folder of the running executable (/proc/self/exe), empty when it cannot be read.
    static std::string programDirectory();
    // PROGRAM/../share/alignscope when it exists, else $ALIGNSCOPE_DATA_DIR when set, else the
    // program-relative path anyway (so messages name where data was expected).
    static std::string dataDirectory();
    // PROGRAM/../lib/alignscope: private modules loaded at run time.
    static std::string privateLibraryDirectory();
    // $ALIGNSCOPE_MODELS, else dataDirectory()/models.
    static std::string modelsDirectory();
    // $ALIGNSCOPE_LESSONS, else dataDirectory()/lessons.
    static std::string lessonsDirectory();
    // `variable`'s folder where it is set and not empty, else dataDirectory()/`relative`.
    static std::string overridable(const char* variable, const char* relative);
};

}  // namespace alignscope::core
