"""Drawing Claim positions: text for a terminal, SVG, and suggested turns
drawn on the island (claimsolve.render.analysis_svg).

In text every point is 3 characters wide: a free point shows its territory
letter, a Viking its colour digit, a tower `T` and its colour; sea is blank.
On the island a suggested turn is drawn as it is played: settled Vikings as
dashed discs tied together, brawl removals as crosses, tower placements as
dashed castles, movements as arrows along their route (a jump chain hop by
hop), and the pieces the best turn's movements capture crossed out small
(analysis_key says in the picture's key what the others capture: a cross
reads as "the best turn takes this").
"""
from .. import prose
from ..claim import rules
from ..claim.notation import drawn_after
from . import svg as S
from .style import CLAIM
from .svg import escape

COLOUR_NAMES = {1: "red", 2: "blue", 3: "yellow", 4: "green"}
ANSI = {1: "91", 2: "94", 3: "93", 4: "92"}
ANSI_LAND = "2"                 # territory letters: faint

# the palette and sizes: claimsolve.render.style (the page draws with them too)
SVG_PIECE = CLAIM["piece"]
SVG_PIECE_TEXT = CLAIM["piece_text"]
SVG_SEA = CLAIM["sea"]
SVG_LAND = CLAIM["land"]
SVG_SHORE = CLAIM["shore"]
SVG_BORDER = CLAIM["border"]
STROKE = CLAIM["piece_stroke"]


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
    lines.extend(prose.wrap(_status_line(position)))
    rules_words = rules_line(position)
    if rules_words:
        lines.append(rules_words[0].upper() + rules_words[1:] + ".")
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
    lines.extend(prose.wrap(_teams_line(position)))
    if position.phase == "play":
        # the standstill rule's count: how many turns in a row each player has moved one Viking
        limited = position.rules.standstill == "same-viking"
        streaks = []
        for player in range(1, position.num_players + 1):
            entry = position.streak(player)
            if entry is None:
                streaks.append(f"player {player} -")
            else:
                rests = " (it rests next turn)" if limited and entry[1] >= 2 else ""
                streaks.append(f"player {player} {entry[0]} {entry[1]}{rests}")
        rule = "a third is not allowed" if limited else "no limit: standstill off"
        lines.extend(prose.wrap(f"Turns in a row with the same Viking ({rule}): " + ", ".join(streaks),
                                whole=streaks))
        lines.append(f"Quiet plies: {position.quiet_plies} (a draw at {position.rules.draw_after})")
    if position.is_over():
        lines.extend(prose.wrap(f"Game over: {result_line(position)}."))
    return "\n".join(lines)


def _status_line(position):
    phase = {"settle": "settle (placing Vikings two at a time)",
             "brawl": "brawl (removing opposing Vikings)",
             "towers": "towers (each player's first conquest check)",
             "play": "play"}[position.phase]
    if position.is_over():
        return f"Phase: {phase}.  The game is over."
    return f"Phase: {phase}.  Player {position.player_to_move} to move."


# The position's rule switches (its `rules` object) that are not at their
# defaults, in words: (the switch's words alone, with what it does).  The
# web board shows the same line (show --json's `rules`).
_RULE_WORDS = {
    "brawl": ("brawl cap", "the cap alone may leave the third of three nothing"),
    "third_party_anvil": ("no third-party anvil", "nothing is captured between two different opponents"),
    "standstill": ("standstill off", "a Viking may move in any number of turns in a row"),
}


