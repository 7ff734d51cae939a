"""Writing the user's files safely: complete or not at all (write_atomically),
or a line at a time, each line whole (LineLog)."""
import os
import stat
import tempfile
import time

from .errors import ClaimsolveError


FOLDER_GONE = ("the working folder no longer exists (it was deleted): give a full path, or change to a "
               "folder that exists")


def folder_gone():
    """Whether the working folder was deleted (or cannot be reached): a
    relative path then names nothing, and os.path.abspath raises."""
    try:
        os.getcwd()
        return False
    except OSError:
        return True


def problem(exc, path):
    """What an OSError on `path` says, in words: its strerror, and why when
    `path` is relative and the working folder was deleted."""
    if not os.path.isabs(os.fspath(path)) and folder_gone():
        return FOLDER_GONE
    return getattr(exc, "strerror", None) or str(exc)


def absolute(path, where=""):
    """os.path.abspath(path), or ClaimsolveError (`where` its first words,
    like "option '--svg': ") when the working folder was deleted."""
    try:
        return os.path.abspath(path)
    except OSError:
        raise ClaimsolveError(f"{where}cannot use {os.fsdecode(path)}: {FOLDER_GONE}") from None


def resolved(path, where=""):
    """os.path.realpath(path), or ClaimsolveError as absolute() says."""
    try:
        return os.path.realpath(path)
    except OSError:
        raise ClaimsolveError(f"{where}cannot use {os.fsdecode(path)}: {FOLDER_GONE}") from None


EXISTS = "the file exists; it is not overwritten (remove it, or give another name)"


def refuse_existing(path, where="", source=None):
    """Refuses (ClaimsolveError, `where` its first words, naming `source`,
    else `path`) a file at `path` that exists and is not empty: one a game
    record must not replace (an empty one holds nothing to lose)."""
    if os.path.isfile(path) and os.path.getsize(path) > 0:
        raise ClaimsolveError(f"{where}{EXISTS}", path if source is None else source)


NOT_A_PICTURE = "would overwrite a file that is not an SVG picture; give another name or remove it"

# how much of a file is read to tell a picture: an SVG's XML declaration,
# doctype and comments come well before its <svg element
PICTURE_HEAD = 64 * 1024


def is_picture(path):
    """Whether the file at `path` may be rewritten as a picture (--svg): it is
    empty, or is itself an SVG picture (after an optional byte order mark
    and white space, `<svg`, or `<?xml` with `<svg` after it).  A file that
    cannot be read is not (the write would report it anyway)."""
    try:
        with open(path, "rb") as f:
            head = f.read(PICTURE_HEAD)
    except OSError:
        return False
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not head:
        return True
    if not head[:5].lower() == b"<?xml":
        return head[:4].lower() == b"<svg"
    # the XML prolog: declarations (<?...?>), a doctype (<!DOCTYPE ...>) and
    # comments (<!-- ... -->), then the root element, which must be <svg
    while head:
        for start, end in ((b"<?", b"?>"), (b"<!--", b"-->"), (b"<!", b">")):
            if head.startswith(start):
                at = head.find(end, len(start))
                if at < 0:
                    return False
                head = head[at + len(end):].lstrip()
                break
        else:
            return head[:4].lower() == b"<svg"
    return False


def refuse_unless_picture(path, where="", source=None):
    """Refuses (ClaimsolveError, `where` its first words, naming `source`,
    else `path`) a file at `path` that exists and that a picture must not
    replace: one neither empty nor an SVG picture (a study, a game record,
    a position)."""
    if os.path.isfile(path) and not is_picture(path):
        raise ClaimsolveError(f"{where}{NOT_A_PICTURE}", path if source is None else source)


def read_only(path, mode):
    """Whether the existing file at `path` (its st_mode `mode`) is read-only:
    the user may not write it (os.access), or nobody may (no write bit: a
    `chmod 444` file, which root could write but which its owner marked
    as not to be written)."""
    return not os.access(path, os.W_OK) or not stat.S_IMODE(mode) & 0o222


def write_picture(path, text, where="option '--svg': "):
    """Writes the SVG picture `text` to `path` (every --svg): as
    write_atomically with `picture`, so a file that another program put
    there while the command worked is kept unless it is a picture (`where`
    the refusal's first words)."""
    write_atomically(path, text, picture=True, where=where)


