"""Drawing Claim positions: text for a terminal, and SVG.

In text every point is 3 characters wide: a free point shows its territory
letter, a Viking its colour digit, a tower `T` and its colour; sea is blank.
"""
from xml.sax.saxutils import escape

from . import rules

COLOUR_NAMES = {1: "red", 2: "blue", 3: "yellow", 4: "green"}
ANSI = {1: "91", 2: "94", 3: "93", 4: "92"}
ANSI_LAND = "2"                 # territory letters: faint

SVG_PIECE = {1: "#d62728", 2: "#1f5fbf", 3: "#f0b400", 4: "#2a9d3a"}
SVG_PIECE_TEXT = {1: "#ffffff", 2: "#ffffff", 3: "#1a1a1a", 4: "#ffffff"}
SVG_SEA = "#cfe3ef"
SVG_LAND = ("#eadfb4", "#cfe0b0", "#e8cba8", "#c8d9cf", "#ddd0e6", "#f0e7c8")
SVG_SHORE = "#3b4a57"
SVG_BORDER = "#7d6f55"


# --- text ---------------------------------------------------------------------------

def _cell_text(position, cell):
    island, piece = position.island, position.state.board[cell]
    if not island.is_point(cell):
        return "", None
    if piece is None:
        return island.territory(cell), "land"
    if piece.kind == "tower":
        return f"T{piece.colour}", piece.colour
    return str(piece.colour), piece.colour


def _paint(text, colour, bold=False):
    code = ANSI_LAND if colour == "land" else ANSI[colour] + (";1" if bold else "")
    return f"\x1b[{code}m{text}\x1b[0m"


def render_text(position, color=False):
    """The island (row numbers left, column letters below), then the phase,
    who is to move, each colour's Vikings and towers, the teams, the
    standstill streaks, the quiet plies and the result when the game is
    over."""
    island = position.island
    label = len(str(island.height))
    lines = []
    for row in reversed(range(island.height)):
        parts = []
        for column in range(island.width):
            cell = island.cell_at(column, row)
            text, colour = _cell_text(position, cell)
            padded = text.rjust(2)
            if color and colour is not None:
                padded = " " * (2 - len(text)) + _paint(text, colour, bold=text.startswith("T"))
            parts.append(" " + padded)
        lines.append(f"{row + 1:>{label}} " + "".join(parts).rstrip())
    lines.append(" " * (label + 1) + "".join(f"  {chr(ord('a') + c)}" for c in range(island.width)))
    lines.append("")
    lines.append(_status_line(position))
    lines.append("")
    lines.append("colour         Vikings: island  hand  lost   towers: island  hand")
    for colour in position.colours:
        name = f"{colour} ({COLOUR_NAMES[colour]})"
        if color:
            name = _paint(str(colour), colour, bold=True) + f" ({COLOUR_NAMES[colour]})"
        pad = " " * (14 - len(f"{colour} ({COLOUR_NAMES[colour]})"))
        lines.append(f"{name}{pad} {position.vikings_on_island(colour):>15} {position.vikings_in_hand(colour):>5} "
                     f"{position.vikings_lost(colour):>5} {position.towers_on_island(colour):>15} "
                     f"{position.towers_in_hand(colour):>5}")
    lines.append("")
    lines.append(_teams_line(position))
    if position.phase == "play":
        streaks = []
        for player in range(1, position.num_players + 1):
            entry = position.streak(player)
            streaks.append(f"player {player} " + ("-" if entry is None else f"{entry[0]} x{entry[1]}"))
        standstill = position.rules.standstill
        lines.append(f"Streaks (standstill {standstill}): " + ", ".join(streaks))
        lines.append(f"Quiet plies: {position.quiet_plies} (a draw at {position.rules.draw_after})")
    if position.is_over():
        lines.append(f"Game over: {_result(position)}.")
    return "\n".join(lines)


def _status_line(position):
    phase = {"settle": "settle (placing Vikings two at a time)",
             "brawl": "brawl (removing opposing Vikings)",
             "towers": "towers (each player's first conquest check)",
             "play": "play"}[position.phase]
    if position.is_over():
        return f"Phase: {phase}.  The game is over."
    return f"Phase: {phase}.  Player {position.player_to_move} to move."