def rules_line(position):
    """The rules of `position` that differ from the defaults where they
    apply, in one short line for a header: "rules: brawl cap (the cap alone
    may leave the third of three nothing)"; "" when every rule that applies
    is the default.  The brawl's rule matters only with 3 seats, in the
    settle and brawl phases (with 2 or 4 seats, and in battle-for-two, even
    and cap never differ); the third-party anvil only with 3 seats."""
    state, game_rules = position.state, position.rules
    default = rules.Rules()
    three = rules.brawl_rule_counts(position.num_players, state.variant)
    changed = []
    if game_rules.brawl != default.brawl and three and position.phase in ("settle", "brawl"):
        changed.append(_RULE_WORDS["brawl"])
    if game_rules.third_party_anvil != default.third_party_anvil and three:
        changed.append(_RULE_WORDS["third_party_anvil"])
    if game_rules.standstill != default.standstill:
        changed.append(_RULE_WORDS["standstill"])
    if game_rules.draw_after != default.draw_after:
        changed.append((f"a draw after {game_rules.draw_after:,} quiet plies", None))
    if not changed:
        return ""
    if len(changed) == 1:                     # one: what it does too
        words, why = changed[0]
        return f"rules: {words}" + (f" ({why})" if why else "")
    return "rules: " + ", ".join(words for words, _why in changed)


def _teams_line(position, key=False):
    """Who plays with whom, and what wins: the text's line; with `key`, the
    picture's (a seat of four plays the colour numbered like it: the key
    names colours), None where every seat plays alone."""
    target = position.tower_target()
    if rules.is_battle_for_two(position.state):
        return (f"Battle for two: player 1 plays colours 1 and 3, player 2 colours 2 and 4; "
                f"{target} towers win.")
    if position.num_players == 4:
        sides = "colours (seats) 1 and 3 against colours 2 and 4" if key else "seats 1 and 3 against seats 2 and 4"
        return f"Teams: {sides}; a team with {target} towers wins."
    return None if key else f"Every seat plays alone; {target} towers win."


def teams_key(position):
    """The picture's key line of who plays which colours, where colours are
    allies (4 seats, battle for two); None where every seat plays alone."""
    return _teams_line(position, key=True)


def result_line(position):
    """Who won a finished game and how (or the draw), in words."""
    if position.is_draw():
        return f"a draw after {drawn_after(position.quiet_plies, position.rules.draw_after)}"
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


def layout(position, where="svg"):
    """Where everything sits in the picture of `position`'s island, in
    pixels: the one rule that `show --svg` (where="svg") and the analysis
    board's page (where="page", served at POST /api/layout) both place the
    island by, with the sizes of claimsolve.render.style (CLAIM, and
    CLAIM[where] for what the two differ in: the title, the minimum width,
    the legend's offsets).  A JSON-ready dict:

      width, height   the picture's size
      cell            a point's square, its side
      columns, rows   the left edge of each column's squares (column a
                      first) and the top edge of each row's (the top row
                      first, as the position JSON lists rows)
      sea             [x, y, width, height]: the sea under the island
      column_labels, row_labels   [{x, y, text}]: the coordinates, column
                      letters below the island, row numbers left of it
      legend          {key, text: x of a line's disc and of its words,
                      lines: y of each colour's line}
      narrow          (the page, an island of at least CLAIM["page"]
                      ["turned"]["wider"] times as many columns as rows)
                      the picture for a frame narrower than `below` CSS
                      px (a phone): the island turned a quarter
                      clockwise (`turn`: 90), column a at the top, the
                      position's top row on the right, so that its long
                      side runs down the screen and its points are about
                      twice as big.  The same keys, which the page takes
                      in place of the others; in it `columns` are the
                      top edge of each column's squares and `rows` the
                      left edge of each row's (the top row first), the
                      letters left of the island, the numbers above it,
                      the legend under it, not turned
    """
    island = position.island
    # the picture's key says who plays which colours when colours are allies
    # (teams_key): a line more under the colours' (the page says it its own way)
    lines = len(position.colours) + (where == "svg" and teams_key(position) is not None)
    out = _layout(island.width, island.height, lines, where)
    turned = CLAIM[where].get("turned")
    if turned and island.width >= turned["wider"] * island.height:
        out["narrow"] = _turned(island.width, island.height, len(position.colours), where)
    return out


