"""Which static evaluation a search uses: the game's hand-written one
("classic") or a learned one ("learned", a weights file run in C by
claimsolve._learned.LearnedGame).  docs/learning.md, "Inference in the
engine".

An `Evaluation` names the choice (picklable: MCTS's worker processes load the
weights themselves); `evaluation_state(position, evaluation)` is the
GameState the searches drive: the position's own, or the same state bytes
under a LearnedGame.  `analyze --eval` sets the evaluation of one analysis
with `using(evaluation)`; the searches take an explicit `evaluation` first.

Weights files (.npz, formats "claimsolve-eval-1" and "-2") are read and checked key
by key by claimsolve.learn.model.load_weights: every error is one line
naming the file and the key.
"""
import contextlib
import contextvars
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..errors import ClaimsolveError

EVALUATIONS = ("classic", "learned")
WEIGHTS_DIR = Path(__file__).resolve().parent.parent / "data" / "weights"
# MCTS with eval=learned: playouts cut after this many changes of turn (0:
# the evaluation at the leaf instead of a playout, or at the first state
# after it where the game's own playout value is given: Claim It!'s next
# turn start before the final round); turns= overrides it
LEARNED_PLAYOUT_TURNS = 0


@dataclass(frozen=True)
class Evaluation:
    """kind "classic" or "learned"; `weights` a path (None: the weights
    shipped for the game, found when a position is searched)."""

    kind: str = "classic"
    weights: Optional[str] = None

    @property
    def learned(self):
        return self.kind == "learned"

    def describe(self):
        if not self.learned:
            return "classic"
        return f"learned ({self.weights})" if self.weights else "learned (shipped weights)"


CLASSIC = Evaluation()
_current = contextvars.ContextVar("claimsolve_evaluation", default=CLASSIC)


@contextlib.contextmanager
def using(evaluation):
    """The evaluation of the searches made inside the block that are given none."""
    token = _current.set(CLASSIC if evaluation is None else resolve(evaluation))
    try:
        yield
    finally:
        _current.reset(token)


def resolve(evaluation):
    """`evaluation` (an Evaluation, or the word "classic" or "learned"),
    or the one `using` set (classic by default)."""
    if evaluation is None:
        return _current.get()
    if isinstance(evaluation, str):
        return evaluation_of(evaluation, where="evaluation")
    if not isinstance(evaluation, Evaluation):
        raise ClaimsolveError(f"evaluation: {evaluation!r} is no evaluation (an Evaluation, \"classic\" or "
                              "\"learned\")")
    return evaluation


def evaluation_of(kind=None, weights=None, where="option 'eval'"):
    """The Evaluation of `eval=KIND` and `weights=PATH` as a user gave them
    (either may be None): weights alone mean learned; a weights file is
    checked now (it exists and is a well-formed weights file)."""
    if kind is not None and kind not in EVALUATIONS:
        raise ClaimsolveError(f"{where}: unknown evaluation '{kind}' (one of: {', '.join(EVALUATIONS)})")
    if weights is not None:
        if kind == "classic":
            raise ClaimsolveError(f"{where}: weights are for eval=learned, not eval=classic")
        load_weights(weights)
        return Evaluation("learned", str(weights))
    return Evaluation(kind or "classic")


# --- weights files ----------------------------------------------------------

_loaded = {}    # (path, mtime, size) -> checked weights


