"""The player kind "analyze": plays the best move of `claimsolve analyze`,
the engine analyze picks for the game, phase and size (claimsolve.analysis),
for every game that has one.  `claimsolve play` plays against it by
default.

    analyze                     1 s a move, the engine analyze picks
    analyze:time=0.5            half a second a move
    analyze:engine=mcts         that engine (auto, mcts, alphabeta, solver)
    analyze:eval=learned        the learned evaluation (weights=PATH: that file;
                                docs/learning.md), eval=classic the default
"""
from .. import limits
from ..analysis import ENGINES, analyze
from .learned import spec_evaluation, spec_options as _eval_options
from .player import Player, register_player

DEFAULT_TIME = 1.0     # seconds a move


class AnalyzePlayer(Player):
    """Plays the first suggestion of claimsolve.analysis.analyze with `time`
    seconds a move (all of it for the move's search: `playing=True`, Claim
    It!'s odds table left out).  `last` is the Analysis of its last move (its other
    suggestions too); `progress`, when set, sees the search as it goes."""

    name = "analyze"

    def __init__(self, time=DEFAULT_TIME, engine="auto", seed=0, top=3, evaluation=None):
        self.time = time
        self.evaluation = evaluation
        self.engine = engine
        self.seed = seed
        self.top = top
        self.moves = 0
        self.last = None

    def reset(self):
        self.moves = 0
        self.last = None

    def choose(self, position):
        legal = position.legal_moves()
        if len(legal) == 1:           # nothing to think about (Claim It!: the roll that opens a turn)
            return legal[0]
        self.moves += 1
        # one thread: the same seed, the same game (and match games run side by side)
        self.last = analyze(position, time=self.time, engine=self.engine, top=self.top, threads=1,
                            seed=(self.seed + self.moves) % (limits.MAX_SEED + 1), progress=self.progress,
                            evaluation=self.evaluation, playing=True)
        best = self.last.best_move
        return best if best is not None else legal[0]


def _analyze_player(options, seed):
    """Options of "analyze:...": time= (seconds a move), engine=, eval=classic|learned, weights=PATH."""
    values = limits.spec_options(options, {"time": limits.seconds,
                                           "engine": lambda text, name: limits.choice(text, name, ENGINES),
                                           **_eval_options()})
    return AnalyzePlayer(time=values.get("time", DEFAULT_TIME), engine=values.get("engine", "auto"), seed=seed,
                         evaluation=spec_evaluation(values))


register_player("analyze", _analyze_player, plays=lambda game: game.analyze is not None)
