"""The solver's frontier (issue 10), before and after in one run: each
answer measured under the code of the baseline commit (benchmarks/baseline.py,
default ce758a0, the code when the work began) and under today's code, each
in its own process, on the same positions:

  4x3 setups, seeds 1-5          value-only and every move's value
  4x4 setups, seeds 1-5          value-only
  4x4 setup, seed 1              every move's value (capped at --cap seconds)
  20-stack 6x5 endgames          value-only and every move's value
                                 (seeds/colorclaim/endgame-6x5-20-seed*.json)
  ten 20-stack 6x5 endgames      `analyze` at its default budget and threads:
                                 is the value proven? (start-6x5.json, then
                                 random.Random(S) moves, S = 1-10)

Value-only is `solve --value-only` (the value and one best move); "every
move" is `solve` (each legal move's exact value).  Each answer gets a fresh
table of --hash MB.  Seconds are processor seconds of the solving process
(time.process_time), which a shared machine's load changes far less than
wall seconds; the wall seconds are printed too.  Each row checks that both
codes found the same value (and, for value-only, a move the other code
also rates best when it has every move's value).

    python benchmarks/bench_solver_frontier.py
    python benchmarks/bench_solver_frontier.py --quick        # no 4x4 every-move row, no endgame every-move rows
    python benchmarks/bench_solver_frontier.py --baseline HEAD~3 --cap 300
"""
import argparse
import json
import statistics
import time
from pathlib import Path

import baseline

SEEDS = Path(__file__).resolve().parent.parent / "seeds" / "colorclaim"
ENDGAMES = ["endgame-6x5-20-seed1.json", "endgame-6x5-20-seed4.json"]


def measure(where, value_only, hash_mb, cap=None, threads=1):
    """One answer under whatever claimsolve this process imports: `where` is
    "WxH:seed" (a new setup) or a position file.  Returns {"value",
    "best", "nodes", "cpu", "wall", "complete"}; "best" lists the moves worth
    the value (value-only: the one move proven).  `threads` > 1 needs a
    claimsolve that has the solver's threads (bench_solver_threads.py)."""
    from claimsolve.colorclaim import ColorClaimPosition
    from claimsolve.search import alphabeta
    if where.endswith(".json"):
        position = ColorClaimPosition.from_json(json.loads(Path(where).read_text()))
    else:
        size, seed = where.split(":")
        position = ColorClaimPosition.new(size=size, seed=int(seed))
    cpu, wall = time.process_time(), time.perf_counter()
    options = {"threads": threads} if threads != 1 else {}
    result = alphabeta.solve(position, hash_mb=hash_mb, time=cap, value_only=value_only, **options)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    value = result.info.get("value")
    if value_only:
        best = [result.info.get("best_move")]
    else:
        best = [s.move for s in result.suggestions if s.exact and s.score == value]
    return {"value": value, "best": best, "nodes": result.nodes, "cpu": cpu, "wall": wall,
            "complete": result.complete}


def analyze_endgame(seed):
    """`claimsolve analyze` as a user runs it (the default budget and
    threads) on start-6x5.json after random.Random(seed) moves to 20 stacks:
    {"value" (None unless proven), "engine", "wall"}."""
    import random
    import claimsolve
    position = claimsolve.load(str(SEEDS / "start-6x5.json"))
    rng = random.Random(seed)
    while position.stack_count() > 20:
        position = position.play(rng.choice(position.legal_moves()))
    wall = time.perf_counter()
    result = claimsolve.analyze(position).result
    wall = time.perf_counter() - wall
    proven = result.engine == "solver" and result.complete
    return {"value": result.info.get("value") if proven else None, "engine": result.engine, "wall": wall}


def analyze_endgames(before, name):
    print("\nanalyze at its default budget (2 s) and threads, ten 20-stack 6x5 endgames: the value proven?")
    print(f"  {'seed':<6} {name:>24} {'now':>24}")
    proven = {"old": 0, "new": 0}
    for seed in range(1, 11):
        cells = []
        for side, tree in (("old", before), ("new", None)):
            try:
                m = baseline.call(__file__, "analyze_endgame", [seed], tree=tree, timeout=120)
            except baseline.BaselineError as exc:
                print(f"  ({exc})", flush=True)
                cells.append(f"{'failed':>24}")
                continue
            if m["value"] is not None:
                proven[side] += 1
                what = f"{m['value']:+d} proven"
            else:
                what = f"{m['engine']}, not proven"
            what += f" {m['wall']:.2f} s"
            cells.append(f"{what:>24}")
        print(f"  {seed:<6} {cells[0]} {cells[1]}", flush=True)
    print(f"  proven: {name} {proven['old']} of 10, now {proven['new']} of 10")


