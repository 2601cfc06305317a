#include "ui/GifWriter.h"

#include "core/Error.h"

#include <gif_lib.h>

#include <algorithm>

namespace alignscope::ui {

namespace {

core::Error gifError(const char* what, int code) {
    const char* message = GifErrorString(code);
    return core::Error(std::string("cannot write the GIF (") + what + "): " + (message ? message : "giflib error " + std::to_string(code)));
}

}  // namespace

GifWriter::GifWriter(Sink sink) : sink_(std::move(sink)) {}

GifWriter::~GifWriter() {
    if (gif_) {
        int ignored = 0;
        EGifCloseFile(gif_, &ignored);
    }
}

int GifWriter::output(GifFileType* gif, const GifByteType* data, int length) {
    auto* self = static_cast<GifWriter*>(gif->UserData);
    if (!self->sink_) {
        self->kept_.append(reinterpret_cast<const char*>(data), length);
        return length;
    }
    try {
        self->sink_(reinterpret_cast<const char*>(data), static_cast<size_t>(length));
        return length;
    } catch (const std::exception& e) {
        self->sinkError_ = e.what();
        return 0;
    }
}

void GifWriter::open(int width, int height) {
    int error = 0;
    gif_ = EGifOpen(this, output, &error);
    if (!gif_) throw gifError("open", error);
    width_ = width;
    height_ = height;
    EGifSetGifVersion(gif_, true);  // GIF89a: delays and the loop extension
    if (EGifPutScreenDesc(gif_, width, height, 8, 0, nullptr) == GIF_ERROR) throw gifError("screen", gif_->Error);
    // Loop for ever: NETSCAPE2.0, sub-block 1, count 0.
    const GifByteType netscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    const GifByteType loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof netscape, netscape) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif_) == GIF_ERROR)
        throw gifError("loop extension", gif_->Error);
    const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
    red_.resize(pixels);
    green_.resize(pixels);
    blue_.resize(pixels);
    indices_.resize(pixels);
}

void GifWriter::addFrame(const QImage& frame, int delayMs) {
    if (!gif_) open(frame.width(), frame.height());
    else if (frame.width() != width_ || frame.height() != height_)
        throw core::Error("GIF frames must share one size: frame " + std::to_string(frames_ + 1) + " differs");
    const QImage image = frame.convertToFormat(QImage::Format_RGB888);
    for (int y = 0; y < height_; ++y) {
        const uchar* row = image.constScanLine(y);
        for (int x = 0; x < width_; ++x) {
            const size_t i = static_cast<size_t>(y) * width_ + x;
            red_[i] = row[3 * x];
            green_[i] = row[3 * x + 1];
            blue_[i] = row[3 * x + 2];
        }
    }
    int colours = 256;
    std::vector<GifColorType> palette(256);
    if (GifQuantizeBuffer(width_, height_, &colours, red_.data(), green_.data(), blue_.data(), indices_.data(), palette.data()) ==
        GIF_ERROR)
        throw core::Error("cannot write the GIF: its colours could not be reduced to 256");
    ColorMapObject* map = GifMakeMapObject(256, palette.data());
    if (!map) throw core::Error("cannot write the GIF: out of memory for a palette");
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = std::max(2, (delayMs + 5) / 10);
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const size_t length = EGifGCBToExtension(&control, extension);
    bool ok = EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) != GIF_ERROR &&
              EGifPutImageDesc(gif_, 0, 0, width_, height_, false, map) != GIF_ERROR;
    for (int y = 0; ok && y < height_; ++y) ok = EGifPutLine(gif_, indices_.data() + static_cast<size_t>(y) * width_, width_) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!sinkError_.empty()) throw core::Error(sinkError_);
    if (!ok) throw gifError("frame", gif_->Error);
    ++frames_;
}

QByteArray GifWriter::finish() {
    if (!gif_ || frames_ == 0) throw core::Error("cannot write a GIF without frames");
    int error = 0;
    GifFileType* done = gif_;
    gif_ = nullptr;
    const bool closed = EGifCloseFile(done, &error) != GIF_ERROR;
    if (!sinkError_.empty()) throw core::Error(sinkError_);
    if (!closed) throw gifError("close", error);
    return std::move(kept_);
}

}  // namespace alignscope::ui