def _teams_line(position):
    state = position.state
    target = position.tower_target()
    if rules.is_battle_for_two(state):
        return (f"Battle for two: player 1 plays colours 1 and 3, player 2 colours 2 and 4; "
                f"{target} towers win.")
    if position.num_players == 4:
        return f"Teams: seats 1 and 3 against seats 2 and 4; a team with {target} towers wins."
    return f"Every seat plays alone; {target} towers win."


def _result(position):
    if position.is_draw():
        return f"a draw after {position.quiet_plies} quiet plies"
    won = position.winners()
    towers = position.team_towers(won[0])
    if len(won) > 1:
        return f"seats {' and '.join(map(str, won))} win with {towers} towers"
    return f"player {won[0]} wins with {towers} towers"


# --- SVG ----------------------------------------------------------------------------------

def _land_colours(island):
    """A fill per territory, neighbouring territories told apart (greedy)."""
    touching = {t: set() for t in island.territories}
    for cell in island.points:
        for n in island.neighbours(cell):
            if island.territory(n) != island.territory(cell):
                touching[island.territory(cell)].add(island.territory(n))
    fills, uses = {}, {c: 0 for c in SVG_LAND}
    for letter in island.territories:
        used = {fills[t] for t in touching[letter] if t in fills}
        choice = min((c for c in SVG_LAND if c not in used), key=lambda c: uses[c], default=SVG_LAND[0])
        fills[letter] = choice
        uses[choice] += 1
    return fills


def _label_point(island, letter, board):
    """Where a territory's letter goes: its free point nearest its centre
    (any point when none is free)."""
    points = [c for c in island.territory_points(letter) if board[c] is None] or island.territory_points(letter)
    xs = [island.column_row(c)[0] for c in points]
    ys = [island.column_row(c)[1] for c in points]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    return min(points, key=lambda c: ((island.column_row(c)[0] - cx) ** 2 + (island.column_row(c)[1] - cy) ** 2,
                                      island.sort_key(c)))


def _tower_path(x, y, size):
    """A small castle: a keep with three merlons, centred on (x, y)."""
    w, h = size * 0.62, size * 0.66
    left, right, top, bottom = x - w / 2, x + w / 2, y - h / 2, y + h / 2
    m = w / 5
    notch = h * 0.2
    return (f"M{left:.1f},{bottom:.1f} L{left:.1f},{top:.1f} L{left + m:.1f},{top:.1f} "
            f"L{left + m:.1f},{top + notch:.1f} L{left + 2 * m:.1f},{top + notch:.1f} L{left + 2 * m:.1f},{top:.1f} "
            f"L{left + 3 * m:.1f},{top:.1f} L{left + 3 * m:.1f},{top + notch:.1f} "
            f"L{left + 4 * m:.1f},{top + notch:.1f} L{left + 4 * m:.1f},{top:.1f} L{right:.1f},{top:.1f} "
            f"L{right:.1f},{bottom:.1f} Z")


