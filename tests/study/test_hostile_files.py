"""Hostile study files (issue 34): a study's SQLite file is checked, never
trusted.  Small real studies, built once for the module, are damaged page
by page (each page zeroed, each garbled) and column by column (each column
of each table dropped, NULL, of another type, not JSON); `study report` and
a rerun of the study must answer with one line and exit code 2 (or, for a
change that leaves a valid study, with its report), never a traceback, and
leave a refused file as it was.  Device paths, a read-only folder, bad
schedulers and resource limits (open files, file size, a full disk) too."""
import contextlib
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys

import pytest

from click.testing import CliRunner

from claimsolve import study
from claimsolve.cli.main import main
from claimsolve.study.kinds import KINDS

from .damage import MUTATIONS, rebuild

CLI = [sys.executable, "-m", "claimsolve.cli.main"]
PAGE = 4096
DONE = 4         # tasks left in each small study, of
TOTAL = 6

SOLVE = ["study", "solve", "colorclaim", "--size", "3x3", "--seeds", f"1-{TOTAL}"]
MATCH = ["study", "match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", str(TOTAL)]
POLICIES = ["study", "policies", "colorclaim", "--size", "3x3", "--policies", "random,mcts:iterations=4", "--games",
            str(TOTAL)]
SELFPLAY = ["study", "selfplay", "colorclaim", "--size", "3x3", "--a", "mcts:iterations=4", "--games", str(TOTAL)]
STUDIES = {"solve": SOLVE, "match": MATCH, "policies": POLICIES, "selfplay": SELFPLAY}


def run(*args):
    """The command line in this process; an exception escaping it is kept
    (result.exception), not raised: the tests look for it."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=True)


def describe(result):
    exc = result.exception
    shown = "" if exc is None or isinstance(exc, SystemExit) else f" {type(exc).__name__}: {exc!s:.300}"
    return f"exit {result.exit_code}{shown}; stderr {result.stderr[:600]!r}; stdout {result.stdout[:200]!r}"


def assert_one_line(result):
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("claimsolve: "), describe(result)
    return lines[0]


def _unfinished(path, keep):
    """The study at `path` with only its first `keep` tasks: a rerun has
    work to do (and would write, if it did not refuse)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        first = [row[0] for row in conn.execute("SELECT id FROM tasks ORDER BY id")]
        conn.execute("DELETE FROM tasks WHERE id > ?", (first[keep - 1],))
        conn.commit()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("VACUUM")
    conn.close()
    assert not os.path.exists(path + "-wal")


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    """{kind: path} of three small unfinished studies (one worker process
    each; built once)."""
    folder = tmp_path_factory.mktemp("studies")
    out = {}
    for kind, args in STUDIES.items():
        path = str(folder / f"{kind}.sqlite")
        result = run(*args, "--db", path, "--workers", 1)
        assert result.exit_code == 0, describe(result)
        _unfinished(path, DONE)
        out[kind] = path
    return out


def snapshot(path):
    """The file's bytes and times, and which files lie beside it."""
    st = os.stat(path)
    folder = os.path.dirname(path)
    return (open(path, "rb").read(), st.st_mtime_ns, st.st_size, sorted(os.listdir(folder)))


def refused(result, path=None, *needles):
    """Exit 2, one line (naming `path` and `needles`), no traceback."""
    assert result.exit_code == 2, describe(result)
    assert "Traceback" not in result.stderr, describe(result)
    line = assert_one_line(result)
    for needle in ((path,) if path else ()) + needles:
        assert str(needle) in line, f"{needle!r} not in {line!r}"
    return line


def check_hostile(copy, kind, rerun=True):
    """`study report` and a rerun of the damaged study at `copy`: each
    refuses it (exit 2, one line naming it, the file untouched) or, when
    the damage left a valid study, reports it.  Returns the report's
    line when refused, else None."""
    before = snapshot(copy)
    report = run("study", "report", copy)
    assert "Traceback" not in report.stderr, describe(report)
    if report.exit_code == 0:
        assert report.stdout.startswith(f"Study {copy}:"), describe(report)
        return None
    line = refused(report, copy)
    assert snapshot(copy) == before, line
    if rerun:
        again = run(*STUDIES[kind], "--db", copy, "--workers", 1)
        refused(again, copy)
        assert snapshot(copy) == before, again.stderr
    return line


