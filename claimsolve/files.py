"""Writing the user's files safely: complete or not at all."""
import os
import tempfile

from .errors import ClaimsolveError


def write_atomically(path, text):
    """Writes `text` to `path` through a temporary file in the same folder,
    renamed into place only once complete, with the permissions a new file
    gets (the umask's)."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".claimsolve-")
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise ClaimsolveError(f"cannot write: {exc.strerror}", path) from None


def check_writable(path):
    """Fails now, with the ClaimsolveError writing would give, when `path`
    cannot be written (its folder missing or not writable, a folder of that
    name): long work whose answer goes to `path` is not begun in vain.  The
    write itself (write_atomically) still says why, should it fail later."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ClaimsolveError("cannot write: it is a folder", path)
    if not os.path.isdir(directory):
        raise ClaimsolveError("cannot write: no such folder", path)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ClaimsolveError("cannot write: permission denied", path)