def write_atomically(path, text, replace=True, picture=False, where=""):
    """Writes `text` to `path` through a temporary file in the same folder,
    renamed into place only once complete.  With `replace` False a file
    that exists and is not empty is refused, never replaced, also when it
    appears while the text is written (the temporary file is linked to
    `path`, which fails where a file is).  With `picture` True a file that
    exists must be empty or an SVG picture (refuse_unless_picture), checked
    here, as the text is written: what the command checked before its work
    may have changed since; where there was no file, one that appears while
    the text is written is refused as with `replace` False.  Refusals
    begin with `where` (like "option '--svg': ").  A file that exists keeps its
    permission bits (a `chmod 600` file stays 0600); a new file gets the
    permissions a new file gets (the umask's).  An existing file the user
    may not write, or that nobody may (read_only), is refused, never
    replaced.  A symbolic link is followed (the file it names is replaced, the link kept); a hard link is
    not kept: the rename puts a new file (a new inode) at `path`, and the
    file's other names keep the old contents.  A path that names anything
    but a regular file (a folder, a device such as /dev/full, a pipe) is
    refused, never replaced."""
    path = os.fspath(path)
    target = resolved(path)
    if os.path.exists(target) and not os.path.isfile(target):
        raise ClaimsolveError("cannot write: not a regular file (a folder, a device or a pipe)", path)
    try:
        old_mode = stat.S_IMODE(os.stat(target).st_mode) & 0o777     # not set-user-ID and the like
    except FileNotFoundError:
        old_mode = None
    except OSError as exc:
        raise ClaimsolveError(f"cannot write: {problem(exc, path)}", path) from None
    if old_mode is not None and read_only(target, old_mode):
        raise ClaimsolveError("cannot write: the file is read-only", path)
    if not replace:
        refuse_existing(target, where, source=path)
    if picture:
        refuse_unless_picture(target, where, source=path)
        replace = old_mode is not None       # a new picture: linked, never replacing what appears meanwhile
    directory = os.path.dirname(target)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".claimsolve-")
        if old_mode is None:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        else:
            os.fchmod(fd, old_mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if replace or old_mode is not None:     # (an empty file holds nothing to lose)
            os.replace(tmp, target)
        else:
            _link_new(tmp, target)
    except FileExistsError:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise ClaimsolveError(f"{where}{EXISTS}", path) from None
    except OSError as exc:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise ClaimsolveError(f"cannot write: {problem(exc, path)}", path) from None


def _link_new(tmp, target):
    """Puts the finished file `tmp` at `target`, which must not exist
    (FileExistsError where it does): a hard link, which fails rather than
    replace, then `tmp` removed; on a file system without hard links, a
    rename once `target` is seen not to exist."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def _lock(fd):
    """Takes the file `fd` for this LineLog alone (flock, held until it is
    closed): False where another holds it.  Where the system has no flock,
    True."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True          # a file system without locks: made (or found empty) as before
    return True


class LineLog:
    """A file of lines written as they come (`match --save`: a game per line
    as it ends).  The file is made new before any line is written: one that
    exists and is not empty is refused, never overwritten, and so is one
    another LineLog holds (two matches started together with one --save
    file, while it is still empty: the second is refused); one it made and
    closes with no line in it is removed (a match refused before its first
    game leaves nothing behind).  Each line is appended whole, in one write,
    and is then the system's: a Ctrl-C or a kill of the command leaves every
    line written; the file is synced to disk at most every SYNC_INTERVAL
    seconds and when closed."""

    SYNC_INTERVAL = 1.0

    def __init__(self, path, option=None):
        self.path = os.fspath(path)
        self._where = f"option '{option}': " if option else ""
        self._fd = None
        self._made = False
        self.lines = 0
        try:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o666)
                self._made = True
            except FileExistsError:
                if not (os.path.isfile(self.path) and os.path.getsize(self.path) == 0):
                    raise ClaimsolveError(f"{self._where}{EXISTS}", self.path) from None
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise ClaimsolveError(f"{self._where}cannot write: {problem(exc, self.path)}", self.path) from None
        if not _lock(fd):
            # another LineLog (a match --save started at the same time) holds it, still empty
            os.close(fd)
            raise ClaimsolveError(f"{self._where}another program is writing this file (another match --save?); "
                                  "give another name", self.path)
        self._fd = fd
        self._synced = time.monotonic()

    def write(self, line):
        """Appends `line` (a str ending in a newline)."""
        data = line.encode("utf-8")
        try:
            while data:
                data = data[os.write(self._fd, data):]
            self.lines += 1
            if time.monotonic() - self._synced >= self.SYNC_INTERVAL:
                os.fsync(self._fd)
                self._synced = time.monotonic()
        except OSError as exc:
            raise ClaimsolveError(f"{self._where}cannot write: {exc.strerror}", self.path) from None

    def close(self):
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.fsync(fd)
        except OSError:
            pass
        try:
            if self._made and self.lines == 0:
                # removed while the lock is held: a match --save waiting for the file cannot take it in
                # between and write its games to a file no longer in the folder
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
        finally:
            os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
