"""How `claimsolve review` grades a Claim It! decision (claimsolve.reviewer):
in secured spaces, the expected number of spaces the mover's turn
secures, with the best play of the rest of the turn (the exact turn
optimum, objective "secured": claimsolve.claimit.optimum).

Every decision of a turn has its value in the optimum's answer (each
placement of a roll, roll or stop), so a decision's loss is the best
decision's value minus the one played, exact where the optimum finishes
within the time; elsewhere each decision's value is the larger of the
optimum's exact lower bound and the Monte Carlo estimate of the odds
table's plans for this turn (not exact).  A roll's luck is the value after
it (0 on a bust) minus the value of rolling, the mean over the 216 rolls:
over a turn, its gain = the value at its start + the luck of its rolls -
the losses of its decisions."""
import time as _time

from . import optimum, rules
from .plans import plan_rows

OBJECTIVES = optimum.OBJECTIVES          # review --objective
OBJECTIVE = "secured"                    # the default, as the odds table's optimum row
_WHAT = {"secured": "spaces the mover's turn secures", "held": "spaces the mover holds more when his turn ends"}
THRESHOLDS = {"inaccuracy": 0.1, "mistake": 0.3, "blunder": 0.6}
NOTES = ("the values are expected spaces of the turn, not wins: where the spaces lie and who is about to "
         "end the game are not counted; with the objective 'secured' a stop after whites alone gains nothing "
         "(they are held, not secured), with 'held' a black on your own colour gains nothing",)
GRAPH = "counts"            # how the review graph draws the values (claimsolve.render.review)
DIGITS = 3
DEFAULT_TIME = 0.2
GROUP_TURNS = True          # the decisions of a turn share the turn optimum's memo
HAS_LUCK = True
OPTIMUM_SHARE = 0.7
SAMPLES = 2000


def unit(objective=OBJECTIVE):
    return (f"{objective} spaces: the expected number of {_WHAT[objective]}, with the best play of the rest of "
            "the turn (the exact turn optimum where it finishes, else its lower bound or a Monte Carlo estimate)")


UNIT = unit()


def decision(position, move):
    """The decision a move makes: "roll" for a roll with its dice, else the
    canonical move."""
    if move.strip().lower().startswith("roll"):
        return "roll"
    return position.move_name(position.move_code(move))


def evaluate(position, move, seconds, seed, objective=OBJECTIVE):
    started = _time.monotonic()
    answer = optimum.solve(position, objective, seconds * OPTIMUM_SHARE)
    if answer["exact"]:
        decisions, method = answer["decisions"], "turn optimum"
    else:
        rows = plan_rows(position, samples=SAMPLES, seed=seed, rest_of_game=False,
                         deadline=started + seconds)
        decisions = optimum.fallback(position, objective, rows, answer)["decisions"]
        method = "turn optimum not finished: its lower bound or Monte Carlo"
    value = max(decisions.values())
    # ties go to stop (no risk), then to the first decision listed
    order = (["stop"] if "stop" in decisions else []) + list(decisions)
    best = next(move for move in order if decisions[move] >= value - 1e-12)
    seats = _counts(position, objective)
    return {"best": best, "value": value, "moves": decisions, "exact": answer["exact"], "seats": seats,
            "forced": len(decisions) == 1, "method": method}


def final(position):
    seats = _counts(position, OBJECTIVE)
    return {"best": None, "value": 0.0, "seats": seats, "exact": True, "method": "the game is over"}


def luck(position, move, after_position, evaluation, next_evaluation):
    """What a roll's dice gave: the value after the roll (0 on a bust) minus
    the value of rolling (the mean over the 216 rolls)."""
    if not move.strip().lower().startswith("roll"):
        return None
    turn_goes_on = (not after_position.is_over() and after_position.dice is not None
                    and after_position.player_to_move == position.player_to_move)
    after = next_evaluation["value"] if turn_goes_on else 0.0
    return after - evaluation["moves"]["roll"]


def graph(position, evaluation):
    """Each seat's spaces (secured, or held: the objective's), the mover's
    with his turn's expected gain."""
    seats = list(evaluation["seats"])
    if not position.is_over():
        seats[position.player_to_move - 1] += evaluation["value"]
    return seats


def _counts(position, objective):
    """Each seat's spaces at the turn's start, as the objective counts them."""
    board = position.turn_start_board()
    count = rules.secured_count if objective == "secured" else rules.held_count
    return [float(count(board, seat)) for seat in range(1, position.num_players + 1)]
