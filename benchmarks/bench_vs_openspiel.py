"""claimsolve against its peer, OpenSpiel with our games as Python games
(claimsolve.interop.openspiel: Color Claim, and Claim for claim-mcts-speed),
measured side by side in one run.

Sections (all by default, or pick some with --sections):
  solver             OpenSpiel's alpha_beta_search vs our exact solver on
                     2x4, 4x2, 3x3 setups: same values (asserted), speed-up
  mcts-speed         MCTS simulations per second on the 6x5 start: ours vs
                     OpenSpiel's MCTSBot with one random rollout per leaf
  claim-mcts-speed   the same on a 2-seat Claim middle game (the play phase
                     of random_play_start(seed=1, players=2) after 10 random
                     turns): our MCTS on the Cython engine vs MCTSBot on
                     Claim as an OpenSpiel Python game (the reference rules)
  head-to-head       6x5 games, seats swapped: our MCTS vs OpenSpiel's MCTSBot
  quality            4x3 / 3x4 positions with 8-10 stacks left: how often
                     each engine picks a move the exact solver proves optimal
  mcts-vs-alphabeta  6x5 games: our MCTS vs our alpha-beta

    python benchmarks/bench_vs_openspiel.py --quick
    python benchmarks/bench_vs_openspiel.py --sections solver,mcts-speed
    python benchmarks/bench_vs_openspiel.py --sections claim-mcts-speed
    python benchmarks/bench_vs_openspiel.py --sections head-to-head --games 50
"""
import argparse
import math
import os
import random
import shlex
import statistics
import sys
import time

from open_spiel.python.algorithms import minimax

import claimsolve
from claimsolve.claim.starts import random_play_start
from claimsolve.interop import openspiel as cs_spiel
from claimsolve.match import run_match
from claimsolve.search import alphabeta, mcts

SECTIONS = ("solver", "mcts-speed", "claim-mcts-speed", "head-to-head", "quality", "mcts-vs-alphabeta")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START_6X5 = os.path.join(ROOT, "seeds", "colorclaim", "start-6x5.json")


def sign(x):
    return (x > 0) - (x < 0)


def ratio_summary(ratios):
    """Median, smallest and geometric mean of a list of ratios."""
    geometric = 1.0
    for r in ratios:
        geometric *= r
    geometric **= 1.0 / len(ratios)
    return f"median {statistics.median(ratios):,.0f}x, smallest {min(ratios):,.0f}x, geometric mean {geometric:,.0f}x"


# ----------------------------------------------------------------------------


# Our solver's transposition table for these boards of at most 9 spaces: 1 MB
# holds them (a larger table only costs the time to clear it, ~1.5 ms per MB).
SOLVER_HASH_MB = 1


def section_solver(setups):
    print("## solver: exact values, OpenSpiel alpha_beta_search (margin returns, one run) vs claimsolve solve"
          f" (hash {SOLVER_HASH_MB} MB, median of 3 runs)")
    print(f"{'board':>5} {'seed':>4} {'value':>5} {'openspiel s':>12} {'claimsolve s':>13} {'speed-up':>10}")
    warm_up = claimsolve.new("colorclaim", size="2x2", seed=1)   # first calls load and build things
    minimax.alpha_beta_search(cs_spiel.game_from_position(warm_up, returns="margin"))
    alphabeta.solve(warm_up, hash_mb=SOLVER_HASH_MB)
    ratios = []
    for size, seed in setups:
        position = claimsolve.new("colorclaim", size=size, seed=seed)
        game = cs_spiel.game_from_position(position, returns="margin")
        started = time.perf_counter()
        spiel_value, _ = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length() + 1)
        spiel_seconds = time.perf_counter() - started

        # ours takes milliseconds: the median of 3 runs steadies it
        our_times = []
        for _ in range(3):
            started = time.perf_counter()
            result = alphabeta.solve(position, hash_mb=SOLVER_HASH_MB)
            our_times.append(time.perf_counter() - started)
        our_seconds = statistics.median(our_times)
        our_value = result.info["value"]
        assert result.complete, f"{size} seed {seed}: our solver did not finish"
        assert our_value == spiel_value, f"{size} seed {seed}: values differ: ours {our_value}, OpenSpiel {spiel_value}"
        ratio = spiel_seconds / our_seconds
        ratios.append(ratio)
        print(f"{size:>5} {seed:>4} {our_value:>+5} {spiel_seconds:>12.3f} {our_seconds:>13.5f} {ratio:>9,.0f}x")
    print(f"all {len(setups)} values agree; speed-up {ratio_summary(ratios)} (target: at least 100x)")
    print()


