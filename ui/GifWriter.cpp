#include "ui/GifWriter.h"

#include "core/Error.h"

#include <gif_lib.h>

#include <algorithm>
#include <memory>
#include <string>

namespace alignscope::ui {

namespace {

int appendBytes(GifFileType* gif, const GifByteType* data, int length) {
    static_cast<QByteArray*>(gif->UserData)->append(reinterpret_cast<const char*>(data), length);
    return length;
}

core::Error gifError(const char* what, int code) {
    const char* message = GifErrorString(code);
    return core::Error(std::string("cannot write the GIF (") + what + "): " + (message ? message : "giflib error " + std::to_string(code)));
}

}  // namespace

void GifWriter::addFrame(const QImage& image, int delayMs) {
    if (!frames_.empty() && image.size() != frames_.front().image.size())
        throw core::Error("GIF frames must share one size: frame " + std::to_string(frames_.size() + 1) + " differs");
    frames_.push_back({image.convertToFormat(QImage::Format_RGB888), std::max(2, (delayMs + 5) / 10)});
}

QByteArray GifWriter::finish() const {
    if (frames_.empty()) throw core::Error("cannot write a GIF without frames");
    QByteArray out;
    int error = 0;
    GifFileType* gif = EGifOpen(&out, appendBytes, &error);
    if (!gif) throw gifError("open", error);
    const auto close = [](GifFileType* g) {
        int ignored = 0;
        EGifCloseFile(g, &ignored);
    };
    std::unique_ptr<GifFileType, decltype(close)> guard(gif, close);
    const int width = frames_.front().image.width(), height = frames_.front().image.height();
    EGifSetGifVersion(gif, true);  // GIF89a: delays and the loop extension
    if (EGifPutScreenDesc(gif, width, height, 8, 0, nullptr) == GIF_ERROR) throw gifError("screen", gif->Error);
    // Loop for ever: NETSCAPE2.0, sub-block 1, count 0.
    const GifByteType netscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    const GifByteType loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof netscape, netscape) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
        throw gifError("loop extension", gif->Error);

    const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
    std::vector<GifByteType> red(pixels), green(pixels), blue(pixels), indices(pixels);
    for (const auto& frame : frames_) {
        for (int y = 0; y < height; ++y) {
            const uchar* row = frame.image.constScanLine(y);
            for (int x = 0; x < width; ++x) {
                const size_t i = static_cast<size_t>(y) * width + x;
                red[i] = row[3 * x];
                green[i] = row[3 * x + 1];
                blue[i] = row[3 * x + 2];
            }
        }
        int colours = 256;
        std::vector<GifColorType> palette(256);
        if (GifQuantizeBuffer(width, height, &colours, red.data(), green.data(), blue.data(), indices.data(), palette.data()) == GIF_ERROR)
            throw core::Error("cannot write the GIF: its colours could not be reduced to 256");
        ColorMapObject* map = GifMakeMapObject(256, palette.data());
        if (!map) throw core::Error("cannot write the GIF: out of memory for a palette");
        GraphicsControlBlock control{};
        control.DisposalMode = DISPOSE_DO_NOT;
        control.DelayTime = frame.delayCs;
        control.TransparentColor = NO_TRANSPARENT_COLOR;
        GifByteType extension[4];
        const size_t length = EGifGCBToExtension(&control, extension);
        bool ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) != GIF_ERROR &&
                  EGifPutImageDesc(gif, 0, 0, width, height, false, map) != GIF_ERROR;
        for (int y = 0; ok && y < height; ++y)
            ok = EGifPutLine(gif, indices.data() + static_cast<size_t>(y) * width, width) != GIF_ERROR;
        GifFreeMapObject(map);
        if (!ok) throw gifError("frame", gif->Error);
    }
    GifFileType* done = guard.release();
    if (EGifCloseFile(done, &error) == GIF_ERROR) throw gifError("close", error);
    return out;
}

}  // namespace alignscope::ui