def render_svg(position):
    """The island as an SVG document: territories as filled regions, thin
    borders between territories and a thick shore line, each territory's
    letter, coordinates around, Vikings as discs and towers as castles in
    their colour with the colour number, a title line and a line per colour
    below."""
    island, state = position.island, position.state
    cell, margin, title_h = 44, 30, 34
    width_px, height_px = island.width * cell, island.height * cell
    legend_h = 22 * len(position.colours) + 30
    total_w = max(width_px + 2 * margin, 640)
    total_h = title_h + height_px + 2 * margin + legend_h
    left, top = (total_w - width_px) / 2, title_h + margin

    def corner(column, row):            # the top-left corner of a square, in pixels
        return left + column * cell, top + (island.height - 1 - row) * cell

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
           f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect x="0" y="0" width="{total_w:.0f}" height="{total_h:.0f}" fill="#fbfaf6"/>',
           f'<rect x="{left - 8:.1f}" y="{top - 8:.1f}" width="{width_px + 16}" height="{height_px + 16}" '
           f'rx="10" fill="{SVG_SEA}"/>']
    if position.is_over():
        title = f"Claim: game over, {_result(position)}"
    else:
        title = f"Claim: {position.phase} phase, player {position.player_to_move} to move"
    out.append(f'<text x="{total_w / 2:.1f}" y="24" font-size="16" font-weight="bold" text-anchor="middle">'
               f'{escape(title)}</text>')

    # the land, one square per point
    fills = _land_colours(island)
    for c in island.points:
        x, y = corner(*island.column_row(c))
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell}" height="{cell}" '
                   f'fill="{fills[island.territory(c)]}"/>')
    # territory letters, large and faint, under the pieces
    labelled = set()
    for letter in island.territories:
        label_cell = _label_point(island, letter, state.board)
        labelled.add(label_cell)
        x, y = corner(*island.column_row(label_cell))
        out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 11:.1f}" font-size="32" fill="#000000" '
                   f'fill-opacity="0.16" font-weight="bold" text-anchor="middle">{letter}</text>')
    # point marks
    for c in island.points:
        if state.board[c] is None and c not in labelled:
            x, y = corner(*island.column_row(c))
            out.append(f'<circle cx="{x + cell / 2:.1f}" cy="{y + cell / 2:.1f}" r="2.5" fill="#6b604a"/>')
    # borders: thin between territories, thick along the shore
    thin, thick = [], []
    for c in island.points:
        column, row = island.column_row(c)
        x, y = corner(column, row)
        sides = {0: ((x, y), (x + cell, y)),                  # up
                 1: ((x + cell, y), (x + cell, y + cell)),    # right
                 2: ((x, y + cell), (x + cell, y + cell)),    # down
                 3: ((x, y), (x, y + cell))}                  # left
        for direction, ((x1, y1), (x2, y2)) in sides.items():
            n = island.next(c, direction)
            segment = f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
            if n is None:
                thick.append(segment)
            elif island.territory(n) != island.territory(c) and direction in (0, 1):
                thin.append(segment)
    if thin:
        out.append(f'<path d="{" ".join(thin)}" stroke="{SVG_BORDER}" stroke-width="1.5" '
                   f'stroke-dasharray="4 3" fill="none"/>')
    out.append(f'<path d="{" ".join(thick)}" stroke="{SVG_SHORE}" stroke-width="3.5" stroke-linecap="round" '
               f'fill="none"/>')
    # the pieces
    for c in island.points:
        piece = state.board[c]
        if piece is None:
            continue
        x, y = corner(*island.column_row(c))
        cx, cy = x + cell / 2, y + cell / 2
        fill, ink = SVG_PIECE[piece.colour], SVG_PIECE_TEXT[piece.colour]
        name = island.point_name(c)
        if piece.kind == "viking":
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.36:.1f}" fill="{fill}" stroke="#222" '
                       f'stroke-width="1.2"><title>{name}: Viking of colour {piece.colour}</title></circle>')
            out.append(f'<text x="{cx:.1f}" y="{cy + 5.5:.1f}" font-size="16" font-weight="bold" fill="{ink}" '
                       f'text-anchor="middle">{piece.colour}</text>')
        else:
            out.append(f'<path d="{_tower_path(cx, cy, cell)}" fill="{fill}" stroke="#222" stroke-width="1.5" '
                       f'stroke-linejoin="round"><title>{name}: tower of colour {piece.colour}</title></path>')
            out.append(f'<text x="{cx:.1f}" y="{cy + 10:.1f}" font-size="13" font-weight="bold" fill="{ink}" '
                       f'text-anchor="middle">{piece.colour}</text>')
    # coordinates
    for column in range(island.width):
        x = left + column * cell + cell / 2
        letter = chr(ord("a") + column)
        out.append(f'<text x="{x:.1f}" y="{top + height_px + 24:.1f}" font-size="13" fill="#444" '
                   f'text-anchor="middle">{letter}</text>')
    for row in range(island.height):
        _, y = corner(0, row)
        out.append(f'<text x="{left - 14:.1f}" y="{y + cell / 2 + 5:.1f}" font-size="13" fill="#444" '
                   f'text-anchor="end">{row + 1}</text>')
    # a line per colour
    y = top + height_px + margin + 20
    for colour in position.colours:
        out.append(f'<circle cx="{margin + 8}" cy="{y - 5}" r="7" fill="{SVG_PIECE[colour]}" stroke="#222"/>')
        text = (f"colour {colour}: Vikings {position.vikings_on_island(colour)} on the island, "
                f"{position.vikings_in_hand(colour)} in hand, {position.vikings_lost(colour)} lost; towers "
                f"{position.towers_on_island(colour)} on the island, {position.towers_in_hand(colour)} in hand")
        out.append(f'<text x="{margin + 22}" y="{y:.1f}" font-size="12.5">{escape(text)}</text>')
        y += 22
    out.append("</svg>")
    return "\n".join(out) + "\n"
