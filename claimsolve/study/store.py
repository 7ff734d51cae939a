"""A study's SQLite file: its parameters, one row per finished task, and a
row per run of the study command.

    meta   key/value: format, kind, params (canonical JSON), created,
           claimsolve's version, and the SPRT's decision once made
    tasks  one row per finished task: `id`, the kind's parameter and result
           columns (claimsolve.study.kinds), `seconds` it took (wall clock)
           and `cpu_seconds` (its thread's processor time), the `worker`
           (host:pid) that ran it, the `run` that recorded it, `done_at`
    runs   one row per run of the study: when it started and ended, its
           status (running, done, decided, interrupted, failed; a run killed
           with kill -9 stays "running"), the runner, tasks to do, completed

Only the coordinating process writes (WAL mode: `study report` and other
readers read while it writes).  A batch's rows and its run's count are one
transaction, so a kill loses at most the batches in flight.  Two runs on
one file at once are refused (an exclusive lock on the file for the run).
"""
import errno
import fcntl
import json
import os
import resource
import sqlite3
import time
import urllib.parse

from .. import __version__
from .. import limits
from ..errors import ClaimsolveError
from . import check
from .schema import FORMAT

BUSY_TIMEOUT = 30.0
FIXED_COLUMNS = (("seconds", "REAL"), ("cpu_seconds", "REAL"), ("worker", "TEXT"), ("run", "INTEGER"),
                 ("done_at", "REAL"))


