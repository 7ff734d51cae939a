"""The drawing constants of every picture, in one place: the palettes and
the sizes that the SVG renderer (claimsolve.render) and the analysis
board's page (claimsolve/web/static) both draw with.  Where those sizes put
each square, label and legend line is each game's `layout` (render/claim.py,
colorclaim.py, claimit.py), which the page gets from the server too
(POST /api/layout).

The renderer reads these names directly; the server answers them as JSON
(`GET /api/style`, `as_json()`), and the page's scripts read that once when
they start (static/style.js).  A change of palette or layout is made here,
once, and both sides follow.  Everything is plain data (str, int, float,
lists and dicts), so that it goes to JSON as it is; a dict keyed by player
or colour number has int keys here and string keys in JSON ("1").

docs/drawing.md says which value is used where.
"""
from ..claimit.rules import SIZE

# --- every picture ---------------------------------------------------------------------------

COMMON = {
    "font": "Helvetica, Arial, sans-serif",
    "ink": "#1a1a1a",                 # text
    "page": "#fbfaf6",                # the ground of a picture with a panel or a chart
    "best": "#d6006f",                # the best suggestion: magenta, a colour no game's pieces use
    "other": "#34495e",               # the other suggestions: dark slate
    "halo": "#ffffff",                # under arrows and crosses, so that they read on any board
}

# --- Claim: the island ----------------------------------------------------------------------

CLAIM = {
    "background": "#fbfaf6",
    "piece": {1: "#d62728", 2: "#1f5fbf", 3: "#f0b400", 4: "#2a9d3a"},          # by colour number
    "piece_text": {1: "#ffffff", 2: "#ffffff", 3: "#1a1a1a", 4: "#ffffff"},     # the number on a piece
    "piece_stroke": "#222",
    "sea": "#cfe3ef",
    # territory fills, neighbouring territories told apart (greedy, in letter order)
    "land": ["#eadfb4", "#cfe0b0", "#e8cba8", "#c8d9cf", "#ddd0e6", "#f0e7c8"],
    "shore": "#3b4a57",               # the island's edge: thick
    "border": "#7d6f55",              # between territories: thin, dashed
    "letter": "#000000",              # a territory's letter, faint (fill-opacity 0.16)
    "point": "#6b604a",               # the dot of a free point
    "coordinates": "#444",
    # geometry (render/claim.py's layout): a point is a square `cell` wide; the island
    # `margin` from the legend below it, centred in a picture at least `min_width` wide,
    # under a title `title` high; the column letters `letters` below the island, the
    # legend's first line `legend` below the margin under it, its discs `key` in from the
    # margin, and `bottom` under its last line
    "cell": 44,
    "margin": 30,
    "svg": {"title": 34, "min_width": 640, "letters": 24, "legend": 20, "key": 8, "bottom": 30},
    "page": {"title": 8, "min_width": 420, "letters": 22, "legend": 16, "key": 0, "bottom": 10,
             # a page's frame narrower than `below` CSS px (a phone) shows an island of at least
             # `wider` times as many columns as rows turned a quarter, its long side down the
             # screen: the letters in the `margin` left of it, the numbers' baseline `numbers`
             # above it, and `edge` (its sea and a little) right of it and between it and the
             # legend under it
             "turned": {"below": 640, "wider": 1.5, "edge": 14, "numbers": 12}},
}
CLAIM["seats"] = [CLAIM["piece"][seat] for seat in (1, 2, 3, 4)]      # a seat's line in a review: its colour

# --- Color Claim: the grid of stacks --------------------------------------------------------

COLORCLAIM = {
    "background": "#fbf8f0",
    "space": "#efe6d2",
    "grid": "#8a7a5a",
    "pyramid": {"R": "#d62728", "Y": "#f2c500", "G": "#2ca02c", "B": "#1f63c6", "K": "#222222"},
    "pyramid_stroke": "#000",
    "owner": {1: "#e07b00", 2: "#7a3db8"},       # the frame of a stack a player owns, by player
    # geometry (render/colorclaim.py's layout): a space is `cell` square, the grid
    # `margin` in from the picture's edge, centred in a picture at least `min_width` wide
    "cell": 64,
    "margin": 28,
    "svg": {"min_width": 0},
    "page": {"min_width": 420},                  # room for the players' lines
}

