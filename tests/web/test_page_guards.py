"""The analysis board in a real browser (the fixtures of test_page.py)
where a player is quick or the game is over or the server is gone: a
double click on "roll" rolls once; a finished game says who won and by
what, and asks for no move; a control the game does not use is not shown;
a stopped server is named as such.  Found by driving the page as a player
would.  The engine is switched off: nothing here needs it."""
import json
import subprocess
import sys
import time

import pytest

from .browser import SEEDS, SKIP, By, browser, click_point, message, server, shots, wait  # noqa: F401
from .test_page_marks import board_ready, console_errors, current_move, load_position, page, script  # noqa: F401

pytestmark = [SKIP, pytest.mark.slow]


def status(driver):
    return driver.find_element(By.ID, "status").text


def test_two_clicks_on_roll_roll_once(page):
    # both clicks reach the button before the server answers the first
    # (before: two rolls from one position, the second kept as a variation)
    driver = page
    load_position(driver, SEEDS / "claimit/start-3p.json")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#actions [data-word='roll']"), "the roll button")
    script(driver, "const b = document.querySelector(\"#actions [data-word='roll'] button\"); b.click(); b.click();")
    wait(driver, lambda d: (current_move(d) or "").startswith("roll:"), "the roll")
    time.sleep(2)                                   # the second click's answer would have come by now
    assert script(driver, "return window.claimsolveBoard.state.line[0].children.length") == 1
    assert not console_errors(driver)


@pytest.mark.parametrize("seed, said", [
    ("claimit/game-over-3p.json",
     "Game over: player 3 wins: largest group 6, tied with player 2; secured spaces 11 to 10."),
    ("claim/won-2p.json", "Game over: player 1 wins with 3 towers."),
])
def test_a_finished_game_says_why_and_asks_for_no_move(page, shots, seed, said):
    driver = page
    load_position(driver, SEEDS / seed, moves=False)
    wait(driver, lambda d: said in status(d), f"the result of {seed}")
    assert status(driver).strip().endswith(f"): {said}")      # (before: "... Roll (the server's dice ...) or stop.")
    assert not driver.find_elements(By.CSS_SELECTOR, "#actions button")
    # the bar: the result for the seat it shows (it was split evenly, with no label)
    bar = script(driver, "return [document.getElementById('eval-text').textContent, "
                         "document.getElementById('eval-fill').style.height, document.getElementById('eval-seat')"
                         ".textContent, document.getElementById('eval-bar').title]")
    assert bar[:3] == (["won", "100%", "P1"] if "claim/" in seed else ["won", "100%", "P3"]), bar
    assert bar[3].startswith(f"{said.rstrip('.')} (the bar: player "), bar
    driver.save_screenshot(str(shots / f"over-{seed.split('/')[0]}.png"))
    if "claimit" in seed:                           # the legend: each seat's group, no seat to move
        legend = script(driver, "return Array.from(document.querySelectorAll('#board text'), t => t.textContent)")
        assert "11 secured, 11 held" in legend and "largest group 6" in legend
        assert not any(t.endswith("<") for t in legend)


def test_the_review_objective_is_hidden_where_a_game_has_one(page):
    driver = page
    load_position(driver, SEEDS / "claim/won-2p.json", moves=False)
    assert not driver.find_element(By.ID, "review-objective-label").is_displayed()
    load_position(driver, SEEDS / "claimit/mid-game-3p.json")
    wait(driver, lambda d: d.find_element(By.ID, "review-objective-label").is_displayed(), "the objective shown")


