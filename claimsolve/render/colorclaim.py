"""Drawing Color Claim positions: text for a terminal, SVG, and suggested
moves drawn on the board (claimsolve.render.analysis_svg): an arrow from the
stack that moves to the stack it goes onto, and a claim as a ring around
the stack claimed.

A cell shows the top pyramid and, for a stack, its height: `G2` is a single
medium green, `G2:4` a stack of 4 with a medium green on top.  Stacks a
player owns are marked after the token: `'` for player 1, `"` for player 2.
"""
import re

from .. import prose
from ..colorclaim.position import POINT, column_index, column_name, pyramid_token
from ..colorclaim.rules import owner, stack_value
from ..words import counted
from . import svg as S
from .style import COLORCLAIM
from .svg import escape

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "black"}
ANSI = {"R": "31", "Y": "33", "G": "32", "B": "34", "K": "90"}
OWNER_MARKS = {None: " ", 1: "'", 2: '"'}
# the palette and sizes: claimsolve.render.style (the page draws with them too)
SVG_FILL = COLORCLAIM["pyramid"]
SVG_OWNER = COLORCLAIM["owner"]


def stack_title(stack):
    """A stack in words, top first (the pyramid drawn), for its picture's
    title: "R1: 1 point", "K2 on Y1 (a stack of 2): 4 points"."""
    worth = counted(stack_value(stack), "point")
    if len(stack) == 1:
        return f"{pyramid_token(stack[0])}: {worth}"
    return f"{' on '.join(pyramid_token(p) for p in reversed(stack))} (a stack of {len(stack)}): {worth}"


def cell_text(stack):
    if stack is None:
        return "."
    top = stack[-1]
    text = f"{top.colour}{top.size}"
    return text if len(stack) == 1 else f"{text}:{len(stack)}"


def _paint(text, colour, bold):
    codes = ANSI[colour] + (";1;4" if bold else "")
    return f"\x1b[{codes}m{text}\x1b[0m"


def render_text(position, color=False):
    """The board (row numbers left, column letters below), then each player's
    claim and score, the shield and who is to move."""
    claims = position.claims
    cells = [[cell_text(stack) for stack in row] for row in position.grid]
    width = max(4, max(len(text) for row in cells for text in row) + 2)
    label = len(str(position.height))
    lines = []
    for row_index in reversed(range(position.height)):
        parts = []
        for column, stack in enumerate(position.grid[row_index]):
            text = cells[row_index][column]
            mark = OWNER_MARKS[owner(stack, claims)] if stack else " "
            pad = " " * (width - len(text) - 1)
            if color and stack:
                text = _paint(text, stack[-1].colour, mark != " ")
            parts.append(text + mark + pad)
        lines.append(f"{row_index + 1:>{label}}  " + "".join(parts).rstrip())
    letters = "".join(column_name(c).ljust(width) for c in range(position.width))
    lines.append(" " * (label + 2) + letters.rstrip())
    lines.extend(prose.wrap("A stack is named by its top pyramid (colour, size 1-3), :N its height where above 1; "
                            "' or \" marks the owner, player 1 or 2."))
    lines.append("")
    scores = position.scores()
    for player in (1, 2):
        colour = claims[player - 1]
        claim = f"claims {colour} ({COLOUR_NAMES[colour]})" if colour else "claims nothing"
        notes = []
        if position.shield == player:
            notes.append("shielded")
        if position.player_to_move == player and not position.is_over():
            notes.append("to move")
        note = f"  [{', '.join(notes)}]" if notes else ""
        lines.append(f"Player {player} {OWNER_MARKS[player]}: {claim}, score {scores[player - 1]}{note}")
    if position.is_over():
        lines.extend(prose.wrap(f"Game over: {result_line(position)}."))
    return "\n".join(lines)


def result_line(position):
    """Who won a finished game, and the score ("player 1 wins (5-3)")."""
    first, second = position.scores()
    verdict = "a draw" if first == second else f"player {1 if first > second else 2} wins"
    return f"{verdict} ({first}-{second})"


