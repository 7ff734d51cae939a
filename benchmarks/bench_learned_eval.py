"""The speed of the learned evaluation in the engine (docs/learning.md,
"Inference in the engine") beside the hand-written one, per game, in one
run: alpha-beta nodes a second (the deterministic games) and MCTS
iterations a second, with eval=classic, and eval=learned with H = 0 (a
linear model) and H = 32 hidden units.  The weights are random arrays of
the right shapes (speed does not depend on their values); the searches are
the players' own (claimsolve.search.alphabeta.search and
claimsolve.search.mcts.search), from a seed position of each game:

- Claim, 2 seats, play phase (seeds/claim/play-2p.json);
- Color Claim 6x5, the start (seeds/colorclaim/start-6x5.json);
- Claim It!, 3 players, mid-game (seeds/claimit/mid-game-3p.json): MCTS
  only (alpha-beta does not search games with chance).

MCTS with eval=learned cuts every playout at the leaf (turns=0, the
default of learned.LEARNED_PLAYOUT_TURNS): an iteration there is one
evaluation where the classic one plays a whole playout (Claim It!: one
turn, then its fitted value), so its rate is what a player gets, not the
cost of the same work.  Each figure is the best of `--runs` searches of
`--seconds` each, per second of processor time (what one core does when
nothing else runs on it); the ratio is to classic's figure.  The load
average is printed with them.

    python benchmarks/bench_learned_eval.py [--seconds 1] [--runs 2]
"""
import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

import claimsolve
from claimsolve._learned import observation_info
from claimsolve.search import alphabeta, learned, mcts

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("Claim 2 seats, play", "claim/play-2p.json", True),
         ("Color Claim 6x5, start", "colorclaim/start-6x5.json", True),
         ("Claim It! 3 players, mid-game", "claimit/mid-game-3p.json", False)]
HIDDEN = (0, 32)


def random_weights(path, game, hidden, seed=0):
    name, players, planes, _, _, scalars = observation_info(game)
    n_in = planes + scalars
    rng = np.random.default_rng(seed)
    np.savez(path, format="claimsolve-eval-1", game=name, players=players, variant="", planes=planes,
             scalars=scalars, mean=np.zeros(n_in, np.float32), scale=np.ones(n_in, np.float32),
             W1=rng.normal(0, 0.1, (hidden, n_in)).astype(np.float32),
             b1=np.zeros(hidden, np.float32),
             W2=rng.normal(0, 0.1, hidden if hidden else n_in).astype(np.float32),
             b2=np.float32(0), made_by="benchmarks/bench_learned_eval.py (random)", study="{}",
             validation=np.zeros(3, np.float64))
    return str(path)


def rate(search, runs):
    """The best of `runs` (count, processor seconds) as a count a second."""
    best = 0.0
    for _ in range(runs):
        cpu = time.process_time()
        count = search()
        best = max(best, count / max(time.process_time() - cpu, 1e-9))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="each search's time")
    parser.add_argument("--runs", type=int, default=2, help="searches per figure (the best is kept)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; best of {args.runs} searches of {args.seconds:g} s; "
          "per second of processor time; ratio to classic")
    with tempfile.TemporaryDirectory() as tmp:
        for title, seed_file, deterministic in GAMES:
            position = claimsolve.load(ROOT / "seeds" / seed_file)
            game = position.engine_state().game
            evaluations = [("classic", learned.CLASSIC)]
            for hidden in HIDDEN:
                path = random_weights(Path(tmp) / f"{game.__class__.__name__}-{hidden}.npz", game, hidden)
                evaluations.append((f"learned H={hidden}", learned.Evaluation("learned", path)))
            print(f"\n{title} ({seed_file})")
            kinds = (["alpha-beta nodes/s"] if deterministic else []) + ["MCTS iterations/s"]
            for kind in kinds:
                base = None
                cells = []
                for label, evaluation in evaluations:
                    if kind.startswith("alpha"):
                        def search():
                            return alphabeta.search(position, time=args.seconds, evaluation=evaluation).nodes
                    else:
                        def search():
                            return mcts.search(position, time=args.seconds, evaluation=evaluation).nodes
                    figure = rate(search, args.runs)
                    base = figure if base is None else base
                    cells.append(f"{label} {figure:,.0f} ({figure / base:.2f}x)")
                print(f"  {kind:20s} " + "; ".join(cells))


if __name__ == "__main__":
    main()
