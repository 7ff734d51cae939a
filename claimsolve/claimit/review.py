"""How `claimsolve review` grades a Claim It! decision (claimsolve.reviewer),
by one of the turn optimum's objectives (claimsolve.claimit.optimum):

- "win" (the default where weights are shipped for the game, as at every
  seat count today: default_objective): in win chance, the learned
  expected result (1 a win, 1/k of a win shared by k) of the position the
  turn leaves, with the best play of the rest of the turn: a model's
  estimate (docs/learning.md), never a proven value;
- "secured" (the default elsewhere): in secured spaces, the expected
  number of spaces the mover's turn secures, with the best play of the
  rest of the turn;
- "held": the spaces he holds more when his turn ends.

Every decision of a turn has its value in the optimum's answer (each
placement of a roll, roll or stop), so a decision's loss is the best
decision's value minus the one played.  For the spaces objectives the
values are exact where the optimum finishes within the time; elsewhere
each decision's value is the larger of the optimum's exact lower bound and
the Monte Carlo estimate of the odds table's plans for this turn (not
exact).  For "win" the rest of the turn is searched exactly under the net
where it finishes, else with at most d more rolls (the play valued as a
stop after them: a lower bound under the same net).  A roll's luck is the
value after it (on a bust: the bust's, 0 spaces or the net's value of the
position the bust leaves) minus the value of rolling, the mean over the 216
rolls: over a turn, its value at the end = the value at its start + the
luck of its rolls - the losses of its decisions."""
import functools
import time as _time

from ..errors import ClaimsolveError
from ..reviewer import LINE_PLIES
from . import optimum, rules
from .plans import plan_rows

OBJECTIVES = optimum.ALL_OBJECTIVES      # review --objective
OBJECTIVE = "secured"                    # the default where no weights fit the game (default_objective)
WIN = optimum.WIN
_WHAT = {"secured": "spaces the mover's turn secures", "held": "spaces the mover holds more when his turn ends"}
THRESHOLDS = {"inaccuracy": 0.1, "mistake": 0.3, "blunder": 0.6}
# in win chance: as Claim's review (claimsolve/claim/review.py)
WIN_THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
NOTES = ("the values are expected spaces of the turn, not wins: where the spaces lie and who is about to "
         "end the game are not counted; with the objective 'secured' a stop after whites alone gains nothing "
         "(they are held, not secured), with 'held' a black on your own colour gains nothing",)
WIN_NOTES = ("the values are a learned model's estimates of the chance of winning (the weights shipped for "
             "this seat count), not proven: a decision is graded by the net's value of where the rest of the "
             "turn ends, with the best play under the net",
             "the mover's line is his value with the best play of the rest of his turn; the other seats' lines "
             "are the net's values at the start of that turn, so the seats' values need not add up to 1",
             "where the rest of the turn did not finish in the time (a move's method says 'at most d more "
             "rolls'), rolling is valued by a lower bound: a roll graded as a loss against a stop there may lose "
             "less (more --time searches deeper)")
GRAPH = "counts"            # how the review graph draws the values (claimsolve.render.review)
# the net's values of the seats need not add up to 1, with 2 players too: a line per seat
# (reviewer.Review.mirrored; reviewer.saved, which cannot check it on a record's values)
VALUES_MIRROR = False
DIGITS = 3
DEFAULT_TIME = 0.2
GROUP_TURNS = True          # the decisions of a turn share the turn optimum's memo
HAS_LUCK = True
OPTIMUM_SHARE = 0.7
SAMPLES = 2000
SEAT_COUNTS = range(2, 6)   # Claim It! is played by 2 to 5 (seeds/claimit/RULES.md)


def unit(objective=OBJECTIVE):
    if objective == WIN:
        return ("win chance: the mover's expected result (1 a win, 1/k of a win shared by k) as the learned net "
                "values the position where his turn ends, with the best play of the rest of the turn under the "
                "net (a model's estimate, not proven)")
    return (f"{objective} spaces: the expected number of {_WHAT[objective]}, with the best play of the rest of "
            "the turn (the exact turn optimum where it finishes, else its lower bound or a Monte Carlo estimate)")


UNIT = unit()


