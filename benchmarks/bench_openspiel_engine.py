"""OpenSpiel's MCTSBot on our games backed by the Cython engines
(claimsolve.interop.engine_game) against the same bot on the games backed
by the reference rules (claimsolve.interop.openspiel), side by side in one
run, for each game: simulations per second (of the process's CPU time, or
with --clock wall of the wall clock) from the same position, the median
of --runs runs of --seconds (wall) each (target: the engine-backed game at
least 20x the reference-backed one).

Two bots, both OpenSpiel's MCTSBot with UCT constant 2, one random rollout
per leaf and the solver on: the Python one (open_spiel.python.algorithms.mcts,
as claimsolve's `openspiel-mcts` player runs it: cs_spiel.TimedMCTSBot) and
the C++ one (pyspiel.MCTSBot with pyspiel.RandomRolloutEvaluator, calling
the Python games through pybind11).  The Python bot's own work (choosing a
child by UCT over every child, numpy's random choice in its rollouts) costs
about as much per simulation as a whole Color Claim game on the engine, so
its ratio says more about the bot than about the game; the C++ bot's says
more about the game.  A third row gives the Python bot on the engine-backed
game with claimsolve's EngineRolloutEvaluator (the same uniformly random
rollouts, played in the engine: claimsolve.interop.engine_game) against
the same reference-backed measurement as the first row's (OpenSpiel's
RandomRolloutEvaluator, measured again in that row's runs).  Last, the
floor the C++ bot's calls into a Python game put under a simulation: the
calls, clones and legal-action entries handed over of a simulation,
counted, times what one costs, measured (machine load moves it as it
moves the rates: read it against the rates of the same run); and the
floor the Python bot's own work puts under any game: its rate with leaf
values that cost nothing.  The verdict is given for each game by its best
row.  A new game (no caches from another run) and a new bot each run; the
runs of the two sides interleaved.

Positions: Color Claim, the 6x5 start of seeds/colorclaim/start-6x5.json;
Claim It!, a 2-player middle game with a choice (40 random decisions from
the start: at the start itself `roll` is the only move); Claim, a 2-seat
middle game (the play phase of random_play_start(seed), then 10 random
turns, as in bench_vs_openspiel.py's claim-mcts-speed).

    python benchmarks/bench_openspiel_engine.py
    python benchmarks/bench_openspiel_engine.py --quick
    python benchmarks/bench_openspiel_engine.py --games colorclaim --seconds 5
"""
import argparse
import os
import random
import shlex
import statistics
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as spiel_mcts

import claimsolve
from claimsolve.claim.starts import random_play_start
from claimsolve.interop import engine_game
from claimsolve.interop import openspiel as cs_spiel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START_6X5 = os.path.join(ROOT, "seeds", "colorclaim", "start-6x5.json")
GAMES = ("colorclaim", "claimit", "claim")
TARGET = 20
# the clock of the rates: the process's CPU time (default: on a shared
# machine the rates then do not move with the other processes' load; the
# searches are single-threaded) or the wall clock (--clock wall)
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
CLOCK = [time.process_time]


def claim_middle_game(seed, turns=10):
    position = random_play_start(seed, players=2)
    rng = random.Random(seed)
    for _ in range(turns):
        if position.is_over():
            break
        position = position.play(rng.choice(position.legal_moves()))
    return position


def claimit_middle_game(seed, decisions=40):
    """2 players: `decisions` random decisions from the start (rolls drawn
    by the same random.Random(seed)), then on to a decision with a choice
    (at the start the only move is `roll`)."""
    position = claimsolve.new("claimit", players=2)
    rng = random.Random(seed)
    made = 0
    while made < decisions or len(position.legal_moves()) < 2:
        move = rng.choice(position.legal_moves())
        position = position.play(position.resolve_chance(move, rng))
        made += 1
    return position, made


