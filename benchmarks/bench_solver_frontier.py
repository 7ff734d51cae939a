"""The solver's frontier (issue 10): the full every-move answer
(`solve`) and the value-only answer (`solve --value-only`: the value and one
best move, by null-window searches on the value with the table kept across
them), side by side in one run, on the same positions with the same code:

  4x3 setups, seeds 1-5       both answers each, nodes and seconds, ratio
  4x4 setup, seed 1           the same, each in a fresh process capped at --cap
                              seconds (the full answer takes about two minutes)

Each answer gets a fresh table of --hash MB (no answer reuses another's
table).  Seconds are wall-clock on whatever machine runs it: on a shared,
loaded machine read the node counts first.  Each row checks that the
value-only answer's value equals the full answer's and that its move is one
of the full answer's best moves.

    python benchmarks/bench_solver_frontier.py
    python benchmarks/bench_solver_frontier.py --cap 300            # give 4x4 longer
    python benchmarks/bench_solver_frontier.py --no-4x4             # 4x3 only
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.search import alphabeta


def measure(size, seed, value_only, hash_mb, cap=None):
    """One answer: {"value", "best" (list of best moves), "nodes", "seconds",
    "complete"}."""
    position = ColorClaimPosition.new(size=size, seed=seed)
    start = time.perf_counter()
    result = alphabeta.solve(position, hash_mb=hash_mb, time=cap, value_only=value_only)
    elapsed = time.perf_counter() - start
    if value_only:
        best = [result.info.get("best_move")]
    else:
        best = [s.move for s in result.suggestions if s.exact and s.score == result.info.get("value")]
    return {"value": result.info.get("value"), "best": best, "nodes": result.nodes,
            "seconds": elapsed, "complete": result.complete}


def measure_in_process(size, seed, value_only, hash_mb, cap):
    """`measure` in a fresh process (its own memory), with the solver's
    own time limit at `cap` and a hard kill a little after it."""
    code = ("import json, sys; sys.path.insert(0, %r); import bench_solver_frontier as b; "
            "print(json.dumps(b.measure(%r, %d, %r, %d, %r)))"
            % (sys.path[0], size, seed, value_only, hash_mb, cap))
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=cap + 60)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        print(proc.stderr, file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def row(label, full, fast):
    def cell(m):
        if m is None:
            return f"{'killed':>13} {'':>8}"
        mark = "" if m["complete"] else "*"
        return f"{m['nodes']:>12,}{mark:1} {m['seconds']:>8.2f}"
    ratio_n = ratio_s = ""
    agree = ""
    if full and fast and full["complete"] and fast["complete"]:
        ratio_n = f"{full['nodes'] / max(1, fast['nodes']):.1f}x"
        ratio_s = f"{full['seconds'] / max(1e-9, fast['seconds']):.1f}x"
        ok = fast["value"] == full["value"] and fast["best"][0] in full["best"]
        agree = "yes" if ok else "NO"
    value = next((m["value"] for m in (full, fast) if m and m["complete"]), None)
    value = "" if value is None else f"{value:+d}"
    print(f"  {label:<10} {value:>5} {cell(full)} {cell(fast)} {ratio_n:>8} {ratio_s:>8} {agree:>6}")


def header(title):
    print(f"\n{title}")
    print(f"  {'position':<10} {'value':>5} {'full nodes':>13} {'full s':>8} {'value nodes':>13} {'value s':>8} "
          f"{'nodes':>8} {'seconds':>8} {'agree':>6}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hash", type=int, default=256, help="table MB for each answer (default 256)")
    parser.add_argument("--cap", type=float, default=240.0, help="seconds each 4x4 answer may take (default 240)")
    parser.add_argument("--no-4x4", dest="big", action="store_false", help="skip the 4x4 setup")
    args = parser.parse_args()
    print("Color Claim solver: full answer (every move's value) vs value-only (value and one best move)")
    print("(* = not finished within the cap; ratios are full / value-only)")
    header("4x3 setups")
    full_t, fast_t = [], []
    for seed in range(1, 6):
        full = measure("4x3", seed, False, args.hash)
        fast = measure("4x3", seed, True, args.hash)
        full_t.append(full["seconds"])
        fast_t.append(fast["seconds"])
        row(f"4x3 s{seed}", full, fast)
    print(f"  median: full {statistics.median(full_t):.3f} s, value-only {statistics.median(fast_t):.3f} s")
    if args.big:
        header(f"4x4 setup (each answer in a fresh process, capped at {args.cap:g} s)")
        fast = measure_in_process("4x4", 1, True, args.hash, args.cap)
        full = measure_in_process("4x4", 1, False, args.hash, args.cap)
        row("4x4 s1", full, fast)


if __name__ == "__main__":
    main()