def load_weights(path):
    """The checked weights of a file (claimsolve.learn.model.load_weights,
    every key checked), read once while the file is unchanged.  Any fault
    is a ClaimsolveError of one line naming the file and the key."""
    from ..learn.model import load_weights as read

    try:
        stat = Path(path).stat()
        key = (str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is not None and key in _loaded:
        return _loaded[key]
    try:
        weights = read(path)
    except ClaimsolveError as exc:
        raise ClaimsolveError(str(exc)) from None     # the file's name in the message itself
    if key is not None:
        _loaded[key] = weights
    return weights


def check_game(weights, game):
    """Refuses weights made for another game instance than `game` (an
    engine's game object): the game, the players and the observation's
    planes and scalars must match."""
    from .._learned import observation_info

    name, players, planes, height, width, scalars = observation_info(game)
    if planes + scalars == 0:
        raise ClaimsolveError(f"eval=learned: game '{name}' offers no observation, so no learned evaluation")
    theirs = (weights["game"], weights["players"], weights["planes"], weights["scalars"])
    if theirs == (name, players, planes, scalars) and weights.input == "observation" \
            and (weights["height"], weights["width"]) != (height, width):
        raise ClaimsolveError(
            f"{weights.path}: the weights take the whole observation of a {weights['width']}x{weights['height']} "
            f"board, the position's is {width}x{height}")
    if theirs != (name, players, planes, scalars):
        raise ClaimsolveError(
            f"{weights.path}: the weights are for {weights['game']} with {weights['players']} players "
            f"({weights['planes']} planes, {weights['scalars']} scalars), the position is {name} with "
            f"{players} players ({planes} planes, {scalars} scalars)")


def weights_for(path, game):
    """The checked weights of the file at `path` (load_weights), refused
    where they were made for another game instance than `game` (an
    engine's game object: check_game)."""
    weights = load_weights(path)
    check_game(weights, game)
    return weights


def shipped_weights(game):
    """The path of the weights shipped for `game` (an engine's game object)
    under claimsolve/data/weights/, or None: the first file (by name) made
    for its game, players, planes and scalars."""
    if not WEIGHTS_DIR.is_dir():
        return None
    for path in sorted(WEIGHTS_DIR.glob("*.npz")):
        try:
            weights_for(path, game)
        except ClaimsolveError:
            continue
        return str(path)
    return None


_games = {}     # (id(base game), weights key) -> LearnedGame (which holds its base: the id stays its own)
_GAMES_KEPT = 64


def _scale_of(name):
    """(score units per unit of logit, win bonus) of the learned evaluation
    of the engine game `name`: its descriptor's learned_units and
    learned_win_bonus, the descriptor's defaults for an engine no game of
    the catalog names."""
    from ..catalog import game_ids, get_game
    from ..descriptor import GameDescriptor

    if name in game_ids():
        descriptor = get_game(name)
        return descriptor.learned_units, descriptor.learned_win_bonus
    fields = GameDescriptor.__dataclass_fields__
    return fields["learned_units"].default, fields["learned_win_bonus"].default


def learned_game(game, weights_path=None):
    """The LearnedGame of an engine's game object under the weights at
    `weights_path` (None: the shipped ones), made once and kept."""
    from .._learned import LearnedGame, observation_info

    if weights_path is None:
        weights_path = shipped_weights(game)
        if weights_path is None:
            name, players = observation_info(game)[:2]
            raise ClaimsolveError(
                f"eval=learned: no weights are shipped for {name} with {players} players; make them with "
                "`claimsolve study selfplay` and `claimsolve train` (docs/learning.md) and give them with "
                "weights=PATH (analyze: --weights PATH)")
    weights = weights_for(weights_path, game)
    key = (id(game), weights.path, id(weights))
    found = _games.get(key)
    if found is None:
        if len(_games) >= _GAMES_KEPT:
            _games.pop(next(iter(_games)))
        units, win_bonus = _scale_of(observation_info(game)[0])
        found = _games[key] = LearnedGame(game, weights, units=units, win_bonus=win_bonus, source=weights.path)
    return found


def evaluation_state(position, evaluation=None):
    """The GameState a search of `position` drives: the position's own
    (classic), or its state under the learned evaluation."""
    state = position.engine_state()
    evaluation = resolve(evaluation)
    if not evaluation.learned:
        return state
    from .._engine import GameState

    return GameState(learned_game(state.game, evaluation.weights), state.state_bytes())


def spec_options():
    """The `eval=` and `weights=` options of a player spec, for
    claimsolve.limits.spec_options."""
    from .. import limits

    return {"eval": lambda text, name: limits.choice(text, name, EVALUATIONS),
            "weights": lambda text, name: os.fspath(text)}


def spec_evaluation(values):
    """The Evaluation of a spec's checked option values."""
    return evaluation_of(values.get("eval"), values.get("weights"), where="option 'eval'")