def both(before, where, value_only, hash_mb, cap):
    """`measure` under the baseline tree and under today's code (None for a
    side whose process was killed or failed: its row says so)."""
    timeout = None if cap is None else cap + 120
    out = []
    for tree in (before, None):
        try:
            out.append(baseline.call(__file__, "measure", [where, value_only, hash_mb, cap], tree=tree,
                                     timeout=timeout))
        except baseline.BaselineError as exc:
            print(f"  ({exc})", flush=True)
            out.append(None)
    return out


def cell(m):
    if m is None:
        return f"{'killed':>13} {'':>7} {'':>7}"
    mark = "" if m["complete"] else "*"
    return f"{m['nodes']:>12,}{mark:1} {m['cpu']:>7.2f} {m['wall']:>7.2f}"


def row(label, old, new):
    ratio_n = ratio_c = agree = ""
    if old and new and old["complete"] and new["complete"]:
        ratio_n = f"{old['nodes'] / max(1, new['nodes']):.2f}x"
        ratio_c = f"{old['cpu'] / max(1e-9, new['cpu']):.2f}x"
        same = old["value"] == new["value"]
        if len(old["best"]) > 1 or len(new["best"]) > 1:
            wide, narrow = (old, new) if len(old["best"]) >= len(new["best"]) else (new, old)
            same = same and set(narrow["best"]) <= set(wide["best"])
        agree = "yes" if same else "NO"
    value = next((m["value"] for m in (new, old) if m and m["complete"]), None)
    value = "" if value is None else f"{value:+d}"
    print(f"  {label:<24} {value:>5} {cell(old)} {cell(new)} {ratio_n:>7} {ratio_c:>7} {agree:>5}", flush=True)


def header(title, before_name):
    print(f"\n{title}")
    print(f"  {'position':<24} {'value':>5} {before_name + ' nodes':>13} {'cpu s':>7} {'wall s':>7} "
          f"{'now nodes':>13} {'cpu s':>7} {'wall s':>7} {'nodes':>7} {'cpu':>7} {'same':>5}")


def setups(before, name, size, value_only, hash_mb):
    """Seeds 1-5 of one board size, both codes, and the median processor
    seconds of each."""
    what = "value-only" if value_only else "every move's value"
    header(f"{size} setups, {what}", name)
    cpu = {"old": [], "new": []}
    for seed in range(1, 6):
        old, new = both(before, f"{size}:{seed}", value_only, hash_mb, None)
        row(f"{size} s{seed}", old, new)
        cpu["old"].append(old["cpu"] if old else float("nan"))
        cpu["new"].append(new["cpu"] if new else float("nan"))
    print(f"  median {what} cpu: {name} {statistics.median(cpu['old']):.2f} s, "
          f"now {statistics.median(cpu['new']):.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=baseline.DEFAULT_COMMIT, help="the commit to compare with")
    parser.add_argument("--hash", type=int, default=256, help="table MB for each answer (default 256)")
    parser.add_argument("--cap", type=float, default=400.0,
                        help="seconds each every-move answer of a 4x4 or an endgame may take (default 400)")
    parser.add_argument("--quick", action="store_true", help="skip the every-move 4x4 and endgame rows")
    args = parser.parse_args()
    before = baseline.build_or_exit(args.baseline)
    name = baseline.label(before)
    print(f"Color Claim solver: {name} (before) against today's code (now), processor seconds")
    print("(* = not finished within the cap; ratios are before / now)")
    setups(before, name, "4x3", True, args.hash)
    setups(before, name, "4x3", False, args.hash)
    setups(before, name, "4x4", True, args.hash)
    header("20-stack 6x5 endgames, value-only", name)
    for file in ENDGAMES:
        old, new = both(before, str(SEEDS / file), True, args.hash, None)
        row(file.replace(".json", ""), old, new)
    analyze_endgames(before, name)
    if not args.quick:
        header(f"every move's value (capped at {args.cap:g} s)", name)
        old, new = both(before, "4x4:1", False, args.hash, args.cap)
        row("4x4 s1", old, new)
        for file in ENDGAMES:
            old, new = both(before, str(SEEDS / file), False, args.hash, args.cap)
            row(file.replace(".json", ""), old, new)


if __name__ == "__main__":
    main()