def own_server(browser):
    """A server of the test's own, the page on it, the engine off: the test
    stops it under the page."""
    process = subprocess.Popen([sys.executable, "-c", "from claimsolve.cli.main import main; main()", "serve",
                                "--port", "0", "--workers", "1", "--json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    browser.get(json.loads(process.stdout.readline())["url"])
    wait(browser, board_ready, "the first board")
    browser.find_element(By.ID, "engine-on").click()
    return process


def test_a_stopped_server_is_named_and_a_move_can_be_tried_again(browser, server):
    process = own_server(browser)
    try:
        load_position(browser, SEEDS / "claim/play-2p.json")
        click_point(browser, "h3")
    finally:
        process.terminate()
        process.wait(timeout=10)
    click_point(browser, "g3")                   # h3-g3: legal, but the server is gone
    wait(browser, lambda d: "cannot reach the claimsolve server" in message(d), "the server named")
    assert message(browser).startswith("cannot reach the claimsolve server (stopped?)")
    # the piece stays picked up, without the move the server never answered: once the server is back,
    # g3 plays h3-g3 (it was sent as "after h3, g3" and refused as illegal)
    assert script(browser, "return window.claimsolveBoard.state.clicks") == ["h3"]
    process = own_server(browser)
    try:
        load_position(browser, SEEDS / "claimit/start-3p.json")
    finally:
        process.terminate()
        process.wait(timeout=10)
    browser.find_element(By.CSS_SELECTOR, "#actions [data-word='roll'] button").click()
    wait(browser, lambda d: "cannot reach the claimsolve server" in message(d), "the server named")
    assert message(browser).startswith("cannot reach the claimsolve server (stopped?)")
    browser.get(server)                              # back to the module's server, as `page` left it
    wait(browser, board_ready, "the first board again")
    browser.find_element(By.ID, "engine-on").click()



def test_claim_it_offers_stop_only_once_the_turn_has_begun(page):
    """The status said "Roll ... or stop." at a turn's start, where stop is
    not legal."""
    driver = page
    load_position(driver, SEEDS / "claimit/start-3p.json")
    wait(driver, lambda d: "Roll to begin the turn" in status(d), "the start's status")
    assert "stop" not in status(driver)
    load_position(driver, SEEDS / "claimit/mid-game-3p.json")
    wait(driver, lambda d: "Roll again (the server's dice, or type your own) or stop." in status(d), "mid-turn")


def test_the_solver_is_offered_only_where_a_game_has_one(page):
    driver = page
    offered = lambda d: d.execute_script(          # noqa: E731
        "return !document.querySelector(\"#engine-kind option[value='solver']\").disabled")
    load_position(driver, SEEDS / "claim/play-2p.json")
    wait(driver, lambda d: not offered(d), "no solver for Claim")     # (it was offered, then refused)
    load_position(driver, SEEDS / "colorclaim/start-3x3-seed1.json")
    wait(driver, offered, "the solver for Color Claim")


def test_a_review_cut_short_by_the_server_keeps_its_grades(browser, server):
    """The server stopped 3 moves into a review: the page hid the panel and
    the grades received; it now keeps both and says how far it got."""
    import claimsolve
    from claimsolve import records
    from claimsolve.match import run_match

    game = run_match("claimit", "threshold:3", "random", 1, players=3, seed=2).records[0]
    text = records.dumps(records.GameRecord.from_moves(claimsolve.new("claimit", players=3), game.moves[:60]))
    process = own_server(browser)
    try:
        browser.execute_script("return window.claimsolveBoard.loadText(arguments[0], 'long.json')", text)
        wait(browser, lambda d: "Loaded long.json" in message(d), "the record")
        script(browser, "document.getElementById('review-time').value = '0.1'")
        browser.find_element(By.ID, "review-button").click()
        wait(browser, lambda d: script(d, "const r = window.claimsolveBoard.state.review; return r && r.done") >= 3,
             "three moves graded")
    finally:
        process.terminate()
        process.wait(timeout=10)
    wait(browser, lambda d: "Stopped after" in d.find_element(By.ID, "review-status").text, "the review stopped")
    assert browser.find_element(By.ID, "review-panel").is_displayed()
    assert script(browser, "return window.claimsolveBoard.state.line.filter(n => n.review).length") >= 3
    assert browser.find_element(By.ID, "review-button").text == "Review"
    browser.get(server)                              # back to the module's server, as `page` left it
    wait(browser, board_ready, "the first board again")
    browser.find_element(By.ID, "engine-on").click()


def test_a_grade_says_when_a_roll_was_valued_by_a_lower_bound(page):
    """review.md: a roll graded as a loss where the method says 'at most d
    more rolls' may lose less; the board's grade never said so."""
    words = lambda m: script(page, f"return window.claimsolveBoard.gradeWords({json.dumps(m)})")  # noqa: E731
    cut = {"move": "roll:3,5,1", "grade": "blunder", "loss": 0.213, "best": "stop", "exact": False,
           "method": "win turn optimum under the learned net, at most 3 more rolls (a lower bound)"}
    assert words(cut) == ("blunder: loss 0.213; the engine's stop (estimated, not proven); rolling valued by a "
                          "lower bound (the rest of the turn cut at 3 more rolls): it may lose less")
    assert "lower bound" not in words(dict(cut, move="stop", best="roll"))         # a stop: valued exactly
    assert "lower bound" not in words(dict(cut, method="win turn optimum under the learned net, exact"))


def test_an_analysis_cut_short_says_its_suggestions_are_a_last_report(browser, server):
    """Stopped under a 30 s analysis, the page kept its last report's rows
    and bar, unmarked, as if they were the answer."""
    process = own_server(browser)
    try:
        script(browser, "document.getElementById('engine-time').value = '30'")
        browser.find_element(By.ID, "engine-on").click()                 # on again
        load_position(browser, SEEDS / "claim/play-2p.json")
        wait(browser, lambda d: script(d, "return document.querySelectorAll('#suggestions tbody tr').length") > 0,
             "suggestions reported")
    finally:
        process.terminate()
        process.wait(timeout=10)
    wait(browser, lambda d: "interrupted" in d.find_element(By.ID, "engine-state").text, "the analysis cut")
    assert "not its answer" in browser.find_element(By.ID, "engine-state").text
    assert "cut short" in browser.find_element(By.ID, "engine-line").text
    browser.get(server)                              # back to the module's server, as `page` left it
    wait(browser, board_ready, "the first board again")
    browser.find_element(By.ID, "engine-on").click()


def test_leaving_asks_first_only_where_the_address_cannot_hold_the_game(page):
    """A reload lost the game without a word; then the browser asked first
    (the page's beforeunload handler) while moves were unsaved.  Now the
    address holds the game, and the page asks only where the game is too long
    for it (a record past the server's max_body), not after Save game."""
    driver = page
    asks = lambda d: d.execute_script(                # noqa: E731
        "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented")
    load_position(driver, SEEDS / "claim/play-2p.json")
    assert not asks(driver)                         # just loaded: nothing to lose
    click_point(driver, "c3")
    click_point(driver, "c4")
    wait(driver, lambda d: current_move(d) == "c3-c4", "a move played")
    wait(driver, lambda d: "#game=" in d.current_url and d.current_url.endswith("&at=0"), "the move in the address")
    assert not asks(driver)                         # the address holds it: a reload reopens it
    try:
        script(driver, "window.claimsolveBoard.state.maxBody = 300")         # a server that reads less
        script(driver, "const s = window.claimsolveBoard.state; window.claimsolveBoard.playMove(s.line[1].legal[0])")
        wait(driver, lambda d: "#game=" not in d.current_url, "the game taken out of the address")
        note = driver.find_element(By.ID, "address-note")
        assert note.is_displayed() and "too long for the address" in note.text
        assert asks(driver)
        driver.find_element(By.ID, "link-button").click()
        wait(driver, lambda d: "too long for an address" in message(d), "Link saying why it has no link")
        driver.find_element(By.ID, "save-game-button").click()
        wait(driver, lambda d: "Saved claim-game.json" in message(d), "the game saved")
        assert not asks(driver)
    finally:
        script(driver, "window.claimsolveBoard.state.maxBody = 1024 * 1024")
    driver.find_element(By.ID, "undo-button").click()              # a step: the game is in the address again
    wait(driver, lambda d: "#game=" in d.current_url, "the game in the address again")
    assert not driver.find_element(By.ID, "address-note").is_displayed()
