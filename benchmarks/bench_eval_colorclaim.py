"""Does the "lookahead" static evaluation of the Color Claim engine (the
mover's margin after his best move) make the depth-limited alpha-beta play
better than the "margin" one (the stacks owned now)?  Both sides run the same
alpha-beta with the same time per move; only the `evaluate` hook differs.  A
match (claimsolve.match.run_match) on seeded random starts, each played twice
with the seats swapped.

    nice python benchmarks/bench_eval_colorclaim.py [--games 100] [--time 0.1] [--size 6x5]

Prints each evaluation's nodes per second and depth in one second on the 6x5
start, then the lookahead side's wins, draws and losses and its score (1 a
win, 1/2 a draw) with the 95% Wilson interval.
"""
import argparse
import time

from claimsolve._colorclaim import EVALUATIONS, colorclaim_game
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.match import run_match
from claimsolve.search import alphabeta
from claimsolve.search.player import register_player


def _position_class(evaluation):
    class Position(ColorClaimPosition):
        def engine_game(self):
            return colorclaim_game(self.width, self.height, self.engine_playout, evaluation)
    Position.__name__ = f"ColorClaimPosition_{evaluation}"
    return Position


POSITION_CLASS = {evaluation: _position_class(evaluation) for evaluation in EVALUATIONS}


class EvaluationPlayer(alphabeta.AlphaBetaPlayer):
    """AlphaBetaPlayer searching over the engine with a chosen evaluation."""

    def __init__(self, evaluation, time=None, depth=None):
        super().__init__(time=time, depth=depth)
        self.position_class = POSITION_CLASS[evaluation]

    def choose(self, position):
        return super().choose(self.position_class(position.state))


def _player(options, seed):
    """SPEC "alphabeta-eval:eval=margin|lookahead,time=S" (or depth=D)."""
    depth = int(options["depth"]) if "depth" in options else None
    seconds = float(options["time"]) if "time" in options else None
    return EvaluationPlayer(options["eval"], seconds, depth)


register_player("alphabeta-eval", _player,
                plays=lambda game: issubclass(game.position_class, ColorClaimPosition))


def nodes_per_second(evaluation, seconds=1.0):
    start = POSITION_CLASS[evaluation].from_json(ColorClaimPosition.new(size="6x5", seed=0).to_json())
    result = alphabeta.search(start, time=seconds)
    return result.nodes / result.seconds, result.info["depth"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--size", default="6x5")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for evaluation in ("lookahead", "margin"):
        rate, depth = nodes_per_second(evaluation)
        print(f"  {evaluation:9} {rate:12,.0f} nodes/s, depth {depth} in 1 s on a 6x5 start")
    started = time.perf_counter()
    result = run_match("colorclaim", f"alphabeta-eval:eval=lookahead,time={args.time}",
                       f"alphabeta-eval:eval=margin,time={args.time}", args.games,
                       size=args.size, seed=args.seed)
    wins, draws, losses = result.tally()
    lo, hi = result.confidence_interval()
    print(f"lookahead vs margin evaluation, alpha-beta {args.time} s/move, {result.games} games "
          f"on {args.size}, seats swapped ({time.perf_counter() - started:.0f} s)")
    print(f"  lookahead: +{wins} ={draws} -{losses}  score {result.score:.3f}  95% CI [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()
