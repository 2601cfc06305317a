#pragma once
#include <QByteArray>
#include <QImage>

#include <functional>
#include <string>
#include <vector>

struct GifFileType;

namespace alignscope::ui {

// An animated GIF by giflib, each frame encoded as it is added: quantised to its own 256-colour
// palette (giflib's median cut), shown for its own delay, the whole looping for ever (the
// NETSCAPE2.0 extension browsers and slide software honour). Every frame must have the first
// one's size. Frames are not kept: with a sink the file's bytes go out as they are made, so an
// animation of 2,000 training snapshots takes the memory of one frame.
class GifWriter {
public:
    using Sink = std::function<void(const char* data, size_t size)>;
    // Without a sink the bytes are kept, and finish() returns them.
    explicit GifWriter(Sink sink = {});
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    // Adds one frame shown for `delayMs` (GIF counts hundredths of a second; at least 20 ms, as
    // browsers slow anything faster down). Throws core::Error for a frame of another size.
    void addFrame(const QImage& image, int delayMs);
    int frameCount() const { return frames_; }
    // Ends the file; its bytes when there is no sink. Throws core::Error when there is no frame
    // or giflib (or the sink) fails.
    QByteArray finish();

private:
    void open(int width, int height);
    static int output(GifFileType* gif, const unsigned char* data, int length);

    Sink sink_;
    QByteArray kept_;
    std::string sinkError_;  // what the sink threw (giflib, in C, only sees a short write)
    GifFileType* gif_ = nullptr;
    int width_ = 0, height_ = 0, frames_ = 0;
    std::vector<unsigned char> red_, green_, blue_, indices_;
};

}  // namespace alignscope::ui