# --- Claim It!: the 6 x 6 board ---------------------------------------------------------------

CLAIMIT = {
    "background": "#f4ecd8",
    "space": "#e8dcc0",
    "grid": "#8a7a5a",
    "player": {1: "#d62728", 2: "#1f77b4", 3: "#2ca02c", 4: "#e6b800", 5: "#9467bd"},   # by player
    "player_unknown": "#888",         # (the page: a player number the palette lacks)
    "player_text": "#fff",
    "marker_stroke": "#333",
    "black": "#222",                  # a black marker
    "black_stroke": "#000",
    "white": "#fff",                  # a white marker (its number in ink)
    "pile_text": "#333",              # a pile written out under it
    "button": "#fffaf0",              # the roll and stop buttons of analyze --svg
    # geometry (render/claimit.py's layout): `size` spaces a side, each `cell` square,
    # the board `margin` in from the picture's edge
    "size": SIZE,
    "cell": 60,
    "margin": 30,
    "page": {"panel": 150, "bottom": 40,         # the dice and the standing beside the board; below it
             # a page's frame narrower than `narrow` CSS px (a phone) shows them under the board,
             # the picture no wider than the board: a player's two lines of standing `standing` high
             "narrow": 480, "standing": 36},
}
CLAIMIT["seats"] = [CLAIMIT["player"][seat] for seat in (1, 2, 3, 4, 5)]

# --- the page's marks on a board (the analysis board only) ----------------------------------

MARKS = {
    "selection": "#b0127a",           # the points clicked so far, and where a click may go next
    "last_square": "#f2c94c",         # the last move: its squares (fill) ...
    "last_move": "#d08a00",           # ... their edge and its route
    "placed": "#0b7a75",              # what the last move put on the board
    "taken": "#b3261e",               # what it took off (a cross)
    "ring": "#fff",                   # the ground of a claimed pyramid's badge
    "legal_fill": "#2a9d3a",          # Claim It!: a space the roll allows (tinted) ...
    "legal": "#2a7d3a",               # ... its edge and the marker's badge
    "legal_text": "#fff",
    "die": "#fff",                    # Claim It!'s dice
    "die_stroke": "#333",
    "pip": "#222",
    "final_round": "#b3261e",
    "muted": "#555",
    # the engine's line: a colour per ply, in turn
    "line": ["#b0127a", "#1f5fbf", "#e07b00", "#2a7d3a", "#6a3db8"],
    # a review: the move that was better than a graded one (lichess's green), drawn at the position after
    "better": "#15781b",
}
COLORCLAIM["seats"] = [COLORCLAIM["owner"][seat] for seat in (1, 2)]

# --- charts --------------------------------------------------------------------------------------

CHARTS = {
    "win": "#2f6db5",                 # win-chance bars (the best plan's in COMMON["best"])
    "bust": "#b5472f",                # bust-chance bars
    "grid": "#d9d4c7",
    "interval": "#1a1a1a",            # error bars: the 95% interval
    # a review: a graded move's mark, and each seat's line
    "grades": {"inaccuracy": "#e0a800", "mistake": "#e67e22", "blunder": "#c0392b"},
    # the dark ring round every grade's dot, so that a dot stands out of any seat's line (a mistake's
    # orange dot on Color Claim's player 1 line, #e07b00, was lost; the blunder's red is a seat's too)
    "grade_ring": "#1f2a33",
    "seats": ["#2c6fbb", "#c0392b", "#2e8b57", "#8e44ad", "#d35400"],
    "evaluation": "#b0127a",          # the page's graph of a two-sided game: player 1's line
}

GAMES = {"claim": CLAIM, "colorclaim": COLORCLAIM, "claimit": CLAIMIT}


def seat_colours(game):
    """Each seat's colour as `game`'s board draws it (a review's line per
    seat takes it); CHARTS["seats"] for a game without one."""
    return GAMES.get(game, {}).get("seats", CHARTS["seats"])


def as_json():
    """Everything above as one JSON-ready dict (what GET /api/style answers):
    {"common", "games": {game id: ...}, "marks", "charts"}."""
    return {"common": COMMON, "games": GAMES, "marks": MARKS, "charts": CHARTS}