def profile(start, objective=OBJECTIVE):
    """What a review of the game from `start` under `objective` shows:
    {"unit", "thresholds", "notes", "graph"}.  Refuses "win" in one line
    where no weights are shipped for the game's seat count (the caller
    names the option: reviewer.checked_options)."""
    if objective == WIN:
        if optimum.win_weights(start) is None:
            served = _win_players()
            where = (f"they are for {', '.join(str(n) for n in served)} players" if served else
                     "this installation has none for any")
            raise ClaimsolveError(f"'win' values a move by learned weights, and none are "
                                  f"shipped for Claim It! with {start.num_players} players ({where}; "
                                  "docs/learning.md makes them)")
        return {"unit": unit(WIN), "thresholds": dict(WIN_THRESHOLDS), "notes": list(WIN_NOTES), "graph": "chance"}
    return {"unit": unit(objective), "thresholds": dict(THRESHOLDS), "notes": list(NOTES), "graph": GRAPH}


def default_objective(start):
    """The objective a review takes where none is given: "win" where
    weights are shipped for the game's rule set, else "secured" (as the
    `optimum` player and `odds` recommend)."""
    return WIN if optimum.win_weights(start) is not None else OBJECTIVE


_LABELS = {"secured": "secured spaces", "held": "held spaces", "win": "win chance (learned)"}


def objective_choices():
    """The objectives a review can take, for the board's menu: [{"id",
    "label", "players": the seat counts it serves (None: all), "default":
    the seat counts where it is the default}]; "win" serves the seat counts
    with shipped weights."""
    served = list(_win_players())
    players = {WIN: served}
    default = {WIN: served, OBJECTIVE: [n for n in SEAT_COUNTS if n not in served]}
    return [{"id": objective, "label": _LABELS[objective], "players": players.get(objective),
             "default": default.get(objective, [])} for objective in OBJECTIVES]


@functools.lru_cache(maxsize=1)
def _win_players():
    return tuple(n for n in SEAT_COUNTS if optimum.shipped_win_weights(n, rules.default_target(n), False) is not None)


def decision(position, move):
    """The decision a move makes: "roll" for a roll with its dice, else the
    canonical move."""
    if move.strip().lower().startswith("roll"):
        return "roll"
    return position.move_name(position.move_code(move))


def evaluate(position, move, seconds, seed, objective=OBJECTIVE):
    if objective == WIN:
        return _evaluate_win(position, seconds, move)
    started = _time.monotonic()
    answer = optimum.solve(position, objective, seconds * OPTIMUM_SHARE)
    if answer["exact"]:
        decisions, method = answer["decisions"], "turn optimum"
    else:
        rows = plan_rows(position, samples=SAMPLES, seed=seed, rest_of_game=False,
                         deadline=started + seconds)
        decisions = optimum.fallback(position, objective, rows, answer)["decisions"]
        method = "turn optimum not finished: its lower bound or Monte Carlo"
    value, best = _best(decisions)
    return {"best": best, "value": value, "moves": decisions, "exact": answer["exact"],
            "seats": _counts(position, objective), "forced": len(decisions) == 1, "method": method, "bust": 0.0,
            "line": _line(position, best, answer["exact"], objective)}


def _evaluate_win(position, seconds, move=None):
    started = _time.monotonic()
    answer = optimum.solve_win(position, seconds)
    decisions = answer["decisions"]
    value, best = _best(decisions)
    if answer["exact"]:
        method = "win turn optimum under the learned net, the whole rest of the turn"
    else:
        rolls = answer["lower_bound"]["rolls"]
        method = (f"win turn optimum under the learned net, at most {rolls} more roll{'s' * (rolls != 1)} "
                  "(a lower bound)")
    seats = _chances(position)
    seats[position.player_to_move - 1] = value
    out = {"best": best, "value": value, "moves": decisions, "exact": False, "seats": seats,
           "forced": len(decisions) == 1, "method": method, "chances": True,
           "line": _line(position, best, answer["exact"], WIN)}
    if position.dice is None:      # a roll here may bust: the value of the position the bust leaves
        solver = optimum.win_solver_for(position)
        out["bust"] = solver.end_value(position.engine_state().state_bytes(), False)
        rolled = _rolled_value(position, move, answer, solver, max(0.05, seconds - (_time.monotonic() - started)))
        if rolled is not None:
            out["rolled"] = rolled
    return out


