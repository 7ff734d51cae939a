"""The board on a phone's touch screen, in a real browser (the fixtures of
test_page_marks.py): what answers a tap is in sight, the page fits a phone
held sideways, every control is big enough for a finger, and the
evaluation bar's number reads upright.

A phone is Chromium's viewport set to 390x844 or 844x390 CSS px with touch
emulated (the page's `pointer: coarse` and `hover: none`, as on a phone).
Where the old page failed, each test says the figure it measured there.
Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import json
from contextlib import contextmanager

import pytest

from .browser import SEEDS, SKIP, By, Select, browser, click_point, message, server, shots, wait  # noqa: F401
from .test_page_marks import console_errors, current_move, load_position, page  # noqa: F401
from .test_page_turned import CHAIN, flip, unflip

pytestmark = [SKIP, pytest.mark.slow]

PORTRAIT, LANDSCAPE, DESKTOP = (390, 844), (844, 390), (1280, 800)


def script(driver, text, *arguments):
    return driver.execute_script(text, *arguments)


@contextmanager
def touch_phone(driver, size):
    """The viewport `size` with touch emulated; the window's own again after."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        assert script(driver, "return matchMedia('(pointer: coarse)').matches")
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def show(driver, path):
    load_position(driver, path)
    # the page at its top, the header's rows at their start (a button tapped scrolls its row to it)
    script(driver, "window.scrollTo(0, 0);"
                   "for (const row of document.querySelectorAll('header > *')) row.scrollLeft = 0")


def box(driver, selector):
    return script(driver, "const e = document.querySelector(arguments[0]); if (!e) return null;"
                          "const r = e.getBoundingClientRect();"
                          "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}", selector)


# whether the element of `selector` is on the screen, whole, and a tap at its centre reaches it
# (nothing laid over it)
IN_SIGHT = """
const e = document.querySelector(arguments[0]);
if (!e) return 'missing';
const r = e.getBoundingClientRect();
if (!r.width || !r.height) return 'not shown';
if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
  return `off the screen: ${Math.round(r.left)} to ${Math.round(r.right)} of ${innerWidth} px across, ` +
         `${Math.round(r.top)} to ${Math.round(r.bottom)} of ${innerHeight} px down`;
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return hit && (e.contains(hit) || hit.contains(e)) ? true : `covered by ${hit && (hit.id || hit.tagName)}`;
"""


def in_sight(driver, selector):
    return script(driver, IN_SIGHT, selector)


def points_hit(driver, names):
    """Of the points `names`, those a tap at their centre on the screen does not reach."""
    return script(driver, """
      return arguments[0].filter(name => {
        const r = document.querySelector(`#board [data-point="${name}"]`).getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(hit && hit.closest('[data-point]') && hit.closest('[data-point]').dataset.point === name);
      });""", names)


def floating(driver):
    position = "const e = document.getElementById('prompt'); return e && getComputedStyle(e).position"
    return script(driver, position) == "fixed"


def choices(driver):
    return wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#actions button.move"), "the choice of move")


