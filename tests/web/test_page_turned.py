"""A wide Claim island turned upright on a phone, in a real browser (the
fixtures of test_page_marks.py): at 390x844 the 2-player island (15
columns of 7 rows) took the page's width and its points were 21 CSS px,
too small to tap; turned a quarter (its long side down the screen) they
are 40 to 42 px.  Everything works on it as on the board not turned: a
click on a point hits that point and plays the move, the engine's line,
the turn being clicked and Flip on top of it, every text upright and at
least 10 px, the coordinates beside the rows and columns they name, the
legend under the island.  At a desktop's width, and for the other games
and less wide islands, the board is not turned.

The phone is Chromium's viewport set to 390x844 CSS px (a window of that
size leaves a viewport ~140 px shorter).  Screenshots go to
$CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import json
from contextlib import contextmanager

import pytest

from .browser import SEEDS, SKIP, ActionChains, By, Keys, browser, click_point, server, shots, wait  # noqa: F401
from .test_page_marks import console_errors, current_move, legal, load_position, page, script  # noqa: F401

pytestmark = [SKIP, pytest.mark.slow]

PHONE, DESKTOP = (390, 844), (1280, 800)
LEGIBLE = 10                    # CSS px: the smallest text a player reads on the board
TAP = 36                        # CSS px: the least side of a point's clickable square on a phone

# a Claim turn of three movements on the 2-player island: c5-c4 c4-e4 e4-e5 (a random game's
# position from claim/play-2p)
CHAIN = {
    "game": "claim", "players": 2, "variant": "standard",
    "territories": json.loads((SEEDS / "claim/play-2p.json").read_text())["territories"],
    "board": [". . . . . . . . . . . . . . .",
              ". . . . T1 . . . . . 2 . . . .",
              ". . 1 . 2 2 . 2 2 T2 . . . 2 .",
              ". . . 2 . . . . . . . 1 . . .",
              ". . 2 . 1 . . . . 1 . . T2 . .",
              ". . . . . 1 . T1 . . . . . . .",
              ". . . . . . . . . . . . . . ."],
    "phase": "play", "first_player": 1, "to_move": 1,
    "rules": {"standstill": "same-viking", "draw_after": 200, "third_party_anvil": True, "brawl": "even"},
    "history": {"streak": {"1": ["l4", 1], "2": ["d4", 1]}, "quiet_plies": 1},
}

TURNED = "return document.getElementById('board').dataset.turn || null"
ISLAND = sum(row.split().count(t) for row in CHAIN["territories"] for t in "abcde")     # its 66 points

# every point's clickable square on the screen, and what a tap at its centre hits
POINTS = """
return Array.from(document.querySelectorAll('#board [data-point]'), e => {
  const r = e.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const at = hit && hit.closest('[data-point]');
  return {point: e.dataset.point, width: r.width, height: r.height, x: r.left + r.width / 2,
          y: r.top + r.height / 2, hit: at ? at.dataset.point : null};
});"""

# every text shown on the board: its words, its size as drawn, its box, and how it stands on the
# screen (its screen matrix: upright where it scales x by a positive number and turns nothing)
TEXTS = """
const out = [];
for (const t of document.querySelectorAll('#board text')) {
  if (getComputedStyle(t).display === 'none' || t.closest('[display="none"]')) continue;
  const m = t.getScreenCTM(), r = t.getBoundingClientRect();
  out.push({text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * Math.hypot(m.a, m.b),
            height: r.height, x: r.left + r.width / 2, y: r.top + r.height / 2,
            upright: m.a > 0 && Math.abs(m.b) < 1e-6 && Math.abs(m.c) < 1e-6 && m.d > 0});
}
return out;"""


@contextmanager
def phone(driver):
    """Chromium's viewport 390x844 CSS px, as a phone's (set_window_size sets
    the window's, its viewport ~140 px shorter); the window's own again after."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def unflip(driver):
    if driver.find_elements(By.CSS_SELECTOR, "#board #flipped"):
        driver.find_element(By.ID, "flip-button").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board #flipped"), "the board turned back")


def flip(driver):
    driver.find_element(By.ID, "flip-button").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board #flipped"), "the board flipped")


def show(driver, path):
    load_position(driver, path)
    script(driver, "window.scrollTo(0, 0)")
    wait(driver, lambda d: script(d, "return document.querySelectorAll('#board text').length") > 0, "the board's texts")


def texts_by_name(texts):
    return {t["text"]: t for t in texts}


def check_turned_board(driver, flipped):
    """The checks of a turned board, flipped or not: the points' squares
    big enough and each tap hitting its own point, every text upright and
    legible, the coordinates beside their rows and columns, the legend."""
    assert script(driver, TURNED) == "90"
    points = script(driver, POINTS)
    assert len(points) == ISLAND
    small = [(p["point"], round(p["width"], 1), round(p["height"], 1)) for p in points
             if p["width"] < TAP or p["height"] < TAP]
    assert not small, f"points under {TAP} px: {small[:6]}"
    missed = [(p["point"], p["hit"]) for p in points if p["hit"] != p["point"]]
    assert not missed, f"taps hitting another point or none: {missed[:6]}"
    at = {p["point"]: p for p in points}
    # the island turned a quarter clockwise: column a above column o, row 1 left of row 7
    # (flipped: the other way round); a column down the screen, a row across it
    sign = -1 if flipped else 1
    assert sign * (at["i3"]["y"] - at["c3"]["y"]) > 0 and abs(at["i3"]["x"] - at["c3"]["x"]) < 1
    assert sign * (at["c5"]["x"] - at["c3"]["x"]) > 0 and abs(at["c5"]["y"] - at["c3"]["y"]) < 1
    texts = script(driver, TEXTS)
    assert texts
    lying = [t["text"] for t in texts if not t["upright"]]
    assert not lying, f"texts upside down or sideways: {lying}"
    small = [(t["text"], round(t["px"], 1)) for t in texts if t["px"] < LEGIBLE - 0.05 or t["height"] < LEGIBLE]
    assert not small, f"texts under {LEGIBLE} px: {small[:8]}"
    # the coordinates: a column's letter level with its points beside the island, a row's number
    # above (flipped: below) its points, none over the island
    labels = texts_by_name([t for t in texts if len(t["text"]) == 1 and t["text"] in "abcdefghijklmno1234567"])
    for letter, point in (("a", "a5"), ("c", "c3"), ("o", "o5")):
        label = labels[letter]
        assert abs(label["y"] - at[point]["y"]) < TAP / 2, (letter, label, at[point])
        assert sign * (at[point]["x"] - label["x"]) > 0
    for number, point in (("1", "g1"), ("3", "c3"), ("7", "e7")):
        label = labels[number]
        assert abs(label["x"] - at[point]["x"]) < TAP / 2, (number, label, at[point])
        assert sign * (at[point]["y"] - label["y"]) > 0
    # the legend's lines (long texts) are shown whole, under the island (flipped: over it)
    legend = [t for t in texts if t["text"].startswith("colour ")]
    assert [t["text"][:8] for t in legend] == ["colour 1", "colour 2"]
    ys = [p["y"] for p in points]
    assert all(sign * (t["y"] - (max(ys) if sign > 0 else min(ys))) > 0 for t in legend)
    assert script(driver, "return document.documentElement.scrollWidth") <= PHONE[0]


def test_a_wide_claim_island_is_turned_upright_on_a_phone(page, shots):
    # the 2-player island at 390x844: 15 columns across 340 px, 21 px a point; turned, ~40 px
    driver = page
    with phone(driver):
        show(driver, SEEDS / "claim/play-2p.json")
        unflip(driver)
        driver.save_screenshot(str(shots / "turned-claim-2p.png"))
        check_turned_board(driver, flipped=False)
        # the board and its legend on the screen under the header: the suggestions under it
        box = script(driver, "const r = document.getElementById('board').getBoundingClientRect();"
                             "return [r.top, r.bottom]")
        assert box[0] <= 140 and box[1] <= PHONE[1], box
        flip(driver)                                     # Flip on top of the quarter turn
        driver.save_screenshot(str(shots / "turned-claim-2p-flipped.png"))
        check_turned_board(driver, flipped=True)
        unflip(driver)
        # a move clicked on the turned board is played: c3 to c4, a point down the screen; the page
        # stays where it was (the move list below the board scrolled the page down to it)
        click_point(driver, "c3")
        click_point(driver, "c4")
        wait(driver, lambda d: current_move(d) == "c3-c4", "the step clicked on the turned board played")
        assert script(driver, TURNED) == "90"
        assert script(driver, "return window.scrollY") == 0
    # a lower screen (a phone's browser showing its bars): the board's foot below the screen's edge
    # rather than its points under 36 px (the cap on its height would make them 30 px)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": 701, "deviceScaleFactor": 1, "mobile": False})
    try:
        height = "return Math.round(document.getElementById('board').getBoundingClientRect().height)"
        # (the board is drawn anew once its frame has its new size: a read between the two saw it
        # not turned, in one run of four)
        wait(driver, lambda d: script(d, height) < 700 and script(d, TURNED) == "90",
             "the board drawn turned for the lower screen")
        sides = [min(p["width"], p["height"]) for p in script(driver, POINTS)]
        assert min(sides) >= TAP - 0.5, min(sides)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not console_errors(driver)


def test_a_turn_being_clicked_and_the_engines_line_on_a_turned_board(page, shots, tmp_path):
    driver = page
    path = tmp_path / "chain-2p.json"
    path.write_text(json.dumps(CHAIN))
    with phone(driver):
        show(driver, path)
        unflip(driver)
        assert script(driver, TURNED) == "90"
        turn = "return Array.from(document.querySelectorAll('#board .turn-piece'), e => e.dataset.mark)"
        for name in ("c5", "c4", "e4"):
            click_point(driver, name)
        wait(driver, lambda d: script(d, turn) == ["e4"], "the Viking drawn on e4, its turn so far")
        wait(driver, lambda d: script(d, "return document.querySelectorAll('#board .turn-route').length") == 1,
             "the turn's route")
        driver.save_screenshot(str(shots / "turned-claim-mid-turn.png"))
        assert all(t["upright"] for t in script(driver, TEXTS))
        flip(driver)
        wait(driver, lambda d: script(d, turn) == ["e4"], "the turn so far, flipped")
        driver.save_screenshot(str(shots / "turned-claim-mid-turn-flipped.png"))
        assert all(t["upright"] for t in script(driver, TEXTS))
        click_point(driver, "e5")
        wait(driver, lambda d: current_move(d) == "c5-c4 c4-e4 e4-e5", "the turn played on the flipped turned board")
        unflip(driver)
        # the engine's line: its arrows from and to the points as the turned board draws them,
        # their numbers upright, on the board flipped or not
        show(driver, SEEDS / "claim/play-2p.json")
        driver.find_element(By.ID, "engine-on").click()
        try:
            wait(driver, lambda d: script(d, "return document.getElementById('engine-state').textContent")
                 .startswith("(done"), "the analysis done")
            best = script(driver, "return document.querySelector('#suggestions tbody tr').dataset.move")
            start = next(part for part in best.split() if "-" in part).split("-")[0]
            for flipped in (False, True):
                if flipped:
                    flip(driver)
                wait(driver, lambda d: script(d, "return document.querySelectorAll('#arrows line').length") > 0,
                     "the best move's arrow")
                # where the arrow starts on the screen: the point its move starts from
                starts = script(driver, """
                  return Array.from(document.querySelectorAll('#arrows line'), l => {
                    const p = new DOMPoint(+l.getAttribute('x1'), +l.getAttribute('y1'))
                      .matrixTransform(l.getScreenCTM());
                    const hit = document.elementsFromPoint(p.x, p.y).find(e => e.dataset && e.dataset.point);
                    return hit ? hit.dataset.point : null;
                  });""")
                assert starts[0] == start, (best, starts)
                assert script(driver, "return document.querySelectorAll('#arrows text').length") > 0
                assert all(t["upright"] for t in script(driver, TEXTS))
                driver.save_screenshot(str(shots / f"turned-claim-arrow{'-flipped' if flipped else ''}.png"))
        finally:
            driver.find_element(By.ID, "engine-on").click()
            unflip(driver)
        assert not console_errors(driver)


def test_the_board_is_turned_only_where_it_helps(page):
    # at a desktop's width the 2-player island as before; on a phone the other games' boards and
    # an island less wide (15 x 13) are not turned
    driver = page
    driver.set_window_size(*DESKTOP)
    show(driver, SEEDS / "claim/play-2p.json")
    assert script(driver, TURNED) is None
    assert script(driver, "return document.getElementById('board').getAttribute('viewBox')") == "0 0 720 430"
    with phone(driver):
        for name in ("claim/play-4p", "colorclaim/start-6x5", "claimit/mid-game-3p"):
            show(driver, SEEDS / f"{name}.json")
            assert script(driver, TURNED) is None, name
        # a phone turned on its side (844 wide): the frame over 640 px, the island not turned
        show(driver, SEEDS / "claim/play-2p.json")
        assert script(driver, TURNED) == "90"
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": PHONE[1], "height": PHONE[0], "deviceScaleFactor": 1, "mobile": False})
        wait(driver, lambda d: script(d, TURNED) is None, "the board drawn anew, not turned, for the wider frame")
        assert script(driver, "return document.getElementById('board').getAttribute('viewBox')") == "0 0 720 430"
    assert not console_errors(driver)
