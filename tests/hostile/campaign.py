"""The hostile-input campaign of issue 34, run again with fresh inputs: every
class of input that once crashed or hung `claimsolve`, drawn anew each run
(seeded: `--seed S` repeats a run), each input a real process with a time
limit, and a table of what went wrong.

    python -m tests.hostile.campaign --seed S --budget-seconds N

Classes (issue 34, "What failed"):

1. islands: random large Claim islands (12x12 to 16x16, 4x3 to 4x4
   territories, 8 to 14 Vikings a colour, play phase; two to four players
   or the battle for two): `analyze --time 1` must end within 1.3 s of
   engine time (the start-up of a command measured apart), `moves` within
   MOVES_WAIT seconds.
2. server: `claimsolve serve`, sent the bodies of tests/hostile/test_server.py
   (every endpoint; mutated positions; work past --max-time; bodies cut by
   a client that leaves); then SIGINT with a long analysis in flight: the
   process is gone within a second, exit 130.
3. study: a small study's SQLite file with a page zeroed or garbled, a
   column dropped, NULL, mistyped or not JSON (tests/study/test_hostile_files.py),
   device paths, bad schedulers, a read-only folder: `study report` and a
   rerun.
4. play: garbage lines through a pipe, garbage typed at a terminal, Ctrl-C
   twice while the engine answers `?`.
5. env: show / moves / analyze / match with standard output or error closed
   or full, the working folder deleted, small `ulimit -v`, `-n`, `-f`.
6. fields: seed positions with a field set to an empty or blank string
   (refused: exit 2), and positions mutated as tests/hostile/test_fuzz.py
   does, under every command.

For every input: a traceback, a hang (past the input's time limit), an exit
code the documentation does not give (docs/cli.md: 0 ok, 2 bad input, 130
interrupted; for a refusal, exactly 2), a 5xx answer, or an input file
changed where it should not be (hashed before and after: every file a
command only reads, and a file a command refused) is a failure, listed with
the command that reproduces it."""
import argparse
import contextlib
import hashlib
import http.client
import json
import os
import random
import resource
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from . import terminal
from .common import SEED_FILES, SEEDS

CLI = [sys.executable, "-m", "claimsolve.cli.main"]
CLASSES = ["islands", "server", "study", "play", "env", "fields"]
MOVES_WAIT = 5.0        # seconds `moves` may take on a large island before it counts as a hang
SLACK = 1.3             # `analyze --time T` must end within SLACK * T of engine time
WAIT = 30.0             # seconds any other input may take before it counts as a hang
SERVER_MAX_TIME = 0.5   # the campaign's server: --max-time


@dataclass
class Failure:
    kind: str           # traceback, hang, exit, 5xx, changed
    what: str           # what was seen
    repro: str          # the command (and input) that reproduces it


@dataclass
class Tally:
    name: str
    tried: int = 0
    failures: list = field(default_factory=list)
    seconds: float = 0.0

    def count(self, kind):
        return sum(f.kind == kind for f in self.failures)

    def fail(self, kind, what, repro):
        self.failures.append(Failure(kind, what, repro))


KINDS = [("tracebacks", "traceback"), ("hangs", "hang"), ("wrong exits", "exit"), ("5xx", "5xx"),
         ("files changed", "changed")]


def digest(paths):
    """{path: sha256 of its bytes, or None for no such file}."""
    out = {}
    for path in paths:
        try:
            with open(path, "rb") as f:
                out[path] = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            out[path] = None
    return out


@dataclass
class Ran:
    code: object        # exit code, or None for a hang
    out: bytes
    err: bytes
    seconds: float


def start(args, cwd, stdin=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE, before=None):
    def child():
        if before:
            before()
    return subprocess.Popen(CLI + [str(a) for a in args], cwd=cwd, stdin=stdin, stdout=stdout, stderr=stderr,
                            preexec_fn=child, start_new_session=True, env=dict(os.environ, NO_COLOR="1"))


