"""Drawing a Claim It! position: text for a terminal, SVG for a picture."""
from html import escape

from . import rules
from .rules import SIZE

# ANSI foreground colours of players 1..5
ANSI = {1: "31", 2: "34", 3: "32", 4: "33", 5: "35"}
# SVG fills of players 1..5
FILLS = {1: "#d62728", 2: "#1f77b4", 3: "#2ca02c", 4: "#e6b800", 5: "#9467bd"}
RESET = "\033[0m"


def _cell_text(pile):
    return "/".join(pile) if pile else "."


def _paint(pile, text, color):
    if not color or not pile:
        return text
    holder = rules.holder(pile)
    if holder is not None:
        bold = "1;" if rules.is_secured(pile) else ""
        return f"\033[{bold}{ANSI[holder]}m{text}{RESET}"
    if rules.top(pile) == rules.BLACK:
        return f"\033[1;90m{text}{RESET}"
    return f"\033[1;97m{text}{RESET}"


def render_text(position, color=False):
    """The board (row 1 at the top, as in the JSON), who is to move, the dice,
    and each player's standing."""
    board = position.board
    width = max(5, max(len(_cell_text(p)) for p in board))
    lines = [f"Claim It!  {position.players} players, target {position.target} secured spaces"
             + ("  (variant: release_white)" if position.release_white else "")]
    lines.append("     " + "".join(f"{c:>{width + 1}}" for c in range(1, SIZE + 1)))
    for r in range(1, SIZE + 1):
        cells = []
        for c in range(1, SIZE + 1):
            pile = board[rules.space_index(r, c)]
            text = _cell_text(pile)
            cells.append(" " * (width + 1 - len(text)) + _paint(pile, text, color))
        lines.append(f"  {r:>2} " + "".join(cells))
    lines.append("")
    if position.is_over():
        won = position.winners()
        lines.append("Game over.  " + ("Winner: player %d" % won[0] if len(won) == 1 else
                                      "Shared win: players " + ", ".join(map(str, won))))
    else:
        state = (f"dice {' '.join(map(str, position.dice))}: place a marker" if position.dice else
                 "roll or stop" if position.turn_in_progress() else "must roll")
        lines.append(f"Player {position.to_move} to move: {state}.")
        if position.final_round:
            by, left = position.final_round
            lines.append(f"Final round (player {by} reached the target): {left} turn(s) left, this one included.")
    for p in range(1, position.players + 1):
        lines.append(f"  player {p}: {rules.secured_count(board, p)} secured, {rules.held_count(board, p)} held, "
                     f"largest group {rules.largest_group(board, p)}")
    return "\n".join(lines)


def render_svg(position):
    """Each space a square; its pile drawn bottom to top: colour markers as
    discs, black markers as dark squares, white markers as numbered discs."""
    cell, margin = 60, 30
    size = margin * 2 + cell * SIZE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 30}" '
           f'viewBox="0 0 {size} {size + 30}" font-family="sans-serif">',
           f'<rect width="{size}" height="{size + 30}" fill="#f4ecd8"/>']
    for i in range(1, SIZE + 1):
        x = margin + (i - 0.5) * cell
        out.append(f'<text x="{x}" y="{margin - 10}" text-anchor="middle" font-size="14">{i}</text>')
        out.append(f'<text x="{margin - 14}" y="{margin + (i - 0.5) * cell + 5}" text-anchor="middle" '
                   f'font-size="14">{i}</text>')
    for r in range(1, SIZE + 1):
        for c in range(1, SIZE + 1):
            x, y = margin + (c - 1) * cell, margin + (r - 1) * cell
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#e8dcc0" '
                       f'stroke="#8a7a5a"/>')
            pile = position.board[rules.space_index(r, c)]
            for level, token in enumerate(pile):
                cx = x + cell / 2 + 6 * level - 3 * (len(pile) - 1)
                cy = y + cell / 2 - 6 * level + 3 * (len(pile) - 1) - 4
                out.append(_token_svg(token, cx, cy))
            if len(pile) > 1:
                # the whole pile in words: what lies under the top is hidden
                out.append(f'<text x="{x + cell / 2}" y="{y + cell - 3}" text-anchor="middle" '
                           f'font-size="10" fill="#333">{escape("/".join(pile))}</text>')
    state = (f"Player {position.to_move} to move" if not position.is_over() else "Game over")
    if position.dice:
        state += ", dice " + " ".join(map(str, position.dice))
    out.append(f'<text x="{margin}" y="{size + 10}" font-size="16">{escape(state)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _token_svg(token, cx, cy):
    if token == rules.BLACK:
        return (f'<rect x="{cx - 16}" y="{cy - 16}" width="32" height="32" rx="4" fill="#222" '
                f'stroke="#000"/>')
    if rules.is_white(token):
        return (f'<circle cx="{cx}" cy="{cy}" r="14" fill="#fff" stroke="#333"/>'
                f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14">{token[1:]}</text>')
    return (f'<circle cx="{cx}" cy="{cy}" r="16" fill="{FILLS[int(token)]}" stroke="#333"/>'
            f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="13" fill="#fff">{token}</text>')
