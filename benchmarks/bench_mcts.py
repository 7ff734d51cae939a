"""MCTS simulations per second on the Color Claim 6x5 start
(seeds/colorclaim/start-6x5.json): 1 s searches, 3 runs each, with the
engine's playout policy and with uniform random playouts, all in one run.

    python benchmarks/bench_mcts.py [--time 1] [--runs 3] [--position PATH]

The OpenSpiel side-by-side comparison is benchmarks/bench_vs_openspiel.py.
"""
import argparse
import os
import statistics
import sys

import claimsolve
from claimsolve.search import mcts

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_POSITION = os.path.join(HERE, "..", "seeds", "colorclaim", "start-6x5.json")


def measure(position, seconds, runs, **options):
    """[(simulations per second, tree nodes)] of `runs` searches."""
    out = []
    for run in range(runs):
        result = mcts.search(position, time=seconds, seed=run, **options)
        out.append((result.nodes / result.seconds, result.info["tree_nodes"]))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per search (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="searches per setting (default 3)")
    parser.add_argument("--position", default=DEFAULT_POSITION, help="position file")
    args = parser.parse_args(argv)
    position = claimsolve.load(args.position)
    print(f"MCTS on {os.path.relpath(args.position)}: {args.runs} searches of {args.time:g} s each")
    rates = {}
    for label, options in (("game playout policy", {}), ("uniform playouts", {"uniform_playouts": True})):
        runs = measure(position, args.time, args.runs, **options)
        rates[label] = statistics.median(rate for rate, _nodes in runs)
        each = ", ".join(f"{rate:,.0f}" for rate, _nodes in runs)
        print(f"  {label:20s} simulations/s: median {rates[label]:,.0f}  (runs: {each}; "
              f"tree nodes at the end: {runs[-1][1]:,})")
    ratio = rates["uniform playouts"] / rates["game playout policy"]
    print(f"  uniform / policy speed ratio: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
