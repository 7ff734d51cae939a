"""Claim It! benchmarks, measured side by side in one run:

1. simulated rolls per second: whole games played out from a mid-game
   position, in the Cython engine (all in C) and in the reference rules
   (plain Python, Position.play), with the same kind of players: uniformly
   random, and the greedy push-your-luck policy;
2. the odds table with its default samples on seeds/claimit/mid-game*.json;
3. the exact turn optimum: the plain expectimax against the one pruned by
   its bounds (expanded turn states, seconds, exact or not within the
   budget) on the late-turn seeds and right after the 1st/2nd/3rd placement
   of a turn (the same from a turn's start, side by side with the code of
   ce758a0: benchmarks/bench_claimit_optimum.py).

    python benchmarks/bench_claimit.py [--seconds 2] [--optimum-time 1] [--only-optimum]
"""
import argparse
import glob
import os
import random
import time

import claimsolve
from claimsolve.claimit import optimum
from claimsolve.claimit.odds import DEFAULT_SAMPLES, odds
from claimsolve.claimit.players import RiskPlayer, ThresholdPlayer

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEEDS = os.path.join(ROOT, "seeds", "claimit")


def engine_rolls_per_second(position, seconds, uniform):
    game = position.engine_game()
    state = position.engine_state().state_bytes()
    seats = (1 << position.players) - 1 if uniform else 0
    games, rolls, seed = 0, 0, 1
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        _, n = game.simulate(state, 200, seed, seats)
        games += 200
        rolls += n
        seed += 1
    return rolls / (time.perf_counter() - started), games


class _Policy:
    """The engine's playout policy in Python: greedy placements; roll while
    fewer than 6 markers are placed and the bust chance is at most 25%."""

    def __init__(self):
        self.count = ThresholdPlayer(6)
        self.risk = RiskPlayer(0.25)

    def choose(self, position):
        move = self.count.choose(position)
        if move == "roll" and position.turn_in_progress() and self.risk.choose(position) == "stop":
            return "stop"
        return move


def reference_rolls_per_second(position, seconds, uniform):
    rng = random.Random(1)
    policy = _Policy()
    games, rolls = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        p = position
        while not p.is_over():
            move = rng.choice(p.legal_moves()) if uniform else policy.choose(p)
            move = p.resolve_chance(move, rng)
            rolls += move.startswith("roll:")
            p = p.play(move)
        games += 1
    return rolls / (time.perf_counter() - started), games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per rolls/s measurement")
    parser.add_argument("--optimum-time", type=float, default=optimum.DEFAULT_TIME,
                        help="budget of optimum.solve per objective (half of it for the unlimited search)")
    parser.add_argument("--only-optimum", action="store_true", help="run part 3 only")
    args = parser.parse_args()

    if args.only_optimum:
        optimum_part(args)
        return
    mid = claimsolve.load(os.path.join(SEEDS, "mid-game-3p.json"))
    print("1. Simulated rolls per second (games played out from seeds/claimit/mid-game-3p.json, one core)")
    for label, uniform in (("uniform random", True), ("greedy policy", False)):
        engine, eg = engine_rolls_per_second(mid, args.seconds, uniform)
        reference, rg = reference_rolls_per_second(mid, args.seconds, uniform)
        print(f"   {label:15s} engine {engine:12,.0f} rolls/s ({eg} games)   reference {reference:9,.0f} rolls/s "
              f"({rg} games)   ratio {engine / reference:6.0f}x")

    print(f"\n2. Odds table, default samples ({DEFAULT_SAMPLES} per row, default optimum budget), 3 runs each")
    for path in sorted(glob.glob(os.path.join(SEEDS, "mid-game*.json"))):
        position = claimsolve.load(path)
        times = []
        for run in range(3):
            started = time.perf_counter()
            table = odds(position, seed=run)
            times.append(time.perf_counter() - started)
        print(f"   {os.path.basename(path):24s} {len(table.rows)} rows  best {min(times):.2f} s  "
              f"worst {max(times):.2f} s  recommendation {table.recommendation}")

    optimum_part(args)


def optimum_part(args):
    print(f"\n3. Exact turn optimum, optimum.solve with time={args.optimum_time:g} s, fresh memo each time: "
          "the plain expectimax against the one pruned by its bounds (states: expanded turn states; "
          "proven: visits where the bound proved stop at once, when exact)")
    for name, position in optimum_positions():
        for objective in optimum.OBJECTIVES:
            cells = []
            for prune in (False, True):
                solver = optimum.solver_for(position, objective)
                solver.clear()
                solver.prune = prune
                started = time.perf_counter()
                result = optimum.solve(position, objective, time=args.optimum_time)
                seconds = time.perf_counter() - started
                proven = solver.pruned
                solver.prune = True
                solver.clear()
                cells.append(f"{'exact' if result['exact'] else 'NOT exact':9s} {result['states']:>10,} states "
                             + ((f"{proven:>11,} proven " if result["exact"] else f"{'-':>11s} proven ") if prune else "")
                             + f"{seconds:6.2f} s")
            print(f"   {name:34s} {objective:8s} plain {cells[0]}   pruned {cells[1]}")


def optimum_positions():
    """The late-turn seeds, and positions right after the first, second and
    third placement of a turn (the game's first turn, and a mid-game turn)."""
    start = claimsolve.load(os.path.join(SEEDS, "start-3p.json"))
    mid = claimsolve.load(os.path.join(SEEDS, "mid-game-3p.json"))
    lines = {
        "start-3p +w1@3,5": (start, ["roll:3,5,1", "w1@3,5"]),
        "start-3p +w1@3,5 B@3,5": (start, ["roll:3,5,1", "w1@3,5", "roll:3,5,2", "B@3,5"]),
        "start-3p +w1@3,5 B@3,5 w6@2,4": (start, ["roll:3,5,1", "w1@3,5", "roll:3,5,2", "B@3,5",
                                                  "roll:2,4,6", "w6@2,4"]),
        "mid-game-3p +w1@5,6": (mid, ["roll:1,5,6", "w1@5,6"]),
        "mid-game-3p +w1@5,6 w4@2,3": (mid, ["roll:1,5,6", "w1@5,6", "roll:2,3,4", "w4@2,3"]),
    }
    out = []
    for name in ("late-turn-roll-3p.json", "late-turn-stop-3p.json"):
        out.append((name, claimsolve.load(os.path.join(SEEDS, name))))
    for name, (position, moves) in lines.items():
        for move in moves:
            position = position.play(move)
        out.append((name, position))
    return out

if __name__ == "__main__":
    main()
