#pragma once
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace alignscope::core {

// A file written beside its target and renamed over it only once complete: a failed, interrupted
// or disk-full write leaves the old file as it was and no partial one. The new file keeps the
// old one's permissions; a symbolic link is written through. Devices, pipes and /dev/stdout are
// written directly, and so is a file that can be written but gets no temporary file beside it
// (its folder is read-only, it is bind-mounted): those lose the whole-file guarantee. Errors are
// core::Error with the system's reason ("No space left on device"); StorageFullError when full.
// That is for a path the user names (-o FILE). A name the tool makes inside a folder the user
// named (export --out DIR's pages, frames, index.html) is Naming::InFolder: it never leaves that
// folder, so a symbolic link (dangling or not), pipe, device or socket already there under that
// name is refused by name before anything is opened ("'out/page-01.html' is a symbolic link: not
// written through"), checked again before the rename; a FIFO there cannot block the run.
// Threading: one writer per object.
class AtomicFile {
public:
    enum class Naming { User, InFolder };

    // Refuses a folder, a missing folder or an unwritable one before anything is written.
    explicit AtomicFile(std::string path, Naming naming = Naming::User);
    ~AtomicFile();  // removes the temporary file unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    // Flushes to disk and renames the file over the target; throws Error when any write failed.
    void commit();

    // Checks that `path` could be written (its folder exists, it is not a folder, the folder
    // takes files), without touching it: for long jobs that write at the end.
    static void checkWritable(const std::string& path, Naming naming = Naming::User);
    // Writes `bytes` as the whole content of `path`, atomically.
    static void write(const std::string& path, const std::string& bytes, Naming naming = Naming::User);

private:
    // Buffered writes to a file descriptor that keep the errno of the first failure (an
    // std::ofstream loses it: later calls overwrite errno long before anyone looks).
    class DescriptorBuffer : public std::streambuf {
    public:
        explicit DescriptorBuffer(int fd);
        int error() const { return error_; }

    protected:
        int_type overflow(int_type c) override;
        int sync() override;

    private:
        bool drain();
        int fd_;
        int error_ = 0;
        std::vector<char> buffer_;
    };

    std::string path_;       // where the bytes go (a symbolic link's target)
    std::string temporary_;  // the file renamed over path_ by commit(); empty: written in place
    Naming naming_;
    int fd_ = -1;
    DescriptorBuffer buffer_;
    std::ostream out_;
    bool committed_ = false;
};

}  // namespace alignscope::core