def _turned(columns, rows, colours, where):
    """The page's picture of an island turned a quarter clockwise (layout's
    `narrow`): its rows across, its columns down."""
    frame = CLAIM[where]
    turned = frame["turned"]
    cell, margin, edge = CLAIM["cell"], CLAIM["margin"], turned["edge"]
    width_px, height_px = rows * cell, columns * cell
    left, top = margin, frame["title"] + margin
    right, bottom = left + width_px, top + height_px
    first = bottom + edge + frame["legend"]
    return {
        "below": turned["below"], "turn": 90,
        "width": right + edge, "height": bottom + edge + 22 * colours + frame["bottom"],
        "columns": [top + column * cell for column in range(columns)],
        "rows": [right - (row + 1) * cell for row in range(rows)],
        "sea": [left - 8, top - 8, width_px + 16, height_px + 16],
        "column_labels": [{"x": left - 14, "y": top + column * cell + cell / 2 + 5,
                           "text": chr(ord("a") + column)} for column in range(columns)],
        "row_labels": [{"x": right - row * cell - cell / 2, "y": top - turned["numbers"], "text": str(rows - row)}
                       for row in range(rows)],
        "legend": {"key": edge, "text": edge + 14, "lines": [first + 22 * line for line in range(colours)]},
    }


def _layout(columns, rows, colours, where):
    frame = CLAIM[where]
    cell, margin = CLAIM["cell"], CLAIM["margin"]
    width_px, height_px = columns * cell, rows * cell
    total_w = max(width_px + 2 * margin, frame["min_width"])
    left, top = (total_w - width_px) / 2, frame["title"] + margin
    first = top + height_px + margin + frame["legend"]
    return {
        "width": total_w, "height": top + height_px + margin + 22 * colours + frame["bottom"],
        "cell": cell,
        "columns": [left + column * cell for column in range(columns)],
        "rows": [top + row * cell for row in range(rows)],
        "sea": [left - 8, top - 8, width_px + 16, height_px + 16],
        "column_labels": [{"x": left + column * cell + cell / 2, "y": top + height_px + frame["letters"],
                           "text": chr(ord("a") + column)} for column in range(columns)],
        "row_labels": [{"x": left - 14, "y": top + row * cell + cell / 2 + 5, "text": str(rows - row)}
                       for row in range(rows)],
        "legend": {"key": margin + frame["key"], "text": margin + frame["key"] + 14,
                   "lines": [first + 22 * line for line in range(colours)]},
    }


class Geometry:
    """Where the island lies in its picture (its layout): the centre of a
    point, the size of a square, and the box of the island (for labels to
    stay near)."""

    def __init__(self, island, layout, board=None):
        self.island, self.layout, self.cell = island, layout, layout["cell"]
        self.board = board              # the pieces on the points (state.board), for keep_clear
        self.jumped = []                # the points of pieces an arrow drawn jumps over (move_marks)

    def corner(self, column, row):
        """The top-left corner of a square, in pixels."""
        return self.layout["columns"][column], self.layout["rows"][self.island.height - 1 - row]

    def centre(self, cell):
        x, y = self.corner(*self.island.column_row(cell))
        return x + self.cell / 2, y + self.cell / 2

    @property
    def bounds(self):
        x, y, width, height = self.layout["sea"]
        return (x, y, x + width, y + height)

    def above_marks(self):
        """What goes over the suggestions' marks, under their labels: each
        piece an arrow jumps over, small, so that its colour and number
        still read (a QA player: p09's colour-4 Viking on b2 was hidden
        under the arrows)."""
        out = []
        for cell in dict.fromkeys(self.jumped):
            piece = self.board[cell] if self.board is not None else None
            if piece is None:
                continue
            x, y = self.centre(cell)
            r = self.cell * 0.2
            if piece.kind == "viking":           # a disc for a Viking, a square for a tower
                kind, shape = "Viking", f'<circle cx="{S.num(x)}" cy="{S.num(y)}" r="{S.num(r)}" '
            else:
                kind, shape = "tower", (f'<rect x="{S.num(x - r)}" y="{S.num(y - r)}" width="{S.num(2 * r)}" '
                                        f'height="{S.num(2 * r)}" rx="2" ')
            out.append(f'<g class="jumped"><title>{self.island.point_name(cell)}: {kind} of colour '
                       f'{piece.colour}, jumped over</title>'
                       f'{shape}fill="{SVG_PIECE[piece.colour]}" stroke="#ffffff" stroke-width="1.5"/>'
                       f'<text x="{S.num(x)}" y="{S.num(y + 4)}" font-size="11.5" font-weight="bold" '
                       f'fill="{SVG_PIECE_TEXT[piece.colour]}" text-anchor="middle">{piece.colour}</text></g>')
        return out

    @property
    def keep_clear(self):
        """The boxes score labels keep off where they can: every piece's
        (a Viking's disc, a tower's castle), which labels covered (a QA
        player: "1: -10000" over the b4 tower, p09's colour-4 Viking on b2
        hidden under labels)."""
        if self.board is None:
            return []
        half = self.cell * 0.28         # the piece's middle, its number: a label may touch its rim
        boxes = []
        for cell in self.island.points:
            if self.board[cell] is not None:
                x, y = self.centre(cell)
                boxes.append((x - half, y - half, 2 * half, 2 * half))
        return boxes