def render_svg(position):
    """The board as an SVG document: a pyramid per stack (its size shown by
    its size, its height written on it), owned stacks framed in the owner's
    colour, coordinates around, claims and scores below."""
    return board(position)[0].document()


def layout(position, where="svg"):
    """Where everything sits in the picture of `position`'s board, in
    pixels: the one rule that `show --svg` (where="svg") and the analysis
    board's page (where="page", served at POST /api/layout) both place the
    board by, with the sizes of claimsolve.render.style (COLORCLAIM; the
    page's picture is at least COLORCLAIM["page"]["min_width"] wide, the
    grid centred in it).  A JSON-ready dict:

      width, height   the picture's size
      cell            a space's side
      columns, rows   the left edge of each column's spaces (column a
                      first) and the top edge of each row's (the top row
                      first, as the position JSON lists rows)
      column_labels, row_labels   [{x, y, text}]: the coordinates, column
                      letters below the grid, row numbers left of it
      legend          {key, text: x of a player's square and of his line,
                      lines: y of player 1's line and of player 2's}
    """
    cell, margin = COLORCLAIM["cell"], COLORCLAIM["margin"]
    board_w, board_h = position.width * cell, position.height * cell
    total_w = max(board_w + 2 * margin, COLORCLAIM[where]["min_width"])
    spare = total_w - board_w
    left = spare // 2 if spare % 2 == 0 else spare / 2          # whole pixels stay ints: the SVG writes 28, not 28.0
    return {
        "width": total_w, "height": board_h + 2 * margin + 56,
        "cell": cell,
        "columns": [left + column * cell for column in range(position.width)],
        "rows": [margin + row * cell for row in range(position.height)],
        "column_labels": [{"x": left + column * cell + cell / 2, "y": margin + board_h + 18,
                           "text": column_name(column)} for column in range(position.width)],
        "row_labels": [{"x": left - margin / 2, "y": margin + row * cell + cell / 2 + 5,
                        "text": str(position.height - row)} for row in range(position.height)],
        "legend": {"key": margin, "text": margin + 18,
                   "lines": [margin + board_h + 18 + 20 * player for player in (1, 2)]},
    }


def height_mark_at(x, y, cell):
    """Where a stack's height mark ("x2") is written in the space of `cell`
    pixels at (x, y): the right end of its text and its baseline (the
    board draws it there; score labels keep off it: Geometry.keep_clear)."""
    return x + cell - 8, y + 16


class Geometry:
    """Where the board lies in its picture (its layout)."""

    def __init__(self, position, layout):
        self.height, self.layout, self.cell = position.height, layout, layout["cell"]
        self.position = position

    def centre(self, column, row):
        return (self.layout["columns"][column] + self.cell / 2,
                self.layout["rows"][self.height - 1 - row] + self.cell / 2)

    @property
    def bounds(self):
        return (4, 4, self.layout["width"] - 4, self.layout["rows"][-1] + self.cell + 8)

    @property
    def keep_clear(self):
        """The boxes score labels keep off where they can: each stack's
        height mark ("x2", drawn by `board` in its space's top right), which
        a label covered (a QA player's 5x4 picture)."""
        boxes = []
        for row, line in enumerate(self.position.grid):
            for column, stack in enumerate(line):
                if stack is not None and len(stack) > 1:
                    x = self.layout["columns"][column]
                    y = self.layout["rows"][self.height - 1 - row]
                    right, baseline = height_mark_at(x, y, self.cell)
                    boxes.append((right - 22, baseline - 14, 24, 18))
        return boxes


