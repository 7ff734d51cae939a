"""Text and JSON for people and tools: solve, analyze and match results.
(Boards are drawn by each game's own module in this package.)"""
import math

from .. import prose
from ..analysis import ORDER_TEXT, answer_labels, pv_cut_short  # noqa: F401 (ORDER_TEXT: as before)
from ..catalog import game_of
from ..words import counted, plural
from .claimit import render_odds


def summary(position):
    """`show --json`: the position, whether it is over, the sides that
    play for a win (`teams`: Claim's 4 seats are 2), and its standing
    (`scores`, where the game has them, with `scores_are` saying what they
    are: Claim It!'s are the largest groups); `rules`, the rules not at
    their defaults in words, where there are any (Claim's rules_line)."""
    out = {"game": position.game, "to_move": position.player_to_move,
           "over": position.is_over(), "legal_moves": len(position.legal_moves()),
           "teams": len(position.teams())}
    if hasattr(position, "scores"):
        out["scores"] = list(position.scores())
        if getattr(position, "SCORES_ARE", None):
            out["scores_are"] = position.SCORES_ARE
    if position.is_over():
        out["winners"] = list(position.winners())
        result = result_line(position)
        if result:
            out["result"] = result
    drawing = game_of(position).drawing()
    rules = drawing.rules_line(position) if drawing is not None and hasattr(drawing, "rules_line") else ""
    if rules:                            # the rules not at their defaults, as show's text says them
        out["rules"] = rules
    out["position"] = position.to_json()
    return out


def result_line(position):
    """A finished game's result in words, by its drawing module's
    result_line ("player 3 wins: largest group 6, ..."); None for a game
    without one."""
    drawing = game_of(position).drawing()
    return drawing.result_line(position) if drawing is not None and hasattr(drawing, "result_line") else None


def solve_json(result):
    """`solve --json` per cli.md."""
    info = result.info
    if info.get("value_only"):
        out = {
            "value": info.get("value"),
            "result": info.get("result"),
            "best_move": info.get("best_move"),
            "pv": list(result.pv),
            "nodes": result.nodes,
            "seconds": round(result.seconds, 4),
            "complete": result.complete,
            "value_only": True,
        }
        if not result.complete:
            out["bounds"] = [info.get("lower"), info.get("upper")]
        return out
    out = {
        "value": info.get("value"),
        "result": info.get("result"),
        "best_moves": [s.move for s in result.suggestions if s.exact and s.score == info.get("value")],
        "moves": [_solved_move(s) for s in result.suggestions],
        "pv": list(result.pv),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "complete": result.complete,
    }
    if not result.complete:
        out["bounds"] = [info.get("lower"), info.get("upper")]
    return out


def _solved_move(s):
    out = {"move": s.move, "value": s.score if s.exact else None}
    if not s.exact:
        out["lower"] = s.extra.get("lower")
        out["upper"] = s.extra.get("upper")
    return out


def line_text(moves):
    """A line of moves for people: separated by spaces, or by " | " when a
    move has spaces in it (a Claim turn of several parts)."""
    return (" | " if any(" " in move for move in moves) else " ").join(moves)


def pv_line(moves):
    """The search's principal variation (its best line) for people; where
    moves have spaces in them, the label says what `|` separates."""
    text = line_text(moves)
    label = "PV (the best line found; | between moves)" if " | " in text else "PV (the best line found)"
    return f"{label}: {text}"


def pv_lines(moves, after=""):
    """pv_line and `after` as prose (claimsolve.prose), broken only between
    moves."""
    return prose.wrap(pv_line(moves) + after, whole=moves)


def solve_text(position, result):
    data = solve_json(result)
    lines = []
    mover = position.player_to_move
    if position.is_over():
        lines.append(f"The game is over: margin {data['value']:+d} for player {mover} ({data['result']}).")
    elif result.complete and data.get("value_only"):
        lines.append(f"Value {data['value']:+d} for player {mover}: a {data['result']} with best play.")
        lines.append(f"Best: {data['best_move']} (one best move: the value alone was searched)")
    elif result.complete:
        best = ", ".join(data["best_moves"])
        lines.append(f"Value {data['value']:+d} for player {mover}: a {data['result']} with best play.")
        lines.append(f"Best: {best}")
    else:
        lo, hi = data["bounds"]
        stopped = "Interrupted (Ctrl-C)" if result.info.get("interrupted") else "Not finished within the time limit"
        if lo is not None and lo == hi:
            lines.extend(prose.wrap(f"{stopped}. Proven so far: the value for player {mover} is {lo:+d}; "
                                    "not every move's value is."))
        elif lo is None and hi is None:
            lines.extend(prose.wrap(f"{stopped}. Nothing proven yet: no bound on the value for player {mover}."))
        else:
            lines.extend(prose.wrap(f"{stopped}. Proven so far: the value for player {mover} "
                                    f"lies in [{_bound(lo)}, {_bound(hi)}]."))
    if data.get("moves"):
        lines.append("")
        lines.extend(_solved_moves(data["moves"]))
    if data["pv"]:
        lines.append("")
        lines.extend(pv_lines(data["pv"]))
    lines.append(f"{counted(result.nodes, 'node')} in {result.seconds:.3f} s ({result.nodes_per_second:,.0f} nodes/s)")
    return "\n".join(lines)


