"""How `claimsolve review` grades a Claim turn (claimsolve.reviewer): in win
chance, the mover's expected result (1 win, 0.5 draw, 0 loss; 1/3 a draw
with three sides) as MCTS
estimates it, in every phase and for every number of seats.

A position's value for a seat is that seat's mean result over the
position's own search (every seat's rewards are summed at the root), so
that the value before a turn and the value after it, for the seat that
played it, are the same kind of estimate: a turn as good as the engine's
loses nothing on average, and a worse one loses about what the search
sees.  (The mean of the most visited turn alone would be the larger of
many noisy means, and make every turn look like a small loss.)  MCTS
proves results in two-sided games only near the end: a position whose
result is proven, even where only a bound of its margin is (">=+1", a
win), has that result as its exact value, and so has a turn whose result
the position's search proved.  A forced turn (the only legal one) is not
searched: its position takes the value of the position after it
(reviewer: an evaluation "from_next")."""
import itertools

from ..analysis import result_scale
from ..reviewer import line_of
from ..search.mcts import MCTSTree, _result
from ..words import counted
from .descriptor import GAME

def unit(sides=2):
    """The review's unit in words, for a game of `sides` sides (a draw is
    shared by them all: 1/3 each with three)."""
    return (f"win chance: the expected result for the seat that moved ({result_scale(GAME, sides)}), "
            "estimated by MCTS from each position's own search; exact only where a result is proven")


UNIT = unit()
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
NOTES = ("MCTS estimates of win chance carry noise of a few hundredths at a second a move: grades below "
         "'mistake' are a guide, not a verdict",)
GRAPH = "chance"            # how the review graph draws the values (claimsolve.render.review)
DIGITS = 3
DEFAULT_TIME = 1.0
MEMORY_MB = 128
_REWARD = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def profile(start):
    """What a review of the game from `start` shows (reviewer.profile_of):
    the unit for its number of sides."""
    return {"unit": unit(len(start.teams())), "thresholds": dict(THRESHOLDS), "notes": list(NOTES), "graph": GRAPH}


def evaluate(position, move, seconds, seed):
    if move is not None and _forced(position):
        return {"best": decision(position, move), "value": None, "seats": None, "exact": False,
                "forced": True, "from_next": True, "method": "forced: the only legal turn, not searched"}
    tree = MCTSTree(position, seed=seed, memory_mb=MEMORY_MB)
    done, spent = tree.search(time=seconds)
    result = _result(tree, [tree.turn_rows()], done, spent, tree.tree_nodes, 1)
    best = result.best
    seats = tree._tree.root_means() or [None] * position.num_players
    mover = position.player_to_move
    # a proven result is exact in this unit, even where only a bound of the margin is (">=+1": a win)
    exact = "result" in result.info
    if exact:
        value = _REWARD[result.info["result"]]
        seats = _proven_seats(position, value)
    else:
        seats = list(seats)
        value = seats[mover - 1]
    # the turns whose result the search proved: the value of such a turn played (reviewer._grade)
    proven = {s.move: _REWARD[s.result] for s in result.suggestions if s.result is not None}
    best = best.move if best is not None else None
    # the search's line of most visited turns (MCTSTree.principal_variation: the turns it reached)
    return {"best": best, "value": value, "seats": seats, "exact": exact, "line": line_of(best, result.pv),
            "moves": proven, "method": f"MCTS, {counted(done, 'simulation')}"}


def prove(position, seconds):
    """The position's result where alpha-beta proves it in `seconds`, as an
    evaluation's keys to replace (value, seats, exact, moves, method), else
    None.  The reviewer asks where a move's position after is proven and
    its position before is not, and the move would show a loss: MCTS-Solver
    proves results only near the end, and an estimate beside a proof is no
    loss at all where every move loses (a QA player's 'e4-e5 blunder, loss
    0.213' in a position alpha-beta proves lost at depth 12, every move
    -10,000).  Two sides only: a paranoid value is not the game's."""
    if len(position.teams()) != 2:
        return None
    from ..search import alphabeta
    answer = alphabeta.search(position, time=seconds)
    best = answer.suggestions[0] if answer.suggestions else None
    # the best move's proven win is the position's; its proven loss (the
    # others' scores at most it) is every move's; a draw only where all are proven
    if best is None or not best.exact or (best.result == "draw" and not answer.exact):
        return None
    mine = _REWARD[best.result]
    proven = {s.move: _REWARD[s.result] for s in answer.suggestions if s.exact and s.result is not None}
    return {"value": mine, "seats": _proven_seats(position, mine), "exact": True, "moves": proven, "best": best.move,
            "line": line_of(best.move, answer.pv), "method": f"alpha-beta proved it (depth {answer.info.get('depth')})"}


def _proven_seats(position, mine):
    """Every seat's value where the mover's proven result is `mine`: his
    team's the same, the other side's its complement (two sides)."""
    mover = position.player_to_move
    side = {seat for team in position.teams() if mover in team for seat in team}
    return [mine if seat in side else 1.0 - mine for seat in range(1, position.num_players + 1)]


def _forced(position):
    """Whether the position has one legal turn (found without listing them all)."""
    return len(list(itertools.islice(position.iter_moves(), 2))) == 1


def final(position):
    points = list(position.points())
    return {"best": None, "value": points[position.player_to_move - 1], "seats": points, "exact": True,
            "method": "the result"}


def decision(position, move):
    return position.turn_name(position.move_codes(move))


def graph(position, evaluation):
    return list(evaluation["seats"])
