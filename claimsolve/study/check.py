"""A study's file is checked, never trusted: its path before anything is
opened, then the SQLite file itself before any row is used.

`check_path(path, writing)` refuses, before any work and without making
anything beside it, a `--db` that is not a plain file (a device such as
/dev/null, a pipe, a folder, a file of /proc), a file that cannot be read
(or, for a run, written), and a folder where SQLite cannot make the
study's log files (`FILE-wal`, `FILE-shm`): a run needs to write there, and
a report of a study whose last run left its log unmerged needs it too.

`check_study(conn, path)` reads an open file and refuses (one line naming
the file, the table, the column and the row's id) anything the reports and
the runs could not use:

- a damaged file: SQLite's `PRAGMA quick_check`, and any SQLite error while
  the file is read;
- a missing table or column, a table whose key is not ours, a trigger or
  a view (nothing in a study file runs code when it is written);
- every row of `meta`: JSON values; `format`, `kind`, `params` and the
  SPRT's `decision` of the right types; the parameters those of the
  stored kind (`StudyKind.params_types` and `StudyKind.params_problem`);
- every row of `runs` and `tasks`: every column of the SQL type it was
  written with (NULL only where a task's row may hold it), the JSON
  columns lists of the right length and items, seats within the table,
  task ids among the study's tasks (`StudyKind.column_rules`,
  `StudyKind.row_rules`, and `StudyKind.optional_row_rules` where the
  file has the column: a game a match stopped is a draw shared equally).

The checks of `runs` and `tasks` are SQL: one pass over each table,
whatever its size.  Nothing here writes to the file.
"""
import json
import os
import re
import socket
import sqlite3
import stat
import struct
import time

from .. import files, limits
from ..errors import ClaimsolveError
from .kinds import KINDS, get_kind
from .schema import FORMAT, PARAM_TYPES, _number, _q, _whole, integer, real, text, when

# the columns of `runs` (claimsolve.study.store): what each must hold
RUN_STATUSES = ("running", "done", "decided", "interrupted", "failed")
SIDE_FILES = ("-wal", "-shm", "-journal")


# -- the path ----------------------------------------------------------------------------------

def _strerror(exc):
    return getattr(exc, "strerror", None) or str(exc)


def folder_of(path):
    """The folder where SQLite makes the file's log files: the folder of the
    file a symbolic link leads to."""
    return os.path.dirname(os.path.realpath(path))


def folder_writable(path):
    folder = folder_of(path)
    return os.access(folder, os.W_OK | os.X_OK)


def check_path(path, writing, option="--db"):
    """Refuses, as a ClaimsolveError naming `path`, a study file that is
    not a plain file that can be read (`writing`: and written, or made in
    a folder that can be written).  Returns the path.  `writing` False:
    `study report` (a missing file is refused).  `option` names the path
    in a run's refusal: --db, or "parameter 'db'" from Python."""
    label = f"{limits.label(option)}: " if writing else ""
    if not isinstance(path, str) or not path:
        raise ClaimsolveError(f"{label}needs a file name")
    if "\0" in path:
        raise ClaimsolveError(f"{label}a file name cannot hold a NUL byte", repr(path))
    try:
        folder = folder_of(path)
    except OSError as exc:                   # the working folder was deleted
        raise ClaimsolveError(f"{label}{files.problem(exc, path)}", path) from None
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            raise ClaimsolveError(f"{label}is a symbolic link to a file that does not exist", path) from None
        if not writing:
            raise ClaimsolveError("no such study file", path) from None
        mode = None
    except (OSError, ValueError) as exc:     # a part of the path is a file, a loop of links, too long
        raise ClaimsolveError(f"{label}cannot open: {_strerror(exc)}", path) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ClaimsolveError(f"{label}is a folder, not a study file", path)
    if mode is not None and not stat.S_ISREG(mode):
        raise ClaimsolveError(f"{label}is not a plain file (a device, pipe or socket); a study is a file "
                              "on disk", path)
    if mode is None and not os.path.isdir(folder):
        raise ClaimsolveError(f"{label}the folder {folder} does not exist", path)
    if mode is not None and not os.access(path, os.R_OK):
        raise ClaimsolveError(f"{label}cannot read the file (permission denied)", path)
    for suffix in SIDE_FILES:
        side = path + suffix
        try:
            side_mode = os.lstat(side).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(side_mode):
            raise ClaimsolveError(f"{label}{side} is not a plain file, and SQLite keeps the study's "
                                  f"{suffix[1:]} file there", path)
    if writing and not os.access(folder, os.W_OK | os.X_OK):
        raise ClaimsolveError(f"{label}the folder {folder} is not writable (a run writes the study and "
                              "SQLite's log files there)", path)
    if writing and mode is not None and files.read_only(path, mode):
        raise ClaimsolveError(f"{label}the file is read-only; a run writes its results there", path)
    return path