def start_position(game_id, seed):
    if game_id == "colorclaim":
        return claimsolve.load(START_6X5), "the 6x5 start (seeds/colorclaim/start-6x5.json)"
    if game_id == "claimit":
        position, made = claimit_middle_game(seed)
        return position, (f"2 players, {made} random decisions from the start (random.Random({seed})),"
                          f" {' or '.join(position.legal_moves()[:4])} to choose")
    return claim_middle_game(seed), f"2 seats, random_play_start(seed={seed}) then 10 random turns"


def python_bot_rate(make_game, seconds, seed, engine_rollouts=False):
    """Simulations per second of one search of OpenSpiel's Python MCTSBot
    (open_spiel.python.algorithms.mcts, as cs_spiel.TimedMCTSBot runs it)
    for `seconds` from the start of a new game (`make_game()`); with
    `engine_rollouts`, on an engine-backed game, its evaluator is engine_game.EngineRolloutEvaluator
    (the same random rollouts, played in the engine)."""
    game = make_game()
    random_state = np.random.RandomState(seed)
    bot = cs_spiel.TimedMCTSBot(game, seconds, random_state=random_state)
    if engine_rollouts and game.get_type().short_name.endswith(engine_game.SUFFIX):
        bot.evaluator = engine_game.EngineRolloutEvaluator(1, random_state)
    started = CLOCK[0]()
    root = bot.mcts_search(game.new_initial_state())
    return root.explore_count / (CLOCK[0]() - started)


def cpp_bot_rate(make_game, seconds, seed):
    """Simulations per second of one search of OpenSpiel's C++ MCTSBot
    (pyspiel.MCTSBot, with pyspiel.RandomRolloutEvaluator) from the game's
    start.  It takes a number of simulations, not a time: a search of 5
    measures the rate, then a search of rate * `seconds` simulations (at
    least 5) is timed, each on a new game (the reference-backed Claim game
    keeps the turns of the positions it met)."""
    def search(simulations):
        game = make_game()
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 10 ** 6, True, seed, False)
        started = CLOCK[0]()
        root = bot.mcts_search(game.new_initial_state())
        return root.explore_count, CLOCK[0]() - started

    count, elapsed = search(5)
    count, elapsed = search(max(5, int(count / elapsed * seconds)))
    return count / elapsed


def python_bot_engine_rollouts_rate(make_game, seconds, seed):
    return python_bot_rate(make_game, seconds, seed, engine_rollouts=True)


class _FreeEvaluator(spiel_mcts.RandomRolloutEvaluator):
    """A leaf value that costs nothing (0 for every player): what the
    Python MCTSBot's own work (selection by UCT over every child, the
    expansion's shuffle and nodes) costs a simulation without any game
    cost at the leaves."""

    def evaluate(self, state):
        return np.zeros(state.num_players())


def python_bot_floor(make_game, seconds, seed):
    """Simulations per second of the Python MCTSBot on the engine-backed
    game (`make_game()`) with _FreeEvaluator: the most any rollouts at the
    leaves could leave it (the tree it grows differs: no rollout values)."""
    game = make_game()
    random_state = np.random.RandomState(seed)
    bot = cs_spiel.TimedMCTSBot(game, seconds, random_state=random_state)
    bot.evaluator = _FreeEvaluator(1, random_state)
    started = CLOCK[0]()
    root = bot.mcts_search(game.new_initial_state())
    return root.explore_count / (CLOCK[0]() - started)


# the state methods OpenSpiel's C++ calls on a Python state (pybind11 overrides)
CALLED_FROM_CPP = ("current_player", "is_terminal", "_legal_actions", "_apply_action", "chance_outcomes", "returns")


