"""The drawing constants live once (claimsolve.render.style): the page's
scripts keep no copy of the pieces' palettes, and GET /api/style answers
the very values the SVG renderer draws with.  The layout rule lives once
too (each drawing module's `layout`): the page's scripts place nothing by
arithmetic of their own, and POST /api/layout answers the rule the SVG
renderer places its squares, labels and legend by."""
import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import claimsolve
from claimsolve.render import style
from claimsolve.catalog import game_of
from claimsolve.web import create_app

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "claimsolve" / "web" / "static"
SEEDS = ROOT / "seeds"
HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
WHITE_AND_BLACK = {"#ffffff", "#000000"}     # any script may write these (hit areas, text on a badge)


def normal(colour):
    """#abc and #AABBCC as #aabbcc."""
    colour = colour.lower()
    return "#" + "".join(2 * c for c in colour[1:]) if len(colour) == 4 else colour


def colours_in(value):
    """Every hex colour in a nest of dicts, lists and strings."""
    if isinstance(value, dict):
        return set().union(*(colours_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(colours_in(v) for v in value)) if value else set()
    return {normal(value)} if isinstance(value, str) and HEX.fullmatch(value) else set()


def scripts():
    return sorted(STATIC.rglob("*.js"))


def test_the_page_scripts_keep_no_palette_of_their_own():
    palette = colours_in(style.as_json()) - WHITE_AND_BLACK
    assert colours_in(style.GAMES["claim"]["piece"]) <= palette           # the pieces are among them
    found = {}
    for path in scripts():
        hits = {normal(c) for c in HEX.findall(path.read_text())} & palette
        if hits:
            found[path.relative_to(STATIC).as_posix()] = sorted(hits)
    assert not found, f"colours of claimsolve/render/style.py copied into the page's scripts: {found}"


def test_the_game_scripts_write_no_colour_at_all():
    games = sorted((STATIC / "games").glob("*.js"))
    assert {p.stem for p in games} == set(style.GAMES)
    for path in games:
        text = path.read_text()
        assert not HEX.findall(text), f"{path.name} writes a colour of its own: {HEX.findall(text)}"
        assert 'from "../style.js"' in text and f"style.games.{path.stem}" in text


@pytest.fixture(scope="module")
def answer():
    client = TestClient(create_app(workers=1))          # no lifespan: the style needs no worker
    response = client.get("/api/style")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    return response.json()


def test_api_style_is_the_renderers_style(answer):
    assert answer == json.loads(json.dumps(style.as_json()))
    # the page asks for it in one place, once (static/style.js, imported by the others)
    asking = {p.name: len(re.findall(r'fetch\("/api/style"|api\("style"', p.read_text())) for p in scripts()}
    assert asking["style.js"] == 1 and sum(asking.values()) == 1
    assert 'from "./style.js"' in (STATIC / "app.js").read_text()


def fills(svg, tag):
    return re.findall(rf'<{tag} [^>]*?fill="(#[0-9a-f]+)"', svg)


def test_the_pictures_draw_with_what_api_style_answers(answer):
    games = answer["games"]
    # Claim: each Viking's disc in its colour's fill, the sea, the territories
    position = claimsolve.load(SEEDS / "claim" / "play-4p.json")
    svg = position.svg()
    discs = re.findall(r'<circle [^>]*?fill="(#[0-9a-f]+)"[^>]*><title>[a-z0-9]+: Viking of colour (\d)', svg)
    assert discs and all(fill == games["claim"]["piece"][colour] for fill, colour in discs)
    assert f'fill="{games["claim"]["sea"]}"' in svg
    assert set(fills(svg, "rect")) >= {games["claim"]["background"]} and \
        set(fills(svg, "rect")) & set(games["claim"]["land"])
    # Color Claim: each pyramid in its colour, the owners' frames
    position = claimsolve.load(SEEDS / "colorclaim" / "late-6x5.json")
    svg = position.svg()
    tops = re.findall(r'fill="(#[0-9a-f]+)" stroke="[^"]+" stroke-width="1"><title>([RYGBK])\d', svg)
    assert tops and all(fill == games["colorclaim"]["pyramid"][colour] for fill, colour in tops)
    assert f'width="{games["colorclaim"]["cell"]}" height="{games["colorclaim"]["cell"]}"' in svg
    # Claim It!: each player's marker in the player's fill, on the spaces the page is given
    position = claimsolve.load(SEEDS / "claimit" / "mid-game-3p.json")
    svg = position.svg()
    markers = re.findall(r'r="16" fill="(#[0-9a-f]+)"[^>]*/><text [^>]*>(\d)</text>', svg)
    assert markers and all(fill == games["claimit"]["player"][player] for fill, player in markers)


# --- the layout rule ---------------------------------------------------------------------------

# what placing a board by hand looks like in a script: a size or margin of the style's
# geometry read, or an index (a name, a bracket) times the cell (`c * CELL`, `(i - 0.5) * CELL`)
LAYOUT_NAMES = re.compile(r"\b(MARGIN|TITLE)\b|(\bS|style\.games\.\w+)\.(margin|spaces|page)\b|\bmin_width\b")
INDEX_TIMES_CELL = re.compile(r"[\w.)\]]\s*\*\s*(CELL|cell)\b|\b(CELL|cell)\s*\*\s*[A-Za-z_(]")


def test_the_page_scripts_place_nothing_by_a_rule_of_their_own():
    found = {}
    for path in (STATIC / "games").glob("*.js"):
        text = path.read_text()
        hits = [m.group(0) for m in LAYOUT_NAMES.finditer(text)] + [m.group(0) for m in INDEX_TIMES_CELL.finditer(text)]
        if hits:
            found[path.name] = hits
    assert not found, f"the layout rule written again in the page's game scripts: {found}"
    for path in (STATIC / "games").glob("*.js"):
        # the layout is the server's: each game script builds its points from the answer it is given
        text = path.read_text()
        assert "export function layout(position, served)" in text and "served.columns" in text, path.name
    app = (STATIC / "app.js").read_text()
    assert not LAYOUT_NAMES.search(app)
    assert 'api("layout", { position: entry.position })' in app
    # the served layout, or its narrow form on a phone (Claim It!'s panel under the board): the server's too
    # (never on a phone held sideways, app.js SIDEWAYS)
    assert "module.layout(entry.position, served)" in app
    assert ("narrow && !SIDEWAYS.matches && $(\"board-frame\").clientWidth < narrow.below ?\n"
            "    { ...entry.layout, ...narrow } : entry.layout") in app


LAYOUT_SEEDS = ["claim/settle-2p.json", "claim/settle-4p.json", "claim/settle-random-island-4p.json",
                "claim/settle-battle-for-two.json", "colorclaim/start-3x3-seed1.json",
                "colorclaim/start-3x4-seed1.json", "colorclaim/late-6x5.json", "claimit/start-3p.json"]


@pytest.mark.slow
def test_api_layout_is_the_rule_the_renderer_draws_by():
    with TestClient(create_app(workers=1)) as client:
        for name in LAYOUT_SEEDS:
            text = (SEEDS / name).read_text()
            position = claimsolve.loads(text)
            drawing = game_of(position).drawing()
            response = client.post("/api/layout", content=json.dumps({"position": json.loads(text)}))
            assert response.status_code == 200, response.text
            served = response.json()
            assert served == json.loads(json.dumps(drawing.layout(position, "page"))), name
            # the page's picture and show --svg: one rule (a square's pitch, the rows' tops), the
            # page's only wider where the board is narrow
            svg_layout = drawing.layout(position, "svg")
            shift = served["columns"][0] - svg_layout["columns"][0]
            assert served["cell"] == svg_layout["cell"]
            assert served["columns"] == [x + shift for x in svg_layout["columns"]]
            assert [b - a for a, b in zip(served["rows"], served["rows"][1:])] == \
                [served["cell"]] * (len(served["rows"]) - 1)
            assert served["width"] >= svg_layout["columns"][-1] - svg_layout["columns"][0] + served["cell"]
            # show --svg puts its squares and coordinates where its layout says
            assert squares(position.svg(), svg_layout["cell"]) == placed_squares(position, svg_layout), name
            labels = re.findall(r'<text x="([0-9.]+)" y="([0-9.]+)"[^>]*>([a-z0-9]+)</text>', position.svg())
            for label in svg_layout["column_labels"] + svg_layout["row_labels"]:
                assert (float(label["x"]), float(label["y"]), label["text"]) in \
                    {(float(x), float(y), t) for x, y, t in labels}, (name, label)
        # a position that is none is refused, as by every command that takes one
        bad = client.post("/api/layout", content=json.dumps({"position": {"game": "chess"}}))
        assert bad.status_code == 400


def squares(svg, cell):
    """The top-left corners of the board's squares (rects `cell` wide) in an SVG."""
    found = re.findall(rf'<rect x="([0-9.]+)" y="([0-9.]+)" width="{cell}" height="{cell}"', svg)
    return {(float(x), float(y)) for x, y in found}


def placed_squares(position, layout):
    """The corners the layout gives the position's squares (Claim: its points)."""
    rows = [row.split() for row in position.to_json().get("territories", position.to_json()["board"])]
    if position.game == "claimit":
        rows = [["."] * 6] * 6
    return {(float(layout["columns"][c]), float(layout["rows"][r]))
            for r, row in enumerate(rows) for c, token in enumerate(row) if token != "-"}


def test_a_wide_claim_island_is_served_turned_a_quarter_for_a_phone():
    """The page's Claim layout holds, for an island at least 1.5 times as
    wide as tall (the 2-player island, 15 x 7), its picture turned a
    quarter clockwise (its narrow form, for a frame under 640 CSS px): the
    same squares a quarter turn apart, column a at the top, the letters
    left of the island, the numbers above it, half as wide a picture
    (352 units, not 720: a phone's points about 42 CSS px, not 21)."""
    cell = style.CLAIM["cell"]
    position = claimsolve.loads((SEEDS / "claim/play-2p.json").read_text())
    drawing = game_of(position).drawing()
    page = drawing.layout(position, "page")
    turned = page["narrow"]
    assert turned["turn"] == 90 and turned["below"] == 640
    assert (page["width"], turned["width"]) == (720, 352) and turned["height"] > turned["width"]
    # a square's pitch is the cell's: columns down the picture, rows (the top row first) right to left
    assert [b - a for a, b in zip(turned["columns"], turned["columns"][1:])] == [cell] * 14
    assert [a - b for a, b in zip(turned["rows"], turned["rows"][1:])] == [cell] * 6
    # the quarter turn: a point's place across is its row's, down its column's
    assert turned["columns"][0] < turned["columns"][-1] and turned["rows"][0] > turned["rows"][-1]
    sea_x, sea_y, sea_w, sea_h = turned["sea"]
    assert (sea_w, sea_h) == (7 * cell + 16, 15 * cell + 16)
    assert sea_x <= turned["rows"][-1] and turned["rows"][0] + cell <= sea_x + sea_w <= turned["width"]
    # the letters left of the island, level with their columns; the numbers above it, 1 on the left
    assert [label["text"] for label in turned["column_labels"]] == list("abcdefghijklmno")
    assert all(label["x"] < sea_x and column < label["y"] < column + cell
               for label, column in zip(turned["column_labels"], turned["columns"]))
    assert [label["text"] for label in turned["row_labels"]] == [str(n) for n in range(7, 0, -1)]
    assert all(label["y"] < sea_y and label["x"] == row + cell / 2
               for label, row in zip(turned["row_labels"], turned["rows"]))
    # the legend under the island, not turned, a line a colour
    assert min(turned["legend"]["lines"]) > sea_y + sea_h and len(turned["legend"]["lines"]) == 2
    assert max(turned["legend"]["lines"]) < turned["height"]
    # the pictures have none; an island less wide (13 rows of 15 or 14 columns) is not turned
    assert "narrow" not in drawing.layout(position, "svg")
    for name in ("claim/play-4p.json", "claim/play-3p.json", "claim/settle-random-island-4p.json"):
        assert "narrow" not in drawing.layout(claimsolve.loads((SEEDS / name).read_text()), "page"), name
