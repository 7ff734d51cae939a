"""Drawing Color Claim positions: text for a terminal, and SVG.

A cell shows the top pyramid and, for a stack, its height: `G2` is a single
medium green, `G2:4` a stack of 4 with a medium green on top.  Stacks a
player owns are marked after the token: `'` for player 1, `"` for player 2.
"""
from xml.sax.saxutils import escape

from .rules import owner, stack_value

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "black"}
ANSI = {"R": "31", "Y": "33", "G": "32", "B": "34", "K": "90"}
OWNER_MARKS = {None: " ", 1: "'", 2: '"'}
SVG_FILL = {"R": "#d62728", "Y": "#f2c500", "G": "#2ca02c", "B": "#1f63c6", "K": "#222222"}
SVG_OWNER = {1: "#e07b00", 2: "#7a3db8"}


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
    letters = "".join(chr(ord("a") + c).ljust(width) for c in range(position.width))
    lines.append(" " * (label + 2) + letters.rstrip())
    lines.append("")
    scores = position.scores()
    for player in (1, 2):
        colour = claims[player - 1]
        claim = f"claims {colour} ({COLOUR_NAMES[colour]})" if colour else "claims nothing"
        notes = []
        if position.shield == player:
            notes.append("shielded")
        if position.player_to_move == player:
            notes.append("to move")
        note = f"  [{', '.join(notes)}]" if notes else ""
        lines.append(f"Player {player} {OWNER_MARKS[player]}: {claim}, score {scores[player - 1]}{note}")
    if position.is_over():
        first, second = scores
        verdict = "a draw" if first == second else f"player {1 if first > second else 2} wins"
        lines.append(f"Game over: {verdict} ({first}-{second}).")
    return "\n".join(lines)


def render_svg(position):
    """The board as an SVG document: a pyramid per stack (its size shown by
    its size, its height written on it), owned stacks framed in the owner's
    colour, coordinates around, claims and scores below."""
    cell, margin = 64, 28
    board_w, board_h = position.width * cell, position.height * cell
    total_w = board_w + 2 * margin
    total_h = board_h + 2 * margin + 56
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{total_w}" height="{total_h}" fill="#fbf8f0"/>',
    ]
    claims = position.claims
    for row in range(position.height):
        y = margin + (position.height - 1 - row) * cell
        out.append(f'<text x="{margin / 2}" y="{y + cell / 2 + 5}" font-size="14" '
                   f'text-anchor="middle">{row + 1}</text>')
        for column in range(position.width):
            x = margin + column * cell
            stack = position.grid[row][column]
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#efe6d2" stroke="#8a7a5a"/>')
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
                       f'fill="{SVG_FILL[top.colour]}" stroke="#000" stroke-width="1">'
                       f'<title>{escape(cell_text(stack))}: {stack_value(stack)} points</title></polygon>')
            if len(stack) > 1:
                out.append(f'<text x="{x + cell - 8}" y="{y + 16}" font-size="13" font-weight="bold" '
                           f'text-anchor="end">x{len(stack)}</text>')
    for column in range(position.width):
        x = margin + column * cell + cell / 2
        out.append(f'<text x="{x}" y="{margin + board_h + 18}" font-size="14" '
                   f'text-anchor="middle">{chr(ord("a") + column)}</text>')
    scores = position.scores()
    for player in (1, 2):
        colour = claims[player - 1]
        claim = COLOUR_NAMES[colour] if colour else "nothing"
        notes = [n for n, on in (("shielded", position.shield == player),
                                 ("to move", position.player_to_move == player)) if on]
        text = f"Player {player}: claims {claim}, score {scores[player - 1]}"
        if notes:
            text += f" ({', '.join(notes)})"
        y = margin + board_h + 18 + 20 * player
        out.append(f'<rect x="{margin}" y="{y - 11}" width="12" height="12" fill="{SVG_OWNER[player]}"/>')
        out.append(f'<text x="{margin + 18}" y="{y}" font-size="14">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