def render_svg(position):
    """The island as an SVG document: territories as filled regions, thin
    borders between territories and a thick shore line, each territory's
    letter, coordinates around, Vikings as discs and towers as castles in
    their colour with the colour number, a title line and a line per colour
    below."""
    return board(position)[0].document()


def board(position, moves=()):
    """The island drawn on a Canvas (claimsolve.render.svg), and its
    Geometry for drawing on it.  (`moves`, the turns to be drawn on it,
    need no room of their own.)"""
    island, state = position.island, position.state
    placed = layout(position, "svg")
    geometry = Geometry(island, placed, state.board)
    corner, cell = geometry.corner, placed["cell"]
    total_w, total_h = placed["width"], placed["height"]

    if position.is_over():
        title = f"Claim: game over, {result_line(position)}"
    else:
        title = f"Claim: {position.phase} phase, player {position.player_to_move} to move"
    canvas = S.Canvas(total_w, total_h, title)
    out = canvas.elements
    sea_x, sea_y, sea_w, sea_h = placed["sea"]
    out.extend([f'<rect x="0" y="0" width="{total_w:.0f}" height="{total_h:.0f}" fill="{CLAIM["background"]}"/>',
                f'<rect x="{sea_x:.1f}" y="{sea_y:.1f}" width="{sea_w}" height="{sea_h}" '
                f'rx="10" fill="{SVG_SEA}"/>'])
    out.append(f'<text x="{total_w / 2:.1f}" y="24" font-size="16" font-weight="bold" text-anchor="middle">'
               f'{escape(title)}</text>')
    rules_words = rules_line(position)
    if rules_words:                           # under the title, above the sea
        out.append(f'<text class="rules" x="{total_w / 2:.1f}" y="43" font-size="12.5" text-anchor="middle">'
                   f'{escape(rules_words[0].upper() + rules_words[1:])}</text>')
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
        out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 11:.1f}" font-size="32" fill="{CLAIM["letter"]}" '
                   f'fill-opacity="0.16" font-weight="bold" text-anchor="middle">{letter}</text>')
    # point marks
    for c in island.points:
        if state.board[c] is None and c not in labelled:
            x, y = corner(*island.column_row(c))
            out.append(f'<circle cx="{x + cell / 2:.1f}" cy="{y + cell / 2:.1f}" r="2.5" fill="{CLAIM["point"]}"/>')
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
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.36:.1f}" fill="{fill}" stroke="{STROKE}" '
                       f'stroke-width="1.2"><title>{name}: Viking of colour {piece.colour}</title></circle>')
            out.append(f'<text x="{cx:.1f}" y="{cy + 5.5:.1f}" font-size="16" font-weight="bold" fill="{ink}" '
                       f'text-anchor="middle">{piece.colour}</text>')
        else:
            out.append(f'<path d="{_tower_path(cx, cy, cell)}" fill="{fill}" stroke="{STROKE}" stroke-width="1.5" '
                       f'stroke-linejoin="round"><title>{name}: tower of colour {piece.colour}</title></path>')
            out.append(f'<text x="{cx:.1f}" y="{cy + 10:.1f}" font-size="13" font-weight="bold" fill="{ink}" '
                       f'text-anchor="middle">{piece.colour}</text>')
    # coordinates
    for label in placed["column_labels"]:
        out.append(f'<text x="{label["x"]:.1f}" y="{label["y"]:.1f}" font-size="13" fill="{CLAIM["coordinates"]}" '
                   f'text-anchor="middle">{label["text"]}</text>')
    for label in reversed(placed["row_labels"]):
        out.append(f'<text x="{label["x"]:.1f}" y="{label["y"]:.1f}" font-size="13" fill="{CLAIM["coordinates"]}" '
                   f'text-anchor="end">{label["text"]}</text>')
    # a line per colour
    legend = placed["legend"]
    for colour, y in zip(position.colours, legend["lines"]):
        out.append(f'<circle cx="{legend["key"]}" cy="{y - 5}" r="7" fill="{SVG_PIECE[colour]}" stroke="{STROKE}"/>')
        text = (f"colour {colour}: Vikings {position.vikings_on_island(colour)} on the island, "
                f"{position.vikings_in_hand(colour)} in hand, {position.vikings_lost(colour)} lost; towers "
                f"{position.towers_on_island(colour)} on the island, {position.towers_in_hand(colour)} in hand")
        out.append(f'<text x="{legend["text"]}" y="{y:.1f}" font-size="12.5">{escape(text)}</text>')
    teams = teams_key(position)
    if teams is not None:
        # which colours are allies, whose they are (the text's show says it; the picture did not)
        out.append(f'<text class="teams" x="{legend["key"] - 7}" y="{legend["lines"][-1]:.1f}" '
                   f'font-size="12.5">{escape(teams)}</text>')
    return canvas, geometry