# -- pages ------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("kind", ["solve", "match"])
def test_every_page_zeroed_or_garbled_is_refused_or_read(studies, tmp_path, kind):
    original = open(studies[kind], "rb").read()
    pages = len(original) // PAGE
    assert pages >= 4
    rng = random.Random(34)
    refusals = 0
    for page in range(pages):
        for how in ("zero", "garble", "garble-cells"):
            data = bytearray(original)
            start = page * PAGE
            if how == "zero":
                data[start:start + PAGE] = bytes(PAGE)
            elif how == "garble":
                data[start:start + PAGE] = rng.randbytes(PAGE)
            else:           # a few bytes of the page's end, where SQLite keeps the cells' contents
                for _ in range(8):
                    data[start + PAGE - 1 - rng.randrange(PAGE // 2)] = rng.randrange(256)
            os.makedirs(tmp_path / f"{page}-{how}")
            copy = str(tmp_path / f"{page}-{how}" / "s.sqlite")
            open(copy, "wb").write(bytes(data))
            line = check_hostile(copy, kind, rerun=how != "garble-cells")
            if how in ("zero", "garble"):
                assert line is not None, f"page {page} {how}d: read as a valid study"
            refusals += line is not None
    assert refusals >= 2 * pages


# -- tables and columns -------------------------------------------------------------------------------

def _mutated(source, target, table, column, how, row=None):
    """A copy of `source` at `target` (a folder of its own) with `column` of
    `table` changed `how` (MUTATIONS) in its last row.  Returns the row's
    key."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy(source, target)
    conn = sqlite3.connect(target)
    try:
        if how == "dropped":
            rebuild(conn, table, drop=column)
        else:
            rebuild(conn, table)
            key = {"meta": "rowid", "tasks": "id", "runs": "run"}[table]
            row = row if row is not None else conn.execute(f"SELECT MAX({key}) FROM {table}").fetchone()[0]
            conn.execute(f'UPDATE {table} SET "{column}" = {MUTATIONS[how]} WHERE {key} = ?', (row,))
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()
    return row


def _columns(path, table):
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]


def _change(path, *statements):
    """Runs SQL `statements` on the file at `path`, and closes it."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        for statement in statements:
            if callable(statement):
                statement(conn)
            else:
                conn.execute(*statement) if isinstance(statement, tuple) else conn.execute(statement)
        conn.commit()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["solve", "match", "policies", "selfplay"])
def test_every_column_dropped_null_mistyped_or_not_json_is_refused(studies, tmp_path, kind):
    """Every column of `tasks` and `runs`, every way: refused by name
    (table, column, row id), except the changes that leave a valid study
    (a NULL where a row may hold one, a whole number for a real)."""
    source = studies[kind]
    accepted, count = [], 0
    own = {name for name, _ in KINDS[kind].columns}
    for table in ("tasks", "runs"):
        for column in _columns(source, table):
            if kind != "solve" and column not in own:
                continue            # the columns every study has: tried on the solve study
            for how in MUTATIONS:
                copy = str(tmp_path / f"{table}-{column}-{how}" / "s.sqlite")
                try:
                    row = _mutated(source, copy, table, column, how)
                except sqlite3.IntegrityError:      # an INTEGER PRIMARY KEY holds whole numbers only
                    assert column in ("id", "run"), (table, column, how)
                    continue
                count += 1
                line = check_hostile(copy, kind, rerun=how in ("dropped", "NULL"))
                if line is None:
                    accepted.append((table, column, how))
                    continue
                assert f"'{table}'" in line, line
                if how != "dropped" and not (table == "tasks" and column == "id"):
                    assert f"'{column}'" in line or "row" in line, line
                    assert str(row) in line, line
    # what may be read: NULL where a row may hold one, a number for a number, any text
    # for a free text (an adjudication's reason is one), no cpu_seconds or adjudicated (the files
    # made before them lack them), and any blob for selfplay's compressed states (`train` reads
    # them: tests/learn refuses a bad one in one line)
    allowed = ({("NULL", c) for c in NULLABLE} | {("a number", c) for c in REALS}
               | {(how, c) for how in ("text", "not JSON", "another JSON") for c in FREE_TEXTS}
               | {("dropped", "cpu_seconds"), ("dropped", "adjudicated"), ("a blob", "states")})
    for table, column, how in accepted:
        assert (how, column) in allowed, (table, column, how)
    assert count >= 7 * len(own) and len(accepted) < count // 4, (count, accepted)


NULLABLE = ("value", "result", "best", "lower", "upper", "start_seed", "cpu_seconds", "started", "ended", "runner",
            "adjudicated")
REALS = ("seconds", "cpu_seconds", "done_at", "started", "ended")
FREE_TEXTS = ("best", "worker", "runner", "adjudicated")


def test_the_issues_examples_get_one_line_each(studies, tmp_path):
    """A task row of NULLs, a dropped column, a meta value that is not JSON,
    another kind's parameters, a missing table."""
    source = studies["match"]
    nulls = str(tmp_path / "nulls.sqlite")
    shutil.copy(source, nulls)
    _change(nulls, lambda conn: rebuild(conn, "tasks"), "INSERT INTO tasks (id) VALUES (5)")
    assert "row id 5" in check_hostile(nulls, "match")

    dropped = str(tmp_path / "dropped" / "s.sqlite")
    _mutated(source, dropped, "tasks", "points", "dropped")
    assert "no column 'points'" in check_hostile(dropped, "match")

    for key in ("format", "kind", "params", "created"):
        bad = str(tmp_path / f"meta-{key}.sqlite")
        shutil.copy(source, bad)
        _change(bad, ("UPDATE meta SET value = '{not json' WHERE key = ?", (key,)))
        line = check_hostile(bad, "match")
        assert "'meta'" in line and "not JSON" in line and key in line, line

    with contextlib.closing(sqlite3.connect(studies["solve"])) as conn:
        solve_params = conn.execute("SELECT value FROM meta WHERE key = 'params'").fetchone()[0]
    other = str(tmp_path / "other-kind.sqlite")
    shutil.copy(source, other)
    _change(other, ("UPDATE meta SET value = ? WHERE key = 'params'", (solve_params,)))
    assert "params" in check_hostile(other, "match")

    # duplicate dice: stored only when on, as true; and only for a game with dice (this one has none)
    for value, words in (("false", "'duplicate' is False, not true"), ('"yes"', "'duplicate' is 'yes', not true"),
                         ("true", "'duplicate' is true, but colorclaim has no dice")):
        dup = str(tmp_path / f"duplicate-{value}.sqlite")
        shutil.copy(source, dup)
        _change(dup, f"UPDATE meta SET value = json_set(value, '$.duplicate', json('{value}')) WHERE key = 'params'")
        assert words in check_hostile(dup, "match")

    # an SPRT decision whose counts are no counts (the report writes them as numbers)
    for decision in ('{"decision": "H1", "games": 9, "first_at": "x"}', '{"decision": "H1", "games": 9.5}'):
        bad = str(tmp_path / "decision.sqlite")
        shutil.copy(source, bad)
        _change(bad, ("INSERT OR REPLACE INTO meta VALUES ('decision', ?)", (decision,)))
        line = check_hostile(bad, "match")
        assert "'decision'" in line and "is not an SPRT decision" in line, line

    kind = str(tmp_path / "kind.sqlite")
    shutil.copy(source, kind)
    _change(kind, "UPDATE meta SET value = '\"solve\"' WHERE key = 'kind'")
    assert "params" in check_hostile(kind, "match", rerun=False)

    for table in ("runs", "meta"):
        gone = str(tmp_path / f"no-{table}.sqlite")
        shutil.copy(source, gone)
        _change(gone, f"DROP TABLE {table}")
        assert f"no table '{table}'" in check_hostile(gone, "match")

    trigger = str(tmp_path / "trigger.sqlite")
    shutil.copy(source, trigger)
    _change(trigger, "CREATE TRIGGER t AFTER INSERT ON tasks BEGIN DELETE FROM tasks; END")
    assert "trigger" in check_hostile(trigger, "match")


@pytest.mark.parametrize("kind", ["solve", "match", "policies", "selfplay"])
def test_start_options_the_game_refuses_are_refused_in_the_file(studies, tmp_path, kind):
    """A stored size or seat count the game would refuse as an option (9x9
    has 81 spaces for 30 pyramids), or seats that are not its start's, is
    found by the check, before any report or work (it was read and
    reported, and `train` learnt from it)."""
    cases = [("'$.size'", '"9x9"', "'size': 9x9: need 2 <= W, H and W*H <= 30")]
    if kind != "solve":
        cases += [("'$.players'", "3", "colorclaim"), ("'$.seats'", "3", "seats")]
    for place, value, words in cases:
        bad = str(tmp_path / f"{kind}-{place[3:-1]}.sqlite")
        shutil.copy(studies[kind], bad)
        _change(bad, f"UPDATE meta SET value = json_set(value, {place}, json('{value}')) WHERE key = 'params'")
        assert words in check_hostile(bad, kind)


@pytest.mark.parametrize("kind", ["match", "selfplay"])
def test_a_stopped_game_must_be_an_equal_draw(studies, tmp_path, kind):
    """A row whose column 'adjudicated' says the match stopped the game must
    score it a draw shared equally; without the column (a file made before
    it was kept) the points are taken as they are."""
    source = studies[kind]
    with contextlib.closing(sqlite3.connect(source)) as conn:
        won = conn.execute("SELECT id FROM tasks WHERE json_extract(points, '$[0]') != json_extract(points, '$[1]') "
                           "ORDER BY id").fetchone()
    assert won is not None
    reason = "UPDATE tasks SET adjudicated = 'no end after 10,000 plies' WHERE id = ?"

    unequal = str(tmp_path / "unequal.sqlite")
    shutil.copy(source, unequal)
    _change(unequal, (reason, (won[0],)))
    line = check_hostile(unequal, kind)
    assert f"row id {won[0]}" in line and "'adjudicated'" in line and "not a draw shared equally" in line, line

    equal = str(tmp_path / "equal.sqlite")
    shutil.copy(source, equal)
    _change(equal, (reason, (won[0],)), ("UPDATE tasks SET points = '[0.5, 0.5]' WHERE id = ?", (won[0],)),
            *(("UPDATE tasks SET a_points = 0.5 WHERE id = ?", (won[0],)),) * (kind == "match"))
    assert check_hostile(equal, kind, rerun=False) is None

    older = str(tmp_path / "older.sqlite")
    shutil.copy(source, older)
    _change(older, "ALTER TABLE tasks DROP COLUMN adjudicated")
    assert check_hostile(older, kind, rerun=False) is None


def test_a_valid_study_still_reads_and_continues(studies, tmp_path):
    copy = str(tmp_path / "valid.sqlite")
    shutil.copy(studies["solve"], copy)
    assert check_hostile(copy, "solve") is None
    again = run(*SOLVE, "--db", copy, "--workers", 1)
    assert again.exit_code == 0 and f"finished, {TOTAL} of {TOTAL}" in again.stdout, describe(again)


# -- paths ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/dev/null", "/dev/full", "/dev/zero", "/proc/self/status", "/tmp", ""])
def test_a_device_folder_or_proc_file_is_refused_and_nothing_made_beside(path):
    beside = [path + suffix for suffix in ("-journal", "-wal", "-shm")] if path else []
    for args in (("study", "report", path), (*SOLVE, "--db", path)):
        refused(run(*args), path or None)
        for side in beside:
            assert not os.path.exists(side), side


def test_a_fifo_and_a_missing_folder_are_refused(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    for args in (("study", "report", fifo), (*SOLVE, "--db", fifo)):
        assert "not a plain file" in refused(run(*args), fifo)
    missing = str(tmp_path / "nowhere" / "s.sqlite")
    assert "does not exist" in refused(run(*SOLVE, "--db", missing))
    assert "no such study file" in refused(run("study", "report", missing))
    assert sorted(os.listdir(tmp_path)) == ["fifo"]


def _in_read_only_folder(folder, commands):
    """Runs `commands` (argument lists of the command line) with `folder`
    read-only: a read-only bind mount in a private mount namespace
    (root ignores a folder's permissions), else chmod.  [(exit, stderr)]."""
    if os.geteuid() != 0:
        os.chmod(folder, 0o555)
        try:
            return [(p.returncode, p.stderr) for p in
                    (subprocess.run(CLI + c, capture_output=True, text=True, timeout=60) for c in commands)]
        finally:
            os.chmod(folder, 0o755)
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("needs a private mount namespace (unshare -rm) to make a read-only folder as root")
    import shlex
    script = f"mount --bind {shlex.quote(folder)} {shlex.quote(folder)} && " \
             f"mount -o remount,ro,bind {shlex.quote(folder)} && "
    script += " ; ".join(f"{shlex.join(CLI + c)} 2>&1 >/dev/null; echo \"exit $?\"" for c in commands)
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    out, pending = [], []
    for line in proc.stdout.splitlines():
        if line.startswith("exit "):
            out.append((int(line[5:]), "\n".join(pending)))
            pending = []
        else:
            pending.append(line)
    return out


@pytest.mark.slow
def test_a_read_only_folder_is_named_as_such(studies, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = str(folder / "s.sqlite")
    shutil.copy(studies["solve"], path)
    before = snapshot(path)
    (report, report_err), (rerun, rerun_err), (new, new_err) = _in_read_only_folder(str(folder), [
        ["study", "report", path], [*SOLVE, "--db", path], [*SOLVE, "--db", str(folder / "new.sqlite")]])
    assert report == 0, report_err          # a study that ended cleanly reads where it lies
    for code, err in ((rerun, rerun_err), (new, new_err)):
        assert code == 2 and len(err.splitlines()) == 1, err
        assert f"the folder {folder} is not writable" in err and "not a claimsolve study" not in err, err
    assert snapshot(path) == before


# -- the scheduler ------------------------------------------------------------------------------------

@pytest.mark.parametrize("address, needle", [
    ("garbage", "no port"), ("", "needs the Dask scheduler's address"), ("tcp://host", "no port"),
    ("tcp://127.0.0.1:99999", "1 to 65535"), ("inproc://x:1", "not inproc://"),
    ("tcp://127.0.0.1:1", "cannot reach"), ("nosuchhost.invalid:8786", "cannot find the host"),
    ("x" * 64 + ":8786", "not a host name"), ("tcp://a..b:8786", "not a host name"),
])
def test_a_bad_scheduler_is_refused_in_one_line_before_any_work(tmp_path, address, needle):
    pytest.importorskip("distributed")
    db = str(tmp_path / "s.sqlite")
    line = refused(run(*SOLVE, "--db", db, "--scheduler", address))
    assert needle in line and "--scheduler" in line, line
    assert not os.path.exists(db)            # the address is checked and reached before the file is made


@pytest.mark.slow
@pytest.mark.parametrize("answer, needle", [(b"HTTP/1.1 400 Bad Request\r\n\r\n", "not a Dask scheduler"),
                                            (None, "no Dask scheduler answers")])
def test_a_server_that_is_not_dask_is_refused_and_the_process_exits(tmp_path, answer, needle):
    """A port that accepts and answers, but not as Dask does, or that
    accepts and says nothing: one line, exit 2, and the process ends (no
    thread left behind) within 10 s."""
    pytest.importorskip("distributed")
    import socket
    import threading
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer:
                conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    db = str(tmp_path / "s.sqlite")
    try:
        proc = subprocess.run(CLI + [*SOLVE, "--db", db, "--scheduler", f"tcp://127.0.0.1:{port}"],
                              capture_output=True, text=True, timeout=10)
    finally:
        server.close()
        for conn in held:
            conn.close()
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert needle in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


# -- resource limits ----------------------------------------------------------------------------------

def _limited(limit, args):
    def lower():
        resource.setrlimit(limit[0], (limit[1], limit[1]))
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=120, preexec_fn=lower)


@pytest.mark.slow
@pytest.mark.parametrize("limit, needle", [((resource.RLIMIT_NOFILE, 12), "too many open files"),
                                           ((resource.RLIMIT_FSIZE, 0), "file size limit")])
def test_resource_limits_are_one_line_and_the_study_goes_on(studies, tmp_path, limit, needle):
    path = str(tmp_path / "s.sqlite")
    shutil.copy(studies["solve"], path)
    new = str(tmp_path / "new.sqlite")
    for db in (path, new):
        proc = _limited(limit, [*SOLVE, "--db", db, "--workers", "1"])
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
        assert needle in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        # the same study, run again with the usual limits, is finished
        again = subprocess.run(CLI + [*SOLVE, "--db", db, "--workers", "1"], capture_output=True, text=True,
                               timeout=120)
        assert again.returncode == 0 and f"finished, {TOTAL} of {TOTAL}" in again.stdout, again.stderr
    assert study.report(path)["summary"]["solved"] == TOTAL


@pytest.mark.slow
def test_a_full_disk_is_one_line_and_the_study_goes_on(studies, tmp_path):
    """A study on a small tmpfs (a private mount namespace) that fills up."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("needs a private mount namespace (unshare -rm) to mount a small tmpfs")
    import shlex
    folder = tmp_path / "disk"
    folder.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(studies["solve"], out / "s.sqlite")
    results = []
    for size in ("24k", "56k"):        # no room for SQLite's files; no room for the new rows
        script = (f"mount -t tmpfs -o size={size} tmpfs {shlex.quote(str(folder))} && "
                  f"cp {shlex.quote(str(out / 's.sqlite'))} {shlex.quote(str(folder))}/ && "
                  f"{shlex.join(CLI + [*SOLVE, '--db', str(folder / 's.sqlite'), '--workers', '1'])}; "
                  f"echo \"exit $?\"; cp {shlex.quote(str(folder))}/s.sqlite {shlex.quote(str(out / size))}")
        proc = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True,
                              timeout=120)
        results.append(proc)
        assert "exit 2" in proc.stdout and len(proc.stderr.splitlines()) == 1, (proc.stdout, proc.stderr)
        assert "the disk is full" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        again = subprocess.run(CLI + [*SOLVE, "--db", str(out / size), "--workers", "1"], capture_output=True,
                               text=True, timeout=120)
        assert again.returncode == 0 and f"finished, {TOTAL} of {TOTAL}" in again.stdout, again.stderr


def test_writes_that_fail_mid_study_keep_what_was_recorded(studies, tmp_path, monkeypatch):
    """A write that fails (the disk full) in the middle of a run: one line,
    and the rows recorded before it stay; the next run finishes."""
    from claimsolve.study.store import Store
    path = str(tmp_path / "s.sqlite")
    shutil.copy(studies["solve"], path)
    calls = []
    record = Store.record

    def failing(self, run_id, results):
        calls.append(1)
        if len(calls) > 1:
            raise sqlite3.OperationalError("database or disk is full")
        return record(self, run_id, results)

    monkeypatch.setattr(Store, "record", failing)
    result = run(*SOLVE, "--db", path, "--workers", 1, "--batch", 1)
    assert "the disk is full" in refused(result, path)
    assert study.report(path)["summary"]["study"]["done"] == DONE + 1
    monkeypatch.setattr(Store, "record", record)
    again = run(*SOLVE, "--db", path, "--workers", 1)
    assert again.exit_code == 0 and f"finished, {TOTAL} of {TOTAL}" in again.stdout, describe(again)