def mcts_speed(position, seconds, runs):
    """(ours, OpenSpiel's) median MCTS simulations per second from
    `position`: claimsolve's MCTS (simulations = result.nodes) and
    OpenSpiel's MCTSBot with one random rollout per leaf on the position's
    OpenSpiel game (a new game each run, so no run finds another's caches),
    each `seconds` per run."""
    ours, theirs = [], []
    for run in range(runs):
        result = mcts.search(position, time=seconds, seed=run + 1)
        ours.append(result.nodes / result.seconds)
        state = cs_spiel.state_from_position(position)
        bot = cs_spiel.TimedMCTSBot(state.get_game(), seconds)
        started = time.perf_counter()
        root = bot.mcts_search(state)
        theirs.append(root.explore_count / (time.perf_counter() - started))
    return statistics.median(ours), statistics.median(theirs)


def print_mcts_speed(our_rate, their_rate, peer):
    print(f"{'engine':<44} {'simulations/s (median)':>24}")
    print(f"{'claimsolve mcts':<44} {our_rate:>24,.0f}")
    print(f"{peer:<44} {their_rate:>24,.1f}")
    print(f"ratio {our_rate / their_rate:,.0f}x (target: at least 100x)")
    print()


def section_mcts_speed(seconds, runs):
    print(f"## mcts-speed: simulations per second on the 6x5 start ({seconds:g} s per run, {runs} runs each)")
    our_rate, their_rate = mcts_speed(claimsolve.load(START_6X5), seconds, runs)
    print_mcts_speed(our_rate, their_rate, "OpenSpiel MCTSBot, 1 random rollout")


def claim_middle_game(seed=1, turns=10):
    """A 2-seat Claim middle game: the play phase of random_play_start(seed,
    players=2), then `turns` random turns (random.Random(seed) picking among
    the reference's legal moves)."""
    position = random_play_start(seed, players=2)
    rng = random.Random(seed)
    for _ in range(turns):
        if position.is_over():
            break
        position = position.play(rng.choice(position.legal_moves()))
    return position


def section_claim_mcts_speed(seconds, runs, seed):
    position = claim_middle_game(seed)
    print(f"## claim-mcts-speed: simulations per second, Claim with 2 seats, the play phase of"
          f" random_play_start(seed={seed}) after 10 random turns ({seconds:g} s per run, {runs} runs each)")
    print(f"position: player {position.player_to_move} to move, {len(position.legal_moves())} legal turns,"
          f" towers on the island {[position.towers_on_island(c) for c in position.colours]}")
    our_rate, their_rate = mcts_speed(position, seconds, runs)
    print_mcts_speed(our_rate, their_rate, "OpenSpiel MCTSBot on Claim (Python), 1 rollout")


def print_match(result, label_a, label_b):
    wins, draws, losses = result.tally()
    lo, hi = result.confidence_interval()
    elo = result.elo()
    print(f"{label_a} vs {label_b}: {result.games} games, +{wins} ={draws} -{losses}")
    elo_text = f", Elo difference {elo:+.0f}" if math.isfinite(elo) else ""
    print(f"{label_a} points share {result.score:.1%} (95% CI {lo:.1%} .. {hi:.1%}, Wilson){elo_text}")


def progress_line(info):
    if sys.stderr.isatty():
        text = "  ".join(f"{k} {v}" for k, v in info.items())
        print(f"\r{text}   ", end="", file=sys.stderr, flush=True)


def end_progress_line():
    if sys.stderr.isatty():
        print(file=sys.stderr)


def play_6x5_match(spec_a, spec_b, label_a, label_b, games, seed):
    """A match of seeded 6x5 starts, seats swapped, progress on a terminal;
    prints the tally and returns the MatchResult."""
    result = run_match("colorclaim", spec_a, spec_b, games=games, size="6x5", seed=seed, progress=progress_line)
    end_progress_line()
    print_match(result, label_a, label_b)
    return result


def section_head_to_head(games, move_time, seed):
    print(f"## head-to-head: 6x5, {move_time:g} s per move, {games} games, seats swapped, seeded starts from {seed}")
    result = play_6x5_match(f"mcts:time={move_time}", f"openspiel-mcts:time={move_time}",
                            "claimsolve mcts", "OpenSpiel MCTSBot", games, seed)
    print("(target: at least 90% of the points)")
    print()
    return result