def cpp_bot_calls(make_game, simulations, seed):
    """(calls into the Python state, clones, legal-action entries handed
    back) a simulation of OpenSpiel's C++ MCTSBot on an engine-backed game
    (`make_game()`), counted over a search of `simulations` with every
    state method it calls wrapped."""
    game = make_game()
    counts = {"calls": 0, "states": 0, "entries": 0}

    def counted(method):
        def wrapper(self, *args):
            counts["calls"] += 1
            return method(self, *args)
        return wrapper

    def listed(method):
        def wrapper(self, *args):
            counts["calls"] += 1
            actions = method(self, *args)
            counts["entries"] += len(actions)
            return actions
        return wrapper

    base = game.state_class
    fields = {name: counted(getattr(base, name)) for name in CALLED_FROM_CPP}
    fields["_legal_actions"] = listed(base._legal_actions)

    def init(self, *args):
        counts["states"] += 1
        base.__init__(self, *args)

    fields["__init__"] = init
    game.state_class = type("Counted" + base.__name__, (base,), fields)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations, 10 ** 6, True, seed,
                          False)
    root = bot.mcts_search(game.new_initial_state())
    return (counts["calls"] / root.explore_count, (counts["states"] - 1) / root.explore_count,
            counts["entries"] / root.explore_count)


def cpp_call_costs(make_game, repeat=20000):
    """(seconds of one call from OpenSpiel's C++ into a Python state's
    method, seconds of one clone) on an engine-backed game: the first is
    pyspiel.State.is_chance_node(state) (C++ that asks the Python
    current_player) less the same on a state of a game written in C++
    (tic_tac_toe: the same call from Python into C++, no call back), the
    best of 9."""
    state = make_game().new_initial_state()
    native = pyspiel.load_game("tic_tac_toe").new_initial_state()

    def best(fn):
        return min(timeit_once(fn, repeat) for _ in range(9)) / repeat

    return (best(lambda: pyspiel.State.is_chance_node(state)) - best(lambda: pyspiel.State.is_chance_node(native)),
            best(state.clone))


def cpp_entry_cost(repeat=20000):
    """Seconds for each legal-action entry that OpenSpiel's C++ takes over
    from a Python state's list (pybind11's conversion to a std::vector),
    measured on the engine-backed Color Claim 6x5 game, where the start
    has 196 legal actions: pyspiel.State.legal_actions_mask (the C++
    LegalActions, then a mask of the game's fixed 240 actions handed back)
    at the start against a later state with a quarter as many, the
    difference for each entry (the state's own list building included),
    the best of 9."""
    game = engine_game.engine_game_from_position(claimsolve.load(START_6X5))
    many = game.new_initial_state()
    few = many.clone()
    rng = random.Random(1)
    while len(few.legal_actions()) > len(many.legal_actions()) // 4:
        few.apply_action(rng.choice(few.legal_actions()))

    def best(state):
        return min(timeit_once(lambda: pyspiel.State.legal_actions_mask(state), repeat) for _ in range(9)) / repeat

    return (best(many) - best(few)) / (len(many.legal_actions()) - len(few.legal_actions()))


def timeit_once(fn, repeat):
    started = CLOCK[0]()
    for _ in range(repeat):
        fn()
    return CLOCK[0]() - started


