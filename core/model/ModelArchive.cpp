#include "core/model/ModelArchive.h"

#include "ModelCheckLimits.h"

#include "core/Error.h"
#include "core/model/PickleScanner.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>

namespace alignscope::core {

const uint64_t ModelArchive::kMaxInflatedBytes = model_checks::kMaxInflatedBytes;
const uint64_t ModelArchive::kMaxRatio = model_checks::kMaxRatio;
const size_t ModelArchive::kMaxEntries = model_checks::kMaxEntries;
const int ModelArchive::kMaxCodeNesting = model_checks::kMaxCodeNesting;
namespace {

// Random access to the archive's bytes: a file, or memory for the fuzz target.
class Bytes {
public:
    virtual ~Bytes() = default;
    virtual uint64_t size() const = 0;
    // Exactly n bytes at offset (the caller has checked the range).
    virtual void read(uint64_t offset, size_t n, char* out) = 0;
    std::string read(uint64_t offset, size_t n) {
        std::string s(n, '\0');
        if (n) read(offset, n, s.data());
        return s;
    }
};

class FileBytes : public Bytes {
public:
    explicit FileBytes(const std::string& path) : in_(path, std::ios::binary) {
        if (!in_) throw Error("cannot read model file '" + path + "'");
        in_.seekg(0, std::ios::end);
        size_ = static_cast<uint64_t>(in_.tellg());
    }
    uint64_t size() const override { return size_; }
    void read(uint64_t offset, size_t n, char* out) override {
        in_.seekg(static_cast<std::streamoff>(offset));
        in_.read(out, static_cast<std::streamsize>(n));
        if (static_cast<size_t>(in_.gcount()) != n) throw Error("it could not be read to the end (an I/O error, or it changed while read)");
    }

private:
    std::ifstream in_;
    uint64_t size_ = 0;
};

class MemoryBytes : public Bytes {
public:
    explicit MemoryBytes(const std::string& bytes) : bytes_(bytes) {}
    uint64_t size() const override { return bytes_.size(); }
    void read(uint64_t offset, size_t n, char* out) override { std::memcpy(out, bytes_.data() + offset, n); }

private:
    const std::string& bytes_;
};

uint64_t little(const std::string& s, size_t at, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
    return v;
}

bool endsWith(const std::string& s, const std::string& end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

std::string megabytes(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

class ArchiveCheck {
public:
    ArchiveCheck(Bytes& bytes, std::string name) : in_(bytes), name_(std::move(name)) {}

    std::vector<ModelArchive::Entry> run() {
        readDirectory();
        std::map<std::string, const ModelArchive::Entry*> byName;
        for (const auto& e : entries_) byName[e.name] = &e;
        uint64_t inflated = 0;
        for (const auto& e : entries_) {
            inflated += e.size;
            if (inflated > ModelArchive::kMaxInflatedBytes)
                damaged("its entries inflate to more than " + megabytes(ModelArchive::kMaxInflatedBytes) + " in all");
        }
        for (const auto& e : entries_) {
            const bool pickle = endsWith(e.name, ".pkl") || endsWith(e.name, ".debug_pkl");
            const bool code = e.name.rfind("code/", 0) == 0 && endsWith(e.name, ".py");
            std::string content;
            readEntry(e, pickle || code ? &content : nullptr);
            if (pickle) {
                // data.pkl's storages are records under data/; constants.pkl's under constants/.
                const std::string folder = e.name == "data.pkl" ? "data/" : "constants/";
                PickleScanner::RecordSize size = [&](const std::string& key) -> int64_t {
                    const auto it = byName.find(folder + key);
                    return it == byName.end() ? -1 : static_cast<int64_t>(it->second->size);
                };
                try {
                    PickleScanner::scan(content, size);
                } catch (const Error& err) {
                    damaged("its pickle '" + e.name + "' is damaged at " + err.what());
                }
            }
            if (code) checkNesting(e.name, content);
        }
        return entries_;
    }

private:
    [[noreturn]] void damaged(const std::string& why) const { throw Error("'" + name_ + "' is damaged or not a model file: " + why); }

    void readDirectory() {
        const uint64_t size = in_.size();
        if (size < 22) damaged("it is too short to be a zip archive");
        // The end-of-directory record sits in the last 22 + 65535 (comment) bytes.
        const uint64_t tailSize = std::min<uint64_t>(size, 22 + 65535);
        const std::string tail = in_.read(size - tailSize, static_cast<size_t>(tailSize));
        size_t eocd = std::string::npos;
        for (size_t i = tail.size() - 22 + 1; i-- > 0;)
            if (little(tail, i, 4) == 0x06054b50) {
                eocd = i;
                break;
            }
        if (eocd == std::string::npos) damaged("it has no zip directory (cut short?)");
        const uint64_t eocdAt = size - tailSize + eocd;
        uint64_t count = little(tail, eocd + 10, 2);
        uint64_t dirSize = little(tail, eocd + 12, 4);
        uint64_t dirAt = little(tail, eocd + 16, 4);
        if (count == 0xFFFF || dirSize == 0xFFFFFFFF || dirAt == 0xFFFFFFFF) {  // zip64
            if (eocdAt < 20) damaged("its zip64 directory locator is missing");
            const std::string locator = in_.read(eocdAt - 20, 20);
            if (little(locator, 0, 4) != 0x07064b50) damaged("its zip64 directory locator is missing");
            const uint64_t at = little(locator, 8, 8);
            if (at > eocdAt || eocdAt - at < 56) damaged("its zip64 directory record lies outside the file");
            const std::string record = in_.read(at, 56);
            if (little(record, 0, 4) != 0x06064b50) damaged("its zip64 directory record is damaged");
            count = little(record, 32, 8);
            dirSize = little(record, 40, 8);
            dirAt = little(record, 48, 8);
        }
        if (count > ModelArchive::kMaxEntries) damaged("it declares " + std::to_string(count) + " entries");
        if (dirAt > eocdAt || dirSize > eocdAt - dirAt) damaged("its zip directory lies outside the file");
        const std::string dir = in_.read(dirAt, static_cast<size_t>(dirSize));
        size_t p = 0;
        std::map<std::string, int> seen;
        for (uint64_t i = 0; i < count; ++i) {
            if (dir.size() - p < 46 || little(dir, p, 4) != 0x02014b50)
                damaged("its zip directory is damaged (entry " + std::to_string(i + 1) + ")");
            const uint64_t flags = little(dir, p + 8, 2), method = little(dir, p + 10, 2);
            ModelArchive::Entry e;
            e.crc = static_cast<uint32_t>(little(dir, p + 16, 4));
            e.storedSize = little(dir, p + 20, 4);
            e.size = little(dir, p + 24, 4);
            const size_t nameLen = little(dir, p + 28, 2), extraLen = little(dir, p + 30, 2), commentLen = little(dir, p + 32, 2);
            uint64_t local = little(dir, p + 42, 4);
            if (dir.size() - p - 46 < nameLen + extraLen + commentLen)
                damaged("its zip directory is damaged (entry " + std::to_string(i + 1) + ")");
            const std::string fullName = dir.substr(p + 46, nameLen);
            // zip64 sizes and offset, in the order of the fields that overflowed.
            for (size_t x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen;) {
                const uint64_t id = little(dir, x, 2), len = little(dir, x + 2, 2);
                if (x + 4 + len > p + 46 + nameLen + extraLen) damaged("entry '" + fullName + "' has a damaged extra field");
                if (id == 0x0001) {
                    size_t f = x + 4;
                    auto field = [&](uint64_t& v) {
                        if (v != 0xFFFFFFFF) return;
                        if (f + 8 > x + 4 + len) damaged("entry '" + fullName + "' has a damaged zip64 field");
                        v = little(dir, f, 8);
                        f += 8;
                    };
                    field(e.size);
                    field(e.storedSize);
                    field(local);
                }
                x += 4 + len;
            }
            p += 46 + nameLen + extraLen + commentLen;
            const auto slash = fullName.find('/');
            e.name = slash == std::string::npos ? fullName : fullName.substr(slash + 1);
            if (seen[e.name]++) damaged("entry '" + e.name + "' appears twice");
            if (flags & 1) damaged("entry '" + e.name + "' is encrypted");
            if (method != model_checks::kStoredMethod && method != model_checks::kDeflatedMethod)
                damaged("entry '" + e.name + "' uses compression method " + std::to_string(method) + " (stored or deflated only)");
            e.deflated = method == model_checks::kDeflatedMethod;
            if (!e.deflated && e.storedSize != e.size) damaged("entry '" + e.name + "' is stored with two different sizes");
            if (e.deflated && e.size > model_checks::kRatioCheckedAboveBytes &&
                e.size / std::max<uint64_t>(e.storedSize, 1) > ModelArchive::kMaxRatio)
                damaged("entry '" + e.name + "' would inflate from " + std::to_string(e.storedSize) + " bytes to " + megabytes(e.size) +
                        " (a zip bomb?)");
            if (local > dirAt || dirAt - local < 30) damaged("entry '" + e.name + "' lies outside the file");
            const std::string header = in_.read(local, 30);
            if (little(header, 0, 4) != 0x04034b50) damaged("entry '" + e.name + "' has no local header where the directory says");
            const uint64_t dataAt = local + 30 + little(header, 26, 2) + little(header, 28, 2);
            if (dataAt > dirAt || e.storedSize > dirAt - dataAt)
                damaged("entry '" + e.name + "' runs past the end of the file's data (cut short?)");
            e.offset = dataAt;
            ranges_.push_back({local, dataAt + e.storedSize});
            entries_.push_back(std::move(e));
        }
        std::sort(ranges_.begin(), ranges_.end());
        for (size_t i = 1; i < ranges_.size(); ++i)
            if (ranges_[i].first < ranges_[i - 1].second) damaged("two of its entries overlap (a zip bomb or a spliced file)");
    }

    // Checks the CRC-32 (and, deflated, the size) of an entry; keeps its bytes when asked.
    void readEntry(const ModelArchive::Entry& e, std::string* keep) {
        constexpr size_t kChunk = 1 << 20;
        uLong crc = crc32(0, nullptr, 0);
        if (keep) keep->reserve(static_cast<size_t>(std::min<uint64_t>(e.size, uint64_t{1} << 30)));
        std::string chunk;
        if (!e.deflated) {
            for (uint64_t done = 0; done < e.storedSize;) {
                const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, e.storedSize - done));
                chunk = in_.read(e.offset + done, n);
                crc = crc32(crc, reinterpret_cast<const Bytef*>(chunk.data()), static_cast<uInt>(n));
                if (keep) keep->append(chunk);
                done += n;
            }
        } else {
            z_stream z{};
            if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw Error("zlib could not start");
            std::unique_ptr<z_stream, int (*)(z_streamp)> guard(&z, inflateEnd);
            std::string out(kChunk, '\0');
            uint64_t produced = 0, consumed = 0;
            int status = Z_OK;
            while (status != Z_STREAM_END) {
                if (z.avail_in == 0) {
                    if (consumed == e.storedSize) damaged("entry '" + e.name + "' ends inside its compressed data");
                    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, e.storedSize - consumed));
                    chunk = in_.read(e.offset + consumed, n);
                    consumed += n;
                    z.next_in = reinterpret_cast<Bytef*>(chunk.data());
                    z.avail_in = static_cast<uInt>(n);
                }
                z.next_out = reinterpret_cast<Bytef*>(out.data());
                z.avail_out = static_cast<uInt>(out.size());
                status = inflate(&z, Z_NO_FLUSH);
                if (status != Z_OK && status != Z_STREAM_END) damaged("entry '" + e.name + "' has damaged compressed data");
                const size_t n = out.size() - z.avail_out;
                produced += n;
                if (produced > e.size)
                    damaged("entry '" + e.name + "' inflates to more than the " + std::to_string(e.size) + " bytes it declares");
                crc = crc32(crc, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(n));
                if (keep) keep->append(out.data(), n);
            }
            if (produced != e.size)
                damaged("entry '" + e.name + "' inflates to " + std::to_string(produced) + " bytes, not the " + std::to_string(e.size) +
                        " it declares");
        }
        if (static_cast<uint32_t>(crc) != e.crc) damaged("entry '" + e.name + "' fails its checksum (bytes changed since it was written)");
    }

