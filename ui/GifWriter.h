#pragma once
#include <QByteArray>
#include <QImage>

#include <vector>

namespace alignscope::ui {

// An animated GIF in memory, by giflib: each frame quantised to its own 256-colour palette
// (giflib's median cut), shown for its own delay, the whole looping for ever (the NETSCAPE2.0
// extension browsers and slide software honour). Every frame must have the first one's size.
class GifWriter {
public:
    // Adds one frame shown for `delayMs` (GIF counts hundredths of a second; at least 20 ms, as
    // browsers slow anything faster down). Throws core::Error for a frame of another size.
    void addFrame(const QImage& image, int delayMs);
    int frameCount() const { return static_cast<int>(frames_.size()); }
    // The file's bytes. Throws core::Error when there is no frame or giflib fails.
    QByteArray finish() const;

private:
    struct Frame {
        QImage image;  // RGB888
        int delayCs;
    };
    std::vector<Frame> frames_;
};

}  // namespace alignscope::ui
