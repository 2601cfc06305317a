"""What every file the package reads or writes shares: the model format's version, the one rule for
files it writes, and bounded reading of files a user hands over.

Writing (atomic_write, write_text): every file the package creates (model files, checkpoints, pages,
corpora, links, JSON) is written the same way, so no writer has a rule of its own:
  - the path is a str or os.PathLike naming a file (not an int: save(5) would write to descriptor 5);
  - its last component is never a symbolic link (a link in a shared output folder would carry the
    write outside it) nor a folder, pipe, device or socket (refused by name: a FIFO would block
    for ever, and renaming over /dev/full as root replaces the device);
  - the content goes to a temporary file in the same folder, renamed over the path only when it is
    whole, both relative to one descriptor of that folder (the rename cannot land elsewhere).
A reader, or a run killed mid-write, sees the old file or the new one, never half of one.

Reading (open_input, read_bounded): a file a user or a model names is opened without blocking,
checked on the open descriptor to be a regular file of bounded size (core/platform/BoundedFile),
so a FIFO does not hang, /dev/zero is not read for ever and a huge file is refused by its size.
"""

import contextlib
import io
import os
import stat
import tempfile
from typing import Any, BinaryIO, Iterator, Optional

# The AlignScope model file format (docs/model-format.md) that AlignScope's own models
# (scripted.py) and converted ones (adapted.py) declare as `format_version`.
FORMAT_VERSION = 2

# Sizes read at most (core/platform/BoundedFile's role): vocabularies, tokenizer and JSON files
# are small; a corpus or checkpoint may be large, but never a stream without end.
MAX_TEXT_BYTES = 256 << 20
MAX_CORPUS_BYTES = 16 << 30


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def size_text(n: int) -> str:
    """"12 MiB", "512 bytes": sizes in messages (BoundedFile::sizeText)."""
    return f"{n >> 20} MiB" if n >= (1 << 20) else f"{n} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def path_name(path: Any, what: str = "the file") -> str:
    """`path` as a str, or TypeError: a path is a str or os.PathLike, never a file descriptor."""
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what} must be a path (str or os.PathLike), not {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a path as text, not {type(name).__name__}")
    if not name:
        raise ValueError(f"{what} has an empty name")
    if "\0" in name:
        raise ValueError(f"{what} has a NUL character in its name")
    return name


def check_output(path: Any, what: str = "output file") -> str:
    """The rule for a file about to be written (see the module's doc): its name as a str, or
    ValueError/TypeError (FileNotFoundError: no such folder) naming it. Checked again, relative to the folder, when written."""
    name = path_name(path, what)
    try:
        st = os.lstat(name)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise ValueError(f"cannot write the {what} '{name}': it is {_kind(st.st_mode)}, not a regular file"
                         + (" (files are never written through links)" if stat.S_ISLNK(st.st_mode) else ""))
    folder = os.path.dirname(os.path.abspath(name))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot write the {what} '{name}': its folder '{folder}' does not exist")
    return name


@contextlib.contextmanager
def atomic_write(path: Any, encoding: Optional[str] = None, what: str = "output file") -> Iterator[Any]:
    """A file to write `path`'s new content into (binary, or text with `encoding`): a temporary file
    in the same folder, renamed over `path` only when the block ends without an exception.

    Permissions as core/platform/AtomicFile gives them: those of the file replaced, else a new file's
    (0666 minus the umask: 0644 usually), not mkstemp's 0600.
    """
    name = check_output(path, what)
    folder = os.path.dirname(os.path.abspath(name))
    base = os.path.basename(name)
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    tmp = None
    fd = -1
    try:
        # mkstemp creates with O_EXCL|O_NOFOLLOW: a link planted under the temporary name is not followed.
        fd, tmp_path = tempfile.mkstemp(prefix="." + base + ".", suffix=".tmp", dir=folder)
        tmp = os.path.basename(tmp_path)
        try:
            existing = os.stat(base, dir_fd=dir_fd, follow_symlinks=False)
            mode = existing.st_mode & 0o7777 if stat.S_ISREG(existing.st_mode) else 0o666 & ~_current_umask()
        except FileNotFoundError:
            mode = 0o666 & ~_current_umask()
        os.fchmod(fd, mode)
        raw = os.fdopen(fd, "wb")
        fd = -1  # the file object owns it now
        with (io.TextIOWrapper(raw, encoding=encoding, newline="") if encoding else raw) as f:
            yield f
        # Checked again just before the rename: something made meanwhile that is not a regular file
        # (a FIFO, a device node, a link) is left alone and the write refused by name.
        try:
            now = os.stat(base, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            now = None
        if now is not None and not stat.S_ISREG(now.st_mode):
            raise ValueError(f"cannot write the {what} '{name}': it is {_kind(now.st_mode)}, not a regular file")
        os.replace(tmp, base, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        tmp = None
    finally:
        if fd >= 0:
            os.close(fd)
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.remove(tmp, dir_fd=dir_fd)
        os.close(dir_fd)


def write_text(path: Any, text: str, what: str = "output file") -> str:
    """`text` as UTF-8 at `path`, by atomic_write's rule; returns the path as a str."""
    with atomic_write(path, encoding="utf-8", what=what) as f:
        f.write(text)
    return os.fspath(path)


def open_input(path: Any, what: str = "file", max_bytes: int = MAX_CORPUS_BYTES) -> BinaryIO:
    """`path` opened for reading as a binary file, once it is known to be a regular file of at most
    `max_bytes` (checked on the open descriptor: what is checked is what is read); else ValueError
    naming it, FileNotFoundError for a missing file."""
    name = path_name(path, what)
    try:
        # O_NONBLOCK: opening a FIFO with no writer would block for ever.
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise FileNotFoundError(f"cannot read the {what} '{name}': no such file") from None
    except OSError as e:
        raise ValueError(f"cannot read the {what} '{name}': {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"the {what} '{name}' is {_kind(st.st_mode)}, not a regular file")
        if st.st_size > max_bytes:
            raise ValueError(f"the {what} '{name}' is {size_text(st.st_size)}; at most {size_text(max_bytes)} are read")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: Any, what: str = "file", max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The whole of a regular file of at most `max_bytes` (open_input's checks)."""
    with open_input(path, what, max_bytes) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:  # it grew after it was checked
        raise ValueError(f"the {what} '{os.fspath(path)}' grew past {size_text(max_bytes)} while it was read")
    return data


def read_text(path: Any, what: str = "file", max_bytes: int = MAX_TEXT_BYTES) -> str:
    """read_bounded, decoded as UTF-8; ValueError naming the file and the line of invalid UTF-8."""
    data = read_bounded(path, what, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ValueError(f"the {what} '{os.fspath(path)}' is not UTF-8 text (line {line})") from None


def regular_input(path: Any, what: str = "file", max_bytes: int = MAX_CORPUS_BYTES) -> str:
    """open_input's checks for a file a library reads by name (torch.jit.load): its name as a str."""
    with open_input(path, what, max_bytes):
        pass
    return os.fspath(path)
