"""Claim (1983) benchmarks, measured side by side in one run.

Sections (--sections, comma-separated; default perft,analyze):
  perft     perft over whole turns on the 2-seat play-phase middle game
            (seeds/claim/play-2p.json): the Cython engine against the
            reference rules, the same counts, and the ratio of their speeds
            (the target is 100x);
  analyze   `claimsolve analyze --time T` on every seed, as the command runs
            (a process each): wall-clock seconds against T, the largest
            overrun (the target: never more than 10% over), and the top
            five on the 2-seat settle start;
  strength  matches from random settles (the play phase), seats or teams
            swapped: MCTS at --move-time a move against `greedy` with 2 seats
            (--games, target 90% of points) and 4 seats, team against team
            (--team-games, target 80%), and MCTS against alpha-beta at the
            same time a move (--games);
  engines   the same with alpha-beta against greedy and 3 seats.

    python benchmarks/bench_claim.py [--sections perft,analyze,strength]
        [--time 1] [--move-time 1] [--games 60] [--team-games 40] [--seed 1]

The strength section takes a long time at the default 1 s a move (about an
hour for all three matches on two cores).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

import claimsolve
from claimsolve.match import run_match

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEEDS = os.path.join(ROOT, "seeds", "claim")
MIDDLE_GAME = os.path.join(SEEDS, "play-2p.json")


def perft_section(depth):
    position = claimsolve.load(MIDDLE_GAME)
    state = position.engine_state()
    started = time.perf_counter()
    engine = state.perft(depth)
    engine_seconds = time.perf_counter() - started
    started = time.perf_counter()
    reference = position.perft(depth)
    reference_seconds = time.perf_counter() - started
    same = "same counts" if engine == reference else f"DIFFERENT: reference {reference}"
    print(f"perft {os.path.relpath(MIDDLE_GAME, ROOT)} depth {depth}: {engine} ({same})")
    print(f"  engine    {engine_seconds:9.4f} s")
    print(f"  reference {reference_seconds:9.4f} s")
    print(f"  engine / reference speed: {reference_seconds / engine_seconds:,.0f}x")


def analyze_section(budget):
    worst = 0.0
    for path in sorted(glob.glob(os.path.join(SEEDS, "*.json"))):
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "analyze", path, "--time",
                              str(budget), "--json"], capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - started
        answer = json.loads(out.stdout)
        worst = max(worst, seconds / budget)
        best = answer["suggestions"][0]["move"] if answer["suggestions"] else "(over)"
        print(f"  {os.path.basename(path):32} {answer['engine']:9} {seconds:6.2f} s  "
              f"({seconds / budget:5.1%} of --time {budget:g})  best {best}")
        if path.endswith("settle-2p.json"):
            top = ", ".join(f"{s['move']} {s['score']:.3f}" for s in answer["suggestions"][:5])
            print(f"    top 5: {top}")
    print(f"analyze: the slowest command took {worst:.1%} of --time {budget:g} (target: at most 110%)")


def match_line(a, b, games, players, seed):
    started = time.perf_counter()
    result = run_match("claim", a, b, games, players=players, seed=seed)
    wins, draws, losses = result.tally()
    lo, hi = result.confidence_interval()
    print(f"  {a} vs {b}, {players} seats: A +{wins} ={draws} -{losses}, score {result.score:.3f} "
          f"(95% CI {lo:.3f} to {hi:.3f}), {time.perf_counter() - started:.0f} s", flush=True)
    return result


def strength_section(move_time, games, team_games, seed):
    mcts = f"mcts:time={move_time:g}"
    print(f"strength, play phase from random settles, {move_time:g} s a move:")
    match_line(mcts, "greedy", games, 2, seed)
    match_line(mcts, "greedy", team_games, 4, seed)
    match_line(mcts, f"alphabeta:time={move_time:g}", games, 2, seed)


def engines_section(move_time, games, seed):
    alphabeta = f"alphabeta:time={move_time:g}"
    print(f"alpha-beta and 3 seats, {move_time:g} s a move:")
    match_line(alphabeta, "greedy", games, 2, seed)
    match_line(alphabeta, "greedy", games, 3, seed)
    match_line(f"mcts:time={move_time:g}", "greedy", games, 3, seed)
    match_line(f"mcts:time={move_time:g}", alphabeta, games, 3, seed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sections", default="perft,analyze")
    parser.add_argument("--depth", type=int, default=3, help="perft depth")
    parser.add_argument("--time", type=float, default=1.0, help="analyze --time")
    parser.add_argument("--move-time", type=float, default=1.0, help="seconds a move in matches")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--team-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sections = args.sections.split(",")
    unknown = set(sections) - {"perft", "analyze", "strength", "engines"}
    if unknown:
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    if "perft" in sections:
        perft_section(args.depth)
    if "analyze" in sections:
        analyze_section(args.time)
    if "strength" in sections:
        strength_section(args.move_time, args.games, args.team_games, args.seed)
    if "engines" in sections:
        engines_section(args.move_time, args.games, args.seed)


if __name__ == "__main__":
    main()
