"""Claim It!'s exact turn optimum, today's code against the code of
ce758a0 (benchmarks/baseline.py), side by side in one run:

1. from the start of a turn (the value of the first roll): the seeds
   mid-game-3p and start-3p with their turn markers taken off, the starts
   of turns 2 and 3 of two 3-player games, and a fixed set of random
   middle-game turn starts (2 to 5 players, both variants),
   both objectives, with a budget of `--seconds` a search (default 10) and
   each side's default table (optimum.DEFAULT_MEMORY_MB): turn states
   evaluated, processor and wall seconds, and how it ended (exact, time,
   or table full); today's code also on `--threads` threads (default 2:
   the second core);
2. the odds budget: random middle-game positions with three placements
   made this turn; the seconds each objective's exact search takes, and
   whether `odds` with its default budget gives both objectives exactly;
3. release_white later in a turn: random middle-game positions of that
   variant with 12 and 15 placements made this turn (whites come back
   there, and turns run long), both objectives, `--seconds` a search;
4. one thread against two, today's code: random middle-game positions with
   one or two placements made this turn (3 per player count, standard
   rules), each objective with the share `odds` gives it by default: how
   many searches are exact on each (`odds` takes the machine's cores, at
   most 2, unless told).

    python benchmarks/bench_claimit_optimum.py [--seconds 10] [--per-setup 1] [--only 1|2|3|4] [--threads 1|2]

Each search runs in a fresh process (a fresh table) under each tree; the
positions are made by today's reference rules (fixed seeds) and handed over
as JSON.  On a shared machine read the processor seconds; `uptime` is
printed with the figures.
"""
import argparse
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import baseline  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEEDS = os.path.join(ROOT, "seeds", "claimit")


# ------------------------------------------------------------------ positions (today's code, in this process)

def _as_turn_start(position):
    """The position with this turn's markers taken off, no dice: the start
    of the same turn."""
    from claimsolve.claimit import rules
    return position._replace(board=rules.bust(position.board), dice=None)


def random_position(players, release_white, seed, placements):
    """A middle-game position: a game of threshold players (thresholds drawn
    from 3..6) played from the empty board for 2 to 3 rounds of turns, then
    `placements` rolls with greedy placements into the next turn (none: the
    turn's start).  None when the game ended or the turn busted first."""
    import claimsolve
    from claimsolve.claimit.players import ThresholdPlayer, greedy_placement
    from claimsolve.claimit.position import placement_name
    rng = random.Random(seed)
    data = claimsolve.new("claimit", players=players).to_json()
    data["variant"] = {"release_white": release_white}
    position = claimsolve.from_dict(data)
    seats = [ThresholdPlayer(rng.choice([3, 4, 5, 6])) for _ in range(players)]
    turns = rng.randrange(2 * players, 3 * players + 1)
    while turns > 0:
        if position.is_over():
            return None
        if position.dice is None and not position.turn_in_progress():
            turns -= 1
            if turns == 0:
                break
        move = seats[position.to_move - 1].choose(position)
        position = position.play(position.resolve_chance(move, rng))
    mover = position.to_move
    for _ in range(placements):
        position = position.play(position.resolve_chance("roll", rng))
        if position.to_move != mover or position.dice is None:
            return None                                 # busted
        position = position.play(placement_name(greedy_placement(position)))
    return position


def positions_from(players, release_white, seed, placements, count):
    """(seed, position) of the first `count` positions random_position
    makes from `seed` on (the next seed when a game ends or a turn busts)."""
    out = []
    while len(out) < count:
        position = random_position(players, release_white, seed, placements)
        if position is not None:
            out.append((seed, position))
        seed += 1
    return out


def random_positions(placements, per_setup):
    """(name, JSON) of per_setup positions for each of 2..5 players and both
    variants (fixed seeds)."""
    out = []
    for players in range(2, 6):
        for release_white in (False, True):
            for seed, position in positions_from(players, release_white, 1000 * players + 100 * release_white,
                                                 placements, per_setup):
                name = f"{players}p {'release' if release_white else 'standard'} seed {seed}"
                out.append((name, position.to_json()))
    return out


def release_late_positions(per_setup, placements=(12, 15)):
    """(name, JSON) of per_setup release_white positions for each of 2..5
    players and each count of placements made this turn (fixed seeds)."""
    out = []
    for made in placements:
        for players in range(2, 6):
            for seed, position in positions_from(players, True, 9000 + 100 * players + 10 * made, made,
                                                 per_setup):
                out.append((f"{players}p release seed {seed}, {made} made", position.to_json()))
    return out


def seed_turn_starts():
    import claimsolve
    out = []
    for name in ("mid-game-3p.json", "start-3p.json"):
        position = _as_turn_start(claimsolve.load(os.path.join(SEEDS, name)))
        out.append((f"seed {name[:-5]}", position.to_json()))
    return out