def canonical(params):
    """The parameters as stored: JSON with sorted keys."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


def _cell(value):
    """A value as a column holds it: lists and dicts as JSON text."""
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, bool):
        return int(value)
    return value


class Store:
    """An open study file.  `Store.create_or_open(path, kind, params,
    columns)` for a run (it checks or stores the parameters and takes the
    lock); `Store.read(path)` for a report."""

    def __init__(self, path, conn, lock=None):
        self.path = path
        self.conn = conn
        self._lock = lock
        self.columns = [row[1] for row in conn.execute("PRAGMA table_info(tasks)")] if self._has("tasks") else []

    # -- opening ------------------------------------------------------------------

    @classmethod
    def read(cls, path):
        """Opens an existing study to read it, once checked
        (claimsolve.study.check).  In a folder that cannot be written, a
        study whose last run ended cleanly is read as it is (SQLite's
        immutable mode: no reader or writer can be there meanwhile)."""
        check.check_path(path, writing=False)
        _check_header(path)
        writable = check.folder_writable(path)
        if not writable and check.needs_writable_folder(path):
            raise ClaimsolveError(f"the folder {check.folder_of(path)} is not writable, and the study's last run "
                                  f"left its log {path}-wal unmerged, which only a process that can write there "
                                  "merges", path)
        if _checked(path):
            raise ClaimsolveError("not a claimsolve study (no meta, tasks and runs tables)", path)
        conn = _connect(path, immutable=not writable)
        try:
            return cls(path, conn)
        except BaseException:
            conn.close()
            raise

    @classmethod
    def create_or_open(cls, path, kind, params, columns, describe):
        """The study at `path` for a run: a new file gets `kind`, `params`
        and the tasks table of `columns` [(name, SQL type)]; an existing
        one is checked (claimsolve.study.check) and must hold the same kind
        and parameters (else a ClaimsolveError saying which differ, with
        `describe(key, value)` showing a value as its option reads).
        Nothing is written to a file that is refused."""
        check.check_path(path, writing=True)
        made = not os.path.exists(path)
        lock = _lock(path)
        conn = None
        try:
            _check_header(path)
            empty = _checked(path, kind)
            conn = _connect(path)
            store = cls(path, conn, lock)
            if empty:
                store._create(kind, params, columns)
            else:
                store._check_same(kind, params, describe)
            return store
        except BaseException:
            if conn is not None:
                conn.close()
            _unlock(lock)
            if made and _size(path) == 0:       # made by this run, and nothing could be written
                _remove_quietly(path)
            raise

    def _has(self, table):
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                                 (table,)).fetchone() is not None

    def _check_same(self, kind, params, describe):
        stored_kind = self.meta("kind")
        if stored_kind != kind:
            raise ClaimsolveError(f"holds a '{stored_kind}' study, not '{kind}' (use another --db)", self.path)
        stored = self.meta("params")
        if canonical(stored) == canonical(params):
            return
        if isinstance(stored, dict) and stored.get("game") != params.get("game"):
            # GAME is an argument, and the other parameters differ because of it
            raise ClaimsolveError(f"holds a {kind} study of {stored.get('game')}, not {params.get('game')}: give "
                                  "the same game and options to continue it, or another --db for a new study",
                                  self.path)
        differ = [key for key in sorted(set(stored) | set(params)) if stored.get(key) != params.get(key)]
        pairs = [(describe(key, stored.get(key)), describe(key, params.get(key))) for key in differ]
        # a parameter no option sets (None: derived from the options) only when nothing else differs
        pairs = [pair for pair in pairs if pair[0] is not None] or \
            [(f"{key} {stored.get(key)}", f"{key} {params.get(key)}") for key in differ]
        shown = "; ".join(f"{old}, not {new}" for old, new in pairs[:3])
        raise ClaimsolveError(f"holds this {kind} study with other parameters ({shown}): give the same "
                              "options to continue it, or another --db for a new study", self.path)

    def _create(self, kind, params, columns):
        cells = ", ".join(f'"{name}" {kind_}' for name, kind_ in list(columns) + list(FIXED_COLUMNS))
        self.conn.isolation_level = None
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.isolation_level = ""
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self.conn.execute(f"CREATE TABLE tasks (id INTEGER PRIMARY KEY, {cells})")
            self.conn.execute("CREATE TABLE runs (run INTEGER PRIMARY KEY, started REAL, ended REAL, status TEXT,"
                              " runner TEXT, todo INTEGER, completed INTEGER DEFAULT 0)")
            for key, value in (("format", FORMAT), ("kind", kind), ("params", params), ("created", time.time()),
                               ("claimsolve", __version__)):
                self.conn.execute("INSERT INTO meta VALUES (?, ?)", (key, json.dumps(value, sort_keys=True)))
        self.columns = [row[1] for row in self.conn.execute("PRAGMA table_info(tasks)")]

    # -- reading ------------------------------------------------------------------

    def meta(self, key, default=None):
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    @property
    def kind(self):
        return self.meta("kind")

    @property
    def params(self):
        return self.meta("params")

    def done_ids(self):
        return {row[0] for row in self.conn.execute("SELECT id FROM tasks")}

    def count(self):
        return self.conn.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]

    def rows(self, json_columns=()):
        """Every finished task as a dict, by id; `json_columns` decoded."""
        cursor = self.conn.execute("SELECT * FROM tasks ORDER BY id")
        names = [d[0] for d in cursor.description]
        out = []
        for values in cursor:
            row = dict(zip(names, values))
            for name in json_columns:
                if row.get(name) is not None:
                    row[name] = json.loads(row[name])
            out.append(row)
        return out

    def runs(self):
        cursor = self.conn.execute("SELECT * FROM runs ORDER BY run")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, values)) for values in cursor]

    # -- writing (the coordinator) ----------------------------------------------------

    def set_meta(self, key, value):
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value, sort_keys=True)))

    def begin_run(self, runner, todo):
        with self.conn:
            cursor = self.conn.execute("INSERT INTO runs (started, status, runner, todo, completed) "
                                       "VALUES (?, 'running', ?, ?, 0)", (time.time(), runner, todo))
        return cursor.lastrowid

    def end_run(self, run, status):
        with self.conn:
            self.conn.execute("UPDATE runs SET ended=?, status=? WHERE run=?", (time.time(), status, run))

    def record(self, run, results):
        """Writes finished tasks [(id, {column: value})] in one transaction;
        an id already recorded is skipped (never written twice).  Returns the
        ids written."""
        written = []
        now = time.time()
        known = set(self.columns)       # a file made by an older claimsolve may lack a newer column
        with self.conn:
            for task_id, row in results:
                row = {name: value for name, value in row.items() if name in known}
                names = ["id"] + list(row) + ["run", "done_at"]
                values = [task_id] + [_cell(v) for v in row.values()] + [run, now]
                marks = ", ".join("?" * len(names))
                quoted = ", ".join(f'"{n}"' for n in names)
                cursor = self.conn.execute(f"INSERT OR IGNORE INTO tasks ({quoted}) VALUES ({marks})", values)
                if cursor.rowcount:
                    written.append(task_id)
            self.conn.execute("UPDATE runs SET completed = completed + ? WHERE run=?", (len(written), run))
        return written

    def close(self):
        try:
            self.conn.close()
        finally:
            _unlock(self._lock)
            self._lock = None


def _connect(path, immutable=False, read_only=False):
    """An open connection to a file that exists; nothing is written to the
    file (a file that is not a study is left as it was: WAL mode is set when
    a study is made, and stays with the file).  `immutable`: for a file in a
    folder that cannot be written (SQLite makes no log files beside it)."""
    mode = "?immutable=1" if immutable else "?mode=ro" if read_only else "?mode=rw"
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + mode
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise failure(exc, path, reading=True) from None
    # `with conn:` commits or rolls back; autocommit outside it
    conn.isolation_level = ""
    return conn


def _checked(path, kind=None):
    """Checks the study at `path` (claimsolve.study.check; `kind`: for a run
    of that kind) and says whether it is empty (no table: a new study).
    With no log beside it (FILE-wal, FILE-journal: no run going on, none
    killed), it is read in SQLite's immutable mode, which makes no file
    beside it and writes nothing, whatever the file holds; else read-only
    (the log is read, and merged into the file only once the file passed)."""
    quiet = not any(os.path.exists(path + suffix) for suffix in ("-wal", "-journal"))
    conn = _connect(path, immutable=quiet, read_only=not quiet)
    try:
        if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
            return True
        check.check_study(conn, path, kind)
        return False
    finally:
        conn.close()


SQLITE_HEADER = b"SQLite format 3\0"


def _check_header(path):
    """A file that is not empty starts with SQLite's header."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise ClaimsolveError(f"cannot read the file: {exc.strerror}", path) from None
    if head and head != SQLITE_HEADER:
        raise ClaimsolveError("not a claimsolve study (not an SQLite file: its first bytes are not SQLite's "
                              "header)", path)


