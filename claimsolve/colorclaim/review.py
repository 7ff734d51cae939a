"""How `claimsolve review` grades a Color Claim move (claimsolve.reviewer):
in points of final-score margin, exact wherever the solver proves the
positions before and after the move.

A position is analysed by the exact solver first (the value and one best
move, within most of the time a move gets), then, where it does not
finish, by alpha-beta on the static evaluation (an estimated margin, in
the same points)."""
import time as _time

from ..reviewer import grade_of, line_of
from ..search import alphabeta

UNIT = ("points: the final-score margin for the player who moved (his score minus the opponent's) with "
        "best play after the move; proven where marked exact, else alpha-beta's estimate")
# the least loss in points of each grade; a move that makes a proven result worse is graded by that too
THRESHOLDS = {"inaccuracy": 1, "mistake": 3, "blunder": 6}
NOTES = ("a move that turns a proven win into a draw or loss, or a draw into a loss, is a mistake at "
         "least; a win turned into a loss is a blunder",)
# said where a move's values are not all proven (claimsolve.reviewer adds it): a QA player met "after -1"
# beside the graph's +3 for one position, and a draw thrown away graded "best"
UNPROVEN_NOTES = ("where a value is not proven, 'after' is the move's value by the same search as 'before' "
                  "(searches to other depths differ by more than a move does), and the graph shows each "
                  "position's own value: the two can differ there, and a result thrown away where neither was "
                  "proven goes unseen",)
GRAPH = "margin"            # how the review graph draws the values (claimsolve.render.review)
DIGITS = 2
DEFAULT_TIME = 1.0
SOLVER_SHARE = 0.8          # of a position's time: the exact solver's, the rest alpha-beta's if it fails
HASH_MB = 64


def evaluate(position, move, seconds, seed):
    """The value of `position` for the player to move, its best move, and
    every seat's value (a margin is the other side's negated)."""
    started = _time.monotonic()
    forced = len(position.legal_moves()) == 1
    solved = alphabeta.solve(position, time=seconds * SOLVER_SHARE, hash_mb=HASH_MB, value_only=True)
    if solved.complete:
        value, best, exact, method = solved.info["value"], solved.info["best_move"], True, "exact solver"
        line = line_of(best, solved.pv)
    else:
        left = max(0.05, seconds - (_time.monotonic() - started))
        searched = alphabeta.search(position, time=left, hash_mb=HASH_MB)
        value, best, exact = searched.best.score, searched.best.move, searched.exact
        line = line_of(best, searched.pv)
        depth = searched.info.get("depth")
        method = f"alpha-beta depth {depth}"
        played = _played_value(position, move, best, value, depth, left)
        if played is not None:
            return {"best": best, "value": value, "seats": _seats(position, value), "exact": exact,
                    "forced": forced, "method": method, "moves": played, "line": line}
    return {"best": best, "value": value, "seats": _seats(position, value), "exact": exact,
            "forced": forced, "method": method, "line": line}


def _played_value(position, move, best, value, depth, seconds):
    """{move played: its value for the mover} at the horizon of the search
    that valued the best move (`depth` plies from `position`): the best
    move's own score, or the position after the move searched to depth - 1
    (a table of its own: the search that valued the best move would lend it
    deeper results, and a value from another horizon).  Two separate
    searches of the positions before and after a move reach horizons of
    different parity and length (depth 4 before, 6 after), whose difference
    is not the move's: the engine's own move showed a loss of 6.  None
    where the move is not known or that search does not reach its depth
    within `seconds`."""
    if move is None:
        return None
    played = decision(position, move)
    if played == best:
        return {played: value}
    if not depth or depth < 2:
        return None
    after = position.play(move)
    if after.is_over():
        return {played: _seats(after, after.margin())[position.player_to_move - 1]}
    searched = alphabeta.search(after, depth=depth - 1, time=seconds, hash_mb=HASH_MB)
    if searched.info.get("depth") != depth - 1 or searched.best is None:
        return None
    return {played: _seats(after, searched.best.score)[position.player_to_move - 1]}


def final(position):
    """A finished game: its final margins, exact."""
    return {"best": None, "value": position.margin(), "seats": _seats(position, position.margin()),
            "exact": True, "method": "the final score"}


def _seats(position, value):
    return [value, -value] if position.player_to_move == 1 else [-value, value]


def decision(position, move):
    return position.move_name(position.move_code(move))


def graph(position, evaluation):
    return list(evaluation["seats"])


def grade(loss, before, after, exact, engines_move):
    """By the points lost, and by the proven result made worse."""
    graded = grade_of(loss, THRESHOLDS, engines_move)
    if exact and not engines_move:
        if before > 0 > after:
            return "blunder"
        if (before > 0 and after == 0) or (before == 0 and after < 0):
            return "blunder" if graded == "blunder" else "mistake"
    return graded
