"""Does the engine's "greedy" playout policy (the default) make MCTS play
Color Claim better than uniform random playouts?  Both sides run the same MCTS with the
same time per move; only the playout policy differs.  Seats alternate on
each random 6x5 start.

    python benchmarks/bench_playout_colorclaim.py [--games 20] [--time 0.1] [--size 6x5]

Prints the greedy side's wins, draws and losses, its score (1 a win, 1/2 a
draw) with a 95% interval, the mean final margin, and simulations per second
of each policy.
"""
import argparse
import math
import time

from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.search import mcts


class GreedyPlayouts(ColorClaimPosition):
    engine_playout = "greedy"


class UniformPlayouts(ColorClaimPosition):
    engine_playout = "uniform"


def play(start, policies, seconds, seed):
    """One game; policies[p] is the position class of player p + 1."""
    position = start
    rates = {cls: [] for cls in policies}
    while not position.is_over():
        cls = policies[position.player_to_move - 1]
        result = mcts.search(cls(position.state), time=seconds, seed=seed)
        rates[cls].append(result.nodes / result.seconds)
        position = position.play(result.best.move)
    return position, rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--size", default="6x5")
    args = parser.parse_args()
    wins = draws = losses = 0
    margins, speed = [], {GreedyPlayouts: [], UniformPlayouts: []}
    started = time.perf_counter()
    for game in range(args.games):
        start = ColorClaimPosition.new(size=args.size, seed=1000 + game // 2)
        greedy_seat = game % 2 + 1
        policies = [UniformPlayouts, UniformPlayouts]
        policies[greedy_seat - 1] = GreedyPlayouts
        final, rates = play(start, policies, args.time, seed=game)
        for cls, values in rates.items():
            speed[cls].extend(values)
        scores = final.scores()
        margin = scores[greedy_seat - 1] - scores[2 - greedy_seat]
        margins.append(margin)
        wins += margin > 0
        draws += margin == 0
        losses += margin < 0
    n = args.games
    score = (wins + draws / 2) / n
    spread = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / n)
    print(f"greedy vs uniform playouts, MCTS {args.time} s/move, {n} games on {args.size} "
          f"({time.perf_counter() - started:.0f} s)")
    print(f"  greedy: +{wins} ={draws} -{losses}  score {score:.3f} +- {spread:.3f}  "
          f"mean margin {sum(margins) / n:+.2f}")
    for cls, name in ((GreedyPlayouts, "greedy"), (UniformPlayouts, "uniform")):
        print(f"  {name:8} {sum(speed[cls]) / max(1, len(speed[cls])):12,.0f} simulations/s")


if __name__ == "__main__":
    main()
