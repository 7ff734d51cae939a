"""`claimsolve serve` under hostile requests (issue 34, the server): an
earlier commit (default: f18d557, main before the work) against the code
being run, side by side, each server a process of its own on 127.0.0.1
(`--max-time 5 --workers 2`):

1. /api/odds with "samples": 10,000,000: the status and the seconds to the
   answer (the work is capped by --max-time before it starts, or not).
2. /api/moves of a 16x16 battle-for-two island (docs/positions.md; 14
   Vikings of each colour on one colour of a chessboard): the status and
   the seconds (a client gives up after 30 s).
3. SIGINT with three analyses in flight (two streaming, one waiting for a
   worker): the seconds until the process is gone, and the tracebacks in
   its log.
4. Three bodies cut short by clients that go away: the bytes the server
   logged.

    python benchmarks/bench_serve_hostile.py [--baseline f18d557]

The baseline is built once by benchmarks/baseline.py (Cython and a C
compiler needed) and cached.
"""
import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import baseline

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
MAX_TIME = 5
GIVE_UP = 30.0          # seconds a client waits for an answer


def big_island():
    """The 16x16 battle-for-two island of tests/hostile/test_server.py, its
    turns too many to list in seconds."""
    return json.loads((ROOT / "tests" / "data" / "claim-16x16-battle-checker.json").read_text())


def seed(name):
    return json.loads((SEEDS / name).read_text())


class Server:
    """`claimsolve serve` of whatever `import claimsolve` gives this process
    (baseline.call sets PYTHONPATH), started in an empty folder so that no
    checkout there shadows it; its log in a file."""

    def __init__(self, max_time=MAX_TIME):
        self.folder = tempfile.mkdtemp(prefix="bench-serve-")
        self.log_path = Path(self.folder) / "serve.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from claimsolve.cli.main import main; main()", "serve", "--port", "0",
             "--workers", "2", "--max-time", str(max_time)],
            stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=self.folder)
        line = self.process.stdout.readline()
        self.port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", line).group(1))
        for _ in range(6):          # every worker up
            self.post("/api/show", {"position": seed("colorclaim/start-3x3-seed1.json")})

    def post(self, path, body, timeout=GIVE_UP):
        """(status, seconds); status None when no answer came in `timeout`."""
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            return response.status, time.perf_counter() - started
        except (OSError, http.client.HTTPException):
            return None, time.perf_counter() - started
        finally:
            connection.close()

    def logged(self):
        return self.log_path.read_text(errors="replace")

    def kill(self):
        """Ends the server and its worker processes (a worker busy when its
        server is killed would run its task to the end)."""
        children = [int(pid) for pid in subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.process.pid)],
                                                       capture_output=True, text=True).stdout.split()]
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()


def odds():
    server = Server()
    try:
        status, seconds = server.post("/api/odds", {"position": seed("claimit/mid-game-3p.json"),
                                                    "samples": 10_000_000})
        return {"status": status, "seconds": round(seconds, 2)}
    finally:
        server.kill()


def moves():
    server = Server()
    try:
        status, seconds = server.post("/api/moves", {"position": big_island()})
        return {"status": status, "seconds": round(seconds, 2)}
    finally:
        server.kill()


def _stream(port, body, first):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=GIVE_UP) as sock:
            data = json.dumps(body).encode()
            sock.sendall(b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                         + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
            for line in sock.makefile("rb"):
                if line.startswith(b"event: "):
                    first.set()
    except OSError:
        pass


def sigint():
    server = Server(max_time=20)
    try:
        first = threading.Event()
        threads = [threading.Thread(target=_stream, args=(server.port, {"position": seed(name), "time": 20}, first),
                                    daemon=True) for name in ("claim/settle-3p.json", "claim/settle-2p.json")]
        threads.append(threading.Thread(target=server.post, args=(
            "/api/analyze", {"position": seed("colorclaim/start-6x5.json"), "time": 20}), daemon=True))
        for thread in threads:
            thread.start()
        first.wait(GIVE_UP)
        time.sleep(0.5)
        started = time.perf_counter()
        server.process.send_signal(signal.SIGINT)
        try:
            server.process.wait(timeout=GIVE_UP)
            seconds = round(time.perf_counter() - started, 2)
        except subprocess.TimeoutExpired:
            seconds = None
        log = server.logged()
        return {"seconds": seconds, "tracebacks": log.count("Traceback"), "log_bytes": len(log.encode())}
    finally:
        server.kill()


def cut_bodies():
    server = Server()
    try:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(b"POST /api/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"posi")
                time.sleep(0.1)
        time.sleep(0.5)
        log = server.logged()
        return {"log_bytes": len(log.encode()), "tracebacks": log.count("Traceback")}
    finally:
        server.kill()


def measure():
    return {"odds": odds(), "moves": moves(), "sigint": sigint(), "cut": cut_bodies()}


def _answer(result):
    if result["status"] is None:
        return f"no answer in {GIVE_UP:g} s"
    return f"{result['status']} in {result['seconds']:.2f} s"


def _stop(result):
    exit = f"no exit in {GIVE_UP:g} s" if result["seconds"] is None else f"exit in {result['seconds']:.2f} s"
    return f"{exit}, {result['tracebacks']} tracebacks"


def table(results):
    rows = [("odds, 10M samples", lambda r: _answer(r["odds"])),
            ("/api/moves, 16x16 island", lambda r: _answer(r["moves"])),
            ("SIGINT, 3 analyses in flight", lambda r: _stop(r["sigint"])),
            ("3 cut bodies: bytes logged", lambda r: f"{r['cut']['log_bytes']:,} ({r['cut']['tracebacks']} tracebacks)")]
    names = list(results)
    cells = [[label] + [show(results[name]) for name in names] for label, show in rows]
    header = ["measure"] + names
    widths = [max(len(str(row[i])) for row in cells + [header]) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(header, widths))]
    lines += ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)) for row in cells]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="f18d557", help="the earlier commit (default: f18d557)")
    options = parser.parse_args()
    before = baseline.build_or_exit(options.baseline)
    results = {}
    for tree in (before, None):
        results[baseline.label(tree)] = baseline.call(__file__, "measure", [], tree=tree)
    print(f"claimsolve serve --max-time {MAX_TIME} --workers 2 (SIGINT: --max-time 20), on 127.0.0.1")
    print(table(results))


if __name__ == "__main__":
    main()