def _size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _remove_quietly(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _limit_text(resource_name, unit=""):
    soft = limits.soft_limit(resource_name)
    return "" if soft is None else f"{soft}{unit}"


def _disk_full(path, room=1 << 20):
    """Whether the file system of `path`'s folder has less than `room`
    bytes free (SQLite says "disk I/O error" when its shared-memory file
    finds no room)."""
    try:
        info = os.statvfs(check.folder_of(path))
    except (OSError, ValueError):
        return False
    return info.f_bavail * info.f_frsize < room


def _out_of_descriptors():
    """Whether this process has (nearly) all the files open it may."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        return len(os.listdir("/proc/self/fd")) >= soft - 2
    except OSError as exc:
        return exc.errno in (errno.EMFILE, errno.ENFILE)
    except (ImportError, ValueError):
        return False


def failure(exc, path, reading=False, doing=None):
    """A ClaimsolveError, naming `path`, for an SQLite error or an OSError
    met while a study is read or written (or, `doing`, while its run does
    something else: "start the worker processes"): the disk full, a file
    size limit (ulimit -f), too many open files (ulimit -n), a damaged
    file.  What was written before stays: the run can go on later."""
    text = str(exc)
    errno_ = getattr(exc, "errno", None)
    files = _limit_text("RLIMIT_NOFILE")
    size = _limit_text("RLIMIT_FSIZE", " bytes")
    if errno_ in (errno.EMFILE, errno.ENFILE) or ("unable to open" in text and _out_of_descriptors()):
        why = "too many open files" + (f" (this process may open {files}: ulimit -n)" if files else "")
    elif errno_ in (errno.ENOSPC, errno.EDQUOT) or "disk is full" in text or ("disk I/O error" in text
                                                                          and _disk_full(path)):
        why = "the disk is full"
    elif errno_ == errno.EFBIG or (size and ("disk I/O error" in text or "disk is full" in text)):
        why = "the file size limit is reached" + (f" ({size}: ulimit -f)" if size else "")
    elif isinstance(exc, sqlite3.DatabaseError) and ("malformed" in text or "not a database" in text):
        return ClaimsolveError(f"the SQLite file is damaged ({text}); restore it from a copy, or use another "
                               "--db", path)
    else:
        why = text if not isinstance(exc, OSError) else (exc.strerror or text)
    if reading:
        return ClaimsolveError(f"cannot read the study: {why}", path)
    return ClaimsolveError(f"cannot {doing or 'write the study'}: {why}; what was recorded before is kept: "
                           "run the same command again to continue", path)


def _lock(path):
    """An exclusive lock for the run (flock on a descriptor of the file,
    apart from SQLite's own locks): a second run on the same file is
    refused at once."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ClaimsolveError(f"option '--db': cannot write: {exc.strerror}", path) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ClaimsolveError("another study run is writing this file (wait for it, or stop it)", path) from None
    return fd


def _unlock(fd):
    if fd is not None:
        os.close(fd)
