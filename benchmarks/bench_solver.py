"""The exact solver (claimsolve.search.alphabeta.solve) on Color Claim, against
the targets of the foundation issue, all measured in one run:

  3x3 setups, seeds 1-10       median under 0.1 s
  4x3 setups, seeds 1-5        median under 30 s
  late 6x5 positions           12 stacks left (seeds 1-5): each under 30 s
  nodes per second             over all of the above
  peak RSS vs hash size        a time-limited 4x4 solve per --hash, in a fresh process

Every solve gives every legal move's exact value (`solve --json`'s `moves` list),
not only the position's value.  Setups are `ColorClaimPosition.new(size=,
seed=)`; a late position is that setup played with `random.Random(seed)`
choosing among the legal moves until at most 12 stacks are left.

    python benchmarks/bench_solver.py
    python benchmarks/bench_solver.py --late 12,16,20                # harder late positions too
    python benchmarks/bench_solver.py --board 4x4 --seed 1          # largest-board attempt
    python benchmarks/bench_solver.py --board 4x4 --seed 1 --time 600 --hash 1024
"""
import argparse
import json
import random
import statistics
import subprocess
import sys
import time

from claimsolve import _alphabeta
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.search import alphabeta


def late_position(seed, stacks, size="6x5"):
    position = ColorClaimPosition.new(size=size, seed=seed)
    rng = random.Random(seed)
    while position.stack_count() > stacks and not position.is_over():
        position = position.play(rng.choice(position.legal_moves()))
    return position


def solve_table(title, positions, hash_mb, target=None, per_position_target=False):
    """Solves each (label, position); prints a row each and the median.
    Returns (total nodes, total seconds)."""
    print(f"\n{title}")
    print(f"  {'position':<12} {'value':>6} {'moves':>6} {'nodes':>13} {'seconds':>9} {'Mnodes/s':>9}")
    times, nodes, seconds = [], 0, 0.0
    for label, position in positions:
        start = time.perf_counter()
        result = alphabeta.solve(position, hash_mb=hash_mb)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        nodes += result.nodes
        seconds += elapsed
        rate = result.nodes / elapsed / 1e6 if elapsed > 0 else 0.0
        note = "" if result.suggestions else "  (game over)"
        print(f"  {label:<12} {result.info['value']:>6} {len(result.suggestions):>6} {result.nodes:>13,} "
              f"{elapsed:>9.4f} {rate:>9.2f}{note}")
    median = statistics.median(times)
    line = f"  median {median:.4f} s, slowest {max(times):.4f} s"
    if target is not None:
        measured = max(times) if per_position_target else median
        verdict = "met" if measured < target else "NOT met"
        line += f"  (target: {'each' if per_position_target else 'median'} under {target:g} s: {verdict})"
    print(line)
    return nodes, seconds


def peak_rss_child(hash_mb, seconds):
    """Runs a time-limited 4x4 solve in a fresh process (Linux: reads
    /proc/self/status); returns its peak RSS in MB, its RSS just before the
    solve (MB) and the nodes searched."""
    code = f"""
import json
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.search import alphabeta
def rss(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
position = ColorClaimPosition.new(size="4x4", seed=1)
alphabeta.solve(ColorClaimPosition.new(size="2x2", seed=1), hash_mb=1)
before = rss("VmRSS:")
result = alphabeta.solve(position, time={seconds}, hash_mb={hash_mb})
print(json.dumps({{"before": before, "peak": rss("VmHWM:"), "nodes": result.nodes}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    return data["peak"], data["before"], data["nodes"]


def memory_table(sizes, seconds):
    print(f"\nPeak RSS vs --hash (4x4 seed 1, solve cut at {seconds:g} s, one fresh process each)")
    print(f"  {'hash MB':>8} {'peak RSS MB':>12} {'before solve MB':>16} {'solve added MB':>15} {'nodes':>13}")
    for hash_mb in sizes:
        peak, before, nodes = peak_rss_child(hash_mb, seconds)
        print(f"  {hash_mb:>8} {peak:>12.1f} {before:>16.1f} {peak - before:>15.1f} {nodes:>13,}")


def largest_board(size, seed, seconds, hash_mb):
    """One solve with progress lines; the time to the position's value and to
    every move's value."""
    position = ColorClaimPosition.new(size=size, seed=seed)
    state = position.engine_state()
    searcher = _alphabeta.Searcher(state.game, state.state_bytes(), position.player_to_move - 1,
                                   _alphabeta.Table(hash_mb))
    shown = [0.0]

    def progress(info):
        if info["seconds"] - shown[0] >= 10:
            shown[0] = info["seconds"]
            print(f"  {info['seconds']:7.1f} s  {info['phase']:<6} bounds [{info['lower']}, {info['upper']}]"
                  f"  {info['nodes']:>14,} nodes", flush=True)

    print(f"\n{size} seed {seed}: every move's exact value, --time {seconds:g}, --hash {hash_mb}")
    answer = searcher.solve(seconds, progress)
    rate = answer["nodes"] / answer["seconds"] / 1e6
    values = sorted((lo for _, lo, hi in answer["moves"] if lo == hi), reverse=True)
    if answer["lower"] == answer["upper"]:
        print(f"  value {answer['lower']} after {answer['value_seconds']:.1f} s "
              f"({answer['value_nodes']:,} nodes)")
    print(f"  {'complete' if answer['complete'] else 'NOT complete'}: {len(values)} of {len(answer['moves'])} "
          f"moves exact after {answer['seconds']:.1f} s, {answer['nodes']:,} nodes, {rate:.2f} Mnodes/s")
    if answer["complete"]:
        print("  move values:", " ".join(f"{position.turn_name(c)}={lo}" for c, lo, _ in
                                        sorted(answer["moves"], key=lambda m: -m[1])))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", help="largest-board attempt on this size, e.g. 4x4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time", type=float, default=600.0, help="budget of the largest-board attempt (s)")
    parser.add_argument("--hash", type=int, default=1024, help="table MB of the largest-board attempt")
    parser.add_argument("--rss-seconds", type=float, default=4.0)
    parser.add_argument("--late", type=lambda text: [int(k) for k in text.split(",")], default=[12, 16],
                        help="stacks left in the late 6x5 positions, e.g. 12,16,20 (default 12,16)")
    args = parser.parse_args()
    if args.board:
        largest_board(args.board, args.seed, args.time, args.hash)
        return

    total_nodes, total_seconds = 0, 0.0
    for title, positions, hash_mb, target, each in (
        ("3x3 setups, seeds 1-10", [(f"3x3 s{s}", ColorClaimPosition.new(size="3x3", seed=s))
                                    for s in range(1, 11)], 64, 0.1, False),
        ("4x3 setups, seeds 1-5", [(f"4x3 s{s}", ColorClaimPosition.new(size="4x3", seed=s))
                                   for s in range(1, 6)], 256, 30.0, False),
    ) + tuple(
        (f"Late 6x5 positions, {k} stacks left, seeds 1-5" + ("" if k <= 12 else " (beyond the target)"),
         [(f"6x5 s{s}", late_position(s, k)) for s in range(1, 6)], 256,
         30.0 if k <= 12 else None, k <= 12)
        for k in args.late
    ):
        nodes, seconds = solve_table(title, positions, hash_mb, target, each)
        total_nodes += nodes
        total_seconds += seconds
    print(f"\nNodes per second over these solves: {total_nodes / total_seconds / 1e6:.2f} M "
          f"({total_nodes:,} nodes in {total_seconds:.2f} s)")
    memory_table((16, 64, 256), args.rss_seconds)


if __name__ == "__main__":
    main()
