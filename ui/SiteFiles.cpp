#include "ui/SiteFiles.h"

#include "ui/FigureExporter.h"

#include "core/Error.h"
#include "core/platform/BoundedFile.h"

#include <QCryptographicHash>
#include <QFile>

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

namespace alignscope::ui {

const QString& SiteFiles::picturesFolder() {
    static const QString name = QStringLiteral("pictures");
    return name;
}

SiteFiles::SiteFiles(QString siteFolder, qint64 budget) : site_(std::move(siteFolder)), budget_(budget) {}

void SiteFiles::makeFolder(const QString& folder) const {
    const std::string path = folder.toStdString();
    if (::mkdir(path.c_str(), 0777) == 0) return;
    const int error = errno;
    struct stat st {};
    // lstat: a link named like our folder would carry the pictures out of the site.
    if (error == EEXIST && ::lstat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return;
        if (S_ISLNK(st.st_mode)) throw core::Error("'" + path + "' is a symbolic link: not written through");
        throw core::Error("cannot write pictures into '" + path + "': it is not a folder");
    }
    throw core::Error("cannot make the folder '" + path + "': " + std::strerror(error));
}

QString SiteFiles::picture(const QString& path) {
    if (const auto known = byPath_.find(path); known != byPath_.end()) return known->second;
    const std::string name = path.toStdString();
    const QByteArray bytes = QByteArray::fromStdString(core::BoundedFile::read(name, static_cast<uint64_t>(budget_), "the picture"));
    const bool png = bytes.startsWith("\x89PNG"), jpeg = bytes.startsWith("\xff\xd8\xff");
    // The page takes PNG and JPEG only (page.js, page.schema.json): another kind is named, not mislabelled.
    if (!png && !jpeg)
        throw core::Error("the picture '" + name +
                          "' is neither PNG nor JPEG: the exported page shows those two (the app shows SVG and GIF too)");
    const QByteArray hash = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().left(32);
    if (const auto same = byHash_.find(hash); same != byHash_.end()) return byPath_[path] = same->second;
    if (written_ + bytes.size() > budget_)
        throw core::Error("the picture '" + name + "' (" + core::BoundedFile::sizeText(static_cast<uint64_t>(bytes.size())) +
                          ") would bring the site's pictures past " + core::BoundedFile::sizeText(static_cast<uint64_t>(budget_)) + " (" +
                          core::BoundedFile::sizeText(static_cast<uint64_t>(written_)) + " written): use fewer or smaller pictures");
    const QString reference = picturesFolder() + QLatin1Char('/') + QString::fromLatin1(hash) + (png ? ".png" : ".jpg");
    makeFolder(site_ + QLatin1Char('/') + picturesFolder());
    FigureExporter::writeFile(site_ + QLatin1Char('/') + reference, bytes, /*inFolder=*/true);
    written_ += bytes.size();
    byHash_[hash] = reference;
    return byPath_[path] = reference;
}

}  // namespace alignscope::ui
