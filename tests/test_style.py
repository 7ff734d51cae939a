"""The drawing constants live once (claimsolve.render.style): the page's
scripts keep no copy of the pieces' palettes, and GET /api/style answers
the very values the SVG renderer draws with."""
import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import claimsolve
from claimsolve.render import style
from claimsolve.render.claimit import board as claimit_board
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
    _canvas, geometry = claimit_board(position)
    assert games["claimit"]["spaces"] == {f"{r},{c}": list(geometry.centre(r, c))
                                          for r in range(1, 7) for c in range(1, 7)}