def needs_writable_folder(path):
    """Whether reading the study at `path` needs its folder writable: its
    last run left a log (FILE-wal) that is not empty, which only a
    connection that can write merges."""
    try:
        return os.path.getsize(path + "-wal") > 0
    except OSError:
        return False


# -- the file's contents ----------------------------------------------------------------------

class Problem(ClaimsolveError):
    """What is wrong with a study file, naming it."""


def _shown(value, width=40):
    text = repr(value)
    return text if len(text) <= width else text[:width - 5] + "...'"


def _table_columns(conn, table):
    return {row[1]: row for row in conn.execute(f"PRAGMA table_info({_q(table)})")}


def check_damage(conn, path):
    """SQLite's own check of the file's pages and b-trees."""
    rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    if rows != [("ok",)]:
        said = [line.strip() for line in str(rows[0][0] if rows else "no answer").splitlines()
                if line.strip() and not line.startswith("***")]
        raise Problem(f"the SQLite file is damaged ({'; '.join(said) or 'quick_check'}); restore it from a "
                      "copy, or use another --db", path)


def check_schema(conn, path):
    """The three tables, their keys, and nothing that runs on a write."""
    objects = conn.execute("SELECT type, name FROM sqlite_master").fetchall()
    for kind_, name in objects:
        if kind_ in ("trigger", "view"):
            raise Problem(f"holds a {kind_} '{name}': a claimsolve study has none (not a study file "
                          "made by claimsolve)", path)
    tables = {name for kind_, name in objects if kind_ == "table"}
    missing = [name for name in ("meta", "tasks", "runs") if name not in tables]
    if missing:
        if len(missing) == 3:
            raise Problem("not a claimsolve study (no meta, tasks and runs tables)", path)
        raise Problem(f"not a whole claimsolve study: no table '{missing[0]}'", path)
    keys = {"meta": ("key", "TEXT"), "tasks": ("id", "INTEGER"), "runs": ("run", "INTEGER")}
    for table, (key, sql_type) in keys.items():
        info = _table_columns(conn, table).get(key)
        if info is None:
            raise Problem(f"table '{table}' has no column '{key}'", path)
        if info[5] != 1 or info[2].upper() != sql_type:
            raise Problem(f"table '{table}': column '{key}' is not its {sql_type} PRIMARY KEY", path)


def check_meta(conn, path):
    """Every meta row: a text key, a JSON value; the known keys of the
    right types.  Returns the meta as a dict of decoded values."""
    columns = _table_columns(conn, "meta")
    if "value" not in columns:
        raise Problem("table 'meta' has no column 'value'", path)
    meta = {}
    for rowid, key, value in conn.execute("SELECT rowid, key, value FROM meta ORDER BY rowid"):
        where = f"table 'meta', row {rowid}"
        if not isinstance(key, str):
            raise Problem(f"{where}: column 'key' is {_shown(key)}, not a text", path)
        if not isinstance(value, str):
            raise Problem(f"{where} ('{key}'): column 'value' is {_shown(value)}, not a JSON text", path)
        try:
            meta[key] = json.loads(value)
        except ValueError:
            raise Problem(f"{where} ('{key}'): column 'value' is not JSON: {_shown(value)}", path) from None
    for key in ("format", "kind", "params"):
        if key not in meta:
            raise Problem(f"table 'meta' has no '{key}' row (not a whole claimsolve study)", path)
    fmt = meta["format"]
    if fmt != FORMAT or isinstance(fmt, bool):
        if isinstance(fmt, int) and not isinstance(fmt, bool):
            raise Problem(f"a study file of format {fmt}; this claimsolve reads format {FORMAT}", path)
        raise Problem(f"table 'meta', 'format': {_shown(fmt)} is not a format number", path)
    if meta["kind"] not in KINDS:
        raise Problem(f"table 'meta', 'kind': {_shown(meta['kind'])} is not a kind of study "
                      f"({', '.join(KINDS)})", path)
    decision = meta.get("decision")
    if decision is not None and not (isinstance(decision, dict) and decision.get("decision") in ("H0", "H1")
                                     and _whole(decision.get("games", 0))
                                     and _whole(decision.get("first_at", 0))):
        raise Problem(f"table 'meta', 'decision': {_shown(decision)} is not an SPRT decision "
                      "({\"decision\": \"H0\" or \"H1\", \"games\": N, \"first_at\": K, ...})", path)
    for key in ("created",):
        if key in meta and not _number(meta[key]):
            raise Problem(f"table 'meta', '{key}': {_shown(meta[key])} is not a time", path)
    return meta


