"""Color Claim 6x5 endgames of 20 stacks: how often each evaluation's
first choice is solver-optimal (issue #37's check of a learned evaluation
for alpha-beta), side by side in one run.

Each endgame is a new 6x5 setup (`ColorClaimPosition.new(size="6x5",
seed=S)`, S = 1..--positions) after random.Random(S) moves down to 20
stacks.  The exact solver gives every legal move's value there
(alphabeta.solve, one thread); each evaluation's first choice is
alpha-beta's best move at a fixed depth (alphabeta.search, --depth,
default 3), and it is solver-optimal when its exact value is the
position's value.  Printed: per evaluation the count of optimal first
choices with a 95% interval (Wilson), then the positions where one is
optimal and the other not, the count of positions whose every move is
optimal (no choice to get wrong), and the mean loss (points of the final
margin) of each evaluation's choice.  The evaluations: classic (the
hand-written one) and learned (the shipped weights, or --weights FILE).

    python benchmarks/bench_learned_endgames.py [--positions 60] [--depth 3] [--weights FILE]
"""
import argparse
import math
import os
import random
import time

from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.search import alphabeta, learned

STACKS = 20


def endgame(seed):
    """The setup of `seed` after random.Random(seed) moves down to 20 stacks."""
    position = ColorClaimPosition.new(size="6x5", seed=seed)
    rng = random.Random(seed)
    while position.stack_count() > STACKS and not position.is_over():
        position = position.play(rng.choice(position.legal_moves()))
    return position


def wilson(k, n):
    """The 95% Wilson interval of k successes in n."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="endgames (seeds 1..N)")
    parser.add_argument("--depth", type=int, default=3, help="alpha-beta's fixed depth")
    parser.add_argument("--weights", default=None, help="the learned weights (default: the shipped ones)")
    args = parser.parse_args()
    evaluations = [("classic", learned.CLASSIC), ("learned", learned.Evaluation("learned", args.weights))]
    print(f"Color Claim 6x5 endgames of {STACKS} stacks, seeds 1-{args.positions}: alpha-beta depth {args.depth}'s "
          f"first choice against the exact solver; load average {os.getloadavg()[0]:.1f}")
    print(f"learned: {evaluations[1][1].describe()}")
    optimal = {label: 0 for label, _ in evaluations}
    loss = {label: 0 for label, _ in evaluations}
    only = {label: 0 for label, _ in evaluations}
    no_choice = 0
    started = time.process_time()
    for seed in range(1, args.positions + 1):
        position = endgame(seed)
        solved = alphabeta.solve(position, threads=1)
        value = solved.info["value"]
        values = {s.move: s.score for s in solved.suggestions}
        if all(score == value for score in values.values()):
            no_choice += 1
        good = {}
        for label, evaluation in evaluations:
            choice = alphabeta.search(position, depth=args.depth, evaluation=evaluation).suggestions[0].move
            good[label] = values[choice] == value
            optimal[label] += good[label]
            loss[label] += value - values[choice]
        for label in good:
            if good[label] and not any(good[other] for other in good if other != label):
                only[label] += 1
    n = args.positions
    print(f"{'evaluation':10s}  {'optimal first choices':24s}  {'95% interval':12s}  {'only this one':13s}  "
          f"mean loss")
    for label, _ in evaluations:
        low, high = wilson(optimal[label], n)
        share = f"{optimal[label]} of {n} ({optimal[label] / n:.3f})"
        print(f"{label:10s}  {share:24s}  {low:.3f}-{high:.3f}   {only[label]:<13d}  {loss[label] / n:.3f}")
    print(f"positions where every move is optimal: {no_choice}; processor time {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