    void checkNesting(const std::string& entry, const std::string& code) const {
        int depth = 0, line = 1;
        char quote = 0;
        for (size_t i = 0; i < code.size(); ++i) {
            const char c = code[i];
            if (c == '\n') ++line;
            if (quote) {
                if (c == '\\') ++i;
                else if (c == quote) quote = 0;
                continue;
            }
            if (c == '\'' || c == '"') quote = c;
            else if (c == '(' || c == '[' || c == '{') {
                if (++depth > ModelArchive::kMaxCodeNesting)
                    damaged("its code '" + entry + "' nests brackets more than " + std::to_string(ModelArchive::kMaxCodeNesting) +
                            " deep at line " + std::to_string(line));
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                --depth;
            }
        }
    }

    Bytes& in_;
    std::string name_;
    std::vector<ModelArchive::Entry> entries_;
    std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

}  // namespace

std::vector<ModelArchive::Entry> ModelArchive::check(const std::string& path) {
    FileBytes bytes(path);
    try {
        return ArchiveCheck(bytes, path).run();
    } catch (const std::bad_alloc&) {
        throw Error("'" + path + "' could not be checked: out of memory");
    }
}

std::vector<ModelArchive::Entry> ModelArchive::checkBytes(const std::string& bytes, const std::string& name) {
    MemoryBytes in(bytes);
    return ArchiveCheck(in, name).run();
}

}  // namespace alignscope::core