def test_the_answer_to_a_tap_is_in_sight_on_a_phone(page, shots, tmp_path):
    """At 390x844 the turned 2-player island fills the screen down to 827
    px: a choice of moves (c5-c4, or on to e4) had its buttons at 943 px
    and a refused tap its reason at 915 px, out of sight.  Both are now in a
    panel over the screen's foot, over its top where the foot holds the
    points clicked, gone once answered or closed."""
    driver = page
    path = tmp_path / "chain-2p.json"
    path.write_text(json.dumps(CHAIN))
    with touch_phone(driver, PORTRAIT):
        show(driver, path)
        unflip(driver)
        driver.save_screenshot(str(shots / "phone-claim-2p.png"))
        # a choice: c5-c4 played as it is, or the turn going on to e4
        click_point(driver, "c5")
        click_point(driver, "c4")
        assert [c.get_attribute("data-move") for c in choices(driver)] == ["c5-c4"]
        assert message(driver) == "Choose the move below, or go on clicking."
        driver.save_screenshot(str(shots / "phone-claim-choice.png"))
        for selector in ("#message", '#actions button[data-move="c5-c4"]', "#prompt-close"):
            assert in_sight(driver, selector) is True, (selector, in_sight(driver, selector))
        assert points_hit(driver, ["c5", "c4", "e4"]) == []     # the choice's points stay in sight
        driver.find_element(By.CSS_SELECTOR, '#actions button[data-move="c5-c4"]').click()
        wait(driver, lambda d: current_move(d) == "c5-c4", "the move chosen played")
        # answered: the panel gone, the board's foot takes taps again
        wait(driver, lambda d: not floating(d), "the panel gone")
        assert points_hit(driver, ["n5", "o5"]) == []
        # a refused tap: a point that starts no move (a5, empty)
        driver.find_element(By.ID, "undo-button").click()
        wait(driver, lambda d: current_move(d) == "start", "the start again")
        click_point(driver, "a5")
        wait(driver, lambda d: message(d).startswith("Illegal:"), "the reason the tap is refused")
        driver.save_screenshot(str(shots / "phone-claim-illegal.png"))
        assert in_sight(driver, "#message") is True, in_sight(driver, "#message")
        # closed: the message in its place under the board, the foot free
        driver.find_element(By.ID, "prompt-close").click()
        wait(driver, lambda d: not floating(d), "the panel closed")
        assert message(driver).startswith("Illegal:")
        assert box(driver, "#message")["top"] > box(driver, "#board")["bottom"]
        assert points_hit(driver, ["n5", "o5"]) == []
        # a tap beside the points closes it too
        click_point(driver, "a5")
        wait(driver, lambda d: floating(d), "the reason shown again")
        script(driver, "document.getElementById('board').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        wait(driver, lambda d: not floating(d), "the panel closed by a tap beside the points")
    # a lower screen (a phone's browser showing its bars), the board flipped: c5 and c4 near the
    # screen's foot (30 px above it), the panel over its top instead
    with touch_phone(driver, (390, 701)):
        show(driver, path)
        flip(driver)
        low = round(script(driver, "return document.querySelector('#board [data-point=\"c4\"]')"
                                   ".getBoundingClientRect().bottom")) + 30
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": low, "deviceScaleFactor": 1, "mobile": False})
        wait(driver, lambda d: script(d, "return innerHeight") == low, f"the screen {low} px high")
        try:
            click_point(driver, "c5")
            click_point(driver, "c4")
            choices(driver)
            assert floating(driver)
            driver.save_screenshot(str(shots / "phone-claim-choice-flipped.png"))
            assert box(driver, "#prompt")["top"] == 0
            assert points_hit(driver, ["c5", "c4"]) == []
            assert in_sight(driver, '#actions button[data-move="c5-c4"]') is True
            next(b for b in driver.find_elements(By.CSS_SELECTOR, "#actions button") if b.text == "clear").click()
            wait(driver, lambda d: not floating(d), "the panel gone with the clicks cleared")
        finally:
            unflip(driver)
    assert not console_errors(driver)


def test_at_a_desktops_width_the_message_and_choice_stay_beside_the_board(page):
    driver = page
    driver.set_window_size(*DESKTOP)
    show(driver, SEEDS / "colorclaim/start-6x5.json")
    click_point(driver, "a1")
    click_point(driver, "a2")
    choices(driver)
    assert not floating(driver)
    close = driver.find_elements(By.ID, "prompt-close")           # (the old page had none)
    assert not (close and close[0].is_displayed())
    # in the side column, under the status line (the column's gap of 10 px), right of the board
    status, said, actions, board = (box(driver, s) for s in ("#status", "#message", "#actions", "#board-area"))
    assert said["top"] == pytest.approx(status["bottom"] + 10, abs=0.5)
    assert actions["top"] == pytest.approx(said["bottom"] + 10, abs=0.5)
    assert said["left"] > board["right"]
    next(b for b in driver.find_elements(By.CSS_SELECTOR, "#actions button") if b.text == "clear").click()
    assert not console_errors(driver)


# the header's height and its rows: its title, its buttons' row and the engine's settings, one row
# where they stand side by side (a box that begins below the last row's boxes begins a new one)
HEADER = """
const header = document.querySelector('header').getBoundingClientRect();
const boxes = Array.from(document.querySelectorAll('header > *'), e => e.getBoundingClientRect())
  .filter(r => r.height).sort((a, b) => a.top - b.top);
let rows = 0, bottom = -Infinity;
for (const r of boxes) {
  if (r.top >= bottom - 1) { rows += 1; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom);
}
return {height: header.height, rows};
"""


@pytest.mark.parametrize("name", ["claim/play-2p", "claim/play-4p", "colorclaim/start-6x5", "claimit/mid-game-3p"])
def test_a_phone_held_sideways_shows_the_board_whole_under_a_header_of_two_rows(page, shots, name):
    """At 844x390 the header wrapped to three rows, 146 px, and the board
    (the 2-player island: 165 to 445 px) went below the screen's foot, the
    panels under it.  Now the title and the buttons are one row (Undo
    first), the engine's settings another, the board as high as the screen
    leaves, its wide form, and the panels beside it."""
    driver = page
    with touch_phone(driver, LANDSCAPE):
        show(driver, SEEDS / f"{name}.json")
        driver.save_screenshot(str(shots / f"sideways-{name.replace('/', '-')}.png"))
        header = script(driver, HEADER)
        assert header["rows"] <= 2 and header["height"] <= 80, header
        for button in ("#undo-button", "#redo-button"):
            assert in_sight(driver, button) is True, (button, in_sight(driver, button))
        height = script(driver, "return innerHeight")
        board, wrap = box(driver, "#board"), box(driver, "#board-wrap")
        assert board["top"] >= script(driver, "return document.querySelector('header').getBoundingClientRect().bottom")
        assert wrap["bottom"] <= height, (wrap, height)
        assert script(driver, "return document.getElementById('board').dataset.turn || null") is None
        # the panels beside the board, the status line at their top
        assert box(driver, "#side")["left"] > board["right"]
        assert in_sight(driver, "#status") is True
        assert script(driver, "return document.documentElement.scrollWidth") <= LANDSCAPE[0]
    assert not console_errors(driver)


def test_on_a_phone_held_sideways_the_answer_to_a_tap_is_beside_the_board(page, shots):
    """At 844x390 a refused tap's reason was at 589 px and a choice's
    buttons at 587 px, under the board, off the screen; now at the top of
    the panels beside the board."""
    driver = page
    with touch_phone(driver, LANDSCAPE):
        show(driver, SEEDS / "claim/play-2p.json")
        click_point(driver, "a5")
        wait(driver, lambda d: message(d).startswith("Illegal:"), "the reason the tap is refused")
        driver.save_screenshot(str(shots / "sideways-claim-illegal.png"))
        assert in_sight(driver, "#message") is True, in_sight(driver, "#message")
        show(driver, SEEDS / "colorclaim/start-6x5.json")
        click_point(driver, "a1")
        click_point(driver, "a2")
        assert {c.get_attribute("data-move") for c in choices(driver)} == {"a1-a2", "a1xa2"}
        driver.save_screenshot(str(shots / "sideways-colorclaim-choice.png"))
        for move in ("a1-a2", "a1xa2"):
            selector = f'#actions button[data-move="{move}"]'
            assert in_sight(driver, selector) is True, (selector, in_sight(driver, selector))
        assert points_hit(driver, ["a1", "a2"]) == []
        driver.find_element(By.CSS_SELECTOR, '#actions button[data-move="a1xa2"]').click()
        wait(driver, lambda d: current_move(d) == "a1xa2", "the claim played")
    assert not console_errors(driver)


TOUCH = 32          # CSS px: the least side of a control's touch target on a touch screen

# every control shown on the page (a checkbox's label, which ticks it, stands for it), scrolled
# into sight in turn: where a tap lands on it, sampled at its centre and 15 px either side of it
# across and down (a target of 32 px), and what each of those taps reaches that is not it
TARGETS = """
const out = [];
const controls = document.querySelectorAll('button, select, input:not([type=file]), summary, ' +
  '#move-list li[data-id], #move-list span.move[data-id], #suggestions tbody tr');
for (const control of controls) {
  if (control.closest('dialog') || control.closest('[hidden]')) continue;
  const target = control.type === 'checkbox' && control.closest('label') || control;
  if (!target.getClientRects().length) continue;
  target.scrollIntoView({block: 'center', inline: 'center'});
  const r = target.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const misses = [[x, y], [x - 15, y], [x + 15, y], [x, y - 15], [x, y + 15]].filter(([px, py]) => {
    const hit = document.elementFromPoint(px, py);
    return !(hit && target.contains(hit));
  });
  const name = control.id ? '#' + control.id :
    control.tagName.toLowerCase() + ':' + control.textContent.trim().slice(0, 12);
  if (misses.length) out.push([name, Math.round(r.width), Math.round(r.height)]);
}
window.scrollTo(0, 0);
for (const row of document.querySelectorAll('header > *')) row.scrollLeft = 0;
return out;
"""


def test_every_control_takes_a_finger_on_a_touch_screen(page, shots):
    """On a touch screen the eval bar's flip button was 19x17 px, promote
    and delete 18 px high, a move of the list 18, the checkboxes' labels
    19, Keys 15, the header's buttons 26 and its selects 24: each now takes
    a tap 32 px across and down (pointer: coarse).  The Color Claim 6x5
    start with a move and a variation (a fork: its buttons under the list),
    the engine's suggestions listed."""
    driver = page
    show(driver, SEEDS / "colorclaim/start-6x5.json")
    for move in ("a1xa2", None, "a1-a2", None):
        if move:
            script(driver, "window.claimsolveBoard.playMove(arguments[0])", move)
            wait(driver, lambda d: script(d, "const s = window.claimsolveBoard.state; return s.line[s.index].move")
                 == move, f"{move} played")
        else:
            driver.find_element(By.ID, "undo-button").click()
            wait(driver, lambda d: current_move(d) == "start", "the start again")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#move-list span.move") and
         d.find_element(By.ID, "fork").is_displayed(), "the variation and the fork")
    Select(driver.find_element(By.ID, "engine-time")).select_by_value("1")
    driver.find_element(By.ID, "engine-on").click()
    try:
        wait(driver, lambda d: script(d, "return document.getElementById('engine-state').textContent")
             .startswith("(done") and d.find_elements(By.CSS_SELECTOR, "#suggestions tbody tr"), "the suggestions")
        for size in (PORTRAIT, LANDSCAPE):
            with touch_phone(driver, size):
                wait(driver, lambda d: script(d, "return innerWidth") == size[0], "the phone's screen")
                driver.save_screenshot(str(shots / f"touch-colorclaim-{size[0]}x{size[1]}.png"))
                small = script(driver, TARGETS)
                assert not small, f"controls under {TOUCH} px (name, width, height) at {size}: {small}"
    finally:
        if driver.find_element(By.ID, "engine-on").is_selected():
            driver.find_element(By.ID, "engine-on").click()
        Select(driver.find_element(By.ID, "engine-time")).select_by_value("3")
    # at a desktop's width (no touch) the controls as they were: a header's button 26 px high
    driver.set_window_size(*DESKTOP)
    assert round(box(driver, "#undo-button")["bottom"] - box(driver, "#undo-button")["top"]) == 26
    assert not console_errors(driver)


