"""A game's review for people: `claimsolve review` as text, and the
evaluation over the game as a graph (`review --svg`), as lichess draws it
under its board: the value at every ply, the grades marked on it."""
import math

from . import svg as S
from .boards import PAGE
from .charts import GRID, _ticks
from .style import CHARTS, seat_colours
from .text import line_text
from .. import prose
from ..words import counted

GRADE_COLOURS = CHARTS["grades"]


def _value(review, x, signed=True):
    if x is None:
        return "?"
    if review.graph == "margin" and float(x).is_integer():
        return f"{int(x):+d}" if signed and x else f"{int(x)}"
    # a zero without a sign: a luck of -0.0001 read "-0.000"
    if round(x, review.digits) == 0:
        return f"{0:.{review.digits}f}"
    return f"{x:+.{review.digits}f}" if signed else f"{x:.{review.digits}f}"


def review_text(review, title=None):
    """The review as a table of moves and a summary per player (the
    sentences wrapped: claimsolve.prose)."""
    lines = []

    def said(text):
        lines.extend(prose.wrap(text))

    stopped = " (interrupted: the moves graded so far)" if review.interrupted else ""
    said(f"Review of {title or review.game}: {counted(len(review.moves), 'move')}, {review.time_per_move:g} s a "
         f"position on {review.workers} worker{'s' * (review.workers != 1)}, {review.seconds:.1f} s"
         f"{stopped}.")
    said(f"Values: {review.unit}.")
    t = review.thresholds
    said(f"Loss = before - after, for the player who moved.  Grades: best (the engine's move, or one "
         f"proven, or valued beside it, to lose nothing: the engine's own move may show a small loss, "
         f"two searches' noise), good (another move, less than {_value(review, t['inaccuracy'], False)}, "
         f"a loss of 0 included), inaccuracy "
         f"({_value(review, t['inaccuracy'], False)} or more), mistake ({_value(review, t['mistake'], False)}"
         f" or more), blunder ({_value(review, t['blunder'], False)} or more).")
    for note in review.notes:
        said(f"Note: {note}.")
    lines.append("")
    header = ["ply", "seat", "move", "best", "before", "after", "loss", "grade"]
    if review.luck:
        header.append("luck")
    header.append("")
    rows = []
    for m in review.moves:
        row = [str(m.ply), str(m.seat), m.move, m.best or "", _value(review, m.before), _value(review, m.after),
               _value(review, m.loss, False), m.grade]
        if review.luck:
            row.append(_value(review, m.luck) if m.luck is not None else "")
        row.append(", ".join(word for word, on in (("exact", m.exact), ("forced", m.forced)) if on))
        rows.append(row)
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    numeric = {0, 1, 4, 5, 6} | ({8} if review.luck else set())
    # under an inaccuracy, a mistake or a blunder, the engine's line from the position before it (from
    # the move's column): "best line: a3xb3 a1xa2 c2-c3", as lichess says "Best was" at a mistake
    indent = " " * (widths[0] + widths[1] + 4)
    for m, row in zip([None] + review.moves, [header] + rows):
        cells = [str(c).rjust(w) if i in numeric else str(c).ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if m is not None and m.line and len(m.line) > 1 and m.grade in SHOWN_LINES:   # (one move: the best column)
            lines.append(f"{indent}best line: {line_text(m.line)}")
    lines.append("")
    for entry in review.summary():
        who = f" ({entry['player']})" if entry["player"] else ""
        grades = ", ".join(_grade_count(grade, count) for grade, count in entry["grades"].items())
        # `moves` counts the moves chosen; a forced one (the only legal move) is apart
        moves = (f"{counted(entry['moves'] + entry['forced'], 'move')}: {entry['moves']} chosen, {entry['forced']} "
                 "forced (the only legal move: left out of the mean loss and the grades)" if entry["forced"] else
                 counted(entry["moves"], "move"))
        # a mean is written with the review's digits even where the losses are whole points
        mean = (f"mean loss {entry['mean_loss']:.{review.digits}f}" if entry["moves"] else
                "no move chosen, no mean loss")
        line = f"Player {entry['seat']}{who}: {moves}; {mean}; {grades}; {entry['exact']} exact."
        if review.luck:
            against = "values" if review.graph == "chance" else "gains"
            line += (f"  Dice: {_value(review, entry['luck'])}, decisions: {_value(review, entry['decisions'])} "
                     f"({_short_unit(review.unit)} against the turns' expected {against} with best play)")
            if "rest" in entry:
                line += (f"; {entry['start']:.{review.digits}f} at the start, {entry['end']:.{review.digits}f} "
                         f"at the end: the other {_value(review, entry['rest'])} is the other seats' turns and "
                         "each search valuing anew what the last one valued")
            line += "."
        said(line)
    return "\n".join(lines)


def _grade_count(grade, count):
    """A count of moves of one grade: "1 best", "2 mistakes", "0
    inaccuracies" (best and good name a kind of move: they stay as they
    are)."""
    return f"{count} {grade}" if grade in ("best", "good") else counted(count, grade, PLURAL_GRADES.get(grade))


PLURAL_GRADES = {"inaccuracy": "inaccuracies"}
SHOWN_LINES = ("inaccuracy", "mistake", "blunder")       # the grades whose best line the text shows


def review_svg(review, title=None):
    """The evaluation over the game, an SVG document (str): each seat's
    value after every ply as a line (one line, seat 1's, where the two
    sides' values mirror each other: Review.mirrored), a dot at every
    graded move coloured by its grade (inaccuracy, mistake, blunder), solid
    where the grade is proven and hollow where it is estimated, as the board
    draws them.  The axis ends on its labels.  Each move is a <g
    class="move"> with data-ply, data-grade and a <title> in words, so the
    board can go to it."""
    evals = review.evals
    n = len(evals)
    seats = len(review.players)
    colours = seat_colours(review.game)
    # a margin or a win chance of two sides that mirror: one line, player 1's; else a line per seat
    mirrored = review.mirrored()
    shown = [0] if mirrored else list(range(seats))
    values = [row[s] for row in evals for s in shown if row[s] is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if review.graph == "chance":
        low, high = 0.0, 1.0
    elif review.graph == "margin":
        # ends on a label: a final margin of -31 went under the lowest, -30
        bound = max(1.0, math.ceil(max(abs(low), abs(high))))
        step = _step(2 * bound)
        bound = math.ceil(bound / step) * step
        low, high = -bound, bound
    else:
        low, high = min(0.0, math.floor(low)), max(1.0, math.ceil(high))
        step = _step(high - low)
        low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    left, top, plot_w, plot_h = 70, 70, 760, 260
    width, height = left + plot_w + 40, top + plot_h + 90
    name = title or review.game
    canvas = S.Canvas(width, height, f"Review of {name}: the evaluation over the game",
                      f"{counted(len(review.moves), 'move')} graded; values: {review.unit}.")
    out = canvas.elements
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAGE}"/>')
    out.append(S.text(20, 28, f"Review of {name}", size=16, weight="bold"))
    estimated = any(GRADE_COLOURS.get(m.grade) and not m.exact for m in review.moves)
    out.append(S.text(20, 50, f"{graph_words(review.graph, mirrored, review.unit)}; dots: inaccuracies, "
                              f"mistakes and blunders{', hollow where estimated' if estimated else ''}",
                      size=12.5, fill="#444444"))

    def gx(ply):
        return left + plot_w * (ply / (n - 1) if n > 1 else 0.5)

    def gy(value):
        return top + plot_h * (1 - (value - low) / (high - low))

    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#ffffff" stroke="#999999"/>')
    for value in _levels(review.graph, low, high):
        out.append(f'<line x1="{left}" y1="{S.num(gy(value))}" x2="{left + plot_w}" y2="{S.num(gy(value))}" '
                   f'stroke="{GRID}"/>')
        out.append(S.text(left - 8, gy(value) + 4, _axis(review.graph, value), size=11, anchor="end",
                          fill="#555555"))
    for k in _ticks(max(1, n - 1)):
        out.append(S.text(gx(k), top + plot_h + 18, k, size=11, anchor="middle", fill="#555555"))
    out.append(S.text(left + plot_w / 2, top + plot_h + 36, "ply", size=12, anchor="middle", fill="#444444"))
    for s in shown:
        points = [(gx(ply), gy(row[s])) for ply, row in enumerate(evals) if row[s] is not None]
        if not points:
            continue
        colour = colours[s % len(colours)]
        path = " L".join(f"{S.num(x)},{S.num(y)}" for x, y in points)
        if mirrored:
            zero = gy(0.5 if review.graph == "chance" else 0.0)
            area = (f"M{S.num(points[0][0])},{S.num(zero)} L{path} L{S.num(points[-1][0])},{S.num(zero)} Z")
            out.append(f'<path class="advantage" d="{area}" fill="{colour}" fill-opacity="0.15" stroke="none"/>')
        out.append(f'<path class="evaluation" data-seat="{s + 1}" d="M{path}" fill="none" stroke="{colour}" '
                   f'stroke-width="2" stroke-linejoin="round"><title>player {s + 1}</title></path>')
    for m in review.moves:
        if m.ply >= n:
            continue
        row = evals[m.ply]
        s = 0 if mirrored else m.seat - 1
        if row[s] is None:
            continue
        colour = GRADE_COLOURS.get(m.grade)
        words = (f"ply {m.ply}, player {m.seat}: {m.move} ({m.grade}; best {m.best}, loss "
                 f"{_value(review, m.loss, False)}{', exact' if m.exact else ''})")
        dot = _dot(gx(m.ply), gy(row[s]), colour, m.exact, "exact" if m.exact else "estimated") if colour else ""
        out.append(f'<g class="move" data-ply="{m.ply}" data-grade="{m.grade}"><title>{S.escape(words)}</title>'
                   f'{dot}</g>')
    x = left
    legend_y = top + plot_h + 62
    for grade, colour in GRADE_COLOURS.items():
        out.append(_dot(x + 5, legend_y - 4, colour, True))
        out.append(S.text(x + 14, legend_y, grade, size=11.5, fill="#444444"))
        x += S.text_width(grade, 11.5) + 34
    if estimated:
        out.append(_dot(x + 5, legend_y - 4, "#777777", False))
        out.append(S.text(x + 14, legend_y, "estimated", size=11.5, fill="#444444"))
        x += S.text_width("estimated", 11.5) + 34
    if not mirrored:
        for s in shown:
            colour = colours[s % len(colours)]
            out.append(f'<line x1="{S.num(x)}" y1="{legend_y - 4}" x2="{S.num(x + 16)}" y2="{legend_y - 4}" '
                       f'stroke="{colour}" stroke-width="2"/>')
            out.append(S.text(x + 20, legend_y, f"player {s + 1}", size=11.5, fill="#444444"))
            x += S.text_width(f"player {s + 1}", 11.5) + 40
    return canvas.document()


def _dot(x, y, colour, exact, cls=None):
    """A graded move's dot: solid where the grade is proven, hollow where it is estimated (as the board
    draws it), ringed in CHARTS["grade_ring"] so that it stands out of a seat's line of a like colour."""
    ring = CHARTS["grade_ring"]
    at = f'cx="{S.num(x)}" cy="{S.num(y)}"'
    named = f' class="{cls}"' if cls else ""
    if exact:
        return f'<circle{named} {at} r="5" fill="{colour}" stroke="{ring}" stroke-width="1.5"/>'
    return (f'<circle{named} {at} r="4" fill="#ffffff" stroke="{colour}" stroke-width="2.5"/>'
            f'<circle class="ring" {at} r="6" fill="none" stroke="{ring}" stroke-width="1.2"/>')


def graph_words(graph, mirrored, unit):
    """What the graph draws, in words: "player 1's margin after every ply
    (points)", "each player's win chance after every ply" (the unit named
    once: it read "win chance after every ply (win chance)")."""
    what = {"chance": "win chance", "margin": "margin"}.get(graph, "value")
    words = f"{'player 1' if mirrored else 'each player'}'s {what} after every ply"
    short = _short_unit(unit)
    return words if short in words else f"{words} ({short})"


def _step(span):
    """A round step of the axis: at most 8 of them over `span`."""
    return next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10 ** 9) if span / s <= 8)


def _levels(graph, low, high):
    """The values the axis marks: quarters of a win chance, round steps of
    points or spaces."""
    if graph == "chance":
        return [0.0, 0.25, 0.5, 0.75, 1.0]
    step = _step(high - low)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step + 1e-9) + 1)]


def _axis(graph, value):
    if graph == "chance":
        return f"{100 * value:.0f}%"
    if graph == "margin":
        return f"{value:+.0f}" if value else "0"
    return f"{value:.0f}"


def _short_unit(unit):
    return unit.split(":", 1)[0]