def check_params(kind, params, path):
    """The stored parameters are those of a `kind` study: every key it
    needs, of its type, none of another kind's (its optional ones, when
    there, of their type); and consistent (StudyKind.params_problem)."""
    where = f"table 'meta', 'params' of this {kind.name} study"
    if not isinstance(params, dict):
        raise Problem(f"{where}: {_shown(params)} is not an object of parameters", path)
    expected = kind.params_types
    optional = kind.optional_params
    extra = sorted(set(params) - set(expected) - set(optional))
    if extra:
        raise Problem(f"{where}: '{extra[0]}' is no parameter of a {kind.name} study", path)
    for key, type_name in list(expected.items()) + list(optional.items()):
        if key not in params:
            if key in optional:
                continue
            raise Problem(f"{where}: no '{key}'", path)
        test, what = PARAM_TYPES[type_name]
        if not test(params[key]):
            raise Problem(f"{where}: '{key}' is {_shown(params[key])}, not {what}", path)
    try:
        problem = kind.params_problem(params)
    except ClaimsolveError as exc:
        problem = exc.message
    if problem:
        raise Problem(f"{where}: {problem}", path)


# -- rows: one SQL pass over a table ----------------------------------------------------------------


def runs_rules():
    return {
        "started": when("started", null=True),
        "ended": when("ended", null=True),
        "status": text("status", among=RUN_STATUSES),
        "runner": text("runner", null=True),
        "todo": integer("todo", low=0),
        "completed": integer("completed", low=0),
    }


# the columns every task's row has (store.FIXED_COLUMNS); a file made before
# `cpu_seconds` was added lacks it, and its rows are read without it
OPTIONAL_TASK_COLUMNS = ("cpu_seconds",)


def fixed_rules():
    return {
        "seconds": real("seconds", low=0),
        "cpu_seconds": real("cpu_seconds", null=True, low=0),
        "worker": text("worker"),
        "run": integer("run"),
        "done_at": when("done_at"),
    }


def check_rows(conn, path, table, rules, optional=(), key="rowid", checks=(), optional_checks=None):
    """One pass over `table`: the first row (by `key`) that breaks a column's
    rule, or one of the row-wide `checks` [(SQL test of a bad row, what is
    wrong)], or of `optional_checks` {optional column: checks} where the
    table has that column, is refused, naming the row and the column."""
    columns = _table_columns(conn, table)
    for name in rules:
        if name not in columns and name not in optional:
            raise Problem(f"table '{table}' has no column '{name}' (a damaged or foreign study file)", path)
    tests = [(rule.bad, f"column '{name}' is {{value}}, not {rule.what}", name)
             for name, rule in rules.items() if name in columns]
    tests += [(bad, what, None) for bad, what in checks]
    tests += [(bad, what, None) for name, more in (optional_checks or {}).items() if name in columns
              for bad, what in more]
    if not tests:
        return
    whens = " ".join(f"WHEN {bad} THEN {k}" for k, (bad, _, _) in enumerate(tests))
    row = conn.execute(f"SELECT {key}, which FROM (SELECT {key}, CASE {whens} ELSE NULL END AS which "
                       f"FROM {_q(table)}) WHERE which IS NOT NULL ORDER BY {key} LIMIT 1").fetchone()
    if row is None:
        return
    row_key, which = row
    _, what, name = tests[which]
    if name is not None:
        value = conn.execute(f"SELECT {_q(name)} FROM {_q(table)} WHERE {key} = ?", (row_key,)).fetchone()[0]
        what = what.format(value="NULL" if value is None else _shown(value))
    label = "row id" if key == "id" else key
    raise Problem(f"table '{table}', {label} {row_key}: {what}", path)


def check_study(conn, path, kind_name=None):
    """The whole check of an open study file (see the module's text).
    Returns its meta (decoded).  Nothing is written."""
    try:
        check_damage(conn, path)
        check_schema(conn, path)
        meta = check_meta(conn, path)
        kind = get_kind(meta["kind"])
        if kind_name is not None and kind_name != kind.name:
            return meta         # the run refuses another kind of study in its own words
        params = meta["params"]
        check_params(kind, params, path)
        check_rows(conn, path, "runs", runs_rules(), key="run")
        rules = dict(kind.column_rules(params))
        rules.update(fixed_rules())
        optional = OPTIONAL_TASK_COLUMNS + tuple(kind.optional_columns)
        check_rows(conn, path, "tasks", rules, optional=optional, key="id", checks=kind.row_rules(params),
                   optional_checks=kind.optional_row_rules)
        _check_ids(conn, path, kind, params)
        return meta
    except sqlite3.DatabaseError as exc:
        raise Problem(f"the SQLite file is damaged ({exc}); restore it from a copy, or use another --db",
                      path) from None


