"""Perft on the 6x5 Color Claim start (seeds/colorclaim/start-6x5.json):
the plain-Python reference rules against the Cython engine, in one run.

    python benchmarks/bench_perft_colorclaim.py [--depth 3] [--engine-depth 4]

Both count the same way (the last level is counted, not played).  Prints the
counts, the seconds, leaves per second and the engine/reference speed ratio
at the common depth (target: at least 50x).
"""
import argparse
import time
from pathlib import Path

import claimsolve

START = Path(__file__).resolve().parents[1] / "seeds" / "colorclaim" / "start-6x5.json"


def timed(function, *args):
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3, help="depth for both (default 3)")
    parser.add_argument("--engine-depth", type=int, default=4, help="extra depth for the engine alone (default 4)")
    args = parser.parse_args()

    position = claimsolve.load(START)
    reference, reference_seconds = timed(position.perft, args.depth)
    engine, engine_seconds = timed(position.engine_state().perft, args.depth)
    if reference != engine:
        raise SystemExit(f"perft mismatch: reference {reference}, engine {engine}")
    print(f"Color Claim perft, {START.name}, depth {args.depth}: {engine}")
    print(f"  reference (Python) {reference_seconds:9.3f} s  {sum(reference) / reference_seconds:14,.0f} moves/s")
    print(f"  engine (Cython)    {engine_seconds:9.4f} s  {sum(engine) / engine_seconds:14,.0f} moves/s")
    print(f"  ratio engine/reference: {reference_seconds / engine_seconds:,.0f}x")
    if args.engine_depth > args.depth:
        deep, deep_seconds = timed(position.engine_state().perft, args.engine_depth)
        print(f"engine depth {args.engine_depth}: {deep}  {deep_seconds:.3f} s  "
              f"{sum(deep) / deep_seconds:,.0f} moves/s")


if __name__ == "__main__":
    main()
