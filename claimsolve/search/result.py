"""What a search answers, the same shape for every engine and game.

`SearchResult.to_json()` is the body of `analyze --json` (cli.md): the best
suggestion first.
"""
from dataclasses import dataclass, field


@dataclass
class Suggestion:
    move: str                 # canonical notation
    score: float              # the engine's value for the player to move:
                              #   alphabeta/solver: margin in points; mcts: mean reward in [0, 1]
    visits: int = None        # MCTS: visits of this move
    depth: int = None         # alpha-beta: depth of the score
    proven: str = None        # "win" | "draw" | "loss" when the result is proven (exact)
    exact: bool = False       # the score is the exact game value
    extra: dict = field(default_factory=dict)   # engine-specific statistics

    def to_json(self):
        out = {"move": self.move, "score": self.score}
        for key in ("visits", "depth", "proven"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.exact:
            out["exact"] = True
        out.update(self.extra)
        return out


@dataclass
class SearchResult:
    engine: str                                   # "solver" | "alphabeta" | "mcts" | ...
    suggestions: list                             # [Suggestion], best first
    pv: list = field(default_factory=list)        # principal variation, move strings
    nodes: int = 0                                # nodes / simulations searched
    seconds: float = 0.0
    complete: bool = True                         # False: the budget ran out first
    info: dict = field(default_factory=dict)      # engine-specific (depth reached, iterations, ...)

    @property
    def best(self):
        return self.suggestions[0] if self.suggestions else None

    @property
    def nodes_per_second(self):
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_json(self):
        out = {
            "engine": self.engine,
            "suggestions": [s.to_json() for s in self.suggestions],
            "pv": list(self.pv),
            "nodes": self.nodes,
            "nodes_per_second": round(self.nodes_per_second),
            "seconds": round(self.seconds, 4),
            "complete": self.complete,
        }
        out.update(self.info)
        return out
