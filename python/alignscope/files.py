"""What every file the package writes shares: the model format's version, and writing a file whole.

Model files (export(), AdaptedModel.save()) and checkpoints are written the way the C++ side's
core/platform/AtomicFile writes its models, so a file looks the same whichever side wrote it.
"""

import contextlib
import os
import tempfile
from typing import BinaryIO, Iterator

# The AlignScope model file format (docs/model-format.md) that AlignScope's own models
# (scripted.py) and converted ones (adapted.py) declare as `format_version`.
FORMAT_VERSION = 2


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str) -> Iterator[BinaryIO]:
    """A binary file to write `path`'s new content into: a temporary file beside it, renamed over
    `path` only when the block ends without an exception. A reader, or a run killed mid-write,
    sees the old file or the new one, never half of one.

    Permissions as core/platform/AtomicFile gives them: those of the file replaced, else a new file's
    (0666 minus the umask: 0644 usually), not mkstemp's 0600.
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_current_umask()
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            fd = -1  # the file object owns it now
            yield f
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)
        raise