# the bar's number set as the engine's answers set it: the words it shows, and the value
BAR_VALUES = [("52%", {"share": 0.52, "engine": "mcts"}), ("+3", {"share": 0.6, "score": 3, "engine": "alphabeta"}),
              ("=+1", {"share": 0.7, "score": 1, "result": "win", "engine": "solver"}),
              ("100%", {"share": 1, "engine": "mcts"}), ("+296", {"share": 0.9, "score": 296, "engine": "alphabeta"}),
              ("-29.50", {"share": 0.2, "score": -29.5, "engine": "alphabeta"})]

# how the bar's number stands: its box against the bar's, its characters' orientation (upright
# where the text runs across, or where it runs down with each character upright; sideways where
# it runs down with the characters lying on their side, as `vertical-rl` sets them)
BAR_TEXT = """
const t = document.getElementById('eval-text'), bar = document.getElementById('eval-bar');
const style = getComputedStyle(t), r = t.getBoundingClientRect(), b = bar.getBoundingClientRect();
return {text: t.textContent, across: style.writingMode === 'horizontal-tb',
        upright: style.writingMode === 'horizontal-tb' || style.textOrientation === 'upright',
        inside: r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom,
        whole: t.scrollWidth <= t.clientWidth && t.scrollHeight <= t.clientHeight,
        px: parseFloat(style.fontSize), barWidth: b.width};
"""