# --- suggested turns on the island ---------------------------------------------------------------

def _tokens(move):
    """A turn's parts, spaces around its marks dropped: "e4-d4", "t@c3"."""
    text = " ".join(move.lower().split())
    for mark in "-+=@":
        text = text.replace(f" {mark}", mark).replace(f"{mark} ", mark)
    return text.split()


def captures(position, move):
    """The points (names, in the order taken) whose pieces the turn `move`
    captures: the engine's own report (Position.describe), which knows a
    tower placed by choice as an anvil and a conquest's swap earlier in the
    turn (a replay of the movements alone missed them: 67 of 136,215 turns).
    Only a play turn captures: a brawl's removals are its own marks
    (ClaimPosition.captures, which analyze --json says too)."""
    return position.captures(move)


def analysis_key(position, moves):
    """What the marks of `moves` (the suggestions drawn, best first) mean
    where a player could misread them, in sentences for the picture's key:
    a cross on a piece is what the best turn captures; the other turns'
    captures are not drawn but said here (a QA player read a cross of the
    third suggestion as the best one's)."""
    taken = [captures(position, move) for move in moves]
    if not any(taken):
        return []
    best = ("Key: a magenta cross on a piece: the best turn (1) captures it"
            if taken[0] else "Key: the best turn (1) captures nothing")
    others = [f"{rank}. {move} captures {' and '.join(points)}"
              for rank, (move, points) in enumerate(zip(moves, taken), 1) if rank > 1 and points]
    if not others:
        return [best + "; the other turns capture nothing."]
    return [best + "; the other turns' captures are not drawn: " + "; ".join(others) + "."]