def early_turn_starts(seeds=(0, 1), turns=(2, 3)):
    """The starts of the early turns of 3-player games of threshold players
    (thresholds drawn from 3..6) from the empty board: boards that some
    renamings of the die values leave as they are."""
    import claimsolve
    from claimsolve.claimit.players import ThresholdPlayer
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        position = claimsolve.new("claimit", players=3)
        seats = [ThresholdPlayer(rng.choice([3, 4, 5, 6])) for _ in range(3)]
        turn = 0
        while turn < max(turns) and not position.is_over():
            if position.dice is None and not position.turn_in_progress():
                turn += 1
                if turn in turns:
                    out.append((f"early 3p seed {seed} turn {turn}", position.to_json()))
            move = seats[position.to_move - 1].choose(position)
            position = position.play(position.resolve_chance(move, rng))
    return out


# ------------------------------------------------------------------ measurements (in a subprocess, under a tree)

def measure_optimum(data, objective, seconds, threads=1):
    """One exact search from a fresh table: states, processor and wall
    seconds, and how it ended.  Uses only what both trees have
    (optimum.solver_for, TurnSolver.solve), and `threads` only when 2."""
    import claimsolve
    from claimsolve.claimit import optimum
    position = claimsolve.from_dict(data)
    solver = optimum.solver_for(position, objective)
    solver.clear()
    state = position.engine_state().state_bytes()
    cpu, wall = time.process_time(), time.perf_counter()
    if threads == 1:
        complete, states, decisions, _ = solver.solve(state, float(seconds))
    else:
        complete, states, decisions, _ = solver.solve(state, float(seconds), 255, threads)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if complete:
        ended = "exact"
    elif getattr(solver, "full", solver.stored >= 0.7 * 2 ** 21 - 2):
        ended = "table full"
    else:
        ended = "time"
    value = None if decisions is None else max(v for _, v in decisions)
    return {"states": states, "cpu": cpu, "wall": wall, "ended": ended, "value": value}


def measure_odds_share(data, objective, threads):
    """The exact search `odds` makes by default for one objective (half of
    its DEFAULT_TIME, through optimum.solve) on `threads`, from a fresh
    table: exact or not, turn states, wall seconds."""
    import claimsolve
    from claimsolve.claimit import odds, optimum
    position = claimsolve.from_dict(data)
    optimum.solver_for(position, objective).clear()
    answer = optimum.solve(position, objective, odds.DEFAULT_TIME / 2, threads=threads)
    return {"exact": answer["exact"], "states": answer["states"], "wall": answer["seconds"]}


def measure_odds(data):
    """Whether `odds` with its default optimum budget gives both objectives
    exactly (few samples: the play-outs do not matter here)."""
    import claimsolve
    from claimsolve.claimit.odds import odds
    position = claimsolve.from_dict(data)
    table = odds(position, samples=20, seed=0)
    return {objective: bool(table.turn_optimum[objective]["exact"]) for objective in ("secured", "held")}


def default_odds_budget():
    from claimsolve.claimit import odds
    return odds.DEFAULT_TIME


# ------------------------------------------------------------------ the report

def _cell(row):
    if row is None:
        return f"{'killed':>34s}"
    return f"{row['ended']:10s} {row['states']:>10,} {row['cpu']:6.2f} s cpu {row['wall']:6.2f} s"


def _row_line(name, width, objective, rows):
    """A position's line: each side's cell, then the value, and whether the
    sides that finished agree on it."""
    values = [r["value"] for r in rows if r and r["value"] is not None]
    agree = "" if len(values) < 2 else ("  (same)" if max(values) - min(values) < 1e-9 else "  DIFFER")
    value = f"{values[-1]:.6f}{agree}" if values else "-"
    cells = "   ".join(f"{_cell(row):>40s}" for row in rows)
    return f"   {name:{width}s} {objective:9s} {cells}   {value}"


def part_turn_starts(before, seconds, per_setup, threads):
    from claimsolve.claimit import optimum
    print(f"\n1. The exact turn optimum from the start of a turn (the first roll), {seconds:g} s a search, "
          f"each side's default table (now {optimum.DEFAULT_MEMORY_MB} MB): how it ended, turn states, "
          "processor and wall seconds"
          + ("" if threads == 1 else f"; the last column on {threads} threads"))
    print(f"   {'position':28s} {'objective':9s} {'before (' + baseline.label(before) + ')':>40s}   "
          f"{'after (now)':>40s}   " + ("" if threads == 1 else f"{f'now, {threads} threads':>40s}   ") + "value")
    positions = seed_turn_starts() + early_turn_starts() + random_positions(0, per_setup)
    for name, data in positions:
        for objective in ("secured", "held"):
            rows = [baseline.call(__file__, "measure_optimum", [data, objective, seconds], tree=tree,
                                  timeout=seconds * 4 + 60) for tree in (before, None)]
            if threads != 1:
                rows.append(baseline.call(__file__, "measure_optimum", [data, objective, seconds, threads],
                                          timeout=seconds * 4 + 60))
            print(_row_line(name, 28, objective, rows), flush=True)


