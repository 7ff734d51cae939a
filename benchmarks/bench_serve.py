"""`claimsolve serve` under load: the issue's two figures.

1. /api/moves latency (p50, p95, max) while two long analyses run in the
   workers (the issue: p95 within 50 ms).
2. Time to the first suggestions after a position is set: what the page
   does (POST /api/show and /api/moves, then /api/analyze streaming) until
   the first progress event with suggestions (the issue: within 0.5 s).

The server is started as `claimsolve serve --port 0 --workers 2` on the
loopback; every request goes to 127.0.0.1 and the run stops by itself.

    python benchmarks/bench_serve.py [--requests 300] [--analysis-time 20]
"""
import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
LONG = ["claim/settle-3p.json", "colorclaim/start-6x5.json"]          # MCTS and alpha-beta, both long
MOVES = ["claim/play-2p.json", "claim/settle-2p.json", "colorclaim/start-6x5.json", "claimit/mid-game-dice-3p.json"]
FIRST = ["claim/settle-2p.json", "claim/brawl-2p.json", "claim/play-2p.json", "claim/play-3p.json",
         "colorclaim/start-4x4-seed1.json", "colorclaim/start-6x5.json", "claimit/mid-game-3p.json",
         "claimit/mid-game-dice-3p.json"]


def start_server(workers, max_time):
    process = subprocess.Popen([sys.executable, "-c", "from claimsolve.cli.main import main; main()", "serve", "--port", "0",
                                "--workers", str(workers), "--max-time", str(max_time)],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        process.kill()
        raise SystemExit(f"serve did not start: {line!r}")
    return process, int(match.group(1))


def position(name):
    return json.loads((SEEDS / name).read_text())


def post(port, path, body, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status} {data[:200]!r}")
    return data


def stream(port, body, stop, on_event, timeout=120):
    """POST /api/analyze as server-sent events; on_event(name, data, seconds)
    until the result or `stop` is set (then the connection is closed, which
    cancels the search)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    connection.request("POST", "/api/analyze", json.dumps(body),
                       {"Content-Type": "application/json", "Accept": "text/event-stream"})
    response = connection.getresponse()
    name = None
    try:
        while not stop.is_set():
            line = response.fp.readline()
            if not line:
                break
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                if on_event(name, json.loads(line[6:]), time.perf_counter() - started) is False:
                    break
                if name in ("result", "error"):
                    break
    finally:
        connection.close()


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def moves_under_load(port, requests, analysis_time):
    stop = threading.Event()
    running = []
    threads = []
    for name in LONG:
        body = {"position": position(name), "time": analysis_time}

        def run(body=body, name=name):
            def seen(event, data, seconds):
                if event == "progress" and name not in running:
                    running.append(name)
            stream(port, body, stop, seen)
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        threads.append(thread)
    deadline = time.monotonic() + 30
    while len(running) < len(LONG) and time.monotonic() < deadline:
        time.sleep(0.05)
    bodies = [{"position": position(name)} for name in MOVES]
    latencies = {name: [] for name in MOVES}
    began = time.monotonic()
    for i in range(requests):
        name = MOVES[i % len(MOVES)]
        t = time.perf_counter()
        post(port, "/api/moves", bodies[i % len(MOVES)])
        latencies[name].append(1000 * (time.perf_counter() - t))
    elapsed = time.monotonic() - began
    both_running = len(running) == len(LONG)
    stop.set()
    for thread in threads:
        thread.join(timeout=10)
    return latencies, both_running, elapsed


def first_suggestions(port, time_budget):
    out = {}
    for name in FIRST:
        pos = position(name)
        started = time.perf_counter()
        post(port, "/api/show", {"position": pos})
        post(port, "/api/moves", {"position": pos})
        loaded = time.perf_counter() - started
        first = {}
        stop = threading.Event()

        def seen(event, data, seconds):
            if data.get("suggestions") or (event == "progress" and data.get("best")):
                first.setdefault("seconds", seconds + loaded)
                return False
            if event == "result":
                first.setdefault("seconds", seconds + loaded)
        stream(port, {"position": pos, "time": time_budget, "top": 5}, stop, seen)
        out[name] = (loaded, first.get("seconds"))
        time.sleep(0.3)               # the closed stream's search is cancelled
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--analysis-time", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    process, port = start_server(args.workers, max(30.0, args.analysis_time))
    try:
        time.sleep(1.5)                  # the workers import claimsolve
        latencies, both, elapsed = moves_under_load(port, args.requests, args.analysis_time)
        every = [x for values in latencies.values() for x in values]
        print(f"/api/moves while {len(LONG)} long analyses run ({', '.join(LONG)}; both running: {both}):")
        print(f"  {'position':32s} {'n':>4s} {'p50 ms':>8s} {'p95 ms':>8s} {'max ms':>8s}")
        for name, values in latencies.items():
            print(f"  {name:32s} {len(values):4d} {statistics.median(values):8.1f} {percentile(values, 0.95):8.1f} "
                  f"{max(values):8.1f}")
        print(f"  {'all':32s} {len(every):4d} {statistics.median(every):8.1f} {percentile(every, 0.95):8.1f} "
              f"{max(every):8.1f}   ({len(every) / elapsed:.0f} requests/s)")
        print()
        print("time to the first suggestions after a position is set (show + moves, then the analysis stream):")
        print(f"  {'position':32s} {'show+moves ms':>14s} {'first suggestions ms':>21s}")
        firsts = first_suggestions(port, 3.0)
        for name, (loaded, seconds) in firsts.items():
            shown = f"{1000 * seconds:21.0f}" if seconds is not None else f"{'none':>21s}"
            print(f"  {name:32s} {1000 * loaded:14.1f} {shown}")
        values = [s for _, s in firsts.values() if s is not None]
        print(f"  worst {1000 * max(values):.0f} ms, median {1000 * statistics.median(values):.0f} ms")
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
