"""`claimsolve review` against its targets (issue 33): a 200-decision Claim
It! game at 0.1 s a decision under 30 s of wall time, a 50-turn Claim game
at 1 s a turn under 40 s, on both cores; each also on one worker, side by
side, for the speed-up the second core gives.

    python benchmarks/bench_review.py [--only claimit|claim] [--workers 2] [--objective win|secured|held]

`--objective`: Claim It!'s (default: the review's own, the learned "win"
where weights are shipped for the seat count).

The games are made here, seeded: a 3-player Claim It! match game of
threshold:5 players (its first 200 decisions), and a 2-seat Claim game from
the match start (the play phase after random settles) between greedy and
mcts:iterations=300 players (its first 50 turns).  A review analyses every
position of the game once (the game's positions plus its final one).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import claimsolve  # noqa: E402
from claimsolve import records  # noqa: E402
from claimsolve.match import run_match  # noqa: E402

TARGETS = {"claimit": (200, 0.1, 30.0), "claim": (50, 1.0, 40.0)}    # moves, seconds a move, wall seconds


def game(kind, moves):
    """A record of the first `moves` moves of a seeded match game."""
    if kind == "claimit":
        result = run_match("claimit", "threshold:5", "threshold:5", 1, players=3, seed=2029)
    else:
        result = run_match("claim", "greedy", "mcts:iterations=300", 1, players=2, seed=10)
    played = result.records[0]
    if len(played.moves) < moves:
        raise SystemExit(f"the {kind} game has {len(played.moves)} moves, fewer than {moves}: pick another seed")
    return records.GameRecord.from_moves(claimsolve.from_dict(played.start), played.moves[:moves],
                                         players=played.players)


def timed(record, seconds, workers, objective=None):
    started = time.monotonic()
    review = claimsolve.review(record, time=seconds, workers=workers, objective=objective)
    return time.monotonic() - started, review


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(TARGETS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--objective", choices=["win", "secured", "held"])
    options = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    for kind, (moves, seconds, target) in TARGETS.items():
        if options.only and kind != options.only:
            continue
        record = game(kind, moves)
        objective = options.objective if kind == "claimit" else None
        wall, review = timed(record, seconds, options.workers, objective)
        alone, _ = timed(record, seconds, 1, objective)
        exact = sum(1 for m in review.moves if m.exact)
        verdict = "meets" if wall < target else "MISSES"
        print(f"{kind}: {moves} moves at {seconds:g} s a position ({moves + 1} positions): "
              f"{wall:.1f} s on {options.workers} workers, {alone:.1f} s on 1 ({alone / wall:.2f}x); "
              f"target under {target:g} s: {verdict} ({wall / target:.2f} of it); {exact} of {moves} moves exact; "
              f"values: {review.unit.split(':')[0]}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