def board(position, moves=()):
    """The board drawn on a Canvas (claimsolve.render.svg) and its Geometry."""
    placed = layout(position, "svg")
    cell, total_w, total_h = placed["cell"], placed["width"], placed["height"]
    title = (f"Color Claim {position.width}x{position.height}: "
             + ("game over" if position.is_over() else f"player {position.player_to_move} to move"))
    canvas = S.Canvas(total_w, total_h, title)
    out = canvas.elements
    out.append(f'<rect x="0" y="0" width="{total_w}" height="{total_h}" fill="{COLORCLAIM["background"]}"/>')
    claims = position.claims
    for row in range(position.height):
        y = placed["rows"][position.height - 1 - row]
        label = placed["row_labels"][position.height - 1 - row]
        out.append(f'<text x="{label["x"]}" y="{label["y"]}" font-size="14" '
                   f'text-anchor="middle">{label["text"]}</text>')
        for column in range(position.width):
            x = placed["columns"][column]
            stack = position.grid[row][column]
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{COLORCLAIM["space"]}" '
                       f'stroke="{COLORCLAIM["grid"]}"/>')
            if stack is None:
                continue
            top = stack[-1]
            player = owner(stack, claims)
            if player is not None:
                out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{cell - 6}" height="{cell - 6}" fill="none" '
                           f'stroke="{SVG_OWNER[player]}" stroke-width="4"/>')
            half = 10 + 6 * top.size
            base, apex = y + cell - 10, y + cell - 10 - (18 + 10 * top.size)
            cx = x + cell / 2
            out.append(f'<polygon points="{cx - half},{base} {cx + half},{base} {cx},{apex}" '
                       f'fill="{SVG_FILL[top.colour]}" stroke="{COLORCLAIM["pyramid_stroke"]}" stroke-width="1">'
                       f'<title>{escape(stack_title(stack))}</title></polygon>')
            if len(stack) > 1:
                right, baseline = height_mark_at(x, y, cell)
                out.append(f'<text x="{right}" y="{baseline}" font-size="13" font-weight="bold" '
                           f'text-anchor="end">x{len(stack)}</text>')
    for label in placed["column_labels"]:
        out.append(f'<text x="{label["x"]}" y="{label["y"]}" font-size="14" '
                   f'text-anchor="middle">{label["text"]}</text>')
    scores = position.scores()
    over = position.is_over()
    legend = placed["legend"]
    for player, y in zip((1, 2), legend["lines"]):
        colour = claims[player - 1]
        claim = COLOUR_NAMES[colour] if colour else "nothing"
        notes = [n for n, on in (("shielded", position.shield == player),
                                 ("to move", position.player_to_move == player and not over)) if on]
        text = f"Player {player}: claims {claim}, score {scores[player - 1]}"
        if notes:
            text += f" ({', '.join(notes)})"
        out.append(f'<rect x="{legend["key"]}" y="{y - 11}" width="12" height="12" fill="{SVG_OWNER[player]}"/>')
        out.append(f'<text x="{legend["text"]}" y="{y}" font-size="14">{escape(text)}</text>')
    return canvas, Geometry(position, placed)


_MOVE = re.compile(r"\s*" + POINT + r"\s*([-x])\s*" + POINT + r"\s*")


def move_marks(position, geometry, move, colour, width, opacity, rank=1):
    """The move `move` (b1-b2, b1xb2) drawn on the board in `colour`: (SVG
    elements, the places (x, y) its label may go next to)."""
    found = _MOVE.fullmatch(move.lower())
    if found is None:
        raise ValueError(f"not a Color Claim move: {move!r}")
    source = geometry.centre(column_index(found.group(1)), int(found.group(2)) - 1)
    target = geometry.centre(column_index(found.group(4)), int(found.group(5)) - 1)
    out = [S.arrow(S.shorten([source, target], geometry.cell * 0.12, geometry.cell * 0.22), colour, width,
                   opacity)]
    if found.group(3) == "x":                   # the claim: a ring around the stack claimed
        out.append(S.ring(*target, geometry.cell * 0.42, colour, width * 0.7, opacity, dashed=True))
    dx, dy = target[0] - source[0], target[1] - source[1]     # the label beside the arrow
    return out, [((source[0] + target[0]) / 2, (source[1] + target[1]) / 2, -dy, dx)]