def execute(args, cwd, timeout, input=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE, before=None):
    """Runs `claimsolve ARGS`; a process still running after `timeout`
    seconds is killed (its whole process group) and its code is None."""
    began = time.monotonic()
    proc = start(args, cwd, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL, stdout=stdout,
                 stderr=stderr, before=before)
    try:
        out, err = proc.communicate(input, timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    return Ran(code, out or b"", err or b"", time.monotonic() - began)


def shell(args, cwd, note=""):
    """The command as a shell line that reproduces it."""
    line = f"cd {shlex.quote(str(cwd))} && " + shlex.join(["python", "-m", "claimsolve.cli.main", *map(str, args)])
    return line + (f"  # {note}" if note else "")


def check(tally, ran, args, cwd, *, codes=(0, 2), reads=(), writes=(), before_hash=None, after_hash=None,
          note="", timeout=None):
    """Counts one input: its failures into `tally`.  `reads`: files that
    must be as they were whatever happened; `writes`: files that may change
    only when the command succeeded."""
    tally.tried += 1
    repro = shell(args, cwd, note)
    err = ran.err.decode("utf-8", "replace")
    if ran.code is None:
        tally.fail("hang", f"still running after {timeout if timeout is not None else ran.seconds:.1f} s", repro)
    elif ran.code not in codes:
        tally.fail("exit", f"exit {ran.code}, expected {'/'.join(map(str, codes))}; stderr {err[-300:]!r}", repro)
    if "Traceback" in err:
        tally.fail("traceback", err[err.index("Traceback"):][-600:], repro)
    if before_hash is not None:
        after = after_hash if after_hash is not None else digest(before_hash)
        for path, was in before_hash.items():
            if after[path] != was and (path in reads or ran.code != 0):
                tally.fail("changed", f"{path} changed (exit {ran.code})", repro)


def run_checked(tally, args, cwd, *, timeout=WAIT, codes=(0, 2), reads=(), writes=(), note="", **kw):
    hashes = digest(list(reads) + list(writes))
    ran = execute(args, cwd, timeout, **kw)
    check(tally, ran, args, cwd, codes=codes, reads=reads, writes=writes, before_hash=hashes, note=note,
          timeout=timeout)
    return ran


def each_drawn(strategy, seed, budget, fn):
    """Calls fn(value) for values drawn from a hypothesis `strategy` (fresh
    for each `seed`) while the budget lasts.  fn counts failures and never
    raises: nothing is replayed or shrunk.  Examples drawn past the budget
    are skipped; a run of hypothesis that ends before the budget is
    followed by another, of another seed."""
    rng = random.Random(seed)
    while budget():
        room = max(1, int((budget.end - time.monotonic()) / 0.1))
        count = min(room, budget.inputs or room, 10_000)

        @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @hypothesis_seed(rng.getrandbits(64))
        @given(strategy)
        def drawn(value):
            if budget():
                try:
                    fn(value)
                except Exception as exc:        # the campaign's own: counted, never replayed
                    budget.tally.fail("traceback", "the campaign itself: " + "".join(
                        traceback.format_exception(exc))[-800:], f"the input drawn: {value!r:.300}")

        drawn()


class Budget:
    """At most `inputs` inputs and `seconds` seconds for one class."""

    def __init__(self, tally, seconds, inputs):
        self.tally, self.end, self.inputs = tally, time.monotonic() + seconds, inputs

    def __call__(self):
        return time.monotonic() < self.end and (self.inputs is None or self.tally.tried < self.inputs)


def new_folder(root, name):
    return tempfile.mkdtemp(prefix=f"{name}-", dir=root)


# --- 1. the largest Claim islands ---------------------------------------------------------

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def large_island(rng):
    """A random Claim position in its play phase on a 12x12 to 16x16 island
    of rectangular territories, with many Vikings."""
    n = rng.randint(12, 16)
    width = 4 if n > 12 else rng.choice([3, 4])
    height = rng.choice([3, 4])
    per_row = -(-n // width)
    territories = [" ".join(LETTERS[(r // height) * per_row + c // width] for c in range(n)) for r in range(n)]
    battle = rng.random() < 0.5
    players = 2 if battle else rng.randint(2, 4)
    colours = 4 if battle else players
    vikings = rng.randint(8, 14)
    squares = [(r, c) for r in range(n) for c in range(n)]
    if rng.random() < 0.6:          # on one colour of a chessboard: jump chains everywhere
        squares = [(r, c) for r, c in squares if (r + c) % 2 == 0]
    rng.shuffle(squares)
    board = [["."] * n for _ in range(n)]
    for (r, c), colour in zip(squares, list(range(1, colours + 1)) * vikings):
        board[r][c] = str(colour)
    return {"game": "claim", "players": players, "variant": "battle-for-two" if battle else "standard",
            "territories": territories, "board": [" ".join(row) for row in board], "phase": "play",
            "first_player": 1, "to_move": 1}


def startup_seconds(folder):
    """Wall seconds of a quick command (the interpreter and the modules
    loading): what a command costs before its work starts."""
    times = [execute(["show", SEEDS / "claim" / "play-2p.json"], folder, WAIT).seconds for _ in range(2)]
    return min(times)


def islands(tally, budget, seed, root):
    rng = random.Random(seed)
    startup = startup_seconds(root)
    while budget():
        folder = new_folder(root, "island")
        path = os.path.join(folder, "island.json")
        island = large_island(rng)
        with open(path, "w") as f:
            json.dump(island, f, indent=1)
        n = len(island["board"])
        what = (f"{n}x{n}, {island['players']} players, {island['variant']}, "
                f"{sum(c != '.' for row in island['board'] for c in row.split())} Vikings")
        limit = startup + SLACK * 1.0
        run_checked(tally, ["analyze", path, "--time", "1"], folder, timeout=limit, codes=(0,), reads=[path],
                    note=f"{what}; must end within {limit:.2f} s ({startup:.2f} s start-up + {SLACK} x --time)")
        if not budget():
            break
        run_checked(tally, ["moves", path, "--limit", "50"], folder, timeout=startup + MOVES_WAIT, codes=(0,),
                    reads=[path],
                    note=f"{what}; must end within {startup + MOVES_WAIT:.1f} s")


# --- 2. the server --------------------------------------------------------------------------

def server(tally, budget, seed, root):
    from . import test_server as ts
    folder = new_folder(root, "serve")
    endpoints = sorted(ts.ENDPOINTS)
    running = ts.Server(folder, SERVER_MAX_TIME)
    try:
        running.new_log(0)
        rng = random.Random(seed)
        # everything drawn before the input is tried (a draw that depends on the run's time is no draw
        # hypothesis can replay)
        strategy = st.sampled_from(endpoints).flatmap(lambda e: st.tuples(st.just(e), ts.bodies(e), ts.CUT))

        def one(drawn):
            endpoint, body, cut = drawn
            tally.tried += 1
            name = os.path.join(folder, f"body-{tally.tried}.bin")
            with open(name, "wb") as f:
                f.write(body)
            how = "sent cut short, the client gone" if cut else "sent whole"
            repro = (f"claimsolve serve --max-time {SERVER_MAX_TIME}; POST /api/{endpoint} with the body in {name} "
                     f"({how})")
            try:
                if cut:
                    with running.connect() as sock:
                        sock.sendall(f"POST /api/{endpoint} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                                     f"{len(body) + 50}\r\n\r\n".encode() + body)
                    status, answer = None, b""
                else:
                    status, answer = running.post(f"/api/{endpoint}", body, timeout=WAIT)
            except socket.timeout:
                tally.fail("hang", f"no answer in {WAIT} s", repro)
                return
            except (OSError, http.client.HTTPException) as exc:
                tally.fail("exit", f"the connection failed: {type(exc).__name__}: {exc}", repro)
                return
            log = running.new_log(0.05 if cut else 0)
            if status is not None and status >= 500:
                tally.fail("5xx", f"{status}: {answer[:200]!r}", repro)
            elif status is not None and status not in ts.DOCUMENTED:
                tally.fail("exit", f"status {status}, not documented: {answer[:200]!r}", repro)
            elif status is not None and status != 200:
                try:
                    error = json.loads(answer)
                    assert set(error) == {"error"} and "\n" not in error["error"]
                except (ValueError, AssertionError, TypeError):
                    tally.fail("exit", f"status {status} without a one-line JSON error: {answer[:200]!r}", repro)
            if "Traceback" in log or "ERROR" in log:
                tally.fail("traceback", log[-600:], repro)
            if running.process.poll() is not None:
                tally.fail("exit", f"the server died: exit {running.process.returncode}", repro)
                raise RuntimeError("the server died")

        with contextlib.suppress(RuntimeError):
            each_drawn(strategy, rng.getrandbits(64), budget, one)
        # SIGINT with a long analysis in flight: gone within a second, exit 130, no traceback
        if running.process.poll() is None:
            sigint_in_flight(tally, running, ts)
    finally:
        running.stop()


def sigint_in_flight(tally, running, ts):
    events = []
    body = {"position": ts.seed("claim/settle-2p.json"), "time": SERVER_MAX_TIME}
    thread = threading.Thread(target=ts._stream, args=(running, body, events), daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not events and time.monotonic() < deadline:
        time.sleep(0.02)
    tally.tried += 1
    repro = (f"claimsolve serve --max-time {SERVER_MAX_TIME}; POST /api/analyze {json.dumps(body)[:80]}... "
             "streamed; SIGINT to the server at its first event")
    running.process.send_signal(signal.SIGINT)
    try:
        running.process.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        tally.fail("hang", "still running 1 s after SIGINT", repro)
        return
    log = running.log.read_text(errors="replace")
    if running.process.returncode != 130:
        tally.fail("exit", f"exit {running.process.returncode} after SIGINT", repro)
    if "Traceback" in log:
        tally.fail("traceback", log[-600:], repro)
    thread.join(timeout=5)


# --- 3. study files ---------------------------------------------------------------------------

def study_files(tally, budget, seed, root):
    from tests.study import test_hostile_files as th
    rng = random.Random(seed)
    base = new_folder(root, "study-source")
    source = os.path.join(base, "s.sqlite")
    made = execute([*th.SOLVE, "--db", source, "--workers", "1"], base, 120)
    if made.code != 0:
        tally.fail("exit", f"the study to damage could not be made: {made.err[-300:]!r}",
                   shell([*th.SOLVE, "--db", source, "--workers", "1"], base))
        return
    th._unfinished(source, th.DONE)
    original = open(source, "rb").read()
    columns = {table: th._columns(source, table) for table in ("tasks", "runs", "meta")}
    devices = ["/dev/null", "/dev/full", "/dev/zero", "/proc/self/status", "/tmp", ""]
    schedulers = ["garbage", "", "tcp://host", "tcp://127.0.0.1:99999", "inproc://x:1", "tcp://127.0.0.1:1",
                  ":", "tcp://:1", "tcp://[::1", "a b:1", "tcp://127.0.0.1:0", "tls://x:-1", "x" * 300 + ":1"]
    while budget():
        folder = new_folder(root, "study")
        copy = os.path.join(folder, "s.sqlite")
        what = rng.choice(["page"] * 3 + ["column"] * 3 + ["device", "scheduler", "read-only"])
        if what == "page":
            data = bytearray(original)
            page = rng.randrange(len(data) // th.PAGE)
            how = rng.choice(["zero", "garble", "garble-cells", "truncate"])
            at = page * th.PAGE
            if how == "zero":
                data[at:at + th.PAGE] = bytes(th.PAGE)
            elif how == "garble":
                data[at:at + th.PAGE] = rng.randbytes(th.PAGE)
            elif how == "garble-cells":
                for _ in range(rng.randint(1, 16)):
                    data[at + th.PAGE - 1 - rng.randrange(th.PAGE // 2)] = rng.randrange(256)
            else:
                del data[at + rng.randrange(th.PAGE):]
            open(copy, "wb").write(bytes(data))
            note = f"page {page} {how}"
        elif what == "column":
            table = rng.choice(["tasks", "runs"])
            column = rng.choice(columns[table])
            how = rng.choice(sorted(th.MUTATIONS))
            try:
                th._mutated(source, copy, table, column, how)
            except sqlite3.IntegrityError:
                continue
            note = f"column {table}.{column}: {how}"
        if what in ("page", "column"):
            report = run_checked(tally, ["study", "report", copy], folder, reads=[copy], note=note)
            if report.code == 2 and budget():
                run_checked(tally, [*th.SOLVE, "--db", copy, "--workers", "1"], folder, timeout=60, writes=[copy],
                            note=note)
        elif what == "device":
            path = rng.choice(devices)
            args = rng.choice([["study", "report", path], [*th.SOLVE, "--db", path, "--workers", "1"]])
            beside = [path + s for s in ("-journal", "-wal", "-shm")] if path else []
            existed = [p for p in beside if os.path.exists(p)]
            run_checked(tally, args, folder, codes=(2,))
            for side in beside:
                if side not in existed and os.path.exists(side):
                    tally.fail("changed", f"{side} was made", shell(args, folder))
                    with contextlib.suppress(OSError):
                        os.remove(side)
        elif what == "read-only":
            read_only(tally, th, source, folder, rng)
        else:
            address = rng.choice(schedulers)
            run_checked(tally, [*th.SOLVE, "--db", copy, "--scheduler", address], folder, timeout=15, codes=(2,),
                        note="refused within 10 s")
        shutil.rmtree(folder, ignore_errors=True) if not tally.failures else None


def read_only(tally, th, source, folder, rng):
    """The study (unfinished, or a new one) in a read-only folder: `study
    report` reads it, a run is refused (exit 2, the folder named), the
    file is as it was."""
    inside = os.path.join(folder, "ro")
    os.mkdir(inside)
    path = os.path.join(inside, "s.sqlite")
    shutil.copy(source, path)
    db = rng.choice([path, os.path.join(inside, "new.sqlite")])
    commands = [["study", "report", path], [*th.SOLVE, "--db", db, "--workers", "1"]]
    before = digest([path])
    note = "with the folder read-only (a read-only bind mount, or chmod 555)"
    try:
        answers = th._in_read_only_folder(inside, commands)
    except subprocess.TimeoutExpired:
        tally.tried += 1
        tally.fail("hang", "a command in a read-only folder ran past 120 s", shell(commands[1], folder, note))
        return
    except BaseException as exc:           # pytest.skip: no way to make a folder read-only here
        if type(exc).__name__ != "Skipped":
            raise
        return
    for args, (code, err), codes in zip(commands, answers, [(0,), (2,)]):
        ran = Ran(code, b"", err.encode(), 0.0)
        check(tally, ran, args, folder, codes=codes, reads=[path], before_hash=before, note=note)
        if code == 2 and "not writable" not in err:
            tally.fail("exit", f"the read-only folder not named as such: {err.strip()[:200]!r}",
                       shell(args, folder, note))


# --- 4. play ---------------------------------------------------------------------------------

PLAY_ARGS = {"colorclaim": ["--size", "3x3", "--seed", "1"], "claimit": [], "claim": ["--seed", "1"]}


def play(tally, budget, seed, root):
    from . import test_play as tp
    rng = random.Random(seed)
    terminal.WAIT = WAIT
    strategy = st.tuples(st.sampled_from(["pipe", "pipe", "terminal", "ctrl-c"]),
                         st.sampled_from(sorted(PLAY_ARGS)), st.lists(tp.byte_line, min_size=3, max_size=20),
                         st.floats(0, 0.06))

    def one(drawn):
        how, game, lines, gap = drawn
        folder = new_folder(root, "play")
        args = ["play", game, "--vs", "random", *PLAY_ARGS[game]]
        if how == "pipe":
            stream = b"".join(line + b"\n" for line in lines) + b"quit\n"
            name = os.path.join(folder, "typed.bin")
            open(name, "wb").write(stream)
            ran = execute(args, folder, WAIT, input=stream)
            check(tally, ran, args, folder, codes=(0,), note=f"standard input from {name}", timeout=WAIT)
            return
        if how == "terminal":
            term = terminal.Terminal(*args, cwd=folder)
            kept = [bytes(b for b in line.replace(b"\n", b" ").replace(b"\r", b" ") if b not in term.special)[:1000]
                    for line in lines]
            name = os.path.join(folder, "typed.bin")
            open(name, "wb").write(b"".join(line + b"\n" for line in kept) + b"quit\n")
            note = f"typed at a terminal: each line of {name}"
            codes = (0,)
        else:
            args = ["play", "colorclaim", "--size", "4x4", "--seed", str(rng.randint(0, 99)), "--vs", "mcts:time=5"]
            term = terminal.Terminal(*args, cwd=folder)
            kept = []
            note = f"at a terminal: `?`, then Ctrl-C twice {gap * 1000:.0f} ms apart while the engine thinks"
            codes = (130,)
        began = time.monotonic()
        try:
            at = term.until(tp.PROMPT)
            for line in kept:
                term.type(line + b"\n")
                at = term.until(tp.PROMPT, at + 1)
            if how == "terminal":
                term.type(b"quit\n")
            else:
                term.type(b"?\n")
                term.until(b"thinking", at)
                time.sleep(rng.uniform(0, 0.5))
                term.ctrl_c_twice(gap)
            code, out = term.ended()
        except AssertionError as exc:
            if term.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(term.proc.pid, signal.SIGKILL)
                term.proc.wait()
                code, out = None, str(exc)
            else:
                code, out = term.proc.returncode, bytes(term.out).decode("utf-8", "replace")
            with contextlib.suppress(OSError):
                os.close(term.master)
        ran = Ran(code, b"", out.encode(), time.monotonic() - began)
        check(tally, ran, args, folder, codes=codes, note=note, timeout=WAIT)

    each_drawn(strategy, rng.getrandbits(64), budget, one)


# --- 5. the environment --------------------------------------------------------------------------

def _closed(fd):
    return lambda: os.close(fd)


def _limit(kind, value):
    return lambda: resource.setrlimit(kind, (value, resource.getrlimit(kind)[1]))


def env(tally, budget, seed, root):
    rng = random.Random(seed)
    good = str(SEEDS / "colorclaim" / "start-3x3-seed1.json")
    claim = str(SEEDS / "claim" / "play-2p.json")
    while budget():
        folder = new_folder(root, "env")
        bad = os.path.join(folder, "bad.json")
        with open(bad, "w") as f:
            f.write('{"game": "colorclaim", "to_move": 3}')
        svg = os.path.join(folder, "out.svg")
        commands = [["show", good], ["show", bad], ["moves", claim], ["show", good, "--svg", svg],
                    ["analyze", good, "--time", "0.2"], ["analyze", claim, "--time", "0.2", "--engine", "mcts",
                                                        "--threads", "2"],
                    ["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", "1"],
                    ["odds", str(SEEDS / "claimit" / "mid-game-3p.json"), "--samples", "50", "--time", "0.2"]]
        args = rng.choice(commands)
        refusal = bad in args
        condition = rng.choice(["stdout closed", "stdout full", "stderr closed", "stderr full", "both full",
                                "deleted folder", "ulimit -v", "ulimit -n", "ulimit -f"])
        kw, note, codes = {}, condition, (2,) if refusal else (0, 2)
        full = None
        cwd = folder
        if condition == "stdout closed":
            kw = dict(stdout=None, before=_closed(1))
            note = ">&-"
        elif condition == "stderr closed":
            kw = dict(stderr=None, before=_closed(2))
            note = "2>&-"
        elif condition in ("stdout full", "stderr full", "both full"):
            full = open("/dev/full", "wb")
            kw = {"stdout": full} if condition == "stdout full" else {"stderr": full} \
                if condition == "stderr full" else {"stdout": full, "stderr": full}
            note = {"stdout full": ">/dev/full", "stderr full": "2>/dev/full",
                    "both full": ">/dev/full 2>&1"}[condition]
        elif condition == "deleted folder":
            cwd = os.path.join(folder, "gone")
            os.mkdir(cwd)
            os.rmdir(cwd)
            kw = dict(before=None)
            gone = cwd
            cwd = folder

            def into_gone(gone=gone):
                os.mkdir(gone)
                os.chdir(gone)
                os.rmdir(gone)
            kw["before"] = into_gone
            note = "run in a working folder deleted before it starts"
        else:
            value = {"ulimit -v": rng.choice([100_000, 150_000, 250_000]), "ulimit -n": rng.randint(5, 16),
                     "ulimit -f": rng.choice([0, 1])}[condition]
            kind = {"ulimit -v": resource.RLIMIT_AS, "ulimit -n": resource.RLIMIT_NOFILE,
                    "ulimit -f": resource.RLIMIT_FSIZE}[condition]
            kw = dict(before=_limit(kind, value * 1024 if condition == "ulimit -v" else
                                    value * 1024 if condition == "ulimit -f" else value))
            note = f"{condition} {value}"
        try:
            run_checked(tally, args, cwd, codes=codes, reads=[p for p in (good, claim, bad) if p in args],
                        note=note, **kw)
        finally:
            if full:
                full.close()


# --- 6. fields: empty strings and mutated positions --------------------------------------------------

def passable(args):
    """True for arguments a command line can carry: no NUL, no lone
    surrogate but those that stand for bytes (surrogateescape)."""
    try:
        return not any("\0" in os.fsdecode(os.fsencode(a)) for a in args)
    except UnicodeError:
        return False


HERE = "@@FOLDER@@"      # the input's folder, in a command drawn before the folder is made


def fields(tally, budget, seed, root):
    from . import test_fuzz as tf
    from .test_empty_fields import OPTIONAL, leaves
    rng = random.Random(seed)
    seeds = [(path, json.loads(path.read_text())) for path in SEED_FILES]
    strategy = st.tuples(tf.mutated_position().flatmap(
        lambda drawn: st.tuples(st.just(drawn), tf.position_command(HERE, drawn[1].parent.name))), st.integers(0, 3))

    def one(drawn):
        ((content, source), args), pick = drawn
        folder = new_folder(root, "fields")
        path = os.path.join(folder, "p.json")
        if pick == 0:           # a field, or a key a file may leave out, as "" or blank: refused
            source, position = rng.choice(seeds)
            absent = [(key,) for key in OPTIONAL[position["game"]] if key not in position]
            where = rng.choice([p for p in list(leaves(position)) + absent if p and p != ("game",)])
            parent = position = json.loads(json.dumps(position))
            for part in where[:-1]:
                parent = parent[part]
            parent[where[-1]] = rng.choice(["", " ", " \t", "\n"])
            with open(path, "w") as f:
                json.dump(position, f)
            args = [rng.choice(tf.COMMANDS_OF[position["game"]]), path]
            args += tf.BUDGET.get(args[0], [])
            if args[0] == "apply":
                args.insert(2, rng.choice(["roll", "stop", "pass", "a1-a2"]))
            run_checked(tally, args, folder, codes=(2,), reads=[path],
                        note=f"{source.parent.name}/{source.name} with {'.'.join(map(str, where))} blank")
            return
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        args = [a.replace(HERE, folder) for a in args]
        if not passable(args):      # no process can be given it (test_fuzz gives it in-process)
            return
        run_checked(tally, args, folder, reads=[path], note=f"a mutation of {source.parent.name}/{source.name}")

    each_drawn(strategy, rng.getrandbits(64), budget, one)


RUNNERS = {"islands": islands, "server": server, "study": study_files, "play": play, "env": env, "fields": fields}


# --- the campaign -------------------------------------------------------------------------------

def campaign(seed, budget_seconds, classes=CLASSES, inputs=None, root=None, log=print):
    """Runs each class for its share of `budget_seconds` (and at most
    `inputs` inputs each); returns [Tally]."""
    root = root or tempfile.mkdtemp(prefix="claimsolve-campaign-")
    tallies = []
    share = budget_seconds / len(classes)
    for number, name in enumerate(classes):
        tally = Tally(name)
        began = time.monotonic()
        try:
            RUNNERS[name](tally, Budget(tally, share, inputs), seed + number, root)
        except Exception as exc:        # the campaign's own failure: counted, not hidden
            tally.fail("traceback", "the campaign itself: " + "".join(
                traceback.format_exception_only(type(exc), exc)).strip()[-600:], f"--seed {seed} (class {name})")
        tally.seconds = time.monotonic() - began
        tallies.append(tally)
        if log:
            log(f"  {name}: {tally.tried} inputs, {len(tally.failures)} failures, {tally.seconds:.0f} s")
    return tallies


def table(tallies):
    head = ["class", "inputs"] + [title for title, _ in KINDS] + ["seconds"]
    rows = [[t.name, str(t.tried)] + [str(t.count(kind)) for _, kind in KINDS] + [f"{t.seconds:.0f}"]
            for t in tallies]
    rows.append(["total", str(sum(t.tried for t in tallies))]
                + [str(sum(t.count(kind) for t in tallies)) for _, kind in KINDS]
                + [f"{sum(t.seconds for t in tallies):.0f}"])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


def failures(tallies, limit=20):
    """Each failure with what reproduces it (the first `limit` of a kind in a class)."""
    out = []
    for t in tallies:
        for _, kind in KINDS:
            shown = [f for f in t.failures if f.kind == kind]
            for f in shown[:limit]:
                out.append(f"[{t.name}] {kind}: {f.what}\n    {f.repro}")
            if len(shown) > limit:
                out.append(f"[{t.name}] {kind}: {len(shown) - limit} more")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.hostile.campaign", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed of every drawn input (default: a random one, printed)")
    parser.add_argument("--budget-seconds", type=float, default=300,
                        help="the whole campaign's time, shared by the classes")
    parser.add_argument("--inputs", type=int, default=None, help="at most this many inputs per class")
    parser.add_argument("--classes", default=",".join(CLASSES), help="a comma-separated subset of " + ",".join(CLASSES))
    parser.add_argument("--keep", default=None, help="the folder for the inputs (kept; default: a new temporary one)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    classes = [c for c in args.classes.split(",") if c]
    unknown = [c for c in classes if c not in RUNNERS]
    if unknown:
        parser.error(f"unknown class {unknown[0]!r}: the classes are {', '.join(CLASSES)}")
    root = args.keep or tempfile.mkdtemp(prefix="claimsolve-campaign-")
    os.makedirs(root, exist_ok=True)
    print(f"campaign --seed {seed} --budget-seconds {args.budget_seconds:g}"
          + (f" --inputs {args.inputs}" if args.inputs else "") + f" --classes {','.join(classes)}; inputs in {root}",
          flush=True)
    tallies = campaign(seed, args.budget_seconds, classes, args.inputs, root)
    print(table(tallies))
    listed = failures(tallies)
    if listed:
        print("\nFailures (each with what reproduces it):\n" + listed)
    return 1 if any(t.failures for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
