"""The exact solver on one thread and on several, side by side in one run
(today's code, each answer in its own process with a fresh --hash MB table):

  4x3 setups, seeds 1-5          every move's value
  4x4 setups, seeds 1-5          value-only
  4x4 setup, seed 1              every move's value
  20-stack 6x5 endgames          value-only and every move's value

Threads buy wall time, not processor time: the ratio printed is wall
seconds on one thread over wall seconds on --threads (the processor
seconds and nodes of both are printed too).  A second thread only helps
when a second core is free: run it on an otherwise idle machine.  Each row
checks that both found the same value (and, with every move's value, the
same best moves).

    python benchmarks/bench_solver_threads.py                 # 1 against 2 threads
    python benchmarks/bench_solver_threads.py --quick         # without the every-move 4x4 and endgame rows
    python benchmarks/bench_solver_threads.py --threads 4 --cap 300
"""
import argparse
import os
import statistics
from pathlib import Path

import baseline
from bench_solver_frontier import ENDGAMES, SEEDS, cell

FRONTIER = str(Path(__file__).resolve().parent / "bench_solver_frontier.py")


def pair(where, value_only, hash_mb, cap, threads):
    timeout = None if cap is None else cap + 120
    out = []
    for n in (1, threads):
        try:
            out.append(baseline.call(FRONTIER, "measure", [where, value_only, hash_mb, cap, n], timeout=timeout))
        except baseline.BaselineError as exc:
            print(f"  ({exc})", flush=True)
            out.append(None)
    return out


def row(label, one, many):
    """A row; "same": the same value and, with every move's value, the same
    best moves (value-only proves one best move, which may differ among
    equals)."""
    ratio = agree = ""
    if one and many and one["complete"] and many["complete"]:
        ratio = f"{one['wall'] / max(1e-9, many['wall']):.2f}x"
        same = one["value"] == many["value"]
        if len(one["best"]) > 1 or len(many["best"]) > 1:
            same = same and set(one["best"]) == set(many["best"])
        agree = "yes" if same else "NO"
    value = next((m["value"] for m in (one, many) if m and m["complete"]), None)
    value = "" if value is None else f"{value:+d}"
    print(f"  {label:<24} {value:>5} {cell(one)} {cell(many)} {ratio:>7} {agree:>5}", flush=True)
    return one, many


def header(title, threads):
    print(f"\n{title}")
    print(f"  {'position':<24} {'value':>5} {'1 thread nodes':>13} {'cpu s':>7} {'wall s':>7} "
          f"{f'{threads} threads':>13} {'cpu s':>7} {'wall s':>7} {'wall':>7} {'same':>5}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2, help="threads to compare with one (default 2)")
    parser.add_argument("--hash", type=int, default=256, help="table MB for each answer (default 256)")
    parser.add_argument("--cap", type=float, default=400.0,
                        help="seconds each every-move answer of a 4x4 or an endgame may take (default 400)")
    parser.add_argument("--quick", action="store_true", help="skip the every-move 4x4 and endgame rows")
    args = parser.parse_args()
    print(f"Color Claim solver: 1 thread against {args.threads} on {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print("(* = not finished within the cap; the ratio is wall seconds on 1 thread / on more)")
    for size, value_only in (("4x3", False), ("4x4", True)):
        what = "value-only" if value_only else "every move's value"
        header(f"{size} setups, {what}", args.threads)
        walls = ([], [])
        for seed in range(1, 6):
            one, many = row(f"{size} s{seed}", *pair(f"{size}:{seed}", value_only, args.hash, None, args.threads))
            for k, m in enumerate((one, many)):
                walls[k].append(m["wall"] if m else float("nan"))
        print(f"  median wall: 1 thread {statistics.median(walls[0]):.2f} s, "
              f"{args.threads} threads {statistics.median(walls[1]):.2f} s")
    header("20-stack 6x5 endgames, value-only", args.threads)
    for file in ENDGAMES:
        row(file.replace(".json", ""), *pair(str(SEEDS / file), True, args.hash, None, args.threads))
    if not args.quick:
        header(f"every move's value (capped at {args.cap:g} s)", args.threads)
        row("4x4 s1", *pair("4x4:1", False, args.hash, args.cap, args.threads))
        for file in ENDGAMES:
            row(file.replace(".json", ""), *pair(str(SEEDS / file), False, args.hash, args.cap, args.threads))
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
