"""The speed of the learned evaluation in the engine (docs/learning.md,
"Inference in the engine") beside the hand-written one, per game, in one
run: alpha-beta nodes a second (the deterministic games) and MCTS
iterations a second, with eval=classic, and eval=learned with H = 16
hidden units on the plane sums in weights format 1 (in a two-sided game
two views a node, both sides' logits) and format 2 (one view a node, the
mover's), then format 2 with H = 8 on the plane sums and the classic
evaluation ("+classic", the second Color Claim weights' shape), with none
(linear) on the same features (the shipped Color Claim and Claim models'
shape) and with H = 16 on the whole observation ("obs"), and last the
weights the package ships for the position ("shipped", where there are
any).  Apart from those, the weights are random arrays of the right
shapes (speed does not depend on their values); the searches are
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
# (label, format, hidden units, input, classic feature)
MODELS = [("format 1 H=16", 1, 16, "sums", 0), ("format 2 H=16", 2, 16, "sums", 0),
          ("format 2 H=8 +classic", 2, 8, "sums", 1), ("format 2 H=0 +classic", 2, 0, "sums", 1),
          ("format 2 H=16 obs", 2, 16, "observation", 0)]


def random_weights(path, game, hidden, seed=0, version=1, input="sums", classic=0):
    name, players, planes, height, width, scalars = observation_info(game)
    n_in = (planes * height * width if input == "observation" else planes) + scalars + classic
    rng = np.random.default_rng(seed)
    extra = {} if version == 1 else {"input": input, "height": height, "width": width, "classic": classic}
    np.savez(path, format=f"claimsolve-eval-{version}", game=name, players=players, variant="", planes=planes,
             scalars=scalars, mean=np.zeros(n_in, np.float32), scale=np.ones(n_in, np.float32),
             W1=rng.normal(0, 0.1, (hidden, n_in)).astype(np.float32),
             b1=np.zeros(hidden, np.float32),
             W2=rng.normal(0, 0.1, hidden if hidden else n_in).astype(np.float32),
             b2=np.float32(0), made_by="benchmarks/bench_learned_eval.py (random)", study="{}",
             validation=np.zeros(3, np.float64), **extra)
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
            for label, version, hidden, input, classic in MODELS:
                path = random_weights(Path(tmp) / f"{game.__class__.__name__}-{len(evaluations)}.npz", game, hidden,
                                      version=version, input=input, classic=classic)
                evaluations.append((label, learned.Evaluation("learned", path)))
            shipped = learned.shipped_weights(game)
            if shipped is not None:
                evaluations.append((f"shipped {Path(shipped).name}", learned.Evaluation("learned", shipped)))
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
