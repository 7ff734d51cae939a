"""Every command's --time is the whole command's wall-clock budget (within
10%): this runs each command that takes --time, for every game and engine,
as a user would (a new process: interpreter start, loading, the search,
naming the answer, printing, exit), and prints the wall time over the budget.

    python benchmarks/bench_budgets.py [--time 1] [--repeat 3] [--only analyze]
    python benchmarks/bench_budgets.py --islands [--baseline main] [--time 1.5]

A ratio above 1.10 misses the budget.  Wall time is measured from just
before the process is started to its exit, so it includes what the command
cannot count itself (the fork and exec before Python runs).  On a loaded
machine the figures are noisy: --repeat takes the median.

--islands runs the largest Claim islands (tests/data/claim-16x16-*.json: one
turn with about 1.8 million variants, another like it whose search runs its
whole budget, one with 89,000) under this code and under
--baseline (a commit built by benchmarks/baseline.py, default main) side by
side: analyze's wall time over its budget per engine (a run past CAP_RATIO
times the budget is stopped and shown as such), the time from Ctrl-C to the
exit and whether the answer so far was printed, and how long `moves` takes
to print its first 20 moves (`--limit 20`; the baseline has no --limit: its
first 20 lines are awaited).
"""
import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import baseline

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEEDS = os.path.join(ROOT, "seeds")
DATA = os.path.join(ROOT, "tests", "data")
ISLANDS = {"16x16 chains": os.path.join(DATA, "claim-16x16-battle-chains.json"),
           "16x16 lattice": os.path.join(DATA, "claim-16x16-battle-lattice.json"),
           "16x16 towers": os.path.join(DATA, "claim-16x16-battle-towers.json")}
CAP_RATIO = 20          # a run past this many times its budget is stopped
CTRL_C_AFTER = 3.0      # seconds into a long analysis when Ctrl-C is sent


# the command as its console script starts it
COMMAND = [sys.executable, "-c", "import sys; from claimsolve.cli.main import main; sys.exit(main(prog_name='claimsolve'))"]


