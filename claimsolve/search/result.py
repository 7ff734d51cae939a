"""What a search answers, the same shape for every engine and game.

`SearchResult.to_json()` is the body of `analyze --json` (cli.md): the best
suggestion first.  Two words are kept apart:

- `complete`: the search did all it set out to do (its depth, its solve,
  its budget of simulations) and was not cut short;
- `exact`: every score shown is a proven value (the exact solver finished,
  or every line reached the end of the game).  A heuristic search
  (alpha-beta on a static evaluation, MCTS) is never exact because it
  finished: only proofs make a score exact.

A suggestion whose value or one of whose bounds is proven says so on its
own (`proven`: "=+1", ">=+1", "<=-2", "+1..+3"), whatever the rest of the
answer is.
"""
from dataclasses import dataclass, field


@dataclass
class Suggestion:
    move: str                 # canonical notation
    score: float              # the engine's value for the player to move:
                              #   alphabeta/solver: margin in points; mcts: mean result in [0, 1]
    visits: int = None        # MCTS: visits of this move
    depth: int = None         # alpha-beta: depth of the score
    result: str = None        # "win" | "draw" | "loss" when proven values or bounds settle it
    exact: bool = False       # the score is the move's proven value
    extra: dict = field(default_factory=dict)   # engine-specific statistics

    def __repr__(self):
        # the fields that say something: those left at their defaults are left out
        shown = [f"move={self.move!r}", f"score={self.score!r}"]
        for key, default in (("visits", None), ("depth", None), ("result", None), ("exact", False)):
            value = getattr(self, key)
            if value != default:
                shown.append(f"{key}={value!r}")
        if self.extra:
            shown.append(f"extra={self.extra!r}")
        return f"Suggestion({', '.join(shown)})"

    @property
    def proven(self):
        """What is proven of this move's final margin, as text: "=+1" (its
        exact value), ">=+1" or "<=-2" (one bound), "+1..+3" (both); None
        when nothing is."""
        lower, upper = self.margin_bounds()
        if lower is None and upper is None:
            return None
        if lower is not None and lower == upper:
            return f"={signed_value(lower)}"
        if upper is None:
            return f">={signed_value(lower)}"
        if lower is None:
            return f"<={signed_value(upper)}"
        return f"{signed_value(lower)}..{signed_value(upper)}"

    def margin_bounds(self):
        """(lower, upper) proven bounds on the move's final margin (None: not
        bounded on that side): the solver's and MCTS-Solver's bounds, or
        the exact margin of a proven alpha-beta or solver score."""
        extra = self.extra
        if "margin" in extra:
            return extra["margin"], extra["margin"]
        if "margin_at_least" in extra or "margin_at_most" in extra:
            return extra.get("margin_at_least"), extra.get("margin_at_most")
        if "lower" in extra or "upper" in extra:
            return extra.get("lower"), extra.get("upper")
        if self.exact and self.visits is None and self.score is not None:
            return self.score, self.score
        return None, None

    def to_json(self):
        out = {"move": self.move, "score": self.score}
        for key in ("visits", "depth"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        proven = self.proven
        if proven is not None:
            out["proven"] = proven
        if self.result is not None:
            out["result"] = self.result
        if self.exact:
            out["exact"] = True
        out.update(self.extra)
        return out


def signed_value(x, decimals=None):
    """A value with its sign ("+3", "-1.5"; 0 unsigned): a whole number as
    one, else `decimals` places (None: as short as it goes)."""
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if x == 0:
        return "0"
    if isinstance(x, int):
        return f"{x:+d}"
    return f"{x:+g}" if decimals is None else f"{x:+.{decimals}f}"


@dataclass
class SearchResult:
    engine: str                                   # "solver" | "alphabeta" | "mcts" | ...
    suggestions: list                             # [Suggestion], best first
    pv: list = field(default_factory=list)        # principal variation, move strings
    nodes: int = 0                                # nodes / simulations searched
    seconds: float = 0.0
    complete: bool = True                         # False: the budget ran out (or Ctrl-C) first
    info: dict = field(default_factory=dict)      # engine-specific (depth reached, iterations, ...)

    def __repr__(self):
        # one screen at most: the first few suggestions and the line's first moves
        return (f"SearchResult(engine={self.engine!r}, exact={self.exact}, complete={self.complete}, "
                f"suggestions={_first_few(self.suggestions, REPR_SUGGESTIONS)}, "
                f"pv={_first_few(self.pv, REPR_PV)}, nodes={self.nodes}, seconds={self.seconds:.3f})")

    @property
    def best(self):
        return self.suggestions[0] if self.suggestions else None

    @property
    def exact(self):
        """True when every suggestion carries its proven value (on a
        finished game: the final margin is exact); a list cut to its first
        few (info "left_out") is exact only if the moves left out were too."""
        if not self.suggestions:
            return bool(self.info.get("over")) or (self.engine in ("solver", "alphabeta")
                                                   and self.complete and "value" in self.info)
        return all(s.exact for s in self.suggestions) and not self.info.get("left_out", {}).get("unproven")

    @property
    def nodes_per_second(self):
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_json(self):
        out = {
            "engine": self.engine,
            "exact": self.exact,
            "suggestions": [s.to_json() for s in self.suggestions],
            "pv": list(self.pv),
            "nodes": self.nodes,
            "nodes_per_second": round(self.nodes_per_second),
            "seconds": round(self.seconds, 4),
            "complete": self.complete,
        }
        out.update(self.info)
        return out


REPR_SUGGESTIONS = 3        # suggestions a SearchResult's repr shows
REPR_PV = 6                 # moves of its line


def _first_few(items, count):
    """A list's repr cut to its first `count` items: "[a, b, c, ... 65 more]"."""
    shown = [repr(item) for item in items[:count]]
    if len(items) > count:
        shown.append(f"... {len(items) - count} more")
    return f"[{', '.join(shown)}]"


def tighter(a, b, pick):
    """The tighter of two proven bounds on one side of a value (None is
    unbounded): `pick` max for lower bounds, min for upper ones."""
    if a is None:
        return b
    if b is None:
        return a
    return pick(a, b)


def result_of(lower, upper):
    """"win", "draw" or "loss" when margin bounds settle the result, else None."""
    if lower is not None and lower > 0:
        return "win"
    if upper is not None and upper < 0:
        return "loss"
    if lower == 0 and upper == 0:
        return "draw"
    return None