# an unfinished solve lists each move with a bound; beyond this many moves
# sharing one bound they are one line (their count and the first few)
SAME_BOUND_ROWS = 3
MOVES_NAMED = 5


def _solved_moves(moves):
    """The moves' values as `solve` prints them: a row per move with a value
    or a bound; when the solve did not finish, moves sharing one bound (more
    than SAME_BOUND_ROWS of them) as one line, and the moves with no bound
    at all as a count."""
    rows, groups, unbounded = [], {}, []
    for m in moves:
        if m["value"] is not None:
            rows.append((m["move"], f"{m['value']:+5d}"))
        elif m["lower"] is None and m["upper"] is None:
            unbounded.append(m["move"])
        else:
            groups.setdefault(_bound_text(m["lower"], m["upper"]), []).append(m["move"])
    for bound, names in groups.items():
        if len(names) <= SAME_BOUND_ROWS:
            rows.extend((name, bound) for name in names)
    width = max([8] + [len(name) for name, _ in rows])
    lines = [f"{'move':<{width}}  value"] if rows else []
    lines.extend(f"{name:<{width}}  {value:>5}" for name, value in rows)
    for bound, names in groups.items():
        if len(names) > SAME_BOUND_ROWS:
            lines.extend(prose.wrap(f"{len(names)} moves {bound}: {_some(names)}", whole=names))
    if unbounded:
        others = "The other " if rows or groups else ""
        text = f"{others}{len(unbounded)} move{'s' * (len(unbounded) != 1)}: no bound proven yet ({_some(unbounded)})"
        lines.extend(prose.wrap(text, whole=unbounded))
    return lines


def _bound_text(lower, upper):
    """A move's proven bounds: ">=+1", "<=-2", "+1..+3"."""
    if lower is None:
        return f"<={_bound(upper)}"
    if upper is None:
        return f">={_bound(lower)}"
    return f"{_bound(lower)}..{_bound(upper)}"


def _some(names):
    """The first MOVES_NAMED names, and how many more."""
    shown = ", ".join(names[:MOVES_NAMED])
    return shown if len(names) <= MOVES_NAMED else f"{shown} and {len(names) - MOVES_NAMED} more"


def _bound(x):
    if x is None:
        return "?"
    return f"{x:+d}" if isinstance(x, int) else str(x)


def analysis_text(analysis, color=False):
    position = analysis.position
    lines = [position.render(color=color), ""]
    if position.is_over():
        if result_line(position):
            # the board has just said how it ended ("Game over: ...")
            lines.append("No move to suggest: the game is over.")
            return "\n".join(lines)
        lines.append("The game is over.")
        extra = analysis.extra
        if "final_scores" in extra:
            lines.append("Scores: " + ", ".join(f"player {i + 1}: {s}" for i, s in enumerate(extra["final_scores"])))
        if "winners" in extra:
            lines.append(f"{plural(len(extra['winners']), 'Winner')}: " + ", ".join(str(w) for w in extra["winners"]))
        return "\n".join(lines)
    lines.extend(answer_lines(analysis, color=color, first=f"Player {position.player_to_move} to move.  "))
    return "\n".join(lines)


def answer_lines(analysis, top=None, color=False, first=""):
    """An analysis of a position not over as analyze prints it below the
    board (and play's `?` below its prompt): the engine, what the scores
    are and what orders them (answer_labels), the suggestions' table (the
    first `top`), the PV, the work done, the notes, a Claim It! odds table.
    `first` comes before the engine's name.  The sentences are prose,
    wrapped (claimsolve.prose); the table is not."""
    result = analysis.result
    labels = analysis.labels()
    lines = []
    for paragraph in (f"{first}Engine: {labels['method']}.", f"Scores: {labels['scores']}.", labels["order"]):
        lines.extend(prose.wrap(paragraph))
    lines.append("")
    lines.extend(suggestion_rows(result, top))
    if result.pv:
        lines.append("")
        cut = pv_cut_short(analysis.position, result)
        lines.extend(pv_lines(result.pv, "" if cut is None else
                              f" (cut short at {cut} move{'s' * (cut != 1)}: the value is "
                              "proven, the line does not reach the game's end)"))
    lines.extend(prose.wrap(f"{counted(result.nodes, 'node')} in {result.seconds:.2f} s "
                            f"({result.nodes_per_second:,.0f}/s)"
                            + ("" if result.complete else "; interrupted" if result.info.get("interrupted")
                               else "; budget reached")))
    for note in labels["notes"]:
        lines.extend(prose.wrap(f"Note: {note}."))
    if analysis.odds is not None:
        lines.append("")
        lines.append(render_odds(analysis.odds, color=color))
    return lines