def test_the_eval_bars_number_reads_upright_on_a_phone(page, shots):
    """On a phone the bar's number was written sideways (`writing-mode:
    vertical-rl`: 52% read bottom to top).  It now reads across where it
    fits the slim bar (26 px: 52%, +3, =+1) and, longer, runs down with
    each character upright (100%, +296, -29.50), inside the bar, at 10 px."""
    driver = page
    for size in (PORTRAIT, LANDSCAPE):
        with touch_phone(driver, size):
            show(driver, SEEDS / "colorclaim/start-6x5.json")
            for words, value in BAR_VALUES:
                script(driver, "window.claimsolveBoard.setEval(arguments[0])", value)
                shown = script(driver, BAR_TEXT)
                assert shown["text"] == words
                if words == "-29.50":
                    driver.save_screenshot(str(shots / f"eval-bar-{size[0]}x{size[1]}.png"))
                assert shown["upright"] and shown["inside"] and shown["whole"] and shown["px"] >= 10, (size, shown)
                assert shown["across"] == (len(words) <= 3), (size, shown)
    # at a desktop's width the bar as it was: 52 px, every number across
    driver.set_window_size(*DESKTOP)
    show(driver, SEEDS / "colorclaim/start-6x5.json")
    for words, value in BAR_VALUES:
        script(driver, "window.claimsolveBoard.setEval(arguments[0])", value)
        shown = script(driver, BAR_TEXT)
        assert shown["across"] and shown["whole"] and shown["px"] == 11 and shown["barWidth"] == 54, shown
    script(driver, "window.claimsolveBoard.setEval(null)")
    assert not console_errors(driver)