BOTS = (("Python MCTSBot", python_bot_rate), ("C++ MCTSBot", cpp_bot_rate),
        ("Python MCTSBot, engine rollouts", python_bot_engine_rollouts_rate))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help=f"comma-separated, from: {', '.join(GAMES)}")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per search")
    parser.add_argument("--runs", type=int, default=3, help="searches per game and side (the median is shown)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the Claim position and the bots")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 0.3 s, 1 run each")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="the rates per second of CPU time of this process (default) or of the wall clock")
    args = parser.parse_args(argv)
    CLOCK[0] = CLOCKS[args.clock]
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for game_id in games:
        if game_id not in GAMES:
            parser.error(f"unknown game {game_id!r} (from: {', '.join(GAMES)})")
    if args.quick:
        args.seconds, args.runs = 0.3, 1

    print("$ " + shlex.join([os.path.basename(sys.executable)] + sys.argv))
    print(f"claimsolve {claimsolve.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"OpenSpiel MCTSBot (UCT c=2, 1 random rollout, solver on), simulations per {args.clock} second,"
          f" median of {args.runs} run(s) of {args.seconds:g} s")
    print()
    print(f"{'game':<11} {'bot':<32} {'reference-backed':>17} {'engine-backed':>14} {'ratio':>8}")
    ratios = {}
    positions = []
    floors = []
    references = {}
    references_python = {}
    for game_id in games:
        position, described = start_position(game_id, args.seed)
        positions.append(f"{game_id}: {described}")
        for bot_name, rate in BOTS:
            reference, engine = [], []
            for run in range(args.runs):     # interleaved, on new games (no caches from another run)
                reference.append(rate(lambda: cs_spiel.game_from_position(position), args.seconds, args.seed + run))
                engine.append(rate(lambda: engine_game.engine_game_from_position(position), args.seconds,
                                   args.seed + run))
            reference, engine = statistics.median(reference), statistics.median(engine)
            if bot_name == "C++ MCTSBot":
                references[game_id] = (reference, engine)
                floors.append((game_id, position))
            if bot_name == "Python MCTSBot":
                references_python[game_id] = reference
            ratios[(game_id, bot_name)] = engine / reference
            print(f"{game_id:<11} {bot_name:<32} {reference:>17,.1f} {engine:>14,.1f}"
                  f" {engine / reference:>7,.1f}x", flush=True)
    print()
    print("positions: " + "; ".join(positions))
    print()
    print("The floor OpenSpiel's C++ MCTSBot puts under an engine-backed game: its calls into the Python state"
          " a simulation (counted) times what one costs (measured: a call from C++ into a Python method;"
          " a clone; a legal-action entry taken over into C++), against the reference-backed game's rate above:")
    measured = []
    for game_id, position in floors:
        make = (lambda: engine_game.engine_game_from_position(position))
        measured.append((game_id, cpp_bot_calls(make, 200, args.seed), cpp_call_costs(make)))
    # one call and one clone cost the same in every game: the least measured
    call = min(costs[0] for _, _, costs in measured)
    clone = min(costs[1] for _, _, costs in measured)
    entry = cpp_entry_cost()
    for game_id, (calls, clones, entries), _ in measured:
        floor = calls * call + clones * clone + entries * entry
        reference, engine = references[game_id]
        print(f"  {game_id:<11} {calls:,.0f} calls x {call * 1e6:.2f} us + {clones:.1f} clones x {clone * 1e6:.1f} us"
              f" + {entries:,.0f} legal-action entries x {entry * 1e9:.0f} ns"
              f" = {floor * 1e6:,.0f} us a simulation, {100 * floor * engine:.0f}% of the engine-backed game's"
              f" {1e6 / engine:,.0f} us: at most {1 / floor:,.0f} simulations a second,"
              f" {1 / floor / reference:,.1f}x the reference-backed {reference:,.1f}", flush=True)
    print()
    print("The floor OpenSpiel's Python MCTSBot puts under any game: its own work a simulation, measured on the"
          " engine-backed game with leaf values that cost nothing (engine_game rollouts cost more than that):")
    for game_id, position in floors:
        make = (lambda: engine_game.engine_game_from_position(position))
        rate = statistics.median(python_bot_floor(make, args.seconds, args.seed + run) for run in range(args.runs))
        reference = references_python[game_id]
        print(f"  {game_id:<11} at most {rate:,.0f} simulations a second, {rate / reference:,.1f}x the"
              f" reference-backed {reference:,.1f} (Python MCTSBot, OpenSpiel's rollouts)", flush=True)
    print()
    print(f"target: the engine-backed game at least {TARGET}x the reference-backed one, for each game, with"
          " OpenSpiel's MCTSBot (the Python or the C++ one):")
    for game_id in games:
        rows = {bot_name: ratios[(game_id, bot_name)] for bot_name, _ in BOTS}
        best = max(rows, key=rows.get)
        short = [f"{bot_name} {ratio:,.1f}x" for bot_name, ratio in rows.items() if ratio < TARGET]
        verdict = "met" if rows[best] >= TARGET else "NOT met"
        print(f"  {game_id:<11} {verdict}: best {best} {rows[best]:,.1f}x"
              + (f"; under {TARGET}x: {', '.join(short)} (their floors above)" if short else ""))


if __name__ == "__main__":
    main()
