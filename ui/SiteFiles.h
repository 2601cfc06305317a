#pragma once
#include <QByteArray>
#include <QString>

#include <cstdint>
#include <map>

namespace alignscope::ui {

// Files a site's pages share, written once beside them (a lesson site's pictures): each is named
// by its content's hash in a folder of the site, so a picture used on many pages, or many times on
// one, is one file, and every page names it. What is written is held to a budget for the whole site.
class SiteFiles {
public:
    static constexpr qint64 kMaxSiteBytes = qint64{256} << 20;  // pictures kept for one site
    static const QString& picturesFolder();                     // "pictures", beside the pages

    explicit SiteFiles(QString siteFolder, qint64 budget = kMaxSiteBytes);

    // The picture (PNG or JPEG) as the pages name it ("pictures/<hash>.png"), written the first time
    // its content is seen. Throws core::Error naming the picture for another kind, an unreadable file,
    // a link or pipe where its file goes, or a site over the budget.
    QString picture(const QString& path);

    qint64 bytesWritten() const { return written_; }

private:
    void makeFolder(const QString& folder) const;  // a real folder inside the site, never a link

    QString site_;
    qint64 budget_;
    qint64 written_ = 0;
    std::map<QString, QString> byPath_;     // a picture's path as given -> its name in the site
    std::map<QByteArray, QString> byHash_;  // content hash -> name in the site
};

}  // namespace alignscope::ui
