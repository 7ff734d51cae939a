"""Claim It!'s own player kinds for `claimsolve match` (its descriptor's
`player_kinds`; players follow claimsolve.search.player.Player):

- `threshold:k`: rolls until k markers are placed this turn, then stops.
- `risk:p`: stops when the next roll's exact bust chance exceeds p.
- `optimum`: the turn optimum of one objective (`objective=`): "win" (the
  learned expected reward of the mover where the turn ends; the default
  where the package ships weights for the game's seat count, Claim It! with
  3 players), else "secured" (the largest expected number of secured
  spaces gained this turn; "held" too).  Where the rest of the turn is too
  large for its time budget (`optimum:time=0.05`, seconds per decision),
  "secured"/"held" take the Monte Carlo estimate of the same quantity
  (`samples=400` turns per plan), "win" the deepest search limited to d
  more rolls that fits (each cut valued as a stop there).  `weights=PATH`:
  the "win" objective under those weights instead of the shipped ones.

`threshold` and `risk` place by the greedy rule of `greedy_placement`.
"""
from .. import limits
from ..errors import ClaimsolveError
from ..search.player import Player
from . import rules
from .optimum import ALL_OBJECTIVES, WIN, best_decision, win_weights
from .position import placement_name


def greedy_placement(position):
    """The placement the greedy rule picks (the rule of the engine's playout
    policy and of the odds table's plans): a black marker on the mover's own
    colour (securing a space he holds) first, then a black on a white marker
    (a new secured space), then a white on an opponent's space, then a white
    on an empty space; among equals the one touching most spaces that are the
    mover's after a stop; then the lowest space (row, then column)."""
    board, me = position.board, position.to_move
    mine = {i for i, pile in enumerate(board)
            if rules.holder(pile) == me or rules.has_turn_marker(pile)}
    best, best_score = None, None
    for move in rules.legal_placements(board, me, position.dice):
        kind, r, c, n = move
        i = rules.space_index(r, c)
        pile = board[i]
        if kind == "B":
            rank = 40 if rules.top(pile) == str(me) else 30
        else:
            rank = 20 if pile else 10
        touching = sum(1 for j in rules.neighbours(i) if j in mine)
        score = rank + touching
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


def placed_this_turn(position):
    """Markers placed this turn (a black on a white counts both)."""
    return sum(1 for pile in position.board for t in pile if rules.is_white(t)) + \
        sum(1 for pile in position.board if rules.top(pile) == rules.BLACK)


class _GreedyPlayer(Player):
    def choose(self, position):
        if position.dice is not None:
            return _name(greedy_placement(position))
        if not position.turn_in_progress():
            return "roll"
        return "roll" if self.rolls(position) else "stop"

    def rolls(self, position):
        raise NotImplementedError


class ThresholdPlayer(_GreedyPlayer):
    """Rolls until `k` markers are placed this turn, then stops."""

    def __init__(self, k):
        if k < 1:
            raise ValueError("threshold:k needs k >= 1")
        self.k = k
        self.name = f"threshold:{k}"

    def rolls(self, position):
        return placed_this_turn(position) < self.k


class RiskPlayer(_GreedyPlayer):
    """Stops when the exact chance that the next roll busts exceeds `p`."""

    def __init__(self, p):
        if not 0.0 <= p <= 1.0:
            raise ValueError("risk:p needs 0 <= p <= 1")
        self.p = p
        self.name = f"risk:{p}"

    def rolls(self, position):
        return position.bust_probability() <= self.p


class OptimumPlayer(Player):
    """Plays each turn by the turn optimum of `objective` (None: "win" where
    weights are shipped for the game's seat count, else "secured"): exact
    when it finishes within `time` seconds per decision, else the Monte
    Carlo estimate (spaces) or the deepest depth-limited search (win)."""

    def __init__(self, time=0.05, samples=400, seed=0, objective=None, weights=None):
        self.time = time
        self.samples = samples
        self.seed = seed
        self.objective = objective
        self.weights = weights
        self.name = "optimum" if objective is None else f"optimum:objective={objective}"
        if weights is not None:
            self.name += f",weights={weights}"
        self.exact_decisions = 0
        self.estimated_decisions = 0

    def choose(self, position):
        if position.turn_begins():
            return "roll"
        if self.objective is None:
            self.objective = WIN if self.weights is not None or win_weights(position) is not None \
                else "secured"
        move, exact = best_decision(position, self.objective, time=self.time, samples=self.samples,
                                    seed=self.seed, weights=self.weights)
        if exact:
            self.exact_decisions += 1
        else:
            self.estimated_decisions += 1
        self.seed += 1
        return move


def _name(move):
    return placement_name(move)


# the options of each kind's spec, checked by claimsolve.limits as the
# command line's options are; threshold:2 is threshold:k=2, risk:0.3 risk:p=0.3
_THRESHOLD = {"k": lambda text, name: limits.count(text, name, 1, limits.MAX_INT)}
_RISK = {"p": lambda text, name: limits.number(text, name, 0.0, 1.0, what="a probability from 0 to 1")}
def _objective(text, name):
    if text not in ALL_OBJECTIVES:
        raise ClaimsolveError(f"option '{name}': one of {', '.join(ALL_OBJECTIVES)}, not '{text}'")
    return text


def _weights(text, name):
    from ..search.learned import load_weights

    load_weights(text)      # exists and is a weights file: refused now, in one line
    return text


_OPTIMUM = {"time": limits.seconds, "samples": limits.samples, "objective": _objective, "weights": _weights}


def _needing(options, known, positional, example):
    values = limits.spec_options(options, known, positional=positional)
    if positional not in values:
        raise ClaimsolveError(f"needs a value ({example})")
    return values[positional]


def _optimum(options, seed):
    values = limits.spec_options(options, _OPTIMUM)
    if "weights" in values and values.get("objective", WIN) != WIN:
        raise ClaimsolveError(f"option 'weights': for objective=win, not objective={values['objective']}")
    return OptimumPlayer(time=values.get("time", 0.05), samples=values.get("samples", 400), seed=seed,
                         objective=values.get("objective"), weights=values.get("weights"))


PLAYER_KINDS = {
    "threshold": lambda options, seed: ThresholdPlayer(_needing(options, _THRESHOLD, "k", "threshold:2")),
    "risk": lambda options, seed: RiskPlayer(_needing(options, _RISK, "p", "risk:0.3")),
    "optimum": _optimum,
}
