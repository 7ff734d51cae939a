"""Hostile input to `claimsolve serve` (issue 34, the server): a real server
process on 127.0.0.1, sent what a careless or hostile client sends.

- Bodies drawn by hypothesis for every endpoint (seed positions mutated,
  options of every type, raw bytes): the answer is a status the API
  documents (200, 400, 404, 405, 413, 422, 429; docs/cli.md, "serve: what
  a request may cost") with a JSON error of one line, never a 5xx, and the
  server's log stays free of tracebacks.
- Work beyond the caps: odds with 10,000,000 samples answers a table cut at
  --max-time and marked so; /api/moves of a 16x16 battle-for-two island whose
  turns cannot all be listed in time is a 422 at the quick cap.
- Bodies cut short, sent slowly, abandoned; a client leaving mid-stream and
  mid-request: nothing logged, nothing left busy.
- SIGINT and SIGTERM with analyses, a huge listing and a slow body in flight:
  the process is gone within a second, with no traceback.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .common import SEEDS

ISLAND = Path(__file__).resolve().parent.parent / "data" / "claim-16x16-battle-checker.json"
from .test_fuzz import json_value, mutated_position

EXAMPLES = int(os.environ.get("CLAIMSOLVE_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=EXAMPLES or 40, deadline=None, derandomize=not EXAMPLES, database=None,
                suppress_health_check=list(HealthCheck))
MAX_TIME = 0.5          # the fuzzed server's --max-time: a long request that is accepted stays short
DOCUMENTED = {200, 400, 404, 405, 413, 422, 429}
WAIT = 60               # seconds a request may take on a busy machine before the test fails


def seed(name):
    return json.loads((SEEDS / name).read_text())


def big_island():
    """A 16x16 battle-for-two island in its play phase: 24 territories (4x3
    blocks, the last row 4x1), 14 Vikings of each of the four colours on
    the squares of one colour of a chessboard, at random: so many jump
    chains that its turns cannot all be listed in seconds."""
    return json.loads(ISLAND.read_text())


class Server:
    """`claimsolve serve --port 0` as a process; its stderr (the server's
    log) in a file."""

    def __init__(self, folder, max_time, workers=2):
        self.log = Path(folder) / f"serve-{time.monotonic_ns()}.log"
        self.errors = open(self.log, "w")
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from claimsolve.cli.main import main; main()", "serve", "--port", "0",
             "--workers", str(workers), "--max-time", str(max_time), "--json"],
            stdout=subprocess.PIPE, stderr=self.errors, text=True)
        line = self.process.stdout.readline()
        try:
            where = json.loads(line)           # --json: where it listens, one document
        except ValueError:
            self.stop()
            pytest.fail(f"serve --json did not say where it listens: {line!r} {self.log.read_text()}")
        assert where["url"] == f"http://127.0.0.1:{where['port']}/" and where["workers"] == workers
        self.port = where["port"]
        self.seen = 0
        # every worker ready: each of them has answered once
        for _ in range(2 * workers + 2):
            status, _ = self.post("/api/show", {"position": seed("colorclaim/start-3x3-seed1.json")})
            assert status == 200

    def post(self, path, body, headers=None, timeout=WAIT):
        """(status, body bytes) of one POST; `body` a value (sent as JSON) or bytes."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("POST", path, data, headers or {"Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def connect(self):
        return socket.create_connection(("127.0.0.1", self.port), timeout=WAIT)

    def new_log(self, settle=0.3):
        """What the server logged since the last call."""
        time.sleep(settle)
        text = self.log.read_text(errors="replace")
        new, self.seen = text[self.seen:], len(text)
        return new

    def workers(self):
        """The pids of the worker processes (not multiprocessing's resource tracker)."""
        proc = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(self.process.pid)], capture_output=True,
                              text=True)
        return [int(line.split()[0]) for line in proc.stdout.splitlines() if "spawn_main" in line]

    def cpu_seconds(self):
        """User and system CPU seconds of the server's own process."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.errors.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("serve"), MAX_TIME)
    yield running
    running.stop()


def assert_quiet(log):
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]


def assert_documented(status, data, svg=False):
    assert status in DOCUMENTED, (status, data[:500])
    if status == 200:
        if svg:
            assert data.lstrip().startswith(b"<svg") or data.lstrip().startswith(b"<?xml"), data[:200]
        else:
            json.loads(data)
        return
    error = json.loads(data)
    assert set(error) == {"error"}, error
    line = error["error"]
    assert isinstance(line, str) and line and "\n" not in line and "Traceback" not in line, error


# --- bodies drawn by hypothesis, for every endpoint ----------------------------------------

RECORD = {"record": 1, "game": "colorclaim", "start": seed("colorclaim/start-3x3-seed1.json"),
          "moves": ["a1-a2"]}
POSITIONS = ["colorclaim/start-3x3-seed1.json", "claim/play-2p.json", "claimit/mid-game-3p.json",
             "claimit/mid-game-dice-3p.json", "claim/settle-2p.json"]
# each endpoint: a body it answers, and the options it takes (with values of every kind drawn for them)
ENDPOINTS = {
    "new": ({"game": "colorclaim", "size": "3x3", "seed": 1}, ["game", "players", "size", "island", "variant", "seed"]),
    "show": ({"position": seed("claim/play-2p.json")}, []),
    "moves": ({"position": seed("claimit/mid-game-dice-3p.json")}, []),
    "apply": ({"position": seed("colorclaim/start-3x3-seed1.json"), "moves": ["a1-a2"]}, ["moves", "seed"]),
    "check": ({"position": seed("claim/play-2p.json"), "moves": ["c3-c4"]}, ["moves", "seed"]),
    "analyze": ({"position": seed("colorclaim/start-3x3-seed1.json"), "time": 0.2},
                ["time", "iterations", "engine", "top", "seed", "hash"]),
    "odds": ({"position": seed("claimit/mid-game-3p.json"), "samples": 200}, ["samples", "seed", "time"]),
    "solve": ({"position": seed("colorclaim/start-3x3-seed1.json"), "time": 0.3}, ["time", "hash"]),
    "review": ({"record": RECORD, "time": 0.05}, ["record", "game", "time", "seed", "objective"]),
    "svg": ({"position": seed("claimit/mid-game-3p.json"), "of": "odds", "samples": 100},
            ["of", "samples", "time", "seed", "top", "iterations"]),
}
# values an option takes, at and just past its limits (MAX_TIME: the server's cap)
GOOD = {"time": [0.05, 0.2, MAX_TIME, MAX_TIME * 2, 1e-9], "iterations": [1, 50, 2 ** 62],
        "engine": ["auto", "mcts", "alphabeta", "solver"], "top": [1, 3, 10 ** 6], "seed": [0, 7, 2 ** 63 - 1, 2 ** 63],
        "hash": [1, 16, 1024, 1025], "samples": [2, 100, 10 ** 7, 10 ** 7 + 1], "of": ["show", "analyze", "odds"],
        "moves": [["a1-a2"], ["c3-c4"], ["roll:1,2,3"], ["stop"], ["a1-a2", "a3-a2"], ["pass"]],
        "game": ["colorclaim", "claim", "claimit", "chess"], "players": [2, 3, 4, 5], "size": ["3x3", "16x16", "17x17"],
        "island": ["standard", "random", "standard-4"], "variant": ["standard", "battle-for-two", "release_white"],
        "objective": ["win", "points"], "record": [RECORD, json.dumps(RECORD), json.dumps(RECORD) + "\n" * 2],
        "position": [seed(name) for name in ["colorclaim/start-3x3-seed1.json", "claim/play-2p.json",
                                             "claimit/mid-game-3p.json", "claimit/mid-game-dice-3p.json"]]}
OPTION_VALUES = st.one_of(
    json_value,
    st.sampled_from([0, -1, 0.01, 0.2, 1, 2, 3, 10, 10 ** 7, 10 ** 9, 2 ** 62, 2 ** 64, 1e308, "1", "", "0.1",
                     "show", "analyze", "odds", "mcts", "alphabeta", "solver", "auto", "colorclaim", "claim",
                     "claimit", "3x3", "random", ["a1-a2"], ["stop"], ["roll:1,2,3"], []]),
)


CUT = st.sampled_from([False] * 9 + [True])      # the body sent whole, or cut short by a client that leaves


@st.composite
def bodies(draw, endpoint):
    """Bytes of a request body for `endpoint`: its good body with a few
    options changed, dropped or added; a mutated seed position in it (as
    raw text, broken bytes and all); any JSON value; or any bytes."""
    base, options = ENDPOINTS[endpoint]
    kind = draw(st.sampled_from(["options"] * 6 + ["position"] * 3 + ["json", "bytes"]))
    if kind == "json":
        return json.dumps(draw(json_value)).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=64))
    body = dict(base)
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(options + list(base) + ["bogus"]))
        choice = draw(st.integers(0, 5))
        if choice == 0:
            body.pop(key, None)
        elif choice < 4 and key in GOOD:
            body[key] = draw(st.sampled_from(GOOD[key]))
        else:
            body[key] = draw(OPTION_VALUES)
    if kind == "position" and endpoint not in ("new", "review"):
        text, _path = draw(mutated_position())
        raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        body["position"] = "@@POSITION@@"
        return json.dumps(body).encode().replace(b'"@@POSITION@@"', raw)
    return json.dumps(body).encode()


def fuzz(server, endpoint, data, cut):
    if cut:                     # the client goes away before its body is all sent: nothing to answer
        with server.connect() as sock:
            sock.sendall(f"POST /api/{endpoint} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data) + 50}"
                         f"\r\n\r\n".encode() + data)
        return
    status, answer = server.post(f"/api/{endpoint}", data)
    svg = endpoint == "svg" and status == 200
    assert_documented(status, answer, svg=svg)


@pytest.mark.slow
@pytest.mark.parametrize("endpoint", ["new", "show", "moves", "apply", "check"])
def test_quick_endpoints_answer_any_body_with_a_documented_status(server, endpoint):
    server.new_log(0)

    @FUZZ
    @given(data=bodies(endpoint), cut=CUT)
    @example(data=json.dumps(ENDPOINTS[endpoint][0]).encode(), cut=True)
    def check(data, cut):
        fuzz(server, endpoint, data, cut)

    check()
    assert_quiet(server.new_log())


@pytest.mark.slow
@pytest.mark.parametrize("endpoint", ["analyze", "odds", "solve", "review", "svg"])
def test_long_endpoints_answer_any_body_with_a_documented_status(server, endpoint):
    server.new_log(0)
    huge = {"odds": {"position": seed("claimit/mid-game-3p.json"), "samples": 10_000_000},
            "svg": {"position": seed("claimit/mid-game-3p.json"), "of": "odds", "samples": 10_000_000},
            "analyze": {"position": seed("claim/settle-2p.json"), "iterations": 2 ** 62},
            "solve": {"position": seed("colorclaim/start-6x5.json")},
            "review": {"record": RECORD}}[endpoint]

    @FUZZ
    @given(data=bodies(endpoint), cut=CUT)
    @example(data=json.dumps(huge).encode(), cut=False)        # work capped by --max-time before it starts
    @example(data=json.dumps(ENDPOINTS[endpoint][0]).encode(), cut=True)
    def check(data, cut):
        fuzz(server, endpoint, data, cut)

    check()
    assert_quiet(server.new_log())


# --- work beyond the caps -------------------------------------------------------------------

@pytest.mark.slow
def test_odds_with_ten_million_samples_is_cut_at_max_time_and_says_so(server):
    for of in (None, "odds"):
        body = {"position": seed("claimit/mid-game-3p.json"), "samples": 10_000_000}
        if of:
            body["of"] = of
        status, data = server.post("/api/svg" if of else "/api/odds", body)
        assert status == 200, data[:300]
        if of:
            assert b"10,000,000 asked" in data and b"Cut short" in data
            continue
        table = json.loads(data)
        assert table["truncated"] is True
        assert table["samples"] < 10_000_000
        assert f"{table['samples']:,} play-outs per row" in table["note"] and "10,000,000 asked" in table["note"]
    # a table played whole is not marked
    status, data = server.post("/api/odds", {"position": seed("claimit/mid-game-3p.json"), "samples": 100})
    assert status == 200 and "truncated" not in json.loads(data)
    assert_quiet(server.new_log())


@pytest.mark.slow
def test_a_listing_past_the_quick_cap_is_a_422_and_the_worker_is_replaced(server):
    status, data = server.post("/api/moves", {"position": big_island()})
    assert status == 422, data[:300]
    assert "quick cap" in json.loads(data)["error"]
    # its worker was killed and replaced: the quick commands answer as before
    for _ in range(4):
        assert server.post("/api/moves", {"position": seed("claim/play-2p.json")})[0] == 200
    assert_quiet(server.new_log())


# --- clients that cut, dawdle and leave --------------------------------------------------------

def test_cut_and_slow_bodies_cost_nothing_and_log_nothing(server):
    server.new_log(0)
    body = json.dumps({"position": seed("claim/play-2p.json")}).encode()
    head = (f"POST /api/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    chunked = b"POST /api/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    for start in (head + body[:10], head, chunked + b"10\r\n" + body[:16] + b"\r\n", head + body[:-1]):
        with server.connect() as sock:       # the body cut short: the client goes away
            sock.sendall(start)
            time.sleep(0.1)
    # a body sent slowly, a few bytes at a time, is answered as any other
    with server.connect() as sock:
        sock.sendall(head)
        for i in range(0, len(body), len(body) // 5 + 1):
            sock.sendall(body[i:i + len(body) // 5 + 1])
            time.sleep(0.05)
        answer = sock.makefile("rb").readline()
        assert b" 200 " in answer, answer
    assert server.post("/api/moves", body)[0] == 200
    assert_quiet(server.new_log())


@pytest.mark.slow
def test_a_client_that_leaves_keeps_nothing_busy(server):
    server.new_log(0)
    # mid-stream: an analysis streaming its progress, left after its first event
    with server.connect() as sock:
        body = json.dumps({"position": seed("claim/settle-2p.json"), "time": MAX_TIME}).encode()
        sock.sendall(b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        reader = sock.makefile("rb")
        while not reader.readline().startswith(b"event: "):
            pass
    # mid-request: a listing that cannot finish, left before its answer
    with server.connect() as sock:
        body = json.dumps({"position": big_island()}).encode()
        sock.sendall(b"POST /api/moves HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.5)
    time.sleep(0.5)
    # the server's own process idles: the listing is not going on in it
    before = server.cpu_seconds()
    time.sleep(2.0)
    assert server.cpu_seconds() - before < 0.3
    # and every worker is free: as many analyses as workers answer at once
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(server.post(
        "/api/analyze", {"position": seed("colorclaim/start-3x3-seed1.json"), "time": 0.2})[0])) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200, 200]
    assert_quiet(server.new_log())


# --- SIGINT and SIGTERM with work in flight -------------------------------------------------------

def _stream(server, body, events):
    try:
        with server.connect() as sock:
            data = json.dumps(body).encode()
            sock.sendall(b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                         + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
            reader = sock.makefile("rb")
            for line in reader:
                if line.startswith(b"event: "):
                    events.append(line[7:].strip().decode())
    except OSError:
        events.append("reset")


def _request(server, path, body, answers):
    try:
        answers.append(server.post(path, body, timeout=30))
    except (OSError, http.client.HTTPException) as exc:
        answers.append((type(exc).__name__, b""))


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_with_work_in_flight_ends_within_a_second_without_a_traceback(tmp_path, signum):
    server = Server(tmp_path, 20)
    try:
        events = [[], []]
        answers = []
        threads = [threading.Thread(target=_stream, args=(server, {"position": seed(name), "time": 20}, out))
                   for name, out in zip(["claim/settle-3p.json", "claim/settle-2p.json"], events)]
        threads.append(threading.Thread(target=_request, args=(
            server, "/api/odds", {"position": seed("claimit/mid-game-3p.json"), "samples": 10_000_000}, answers)))
        threads.append(threading.Thread(target=_request, args=(server, "/api/moves", {"position": big_island()},
                                                                answers)))
        for thread in threads:
            thread.daemon = True
            thread.start()
        slow = server.connect()              # a body that is still coming
        slow.sendall(b"POST /api/show HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{\"posi")
        idle = server.connect()              # a connection kept open, nothing asked
        deadline = time.monotonic() + WAIT
        while not any(events) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(events), "the analyses did not start"
        time.sleep(0.5)                      # two analyses running, the third waiting for a worker
        workers = server.workers()
        assert len(workers) == 2 + 2           # the long workers, the quick ones
        started = time.monotonic()
        server.process.send_signal(signum)
        try:
            server.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server still runs {time.monotonic() - started:.1f} s after {signum.name}")
        log = server.log.read_text()
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
        if signum == signal.SIGINT:
            assert server.process.returncode == 130 and log == "claimsolve: interrupted\n", log
        else:
            assert server.process.returncode == -signal.SIGTERM and log == "", log
        for thread in threads:
            thread.join(timeout=10)
        # what was asked was answered: the streams end with an error event, the others a 503
        assert all(out and out[-1] in ("error", "reset") for out in events), events
        assert all(status in (503, "RemoteDisconnected", "ConnectionResetError") for status, _ in answers), answers
        for pid in workers:                  # no worker left behind
            assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
        slow.close()
        idle.close()
    finally:
        server.stop()


@pytest.mark.parametrize("host", ["x" * 64, "a..b", "." + "y" * 70 + ".example"])
def test_a_host_that_no_name_can_be_is_one_line(host):
    """Host names the idna codec refuses (a part empty or past 63
    characters): one line, not a UnicodeError traceback."""
    from claimsolve.errors import ClaimsolveError
    from claimsolve.web import listen
    with pytest.raises(ClaimsolveError, match="option '--host': cannot listen on .*not a host name"):
        listen(host, 0)


def test_a_host_that_cannot_be_listened_on_gets_its_error_and_no_warning():
    """The warning about a host other than loopback is said only once the
    server listens there: a bad host is the one line of its error."""
    command = [sys.executable, "-c", "from claimsolve.cli.main import main; main()",
               "serve", "--host", "bad host!", "--port", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.splitlines() == [done.stderr.strip()] and "cannot listen on 'bad host!'" in done.stderr
    assert "warning" not in done.stderr