def move_marks(position, geometry, move, colour, width, opacity, rank=1):
    """The turn `move` (a move string of `position`, as `moves` lists it)
    drawn on the island in `colour`: (SVG elements, the places its label
    may go next to, the likeliest first: (x, y), or (x, y, dx, dy) with the
    direction it had rather go).  What a movement captures is crossed out
    for the best turn (`rank` 1) alone: a cross reads as "the best turn
    takes this" (analysis_key says what the others take)."""
    island, state = position.island, position.state
    cell = geometry.cell
    board = list(state.board)
    mover = position.colours_of(position.player_to_move)
    out, anchors = [], []
    for token in _tokens(move):
        if "+" in token:                                     # settle: two Vikings
            centres = []
            for part in token.split("+"):
                name, _, colour_text = part.partition("=")
                point = island.parse_point(name)
                piece_colour = int(colour_text) if colour_text else mover[0]
                x, y = geometry.centre(point)
                centres.append((x, y))
                out.append(f'<circle class="mark" cx="{S.num(x)}" cy="{S.num(y)}" r="{S.num(cell * 0.33)}" '
                           f'fill="{SVG_PIECE[piece_colour]}" fill-opacity="{S.num(0.5 * opacity)}" '
                           f'stroke="{colour}" stroke-width="{S.num(width * 0.7)}" stroke-dasharray="5 3" '
                           f'stroke-opacity="{opacity}"/>')
            out.insert(0, S.link(centres[0], centres[1], colour, max(1.5, width * 0.4), opacity))
            anchors.append(((centres[0][0] + centres[1][0]) / 2, (centres[0][1] + centres[1][1]) / 2))
        elif token.startswith("x"):                          # brawl: a removal
            x, y = geometry.centre(island.parse_point(token[1:]))
            out.append(S.cross(x, y, cell * 0.27, colour, width * 0.8, opacity))
            anchors.append((x, y))
        elif token.startswith("t@"):                         # a tower placed by choice
            x, y = geometry.centre(island.parse_point(token[2:]))
            out.append(f'<path class="mark" d="{_tower_path(x, y, cell * 1.15)}" fill="#ffffff" '
                       f'fill-opacity="{S.num(0.35 * opacity)}" stroke="{colour}" stroke-width="{S.num(width * 0.6)}" '
                       f'stroke-dasharray="4 2" stroke-linejoin="round" stroke-opacity="{opacity}"/>')
            anchors.append((x, y))
        elif "-" in token:                                   # a movement, and what it captures
            route = [island.parse_point(name) for name in token.split("-")]
            if len(route) == 2:
                route = movement_route(island, board, route[0], route[1])
            points = [geometry.centre(point) for point in route]
            for here, there in zip(route, route[1:]):      # the pieces jumped over, to be drawn above
                for direction in range(4):
                    over = island.next(here, direction)
                    if over is not None and island.next(over, direction) == there and board[over] is not None:
                        geometry.jumped.append(over)
            out.append(S.arrow(S.shorten(points, cell * 0.1, cell * 0.1), colour, width, opacity))
            start, end = route[0], route[-1]
            piece = board[start]
            board[start], board[end] = None, piece
            if piece is not None:                           # the next movement's route goes round them
                for captured in rules.captured_by_landing(state, board, end, piece.colour):
                    board[captured] = None
            (x1, y1), (x2, y2) = points[-2], points[-1]
            dx, dy = x2 - x1, y2 - y1            # labels go on past the arrow's head
            anchors[:0] = [(x2, y2, dx, dy), ((x1 + x2) / 2, (y1 + y2) / 2, -dy, dx)]
    if rank == 1:                                            # what the turn takes, as the engine says
        for name in captures(position, move):
            out.append(S.cross(*geometry.centre(island.parse_point(name)), cell * 0.2, colour, width * 0.6,
                               opacity))
    if not anchors:                                          # pass: the label alone, by the island's corner
        x0, y0, _x1, _y1 = geometry.bounds
        anchors.append((x0 + cell, y0 + cell / 2))
    return out, anchors


def movement_route(island, board, start, end):
    """The points a movement from `start` to `end` goes through, start and
    end included (rules.movement_route: a step, or the shortest chain of
    jumps).  A movement the board does not allow is drawn straight."""
    return rules.movement_route(island, board, start, end) or [start, end]