@pytest.mark.parametrize("touch", [True, False], ids=["tablet", "window"])
def test_where_the_panels_go_under_the_board_the_answer_to_a_tap_is_in_sight(page, shots, tmp_path, touch):
    """A tablet held sideways, or a desktop window, of 1024x768: the panels
    go under the board, the message of a tap below the screen's foot (782
    px down of 768 under Claim's 2-seat island, 873 under Color Claim 6x5,
    903 under 4 seats').  Where its place is off the screen it comes over
    the screen's foot, as on a phone; where it is in sight (1280x800,
    beside the board: the test above) it stays in its place."""
    driver = page
    path = tmp_path / "chain-2p.json"
    path.write_text(json.dumps(CHAIN))
    with (touch_phone(driver, (1024, 768)) if touch else window(driver, (1024, 768))):
        show(driver, path)
        unflip(driver)
        click_point(driver, "c5")
        click_point(driver, "c4")
        assert [c.get_attribute("data-move") for c in choices(driver)] == ["c5-c4"]
        driver.save_screenshot(str(shots / f"1024x768-{'tablet' if touch else 'window'}-choice.png"))
        for selector in ("#message", '#actions button[data-move="c5-c4"]', "#prompt-close"):
            assert in_sight(driver, selector) is True, (selector, in_sight(driver, selector))
        assert points_hit(driver, ["c5", "c4", "e4"]) == []
        driver.find_element(By.CSS_SELECTOR, '#actions button[data-move="c5-c4"]').click()
        wait(driver, lambda d: current_move(d) == "c5-c4", "the move chosen played")
        wait(driver, lambda d: not floating(d), "the panel gone")
        driver.find_element(By.ID, "undo-button").click()
        wait(driver, lambda d: current_move(d) == "start", "the start again")
        click_point(driver, "a5")
        wait(driver, lambda d: message(d).startswith("Illegal:"), "the reason the tap is refused")
        assert in_sight(driver, "#message") is True, in_sight(driver, "#message")
        driver.find_element(By.ID, "prompt-close").click()
        wait(driver, lambda d: not floating(d), "the panel closed")
        assert message(driver).startswith("Illegal:")
    assert not console_errors(driver)


@contextmanager
def window(driver, size):
    """The viewport `size` without touch (a desktop's window); the window's own again after."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        assert not script(driver, "return matchMedia('(pointer: coarse)').matches")
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