def _rolled_value(position, move, answer, solver, seconds):
    """The value of the position the roll played (`move`, "roll:3,5,1")
    left, at the horizon of the search that valued rolling here: the whole
    rest of the turn where that search was exact, else one roll fewer than
    its d (0: the best placement, then a stop).  The luck of a roll is this
    minus the value of rolling, which is the mean of this over the 216
    rolls: the luck of a player's rolls averages 0.  The value of the
    position after the roll from its own search (further rolls deep where
    its time allows) made every roll look lucky where the search here was
    cut short: +0.016 of win chance a roll at 0.2 s a position.  None for a
    bust (its value is the search's own) or where that search does not end
    within `seconds`."""
    if move is None or not move.strip().lower().startswith("roll:"):
        return None
    after = position.play(move)
    if after.is_over() or after.dice is None or after.player_to_move != position.player_to_move:
        return None
    if answer["exact"]:
        depth = optimum.UNLIMITED_ROLLS
    else:
        depth = answer["lower_bound"]["rolls"] - 1
    if depth == 0:
        return max(solver.end_value(after.play(placement).engine_state().state_bytes(), True)
                   for placement in after.legal_moves())
    complete, _states, decisions, _cut = solver.solve(after.engine_state().state_bytes(), seconds, depth)
    if not complete:
        return None
    return max(value for _code, value in decisions)


LINE_SECONDS = 0.01      # a decision of the line after the best: the optimum's memo holds it (it valued the best)


def _line(position, best, exact, objective):
    """The engine's line from `position`: the best decision, then, where
    the turn optimum that chose it finished (`exact`: its memo holds every
    position of the rest of the turn), its decisions after it while they are
    the mover's own (the placement's roll or stop), up to the first roll:
    what the dice give next is chance's, never the line's.  A roll as the
    best decision: no line (the dice decide at once); elsewhere the best
    decision alone."""
    if best is None or best == "roll":
        return []
    line, after = [best], position.play(best)
    while exact and len(line) < LINE_PLIES and not after.is_over() and \
            after.player_to_move == position.player_to_move and not after.turn_begins():
        answer = optimum.solve(after, objective, LINE_SECONDS)
        if not answer["exact"]:
            break
        _value, move = _best(answer["decisions"])
        if move == "roll":
            break
        line.append(move)
        after = after.play(move)
    return line


def _best(decisions):
    """(value, move): the best decision's value and the decision, ties to
    stop (no risk), then to the first listed."""
    value = max(decisions.values())
    order = (["stop"] if "stop" in decisions else []) + list(decisions)
    return value, next(move for move in order if decisions[move] >= value - 1e-12)


def final(position, objective=OBJECTIVE):
    if objective == WIN:
        seats = [float(p) for p in position.points()]
        return {"best": None, "value": seats[position.player_to_move - 1], "seats": seats, "exact": True,
                "method": "the result", "chances": True}
    seats = _counts(position, objective)
    return {"best": None, "value": 0.0, "seats": seats, "exact": True, "method": "the game is over"}


def luck(position, move, after_position, evaluation, next_evaluation):
    """What a roll's dice gave: the value after the roll (on a bust, the
    bust's) minus the value of rolling (the mean over the 216 rolls)."""
    if not move.strip().lower().startswith("roll"):
        return None
    turn_goes_on = (not after_position.is_over() and after_position.dice is not None
                    and after_position.player_to_move == position.player_to_move)
    if not turn_goes_on:
        after = evaluation["bust"]
    else:      # the search that valued rolling, where it valued the roll's outcome (_rolled_value)
        after = evaluation.get("rolled", next_evaluation["value"])
    return after - evaluation["moves"]["roll"]


def graph(position, evaluation):
    """Each seat's value: its spaces, the mover's with his turn's expected
    gain; or, by win chance, each seat's chance (the mover's his value)."""
    seats = list(evaluation["seats"])
    if not evaluation.get("chances") and not position.is_over():
        seats[position.player_to_move - 1] += evaluation["value"]
    return seats


def _counts(position, objective):
    """Each seat's spaces at the turn's start, as the objective counts them."""
    board = position.turn_start_board()
    count = rules.secured_count if objective == "secured" else rules.held_count
    return [float(count(board, seat)) for seat in range(1, position.num_players + 1)]


def _chances(position):
    """Each seat's learned expected result at the start of this turn (the
    position with the turn's markers taken off, its mover to roll)."""
    from ..learn import model
    from ..search.learned import load_weights

    start = position._replace(board=position.turn_start_board(), dice=None)
    state = start.engine_state()
    weights = load_weights(optimum.win_weights(position))
    return [model.evaluate(weights, state, seat) for seat in range(position.num_players)]