def suggestion_rows(result, top=None):
    """The suggestions of a SearchResult as an aligned table (lines), the
    columns by engine: MCTS rows show visits, their share of the root's,
    the mean result and its 95% interval (the list is ordered by visits);
    alpha-beta rows their score and its depth; the solver's the value or
    the bounds proven.  A last column says what is proven of a move."""
    suggestions = result.suggestions if top is None else result.suggestions[:top]
    mcts = result.engine == "mcts"
    has_depth = any(s.depth is not None for s in suggestions)
    if mcts:
        header = ["#", "move", "visits", "share", "mean", "95% CI", ""]
    else:
        header = ["#", "move", "value" if result.engine == "solver" else "score"]
        if has_depth:
            header.append("depth")
        header.append("")
    rows = []
    for rank, s in enumerate(suggestions, 1):
        if mcts:
            share = s.extra.get("share")
            interval = s.extra.get("ci95")
            row = [str(rank), s.move, f"{s.visits:,}" if s.visits is not None else "",
                   f"{100 * share:.1f}%" if share is not None else "", score_text(result.engine, s),
                   f"{interval[0]:.3f}-{interval[1]:.3f}" if interval else "", proof_text(s)]
        else:
            row = [str(rank), s.move, score_text(result.engine, s)]
            if has_depth:
                row.append(str(s.depth) if s.depth is not None else "")
            row.append(proof_text(s))
        rows.append(row)
    return _table(header, rows)


def engine_label(result, game, sides=None):
    """What engine answered and what its scores measure, for people: the
    method and the scores of claimsolve.analysis.answer_labels (`sides`:
    the position's, for what a mean result counts)."""
    labels = answer_labels(result, game, sides=sides)
    return f"{labels['method']} ({labels['scores']})"


def score_text(engine, s):
    """A suggestion's score as `analyze` shows it."""
    if s.score is None:          # a solver cut short before any bound on this move
        return "?"
    if engine == "mcts":
        return f"{s.score:.3f}"
    if not s.exact and ("lower" in s.extra or "upper" in s.extra):
        # the solver proved bounds on this move, not its value
        lower, upper = s.extra.get("lower"), s.extra.get("upper")
        if lower is None:
            return f"<={upper:+d}" if upper is not None else "?"
        return f">={lower:+d}" if upper is None else f"{lower:+d}..{upper:+d}"
    prefix = {"upper": "<=", "lower": ">="}.get(s.extra.get("bound"), "")
    if isinstance(s.score, float) and not s.score.is_integer():
        return f"{prefix}{s.score:+.2f}"
    return f"{prefix}{int(s.score):+d}"


def proof_text(s):
    """What is proven of a move, for people: "proven win (=+3)", "proven
    win (>=+1)", "proven =-2", "proven <=+11" (a bound that settles no
    result); for MCTS-Solver margins the same: every bound `proven` gives
    in the JSON."""
    proven = s.proven
    if s.result:
        return f"proven {s.result}" + (f" ({proven})" if proven else "")
    if proven:
        return f"proven {proven}"
    return "exact" if s.exact else ""


def _table(header, rows):
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    out = ["  ".join(str(c).ljust(w) for c, w in zip(header, widths)).rstrip()]
    for row in rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    return out


def match_text(result):
    wins, draws, losses = result.tally()
    lo, hi = result.confidence_interval()
    seats = f"{result.players} seats" if result.teams == result.players else \
        f"{result.players} seats in {result.teams} teams"
    lines = [
        f"{result.game}: A = {result.a}  vs  B = {result.b}  ({seats}, {result.games} "
        f"game{'' if result.games == 1 else 's'})",
        f"A: {wins} won, {draws} drawn (shared), {losses} lost" + (
            f" ({result.adjudicated} of the draws adjudicated: the rules did not end them)"
            if result.adjudicated else ""),
        f"A's score: {result.score:.3f} points per game (95% CI {lo:.3f} to {hi:.3f}); "
        f"equal strength would score {result.expected_share:.3f}",
    ]
    if result.teams == 2:
        elo_lo, elo_hi = result.elo_interval()
        lines.append(f"Elo difference A - B: {_elo_text(result.elo())} (95% CI {_elo_text(elo_lo)} to {_elo_text(elo_hi)})")
    return "\n".join(lines)


def _elo_text(x):
    if x is None:
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}" if round(x) != 0 else "+0"          # not "-0": rounding has no sign to give
