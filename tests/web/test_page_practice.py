"""Practising a reviewed game's mistakes on the board (docs/board.md,
"Practise mistakes"), as lichess's "Learn from your mistakes": after a
review, the player's mistakes one after another, the position before each
shown, a wrong try taken back ("try again"), a better one "Well found", and
at the end how many were found; the game's moves unchanged.

The game is test_page_review.py's 3x3 Color Claim game, reviewed exactly:
player 1's c1-c2 and b3xa3 are mistakes of 3 points (a3xb3, a2xa1 best).
Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import pytest

from claimsolve.positions import from_dict

from .browser import SKIP, By, browser, server, shots, wait  # noqa: F401
from .test_page import board_ready, console_errors
from .test_page_phone import TARGETS
from .test_page_review import (META, MOVES, START, inner_size, load, page, reviewed, script,  # noqa: F401
                               show_ply, verdict)

pytestmark = [SKIP, pytest.mark.slow]


def prompt(driver):
    return script(driver, "const p = document.getElementById('practice-prompt');"
                          "return p && !document.getElementById('practice').hidden ? p.textContent : null")


def shown(driver):
    return script(driver, """
        const b = window.claimsolveBoard, s = b.state, n = s.line[s.index];
        return {ply: s.index, move: n.move, position: n.position, rootMoves: s.line[0].children.map(c => c.move),
                main: b.mainLine().slice(1).map(c => c.move), practising: Boolean(s.practice)}""")


def play(driver, move):
    script(driver, "window.claimsolveBoard.playMove(arguments[0])", move)


def visible(driver, element_id):
    return script(driver, "const e = document.getElementById(arguments[0]);"
                          "return Boolean(e) && e.getClientRects().length > 0", element_id)


def test_practise_a_players_mistakes_found_missed_and_counted(page, tmp_path, shots):
    driver = page
    inner_size(driver, 1280, 800)
    load(driver, tmp_path, META, "practice.json")
    reviewed(driver)
    # the control, in the review panel: the seat the record names by no engine's name ("you"), its count
    wait(driver, lambda d: visible(d, "practice-button"), "the practice control")
    seats = script(driver, "return Array.from(document.getElementById('practice-seat').options,"
                           " o => [o.value, o.textContent, o.selected])")
    assert seats == [["1", "player 1 (2)", True], ["2", "player 2 (0)", False]], seats
    driver.find_element(By.ID, "practice-button").click()
    # 1. the position before the first mistake, and the question
    wait(driver, lambda d: (prompt(d) or "").startswith("Move 1, player 1: find a better move than c1-c2 "
                                                        "(it lost 3 points).") and board_ready(d), "the question")
    assert shown(driver)["ply"] == 0
    assert not visible(driver, "review-graph")          # the prompt in its place: the board stays whole
    # the moves list's tooltip of the move asked does not give the answer (it named "the engine's a3xb3")
    title = script(driver, "return Array.from(document.querySelectorAll('#move-list li'))"
                           ".find(li => li.textContent.includes('c1-c2')).title")
    assert "mistake" in title and "a3xb3" not in title, title
    driver.save_screenshot(str(shots / "practice-question.png"))
    # a wrong try: taken back, the board at the position before, nothing added to the tree
    play(driver, "a1-a2")
    wait(driver, lambda d: (prompt(d) or "").startswith("Not that: a1-a2 loses 9 points (blunder, exact); try "
                                                        "again.") and board_ready(d), "the wrong try judged")
    now = shown(driver)
    assert now["ply"] == 0 and now["rootMoves"] == ["c1-c2"], now
    assert from_dict(now["position"]) == START
    driver.save_screenshot(str(shots / "practice-try-again.png"))
    # the game's own move again: not that either, without asking the server
    play(driver, "c1-c2")
    wait(driver, lambda d: "is the move played in the game" in (prompt(d) or ""), "the game's move refused")
    assert shown(driver)["ply"] == 0
    # the best move: well found, kept as a variation beside the game's move
    play(driver, "a3xb3")
    found = "Well found: a3xb3 (as good as the engine's best: its own move, exact). The game's c1-c2 lost 3 points."
    wait(driver, lambda d: prompt(d) == found and board_ready(d), "the better move found")
    now = shown(driver)
    assert now["move"] == "a3xb3" and now["rootMoves"] == ["c1-c2", "a3xb3"], now
    driver.save_screenshot(str(shots / "practice-well-found.png"))
    driver.find_element(By.ID, "practice-next").click()
    # 2. the second mistake: shown the answer instead
    wait(driver, lambda d: (prompt(d) or "").startswith("Move 3, player 1: find a better move than b3xa3 "
                                                        "(it lost 3 points).") and board_ready(d), "the second")
    assert shown(driver)["ply"] == 2 and shown(driver)["move"] == "b1xb2"
    # the move before the question (player 2's b1xb2, best in this game) made a mistake in the review's
    # data: its better move and words would show at this position, and must not while the question is
    # asked (they gave the answer's square away in a Claim game)
    script(driver, "const b = window.claimsolveBoard, n = b.state.review.nodes[2];"
                   "n.review = Object.assign({}, n.review, {grade: 'mistake', loss: 3, best: 'a2-a3', line: null});"
                   "b.showIndex(b.state.index)")
    wait(driver, board_ready, "the board drawn again")
    assert verdict(driver) is None
    assert not script(driver, "return document.querySelectorAll('#board #review-best *').length")
    driver.find_element(By.ID, "practice-answer").click()
    wait(driver, lambda d: (prompt(d) or "").startswith("The answer: a2xa1") and board_ready(d), "the answer")
    assert shown(driver)["move"] == "a2xa1"
    assert driver.find_element(By.ID, "practice-next").text == "Finish"
    driver.find_element(By.ID, "practice-next").click()
    # 3. the count, and the panel back to the review
    wait(driver, lambda d: script(d, "return document.getElementById('practice-note').textContent") ==
         "Practice over: found 1 of 2.", "the count")
    assert prompt(driver) is None and visible(driver, "review-graph") and visible(driver, "practice-button")
    driver.save_screenshot(str(shots / "practice-over.png"))
    # (the control: out of the practice, the same move's words show at its position)
    show_ply(driver, 2)
    wait(driver, lambda d: (verdict(d) or "").startswith("Mistake (-3 points"), "the move before's words again")
    # the game's moves never changed; the review still the main line's
    now = shown(driver)
    assert now["main"] == MOVES and not now["practising"], now
    assert script(driver, "return window.claimsolveBoard.state.review.result !== null")
    assert not console_errors(driver)


def test_the_tree_waits_while_a_try_is_judged(page, tmp_path):
    """A reviewer of the practice: with /api/grade slow, a try deleted while judged made the take-back
    remove the game's own move (splice(-1)): the main line gone; a try promoted meanwhile became the main
    line; a new review started meanwhile left the try in the tree.  Delete and promote wait now, and a
    review started meanwhile takes the try back."""
    driver = page
    load(driver, tmp_path, META, "practice-slow.json")
    reviewed(driver)
    wait(driver, lambda d: visible(d, "practice-button"), "the practice control")
    driver.find_element(By.ID, "practice-button").click()
    wait(driver, lambda d: (prompt(d) or "").startswith("Move 1, player 1") and board_ready(d), "the question")
    # the server's answer to a grade held back 3 s
    script(driver, """
      const fetched = window.fetch;
      window.fetchBefore = fetched;
      window.fetch = (url, init = {}) => !String(url).includes('/api/grade') ? fetched(url, init) :
        new Promise((resolve, reject) => {          // as a slow server: 3 s, unless the request is dropped
          const held = setTimeout(() => resolve(fetched(url, init)), 3000);
          if (init.signal) init.signal.addEventListener('abort', () => {
            clearTimeout(held);
            reject(new DOMException('dropped', 'AbortError'));
          });
        });""")
    try:
        play(driver, "a1-a2")
        wait(driver, lambda d: (prompt(d) or "").startswith("Checking a1-a2"), "the try being judged")
        assert driver.find_element(By.ID, "delete-button").get_attribute("disabled") is not None
        assert driver.find_element(By.ID, "promote-button").get_attribute("disabled") is not None
        script(driver, "document.getElementById('delete-button').click()")          # refused as it waits
        wait(driver, lambda d: (prompt(d) or "").startswith("Not that: a1-a2") and board_ready(d), "judged")
        assert shown(driver)["main"] == MOVES and shown(driver)["rootMoves"] == ["c1-c2"]
        # a new review started while a try is judged: the try taken back
        play(driver, "a1-b1")
        wait(driver, lambda d: (prompt(d) or "").startswith("Checking a1-b1"), "the second try being judged")
        reviewed(driver)
        now = shown(driver)
        assert now["main"] == MOVES and now["rootMoves"] == ["c1-c2"] and not now["practising"], now
        # its request dropped with it: the board takes a move at once (the try held the move in flight)
        wait(driver, lambda d: not script(d, "return window.claimsolveBoard.moveInFlight()"), "no move in flight")
    finally:
        script(driver, "window.fetch = window.fetchBefore")          # the page's own fetch for the tests after
    assert not console_errors(driver)


def test_a_review_loaded_with_its_record_is_practised_too(page, tmp_path):
    """A record saved after a review (Save game) loads with its review, whose time a position is not
    kept: a try is graded at the review time chosen on the page."""
    driver = page
    load(driver, tmp_path, META, "to-save.json")
    reviewed(driver)
    record = script(driver, "return window.claimsolveBoard.recordJson()")
    assert all(isinstance(m, dict) and m["eval"]["grade"] for m in record["moves"]), record
    load(driver, tmp_path, record, "saved-reviewed.json")
    wait(driver, lambda d: visible(d, "practice-button"), "the practice control of the loaded review")
    driver.find_element(By.ID, "practice-button").click()
    wait(driver, lambda d: (prompt(d) or "").startswith("Move 1, player 1") and board_ready(d), "the question")
    play(driver, "a2-a1")
    wait(driver, lambda d: (prompt(d) or "").startswith("Well found: a2-a1 (as good as the engine's best, exact).")
         and board_ready(d), "a move as good as the best, found")
    driver.find_element(By.ID, "practice-stop").click()
    wait(driver, lambda d: script(d, "return document.getElementById('practice-note').textContent") ==
         "Practice stopped: found 1 of 2 (1 not tried).", "stopped")
    assert shown(driver)["main"] == MOVES
    assert not console_errors(driver)


def small_targets(driver, selector):
    """test_page_phone's check of every control's touch target, within `selector`."""
    return script(driver, TARGETS.replace("document.querySelectorAll('button", "document.querySelector('" + selector +
                                          "').querySelectorAll('button"))


def test_a_phone_sees_the_question_and_the_board_whole(page, tmp_path, shots):
    """At 390x844 (touch) the question and its buttons come under the board, none of them over it, each
    control a finger's target."""
    driver = page
    load(driver, tmp_path, META, "practice-phone.json")
    reviewed(driver)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        wait(driver, lambda d: visible(d, "practice-button") and script(d, "return innerWidth") == 390,
             "the practice control")
        assert small_targets(driver, "#practice-bar") == []
        script(driver, "document.getElementById('practice-bar').scrollIntoView({block: 'center'})")
        driver.save_screenshot(str(shots / "practice-phone-bar.png"))
        driver.find_element(By.ID, "practice-button").click()
        wait(driver, lambda d: (prompt(d) or "").startswith("Move 1, player 1") and board_ready(d), "the question")
        script(driver, "document.getElementById('practice').scrollIntoView({block: 'nearest'})")
        driver.save_screenshot(str(shots / "practice-phone.png"))
        boxes = script(driver, """
            const r = (id) => { const b = document.getElementById(id).getBoundingClientRect();
                                return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
            return {board: r('board'), practice: r('practice'), prompt: r('practice-prompt'),
                    font: parseFloat(getComputedStyle(document.getElementById('practice-prompt')).fontSize),
                    width: document.documentElement.scrollWidth}""")
        assert boxes["practice"]["top"] >= boxes["board"]["bottom"] - 1, boxes       # under the board, not on it
        assert boxes["font"] >= 12 and boxes["width"] <= 390, boxes
        assert small_targets(driver, "#practice") == []
        play(driver, "a1-a2")
        wait(driver, lambda d: "try again" in (prompt(d) or ""), "the wrong try judged")
        driver.save_screenshot(str(shots / "practice-phone-try-again.png"))
        driver.find_element(By.ID, "practice-stop").click()
        wait(driver, lambda d: script(d, "return document.getElementById('practice-note').textContent")
             .startswith("Practice stopped: found 0 of 2"), "stopped")
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