def claimsolve(*args, stdout=subprocess.DEVNULL):
    return subprocess.run([*COMMAND, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE, text=True)


def cases(folder):
    """(label, argv) of every command and engine that takes --time."""
    c65 = os.path.join(folder, "c65.json")        # a 6x5 Color Claim start: nothing finishes in 1 s
    with open(c65, "w") as f:
        f.write(claimsolve("new", "colorclaim", "--size", "6x5", "--seed", "1", stdout=subprocess.PIPE).stdout)
    c44 = os.path.join(folder, "c44.json")        # 4x4: the solver needs a minute or two
    with open(c44, "w") as f:
        f.write(claimsolve("new", "colorclaim", "--size", "4x4", "--seed", "7", stdout=subprocess.PIPE).stdout)
    claimit = os.path.join(SEEDS, "claimit", "mid-game-3p.json")
    claimit_dice = os.path.join(SEEDS, "claimit", "mid-game-dice-3p.json")
    claim_play = os.path.join(SEEDS, "claim", "play-2p.json")
    claim_settle = os.path.join(SEEDS, "claim", "settle-2p.json")
    claim_3p = os.path.join(SEEDS, "claim", "play-3p.json")
    return [
        ("colorclaim analyze (auto)", ["analyze", c65]),
        ("colorclaim analyze (auto, 4x4)", ["analyze", c44]),
        ("colorclaim analyze --engine mcts", ["analyze", c65, "--engine", "mcts"]),
        ("colorclaim analyze --engine mcts --threads 2", ["analyze", c65, "--engine", "mcts", "--threads", "2"]),
        ("colorclaim analyze --engine alphabeta", ["analyze", c65, "--engine", "alphabeta"]),
        ("colorclaim analyze --engine solver", ["analyze", c44, "--engine", "solver"]),
        ("colorclaim solve", ["solve", c44]),
        ("claimit analyze", ["analyze", claimit]),
        ("claimit analyze --threads 2", ["analyze", claimit, "--threads", "2"]),
        ("claimit analyze (dice set)", ["analyze", claimit_dice]),
        ("claimit odds", ["odds", claimit]),
        ("claimit odds (dice set)", ["odds", claimit_dice]),
        ("claim analyze (play, alphabeta)", ["analyze", claim_play]),
        ("claim analyze --engine mcts (play)", ["analyze", claim_play, "--engine", "mcts"]),
        ("claim analyze (settle, mcts)", ["analyze", claim_settle]),
        ("claim analyze (3 seats, mcts)", ["analyze", claim_3p]),
        ("claim analyze (16x16 island, alphabeta)", ["analyze", ISLANDS["16x16 chains"], "--engine", "alphabeta"]),
        ("claim analyze (16x16 island, mcts)", ["analyze", ISLANDS["16x16 chains"], "--engine", "mcts"]),
    ]


def wall_of(argv, cap):
    """Seconds from start to exit of `claimsolve argv` (as this process's
    claimsolve imports it), or None when it ran past `cap` and was killed;
    and its exit code."""
    started = time.monotonic()
    try:
        proc = subprocess.run([*COMMAND, *map(str, argv)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=cap)
    except subprocess.TimeoutExpired:
        return None, None
    return time.monotonic() - started, proc.returncode


def ctrl_c_of(argv, after, cap):
    """Ctrl-C `after` seconds into `claimsolve argv`: (seconds from SIGINT to
    exit or None past `cap`, exit code, whether "the answer so far" was
    printed)."""
    proc = subprocess.Popen([*COMMAND, *map(str, argv)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    if proc.poll() is not None:
        return None, proc.returncode, False
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, _err = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, None, False
    return time.monotonic() - sent, proc.returncode, "the answer so far" in out


def first_moves(path, count, cap, limit):
    """Seconds until `claimsolve moves` has printed `count` moves (with
    `limit`: --limit count, and to its exit), None past `cap`."""
    argv = ["moves", path] + (["--limit", count] if limit else [])
    started = time.monotonic()
    proc = subprocess.Popen([*COMMAND, *map(str, argv)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    lines = 0
    deadline = started + cap
    try:
        while lines < count:
            if time.monotonic() > deadline:
                return None
            if not proc.stdout.readline():
                break
            lines += 1
        return time.monotonic() - started if lines >= count else None
    finally:
        proc.kill()
        proc.communicate()


def island_cases(budget):
    """(label, function, args) of the island measurements."""
    out = []
    for name, path in ISLANDS.items():
        for engine in ("auto", "alphabeta", "mcts"):
            out.append((f"{name} analyze --engine {engine}", "wall_of",
                        [["analyze", path, "--engine", engine, "--time", budget], CAP_RATIO * budget]))
        for engine in ("alphabeta", "mcts"):
            out.append((f"{name} {engine} Ctrl-C at {CTRL_C_AFTER:g} s", "ctrl_c_of",
                        [["analyze", path, "--engine", engine, "--time", 600], CTRL_C_AFTER, 30]))
    return out


def islands(args):
    before = baseline.build_or_exit(args.baseline)
    trees = [(baseline.label(before), before), ("now", None)]
    print(f"the largest Claim islands, --time {args.time:g}: {args.baseline} ({baseline.label(before)}) "
          "against this code")
    print(f"{'measure':<44} " + " ".join(f"{label:>22}" for label, _ in trees))
    for label, function, call_args in island_cases(args.time):
        if args.only is not None and args.only not in label:
            continue
        cells = []
        for _, tree in trees:
            result = baseline.call(__file__, function, call_args, tree=tree, timeout=CAP_RATIO * args.time + 60)
            if function == "wall_of":
                wall, code = result or (None, None)
                cells.append(f"past {CAP_RATIO * args.time:g} s, stopped" if wall is None
                             else f"{wall:.2f} s = {wall / args.time:.2f} T" + ("" if code == 0 else f" exit {code}"))
            else:
                latency, code, answer = result or (None, None, False)
                if latency is None:
                    cells.append("no exit in 30 s" if code is None else f"done first, exit {code}")
                else:
                    cells.append(f"{latency:.2f} s, exit {code}, " + ("answer" if answer else "no answer"))
        print(f"{label:<44} " + " ".join(f"{cell:>22}" for cell in cells))
    for name, path in ISLANDS.items():
        if args.only is not None and args.only not in f"{name} moves":
            continue
        cells = []
        for tree_label, tree in trees:
            seconds = baseline.call(__file__, "first_moves", [path, 20, 60, tree is None], tree=tree, timeout=120)
            cells.append("none in 60 s" if seconds is None else f"{seconds:.2f} s")
        print(f"{name + ' moves: first 20 printed':<44} " + " ".join(f"{cell:>22}" for cell in cells))
    print("(wall: process start to exit, interpreter start included; T the budget)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="the budget given to every command")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command (the median is shown)")
    parser.add_argument("--only", default=None, help="only the commands whose label contains this")
    parser.add_argument("--islands", action="store_true", help="the largest Claim islands, against --baseline")
    parser.add_argument("--baseline", default="main", help="the commit the islands are measured against")
    args = parser.parse_args()
    if args.islands:
        islands(args)
        return
    with tempfile.TemporaryDirectory() as folder:
        rows = [(label, argv) for label, argv in cases(folder) if args.only is None or args.only in label]
        print(f"--time {args.time:g}, {args.repeat} run(s) each, median wall time (process start to exit)")
        print(f"{'command':<48} {'wall s':>7} {'ratio':>6}")
        worst = 0.0
        for label, argv in rows:
            walls = []
            for _ in range(args.repeat):
                started = time.monotonic()
                proc = claimsolve(*argv, "--time", args.time)
                walls.append(time.monotonic() - started)
                if proc.returncode != 0:
                    print(f"{label}: exit code {proc.returncode}: {proc.stderr.strip()}")
                    break
            wall = statistics.median(walls)
            ratio = wall / args.time
            worst = max(worst, ratio)
            flag = "" if ratio <= 1.10 else "  over budget"
            print(f"{label:<48} {wall:7.3f} {ratio:6.3f}{flag}")
        print(f"worst ratio {worst:.3f}")


if __name__ == "__main__":
    main()
