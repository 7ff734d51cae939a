"""Learning throughput (docs/tensors.md), against issue 36's targets:

- PettingZoo AEC `step`s a second, Color Claim 6x5 random play, one core
  (target 200,000): the usual loop, `env.last()` (the observation and the
  action mask of the agent to move) then `env.step(action)`, the action
  drawn by `env.random_action()`; once from one fixed setup (`seed=1`) and
  once with a new setup drawn for every game (`make_env`'s default).
- `claimsolve.batch` decisions a second, observations included: Color Claim
  6x5 (target 2 million on two cores) and Claim with 2 seats (target 1
  million), `threads=1` and `threads=2`, each step's actions drawn by
  `Batch.random_actions()`.

Each figure is the best of `--runs` runs of `--seconds` of wall time (the
machine is shared: the best run is the one least disturbed), given two
ways: per second of wall time, and per second of the processor time the
process used (all its threads together), which is what one core does
when nothing else runs on it; the load average is printed with them.  The
ratio to the target is the wall-time figure's (for the batch's two-core
target, the two-thread run's).

    python benchmarks/bench_rl.py [--seconds 2] [--runs 3] [--games 256]
"""
import argparse
import os
import time

from claimsolve.batch import Batch
from claimsolve.positions import game_class

PETTINGZOO_TARGET = 200_000
BATCH_TARGETS = {"colorclaim": 2_000_000, "claim": 1_000_000}


class Clock:
    """Wall and processor time since it was made."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def rates(self, count):
        """(count per second of wall time, per second of processor time)."""
        return count / (time.perf_counter() - self.wall), count / (time.process_time() - self.cpu)


def pettingzoo_rate(seconds, fixed):
    from claimsolve.env import make_env
    env = make_env("colorclaim", size="6x5", **({"seed": 1} if fixed else {}))
    env.reset(seed=0)
    steps = 0
    clock = Clock()
    end = time.perf_counter() + seconds
    while True:
        for _ in range(1000):
            if not env.agents:
                env.reset()
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(env.random_action())
            steps += 1
        if time.perf_counter() >= end:
            return clock.rates(steps)


def batch_rate(position, games, threads, seconds):
    batch = Batch(position, games, seed=0, threads=threads)
    actions = batch.random_actions()
    decisions = 0
    clock = Clock()
    end = time.perf_counter() + seconds
    while True:
        for _ in range(10):
            batch.step(batch.random_actions(actions))
            decisions += games
        if time.perf_counter() >= end:
            return clock.rates(decisions)


def best(runs, measure):
    """The run of the highest wall-time rate."""
    return max((measure() for _ in range(runs)), key=lambda rates: rates[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time of one run")
    parser.add_argument("--runs", type=int, default=3, help="runs of each figure (the best is printed)")
    parser.add_argument("--games", type=int, default=256, help="games in a batch")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; best of {args.runs} runs "
          f"of {args.seconds:g} s")
    for fixed in (True, False):
        wall, cpu = best(args.runs, lambda: pettingzoo_rate(args.seconds, fixed))
        setup = "one fixed setup" if fixed else "a new setup every game"
        print(f"PettingZoo AEC steps a second, Color Claim 6x5 random play, {setup}: {wall:,.0f} of wall "
              f"time, {cpu:,.0f} of processor time ({wall / PETTINGZOO_TARGET:.2f}x the target "
              f"{PETTINGZOO_TARGET:,})")
    for game, options in (("colorclaim", {"size": "6x5", "seed": 1}), ("claim", {"players": 2, "seed": 1})):
        position = game_class(game).new(**options)
        if position.engine_state().num_actions == 0:
            print(f"claimsolve.batch, {game}: its engine offers no learning hooks in this build")
            continue
        target = BATCH_TARGETS[game]
        for threads in (1, 2):
            wall, cpu = best(args.runs, lambda: batch_rate(position, args.games, threads, args.seconds))
            ratio = f" ({wall / target:.2f}x the target {target:,} on two cores)" if threads == 2 else ""
            print(f"claimsolve.batch decisions a second, {game} {options}, {args.games} games, "
                  f"{threads} thread{'s' if threads > 1 else ''}: {wall:,.0f} of wall time, "
                  f"{cpu:,.0f} of processor time{ratio}")


if __name__ == "__main__":
    main()
