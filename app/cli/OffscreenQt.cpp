#include "cli/OffscreenQt.h"

#include <iostream>
#include <string>

namespace alignscope::cli {
namespace {

std::string messageTag;

// Qt's notes for developers (no XDG_RUNTIME_DIR, an offscreen platform that cannot do this or
// that) are not for the user of a command-line tool; real warnings still show.
void qtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtDebugMsg || type == QtInfoMsg || message.startsWith(QLatin1String("QStandardPaths:")) ||
        message.contains(QLatin1String("does not support")))
        return;
    std::cerr << messageTag << ": Qt: " << message.toStdString() << '\n';
}

}  // namespace

std::unique_ptr<QApplication> startOffscreenQt(const char* tag) {
    messageTag = tag;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(qtMessages);
    static int argc = 1;
    static char name[] = "alignscope-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

}  // namespace alignscope::cli
