"""Claim It!'s odds panel and rolls in a real browser (the fixtures of
test_page.py): the panel says the chance of a bust only of a roll the
player faces, states the command line's recommendation at its top with how
sure, and a roll that busts shows its dice and the bust until the next roll.

Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import json
from pathlib import Path

import pytest

from .browser import SKIP, By, Select, browser, message, server, shots, wait  # noqa: F401
from .test_page_marks import load_position

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claimit"

pytestmark = [SKIP, pytest.mark.slow]

# three players in the final round, player 1 with dice 6 2 5 rolled and a placement to choose
# (a QA player's position); without the dice, a roll of 4 3 3 busts there
FINAL = {
    "game": "claimit", "players": 3,
    "board": ["B/2 B/3 3 B/2 B/2 .", "B/3 B/3 B/2 B/2 B/1 .", ". B/2 B/1 B/3 B/1 B/1",
              ". . B/3 w2 B/2 B/1", "B/3 B/3 B/1 B/3 B/1 2", "2 . B/3 B/3 . B/2"],
    "to_move": 1, "dice": [6, 2, 5], "final_round": {"triggered_by": 3, "turns_left": 3},
    "variant": {"release_white": False},
}
# five players, player 1 to roll again or stop (a QA player's position)
RISKY = {
    "game": "claimit", "players": 5,
    "board": ["w1 . 2 . B/5 .", ". w2 . 3 . .", "4 . w3 . B/1 .", ". 5 . 3/w4 . .", ". . B/2 . w5 .",
              "B/3 . . . . 4"],
    "to_move": 1, "dice": None, "final_round": None, "variant": {"release_white": False},
}


def script(driver, text):
    return driver.execute_script(text)


@pytest.fixture(scope="module")
def page(server, browser):
    browser.set_window_size(1400, 900)
    browser.get(server)
    wait(browser, lambda d: script(d, "return Boolean(window.claimsolveBoard && document.querySelector("
                                      "'#board [data-point]'))"), "the first board")
    Select(browser.find_element(By.ID, "engine-time")).select_by_value("1")
    return browser


def written(tmp_path, name, position):
    path = tmp_path / name
    path.write_text(json.dumps(position))
    return path


def odds_of(driver, position):
    """The odds JSON of the analysis of `position` once the panel shows it."""
    expected = json.dumps(position, separators=(",", ":"))
    return wait(driver, lambda d: script(
        d, "const s = window.claimsolveBoard.state; const a = s.analysis;"
           f"return a && a.result && a.result.odds && JSON.stringify(s.line[s.index].position) === {expected!r} && "
           "!document.getElementById('odds-panel').hidden && a.result.odds"), "the odds panel")


def panel_text(driver, element):
    return script(driver, f"const e = document.getElementById('{element}'); return e ? e.textContent : null")


def test_a_placement_says_no_bust_chance(page, shots, tmp_path):
    driver = page
    load_position(driver, written(tmp_path, "final.json", FINAL))
    odds = odds_of(driver, FINAL)
    assert odds["mode"] == "placement"
    driver.save_screenshot(str(shots / "odds-placement.png"))
    note = panel_text(driver, "odds-note")
    # the JSON's figure is of a roll on the board before the placement: no roll the player faces
    assert note == ""
    # the panel asks which placement (its heading said "Roll or stop?" there)
    assert script(driver, "return document.querySelector('#odds-panel h2').textContent") == "Which placement?"
    assert "bust" not in panel_text(driver, "odds-panel").split("win chance with")[0].replace("bust chance", "")


def test_roll_or_stop_states_the_recommendation_and_how_sure(page, shots, tmp_path):
    driver = page
    load_position(driver, written(tmp_path, "risky.json", RISKY))
    odds = odds_of(driver, RISKY)
    driver.save_screenshot(str(shots / "odds-roll-or-stop.png"))
    assert odds["mode"] == "roll or stop"
    # the chance exact, as the command line says it (the page said "busts with 26.9%.")
    assert (f"The next roll busts with {odds['bust_rolls']}/216 = {100 * odds['bust_probability']:.1f}% (exact)."
            in panel_text(driver, "odds-note"))
    # the play-outs' fixed policy is named as theirs, not the engine's (which may roll where it stops)
    table = panel_text(driver, "odds-table")
    assert "follow the play-outs' policy" in table and "engine" not in table
    # the verdict, first under the heading, as the command line's text words it
    first = script(driver, "return document.querySelector('#odds-panel h2').nextElementSibling.id")
    assert first == "odds-verdict"
    verdict = script(driver, "return document.querySelector('#odds-verdict strong').textContent")
    if odds["overruled"]:                           # said after the verdict (the next test)
        verdict = verdict[:verdict.index(" The play-outs overrule")]
    if odds["recommendation"] is None:
        assert verdict.startswith("No recommendation: ")
    else:
        by = "the learned win objective" if odds["recommended_by"] == "learned win objective" else "the play-outs"
        assert verdict.startswith(f"Recommendation (by {by}): {odds['recommendation']}")
        if odds["confidence"] is not None:          # how sure the play-outs are of it, in percent
            points, alternative = f"{100 * abs(odds['margin']):.1f}", odds["compared_with"]
            if odds["margin"] >= 0:
                assert f"its win chance is +{points} percentage points over '{alternative}', " in verdict
                assert verdict.endswith(" sure.")
            else:
                assert f"its win chance is {points} percentage points under '{alternative}' (" in verdict
                assert verdict.endswith(" sure it is the better).")
    # where the pink bar (the plan that won most) decides otherwise, a note says why
    top = max(r["win"] for r in odds["rows"])
    differs = odds["recommendation"] is not None and any(
        r["win"] == top and r["decision"] != odds["recommendation"] for r in odds["rows"])
    note = script(driver, "const n = document.querySelector('#odds-verdict .note'); return n ? n.textContent : null")
    assert bool(note) == differs, (note, odds["rows"])


def test_where_the_play_outs_overrule_the_net_the_panel_says_so(page):
    """The table of seeds/claimit/mid-game-dice-3p.json where the net
    prefers the placement the play-outs put last (the command line's test
    of it, tests/claimit/test_odds.py): the panel recommends the play-outs'
    placement and says which the net chose and how sure they are that it
    wins less."""
    import claimsolve
    from claimsolve.claimit.odds import odds as odds_table
    from claimsolve.claimit.plans import best_by_decision

    table = odds_table(claimsolve.load(str(SEEDS / "mid-game-dice-3p.json")), samples=2000, seed=0,
                       optimum_time=0.02)
    best = best_by_decision(table.rows)
    worst = min(best, key=lambda d: best[d]["win"])
    for name in table.turn_optimum["win"]["decisions"]:
        table.turn_optimum["win"]["decisions"][name] = 0.6 if name == worst else 0.4
    data = table.to_json()
    assert data["overruled"] and data["overruled"]["learned"] == worst
    verdict = page.execute_script("return window.claimsolveBoard.oddsVerdict(arguments[0])", data)
    plans = data["recommendation"]
    assert verdict.startswith(f"Recommendation (by the play-outs): {plans}: in the play-outs its win chance is +")
    assert verdict.endswith(
        f" The play-outs overrule the learned win objective's {worst}: they are over 99% sure that it wins less "
        f"than {plans} ({100 * data['overruled']['margin']:.1f} percentage points lower)."), verdict


# the empty board, 3 players, dice 3 2 4 rolled: six placements, all worth the same to the exact turn optimum
EMPTY_324 = {
    "game": "claimit", "players": 3, "board": [". . . . . ."] * 6, "to_move": 1, "dice": [3, 2, 4],
    "final_round": None, "variant": {"release_white": False},
}


def test_a_pick_among_several_placements_says_it_is_sure_of_the_best_of_them(page, shots, tmp_path):
    # the plans' confidence is that their pick is the best of every placement, not only better than
    # the next: the verdict and the note say so (the page said "72% sure" of the top two alone)
    driver = page
    load_position(driver, written(tmp_path, "empty-324.json", EMPTY_324))
    odds = odds_of(driver, EMPTY_324)
    assert odds["mode"] == "placement"
    # (no confidence, no candidates: where nothing is recommended, the placements winning alike as shown)
    assert odds["candidates"] == (6 if odds["confidence"] is not None else None)
    verdict = script(driver, "return document.querySelector('#odds-verdict strong').textContent")
    note = script(driver, "const n = document.querySelector('#odds-verdict .note'); return n ? n.textContent : ''")
    if odds["confidence"] is not None and odds["recommended_by"] != "learned win objective":
        assert verdict.endswith(" it is the best of the 6."), verdict
    elif odds["confidence"] is not None:
        assert "is the best of the 6" in verdict + note, (verdict, note)


def test_a_bust_shows_its_dice_until_the_next_roll(page, shots, tmp_path):
    driver = page
    position = dict(FINAL, dice=None)
    load_position(driver, written(tmp_path, "before-bust.json", position))
    wait(driver, lambda d: d.find_elements(By.ID, "dice-entry"), "the dice field")
    driver.find_element(By.ID, "dice-entry").send_keys("4,3,3")
    driver.find_element(By.XPATH, "//button[text()='roll these']").click()
    wait(driver, lambda d: script(d, "const s = window.claimsolveBoard.state; return s.line[s.index].move")
         == "roll:4,3,3", "the roll played")
    wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.drawn.move") == "roll:4,3,3",
         "the board after the roll")
    driver.save_screenshot(str(shots / "bust-shown.png"))
    status = lambda d: panel_text(d, "status")  # noqa: E731
    wait(driver, lambda d: "rolled 4, 3, 3: no placement, bust" in status(d), "the bust in the status")
    dice = script(driver, "return document.querySelectorAll('#board .die').length")
    assert dice == 3
    board = panel_text(driver, "board")
    assert "bust" in board and "not rolled" not in board
    # the next roll: its dice, no bust
    driver.find_element(By.ID, "dice-entry").send_keys("6,2,5")
    driver.find_element(By.XPATH, "//button[text()='roll these']").click()
    wait(driver, lambda d: script(d, "const s = window.claimsolveBoard.state; return s.line[s.index].move")
         == "roll:6,2,5", "the next roll played")
    wait(driver, lambda d: "bust" not in status(d), "the bust gone from the status")
    assert "bust" not in panel_text(driver, "board"), message(driver)


# three players in the final round, player 1 to begin a turn (roll is the only move) and every roll
# busts: 30 secured spaces (the black supply spent) and 6 of player 1's own, which take only a black
ALL_BUST = {
    "game": "claimit", "players": 3,
    "board": [" ".join(f"B/{k % 3 + 1}" if k < 30 else "1" for k in range(6 * row, 6 * row + 6)) for row in range(6)],
    "to_move": 1, "dice": None, "final_round": {"triggered_by": 3, "turns_left": 3},
    "variant": {"release_white": False},
}


def test_a_bust_the_engine_plays_is_listed_with_its_dice(page, shots, tmp_path):
    """The engine's roll that busts was listed "roll (bust)", its dice nowhere in the moves (the
    player's own bust is "roll:4,1,4 (bust)", as a record loaded names it)."""
    driver = page
    load_position(driver, written(tmp_path, "all-bust.json", ALL_BUST))
    Select(driver.find_element(By.ID, "engine-move-time")).select_by_value("0.5")
    driver.find_element(By.ID, "engine-seat-1").click()
    try:
        wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.line.length") == 2,
             "the engine's roll")
    finally:
        driver.find_element(By.ID, "engine-seat-1").click()
    move = script(driver, "return window.claimsolveBoard.state.line[1].move")
    assert move.startswith("roll:"), move
    dice = move[len("roll:"):].split(",")
    label = f"{move} (bust)"
    wait(driver, lambda d: script(d, "const li = document.querySelector('#move-list li.current');"
                                     "return li && li.dataset.label") == label, "the bust listed with its dice")
    assert script(driver, "return document.querySelector('#move-list li.current').textContent") == label
    # said as the "Last move" line says it: the dice, and the bust
    report = script(driver, "return window.claimsolveBoard.state.line[1].lastMove.report")
    assert report.startswith(move) and "busts" in report, report
    assert message(driver) == f"The engine (player 1) played {report}."
    # the dice area and the status say the same dice
    assert f"rolled {', '.join(dice)}: no placement, bust" in panel_text(driver, "status")
    driver.save_screenshot(str(shots / "engine-bust.png"))
