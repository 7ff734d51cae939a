"""Claim It! benchmarks, measured side by side in one run:

1. simulated rolls per second: whole games played out from a mid-game
   position, in the Cython engine (all in C) and in the reference rules
   (plain Python, Position.play), with the same kind of players: uniformly
   random, and the greedy push-your-luck policy;
2. the odds table with its default samples on seeds/claimit/mid-game*.json;
3. the exact turn optimum: turn states per second on the late-turn seeds.

    python benchmarks/bench_claimit.py [--seconds 2]
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
    args = parser.parse_args()

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

    print("\n3. Exact turn optimum (fresh memo each time)")
    for name in ("late-turn-roll-3p.json", "late-turn-stop-3p.json"):
        position = claimsolve.load(os.path.join(SEEDS, name))
        for objective in optimum.OBJECTIVES:
            optimum.solver_for(position, objective).clear()
            started = time.perf_counter()
            result = optimum.solve(position, objective, time=30)
            seconds = time.perf_counter() - started
            print(f"   {name:24s} {objective:8s} {result['states']:8,} turn states in {seconds:.3f} s "
                  f"({result['states'] / seconds:,.0f}/s)  decisions "
                  + ", ".join(f"{m} {v:.4f}" for m, v in result["decisions"].items()))


if __name__ == "__main__":
    main()