def quality_positions(count, seed):
    """`count` positions with 8 to 10 stacks left on 4x3 and 3x4 boards,
    reached by seeded random play from seeded random setups."""
    positions = []
    setup = seed
    while len(positions) < count:
        size = ("4x3", "3x4")[len(positions) % 2]
        target = 8 + len(positions) % 3
        position = claimsolve.new("colorclaim", size=size, seed=setup)
        rng = random.Random(setup)
        setup += 1
        while not position.is_over() and position.stack_count() > target:
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over() and position.stack_count() == target:
            positions.append(position)
    return positions


def section_quality(count, move_time, seed):
    print(f"## quality: {count} positions, 8-10 stacks left, 4x3 and 3x4; {move_time:g} s per move")
    print("optimal: a best move by the exact solver (largest final margin); result-keeping: a move whose"
          " exact value has the best sign (win/draw/loss)")
    positions = quality_positions(count, seed)
    engines = {
        "claimsolve mcts": lambda p, i: mcts.search(p, time=move_time, seed=i + 1).best.move,
        "claimsolve alpha-beta": lambda p, i: alphabeta.search(p, time=move_time).best.move,
        "OpenSpiel MCTSBot": lambda p, i: cs_spiel.OpenSpielMCTSPlayer(time=move_time, seed=i + 1).choose(p),
    }
    optimal_hits = dict.fromkeys(engines, 0)
    result_hits = dict.fromkeys(engines, 0)
    for index, position in enumerate(positions):
        solved = alphabeta.solve(position)
        value = solved.info["value"]
        values = {s.move: s.score for s in solved.suggestions}
        for name, choose in engines.items():
            move_value = values[choose(position, index)]
            optimal_hits[name] += move_value == value
            result_hits[name] += sign(move_value) == sign(value)
        progress_line({"position": f"{index + 1}/{count}", **optimal_hits})
    end_progress_line()
    print(f"{'engine':<24} {'optimal':>14} {'result-keeping':>16}")
    for name in engines:
        print(f"{name:<24} {optimal_hits[name]:>5}/{count:<3} {optimal_hits[name] / count:>5.0%}"
              f" {result_hits[name]:>7}/{count:<3} {result_hits[name] / count:>5.0%}")
    print("(target: at least 95% optimal for both claimsolve engines)")
    print()


def section_mcts_vs_alphabeta(games, move_time, seed):
    print(f"## mcts-vs-alphabeta: 6x5, {move_time:g} s per move, {games} games, seats swapped, seeded starts from {seed}")
    play_6x5_match(f"mcts:time={move_time}", f"alphabeta:time={move_time}",
                   "claimsolve mcts", "claimsolve alpha-beta", games, seed)
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated, from: {', '.join(SECTIONS)}")
    parser.add_argument("--quick", action="store_true", help="a smoke run of every section, under a minute")
    parser.add_argument("--games", type=int, default=50, help="games per match (head-to-head, mcts-vs-alphabeta)")
    parser.add_argument("--move-time", type=float, default=1.0, help="seconds per move in matches and quality")
    parser.add_argument("--positions", type=int, default=100, help="positions in the quality section")
    parser.add_argument("--solver-seeds", type=int, default=3, help="setups per board size in the solver section")
    parser.add_argument("--speed-time", type=float, default=3.0, help="seconds per mcts-speed run")
    parser.add_argument("--seed", type=int, default=1, help="first seed of start positions")
    args = parser.parse_args(argv)
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    for section in sections:
        if section not in SECTIONS:
            parser.error(f"unknown section {section!r} (from: {', '.join(SECTIONS)})")

    if args.quick:
        args.games, args.move_time, args.positions, args.speed_time = 2, 0.1, 4, 0.3
        setups = [("2x3", args.seed), ("3x2", args.seed)]
        speed_runs = 1
    else:
        setups = [(size, seed) for size in ("2x4", "4x2", "3x3")
                  for seed in range(args.seed, args.seed + args.solver_seeds)]
        speed_runs = 3

    print("$ " + shlex.join([os.path.basename(sys.executable)] + sys.argv))
    print(f"claimsolve {claimsolve.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print()
    if "solver" in sections:
        section_solver(setups)
    if "mcts-speed" in sections:
        section_mcts_speed(args.speed_time, speed_runs)
    if "claim-mcts-speed" in sections:
        section_claim_mcts_speed(args.speed_time, speed_runs, args.seed)
    if "head-to-head" in sections:
        section_head_to_head(args.games, args.move_time, args.seed)
    if "quality" in sections:
        section_quality(args.positions, args.move_time, args.seed)
    if "mcts-vs-alphabeta" in sections:
        section_mcts_vs_alphabeta(args.games, args.move_time, args.seed)


if __name__ == "__main__":
    main()