def _check_ids(conn, path, kind, params):
    """Every task's id is one of the study's tasks."""
    ids = kind.task_ids(params)
    if isinstance(ids, range):
        row = conn.execute("SELECT id FROM tasks WHERE id < ? OR id >= ? ORDER BY id LIMIT 1",
                           (ids.start, ids.stop)).fetchone()
        stray = None if row is None else row[0]
    else:
        known = set(ids)
        stray = next((task for (task,) in conn.execute("SELECT id FROM tasks ORDER BY id") if task not in known),
                     None)
    if stray is not None:
        raise Problem(f"table 'tasks', row id {stray}: no such task in this {kind.name} study", path)


# -- the Dask scheduler ---------------------------------------------------------------------------

SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")
PROBE_SECONDS = 5.0       # a first TCP connection to the scheduler: an unreachable one is told at once
_ADDRESS = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(?P<port>[0-9]{1,5}))?")


def check_scheduler(address, option="--scheduler"):
    """The form of a Dask scheduler's address, SCHEME://HOST:PORT
    (SCHEDULER_SCHEMES; tcp:// when no scheme is given): returns (scheme,
    host, port) or refuses it in one line, before any work, naming
    `option` (--scheduler, or "parameter 'scheduler'" from Python)."""
    label = f"{limits.label(option)}: "
    if not isinstance(address, str) or not address.strip():
        raise ClaimsolveError(f"{label}needs the Dask scheduler's address, like tcp://HOST:8786")
    match = _ADDRESS.fullmatch(address.strip())
    shown = _shown(address)
    if match is None:
        raise ClaimsolveError(f"{label}{shown} is not a scheduler's address like tcp://HOST:8786")
    scheme = (match["scheme"] or "tcp").lower()
    if scheme not in SCHEDULER_SCHEMES:
        raise ClaimsolveError(f"{label}{shown}: a Dask scheduler is reached by "
                              f"{', '.join(s + '://' for s in SCHEDULER_SCHEMES)}, not {scheme}://")
    if match["port"] is None:
        raise ClaimsolveError(f"{label}{shown} has no port: give tcp://HOST:PORT (the scheduler's default "
                              "port is 8786)")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise ClaimsolveError(f"{label}{shown}: the port must be 1 to 65535, not {port}")
    return scheme, match["host"].strip("[]"), port


def probe_scheduler(address, seconds=PROBE_SECONDS, option="--scheduler"):
    """A TCP connection to the scheduler's host and port within `seconds`
    (the Dask client's own connection retries for as long as its timeout):
    a host that does not exist, a port where nothing listens or a host
    that does not answer is refused in one line.  On tcp://, the first
    bytes a Dask scheduler sends (the size of its handshake, 8 bytes) are
    read too: a server of something else is refused as such."""
    scheme, host, port = check_scheduler(address, option)
    label = f"{limits.label(option)}: "
    deadline = time.monotonic() + seconds
    try:
        with socket.create_connection((host, port), timeout=seconds) as sock:
            if scheme != "tcp":
                return
            head = b""
            while len(head) < 8:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                more = sock.recv(8 - len(head))
                if not more:
                    break
                head += more
    except socket.gaierror as exc:
        raise ClaimsolveError(f"{label}cannot find the host {host} ({exc.strerror or exc})") from None
    except UnicodeError:            # the idna codec: a label empty or past 63 characters
        raise ClaimsolveError(f"{label}cannot find the host {_shown(host)}: not a host name (each part "
                              "between dots 1 to 63 characters)") from None
    except TimeoutError:
        raise ClaimsolveError(f"{label}no Dask scheduler answers at {address} within {seconds:g} s") from None
    except OSError as exc:
        raise ClaimsolveError(f"{label}cannot reach the Dask scheduler at {address} ({exc.strerror or exc})") from None
    size = struct.unpack("<Q", head)[0] if len(head) == 8 else None
    if size is None or not 0 < size < 1 << 20:
        raise ClaimsolveError(f"{label}the server at {address} is not a Dask scheduler (it does not answer "
                              "as one)")