def part_odds_budget(before, per_setup):
    budgets = [baseline.call(__file__, "default_odds_budget", [], tree=tree) for tree in (before, None)]
    print(f"\n2. Three placements made this turn: the exact search's seconds per objective (60 s budget), "
          f"and whether `odds` with its default optimum budget ({budgets[0]:g} s before, {budgets[1]:g} s now, "
          "both objectives) is exact on both")
    worst = {None: 0.0, before: 0.0}
    misses = {None: 0, before: 0}
    positions = random_positions(3, per_setup)
    for name, data in positions:
        cells = []
        for tree in (before, None):
            rows = [baseline.call(__file__, "measure_optimum", [data, objective, 60], tree=tree, timeout=200)
                    for objective in ("secured", "held")]
            exact = baseline.call(__file__, "measure_odds", [data], tree=tree, timeout=120)
            worst[tree] = max([worst[tree]] + [r["wall"] for r in rows if r])
            misses[tree] += not (exact and all(exact.values()))
            cells.append(" ".join(f"{r['states']:>9,} {r['cpu']:5.2f}/{r['wall']:5.2f} s" if r else "killed"
                                  for r in rows)
                         + f"  odds exact: {'yes' if exact and all(exact.values()) else 'NO'}")
        print(f"   {name:28s} before {cells[0]}   now {cells[1]}", flush=True)
    print(f"   {len(positions)} positions: slowest search (wall) before {worst[before]:.2f} s, now {worst[None]:.2f} s; "
          f"odds not exact on both objectives: before {misses[before]}, now {misses[None]}")


def part_release_late(before, seconds, per_setup):
    print(f"\n3. release_white later in a turn: 12 and 15 placements made, {seconds:g} s a search, one thread, "
          "each side's default table: how it ended, turn states, processor and wall seconds")
    print(f"   {'position':34s} {'objective':9s} {'before (' + baseline.label(before) + ')':>40s}   "
          f"{'after (now)':>40s}   value")
    exact = {before: 0, None: 0}
    positions = release_late_positions(per_setup)
    for name, data in positions:
        for objective in ("secured", "held"):
            rows = [baseline.call(__file__, "measure_optimum", [data, objective, seconds], tree=tree,
                                  timeout=seconds * 4 + 60) for tree in (before, None)]
            for tree, row in zip((before, None), rows):
                exact[tree] += bool(row and row["ended"] == "exact")
            print(_row_line(name, 34, objective, rows), flush=True)
    print(f"   exact within {seconds:g} s: before {exact[before]} of {2 * len(positions)}, "
          f"now {exact[None]} of {2 * len(positions)}")


def part_threads(per_setup=3):
    print("\n4. One or two placements made this turn (standard rules): the exact turn optimum with the share "
          "`odds` gives each objective by default, on one thread and on two (today's code): exact or not, "
          "turn states, wall seconds")
    exact = {}
    for made in (1, 2):
        for players in range(2, 6):
            for seed, position in positions_from(players, False, 7000 + 100 * players + 10 * made, made, per_setup):
                cells = []
                for threads in (1, 2):
                    for objective in ("secured", "held"):
                        row = baseline.call(__file__, "measure_odds_share", [position.to_json(), objective, threads],
                                            timeout=120)
                        key = (made, threads, objective)
                        exact[key] = exact.get(key, 0) + bool(row and row["exact"])
                        cells.append("killed" if row is None else
                                     f"{'exact' if row['exact'] else 'time':5s} {row['states']:>9,} {row['wall']:5.2f} s")
                print(f"   {made} made, {players}p seed {seed:5d}   1 thread: {cells[0]}  {cells[1]}   "
                      f"2 threads: {cells[2]}  {cells[3]}", flush=True)
    for made in (1, 2):
        count = 4 * per_setup
        print(f"   {made} made: exact on 1 thread secured {exact[(made, 1, 'secured')]} of {count}, held "
              f"{exact[(made, 1, 'held')]} of {count}; on 2 threads secured {exact[(made, 2, 'secured')]} of "
              f"{count}, held {exact[(made, 2, 'held')]} of {count}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget of a search from a turn's start")
    parser.add_argument("--per-setup", type=int, default=1, help="random positions per players x variant")
    parser.add_argument("--only", choices=["1", "2", "3", "4"], help="run one part")
    parser.add_argument("--threads", type=int, choices=[1, 2], default=2,
                        help="part 1: also today's code on this many threads (1: not)")
    parser.add_argument("--baseline", default=baseline.DEFAULT_COMMIT, help="the commit compared against")
    args = parser.parse_args()
    before = baseline.build_or_exit(args.baseline)
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if args.only in (None, "1"):
        part_turn_starts(before, args.seconds, args.per_setup, args.threads)
    if args.only in (None, "2"):
        part_odds_budget(before, args.per_setup)
    if args.only in (None, "3"):
        part_release_late(before, args.seconds, args.per_setup)
    if args.only in (None, "4"):
        part_threads()
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
