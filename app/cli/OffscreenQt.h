#pragma once
// The Qt application the figure-drawing subcommands need, on the offscreen platform (no display),
// with Qt's notes for developers kept off the user's terminal.
#include <QApplication>

#include <memory>

namespace alignscope::cli {

// `tag` prefixes the Qt warnings that still show ("export: Qt: ...").
std::unique_ptr<QApplication> startOffscreenQt(const char* tag);

}  // namespace alignscope::cli
