"""The board legible at any size, in a real browser (the fixtures of
test_page_marks.py): at a phone's width (390x844) and on a Color Claim
board of 32 or 64 columns no text on the board is drawn smaller than about
10 CSS px (they were 1 to 6 px: every board shrank to the width left beside
the evaluation bar, the widest to a sliver); a board too wide for that
scrolls sideways in its own frame, never the page, its last column reached
and clicked; a text left out for want of room keeps its words in a title;
and an ordinary board at a desktop's width is drawn as before.  The engine
is switched off: nothing here needs it.

Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import json

import pytest

from .browser import SEEDS, SKIP, By, browser, click_point, server, shots, wait  # noqa: F401
from .test_page_marks import console_errors, current_move, load_position, page, script  # noqa: F401

pytestmark = [SKIP, pytest.mark.slow]

PHONE, DESKTOP = (390, 844), (1280, 800)
LEGIBLE = 10                    # CSS px: the smallest text a player reads on the board

# every text shown on the board: its words, its size as drawn (its font size times the
# board's scale) and its box on the screen; and those left out, with the title they keep
TEXTS = """
const svg = document.getElementById('board'), out = [], left = [];
for (const t of svg.querySelectorAll('text')) {
  if (getComputedStyle(t).display === 'none' || t.closest('[display="none"]')) {
    const g = t.closest('g'), title = g && g.querySelector(':scope > title');
    left.push([t.textContent, title ? title.textContent : null]);
    continue;
  }
  const m = t.getScreenCTM(), r = t.getBoundingClientRect();
  out.push({text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * Math.hypot(m.a, m.b),
            height: r.height, left: r.left, right: r.right});
}
return [out, left];
"""


def colorclaim_row(path, width, height=1):
    """A Color Claim board `width` x `height` (rows of any length:
    seeds/colorclaim/RULES.md): the 30 pyramids on its last spaces, row 1
    first (a 64x1 board's bl1 the last), the first of them a stack of two,
    the spaces before them empty."""
    pool = [f"{colour}{size}" for size in (1, 2, 3) for colour in "RYGBK" for _ in (0, 1)]
    n = width * height
    count = min(29, n)
    cells = ["."] * (n - count) + pool[:count]
    cells[n - count] = f"{pool[29]}/{cells[n - count]}"
    rows = [" ".join(cells[r * width:(r + 1) * width]) for r in range(height)]
    path.write_text(json.dumps({"game": "colorclaim", "board": rows[::-1], "to_move": 1,
                                "claims": [None, None], "shield": None}) + "\n")
    return path


def position(tmp_path, name):
    if name.startswith("colorclaim-"):
        width, height = map(int, name.split("-")[1].split("x"))
        return colorclaim_row(tmp_path / f"{name}.json", width, height)
    return SEEDS / f"{name}.json"


def show(driver, size, path):
    driver.set_window_size(*size)
    load_position(driver, path, moves=False)
    wait(driver, lambda d: script(d, "return document.querySelectorAll('#board text').length") > 0, "the board's texts")


@pytest.mark.parametrize("size, name", [
    (PHONE, "claim/settle-2p"), (PHONE, "claim/play-4p"), (PHONE, "claimit/mid-game-3p"),
    (PHONE, "colorclaim/start-6x5"), (PHONE, "colorclaim-32x2"), (PHONE, "colorclaim-64x1"),
    (DESKTOP, "colorclaim-28x1"), (DESKTOP, "colorclaim-64x1"), (DESKTOP, "claim/play-4p"),
])
def test_every_text_on_the_board_is_legible(page, shots, tmp_path, size, name):
    driver = page
    show(driver, size, position(tmp_path, name))
    driver.save_screenshot(str(shots / f"legible-{size[0]}-{name.replace('/', '-')}.png"))
    texts, left = script(driver, TEXTS)
    # (before: at 390 px a Claim island's coordinates were 4.9 px, a 64x1 board's 1.0 px)
    small = [(t["text"], round(t["px"], 1), t["height"]) for t in texts if t["px"] < LEGIBLE - 0.05]
    assert not small, f"{name} at {size}: texts drawn under {LEGIBLE} px: {small[:8]}"
    assert min(t["height"] for t in texts) >= LEGIBLE
    # the labels of the board's every row and column are all there, none left out
    coordinates = [t for t in texts if t["text"].isdigit() or t["text"].isalpha() and len(t["text"]) <= 2]
    assert len(coordinates) >= 6
    # a text left out for want of room keeps its words in a title
    assert all(title for _, title in left), left
    # the page never scrolls sideways: a board wider than the screen scrolls in its frame
    assert script(driver, "return document.documentElement.scrollWidth") <= size[0]
    frame = script(driver, "const f = document.getElementById('board-frame'), r = f.getBoundingClientRect();"
                           "return [r.left, r.left + f.scrollWidth, f.scrollWidth > f.clientWidth]")
    assert all(frame[0] - 1 <= t["left"] and t["right"] <= frame[1] + 1 for t in texts)
    assert not console_errors(driver)


def test_a_board_too_wide_for_a_phone_scrolls_in_its_frame_to_its_last_column(page, shots, tmp_path):
    driver = page
    show(driver, PHONE, colorclaim_row(tmp_path / "colorclaim-64x1.json", 64))
    frame = script(driver, "const f = document.getElementById('board-frame');"
                           "return [f.scrollWidth, f.clientWidth, document.getElementById('board').getBoundingClientRect().width]")
    assert frame[0] > frame[1] >= 300            # the frame has the phone's width, the board more
    # a space is at least 32 px (Color Claim's minCell): 64 of them
    assert frame[2] >= 64 * 32
    # scrolled to its end, the last column (bl) is on the screen and takes a click; a move to it is offered
    script(driver, "const f = document.getElementById('board-frame'); f.scrollLeft = f.scrollWidth;")
    seen = script(driver, """
      const f = document.getElementById('board-frame').getBoundingClientRect();
      const p = document.querySelector('#board [data-point="bl1"]').getBoundingClientRect();
      const label = Array.from(document.querySelectorAll('#board text')).find(t => t.textContent === 'bl');
      const l = label.getBoundingClientRect();
      const hit = document.elementFromPoint(p.left + p.width / 2, p.top + p.height / 2);
      return [p.left >= f.left && p.right <= f.right + 1, l.left >= f.left && l.right <= f.right + 1,
              hit && hit.dataset.point, l.height];""")
    assert seen[:3] == [True, True, "bl1"], seen
    assert seen[3] >= LEGIBLE
    driver.save_screenshot(str(shots / "legible-phone-64x1-end.png"))
    # a move at the far end, clicked there: bl1 onto bk1
    click_point(driver, "bl1")
    click_point(driver, "bk1")
    choices = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#actions button.move"), "the choice of move")
    assert {c.get_attribute("data-move") for c in choices} == {"bl1-bk1", "bl1xbk1"}
    next(c for c in choices if c.get_attribute("data-move") == "bl1-bk1").click()
    wait(driver, lambda d: current_move(d) == "bl1-bk1", "the move at the board's far end")
    assert not console_errors(driver)


def test_a_phone_turned_round_draws_the_board_anew_for_its_width(page, tmp_path):
    # a window resized (a phone turned) redraws the board for its new width: Claim It!'s standing
    # goes beside the board where there is room, under it where there is not
    driver = page
    show(driver, PHONE, SEEDS / "claimit/mid-game-3p.json")
    # (waited for: the board may first be drawn for the width before the window's resize reached the page,
    # '0 0 352 766' once in a CI run, and then anew)
    view_box = "return document.getElementById('board').getAttribute('viewBox')"
    wait(driver, lambda d: script(d, view_box) == "0 0 420 558", "the board drawn for a phone's width")
    narrow = script(driver, view_box)
    driver.set_window_size(*DESKTOP)
    wait(driver, lambda d: script(d, "return document.getElementById('board').getAttribute('viewBox')") != narrow,
         "the board drawn anew for a desktop's width")
    assert script(driver, view_box) == "0 0 570 460"
    texts, _ = script(driver, TEXTS)
    assert min(t["px"] for t in texts) >= LEGIBLE - 0.05
    assert not console_errors(driver)


@pytest.mark.parametrize("name, sizes", [
    ("claim/play-2p", {"13", "16", "32", "12.5"}),
    ("claimit/mid-game-3p", {"10", "11", "12", "13", "14"}),
    ("colorclaim/start-6x5", {"14"}),
])
def test_an_ordinary_board_at_a_desktops_width_is_drawn_as_before(page, name, sizes):
    # Claim's islands, Claim It!'s 6x6 and Color Claim's 6x5 keep their sizes, the frame no scroll
    driver = page
    show(driver, DESKTOP, SEEDS / f"{name}.json")
    drawn = set(script(driver, "return Array.from(document.querySelectorAll('#board text'), t => t.getAttribute('font-size'))"))
    assert drawn == sizes
    assert script(driver, "const f = document.getElementById('board-frame'); return f.scrollWidth <= f.clientWidth")


def test_on_a_phone_the_header_leaves_the_board_high_and_undo_at_hand(page, shots):
    # the header's buttons and settings wrapped into five rows, 208 of a phone's 844 px above the
    # board, Undo and Redo on its third; now each is one row that scrolls sideways, Undo first
    driver = page
    show(driver, PHONE, SEEDS / "claim/play-2p.json")
    driver.save_screenshot(str(shots / "legible-phone-header.png"))
    header, board_top = script(driver, "return [document.querySelector('header').getBoundingClientRect().height,"
                                       " document.getElementById('board').getBoundingClientRect().top]")
    assert header <= 120 and board_top <= 140, (header, board_top)
    width = PHONE[0]
    for name in ("undo-button", "redo-button"):
        box = script(driver, f"const r = document.getElementById('{name}').getBoundingClientRect(); return [r.left, r.right]")
        assert 0 <= box[0] and box[1] <= width, (name, box)
    assert script(driver, "return document.documentElement.scrollWidth") <= width
    # every button is still there: the row scrolls to its last one, which takes a click
    last = script(driver, """
      const nav = document.querySelector('header nav'); nav.scrollLeft = nav.scrollWidth;
      const b = document.getElementById('review-button').getBoundingClientRect(), n = nav.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      return [nav.scrollWidth > nav.clientWidth, b.left >= n.left - 1 && b.right <= n.right + 1, hit && hit.id];""")
    assert last == [True, True, "review-button"], last
    assert not console_errors(driver)
