"""The analysis board's marks in a real browser (the fixtures of
test_page.py): the last move marked on the board and said under it (a
Claim capture's route and the Viking it took, crossed out where it stood;
a Color Claim move's squares and its claim), Claim It!'s legal spaces
highlighted after a roll with the marker each takes, roll and stop offered
only when legal, and illegal clicks explained from the position, never with
a move the page made up.  The engine is switched off: nothing here needs it.

Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .browser import SEEDS, SKIP, By, Keys, browser, click_point, message, server, shots, wait  # noqa: F401
from .test_page import QUADRANTS, upside_down_texts

pytestmark = [SKIP, pytest.mark.slow]


def script(driver, text):
    return driver.execute_script(text)


def last_move(driver):
    return script(driver, "const box = document.getElementById('last-move');"
                          "return box && !box.hidden ? box.textContent : ''")


def current_move(driver):
    return script(driver, "const li = document.querySelector('#move-list li.current');"
                          "return li ? li.textContent : null")


def marks(driver, selector):
    """{data-mark: data-piece} of the board's marks matching `selector`."""
    return script(driver, f"return Object.fromEntries(Array.from(document.querySelectorAll('#board {selector}'), "
                          "e => [e.dataset.mark || e.dataset.route, e.dataset.piece || '']))")


def words(driver):
    return {b.get_attribute("data-word") for b in driver.find_elements(By.CSS_SELECTOR, "#actions [data-word]")}


def shows_words(driver, expected):
    """True once the action buttons are `expected` (the page draws them
    after the legal moves arrive, so they may lag the state by a frame)."""
    wait(driver, lambda d: words(d) == expected, f"the action buttons {sorted(expected)}")
    return True


def board_ready(driver):
    return script(driver, "const s = window.claimsolveBoard && window.claimsolveBoard.state;"
                          "return Boolean(s && s.line.length && s.line[s.index].tokens && "
                          "document.querySelector('#board [data-point]'))")


def legal(driver):
    return wait(driver, lambda d: script(d, "const s = window.claimsolveBoard.state; return s.line[s.index].legal;"),
                "the legal moves")


def load_position(driver, path, moves=True):
    """Loads the position file `path` on the board, waiting for it (and,
    with `moves`, for its legal moves: a finished game has none).  The game
    shown before is marked, so that the wait is for the new one: the same
    file loaded again (the old position then equal to the new) once
    returned while the page still asked whether to discard the old game, and
    the next click met the question's box."""
    script(driver, "const s = window.claimsolveBoard && window.claimsolveBoard.state;"
                   "if (s && s.line[0]) s.line[0].shownBefore = true;"
                   "document.getElementById('load-file').hidden = false")
    driver.find_element(By.ID, "load-file").send_keys(str(path))
    script(driver, "document.getElementById('load-file').hidden = true")
    expected = json.dumps(json.loads(Path(path).read_text()), separators=(",", ":"))
    wait(driver, lambda d: board_ready(d) and script(
        d, "const first = window.claimsolveBoard.state.line[0];"
           "return first.shownBefore ? null : JSON.stringify(first.position)") == expected,
         f"the loaded {path.name}")
    if moves:
        legal(driver)


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.fixture(scope="module")
def page(server, browser):
    browser.get(server)
    wait(browser, board_ready, "the first board")
    browser.find_element(By.ID, "engine-on").click()          # off: no analysis runs
    return browser


def test_claim_capture_marked_and_said(page, shots):
    driver = page
    load_position(driver, SEEDS / "claim/play-2p.json")
    click_point(driver, "c3")
    click_point(driver, "e3")                  # the jump over d3 captures e2
    wait(driver, lambda d: current_move(d) == "c3-e3", "the capture played")
    wait(driver, lambda d: last_move(d) == "Last move (player 1): c3-e3 captures e2", "the last move in words")
    assert marks(driver, ".last-route") == {"c3 e3": ""}
    assert marks(driver, ".last-square") == {"c3": "", "e3": ""}
    # the captured Viking crossed out where it stood, though the board has no piece there now
    assert marks(driver, ".last-captured") == {"e2": "2"}
    titles = script(driver, "return Array.from(document.querySelectorAll('#board .piece title'), t => t.textContent)")
    assert not any(title.startswith("e2:") for title in titles) and any(title.startswith("e3:") for title in titles)
    driver.save_screenshot(str(shots / "marks-claim-capture.png"))
    # undo: the start has no last move; redo: the marks again
    driver.find_element(By.ID, "undo-button").click()
    wait(driver, lambda d: current_move(d) == "start" and not last_move(d) and not marks(d, ".last-captured"),
         "no marks at the start")
    driver.find_element(By.ID, "redo-button").click()
    wait(driver, lambda d: marks(d, ".last-captured") == {"e2": "2"}, "the marks on redo")
    assert not console_errors(driver)


# a Claim turn of several landings: c1-c3 captures d3 (e3 behind it), c3-c5 b5 (a5), c5-e5 e4 (e3), and
# e5-e4 f4 (the shore) or e5-e6 e7; a5-c3 is one jump chain over b5 and c4 that captures c2 and d3, after
# which territory c has no Viking of colour 2 and the turn ends with a tower placed there (T@...)
CHAIN = {
    "game": "claim", "players": 2, "variant": "standard",
    "territories": ["a a a b b b", "a a a b b b", "a a a b b b", "a a a b b b",
                    "c c c c d d", "c c c c d d", "c c c c d d"],
    "board": [". . . . 2 .", ". . . . . .", "1 2 . 2 . .", ". . 2 . 2 2",
              ". . . 2 1 .", ". . 2 . . .", ". . 1 . . 2"],
    "phase": "play", "first_player": 1, "to_move": 1,
}


def turn_so_far(driver):
    """The marks of the turn being clicked: the route, the Viking where it
    stands now, what its landings captured, and the points whose pieces
    are faded (the Viking's start, the captured pieces)."""
    return script(driver, "const q = (s) => Array.from(document.querySelectorAll('#board ' + s));"
                          "return {route: q('.turn-route').map(e => e.dataset.route),"
                          " piece: Object.fromEntries(q('.turn-piece').map(e => [e.dataset.mark, e.dataset.piece])),"
                          " captured: Object.fromEntries(q('.turn-captured').map("
                          "   e => [e.dataset.mark, e.dataset.piece])),"
                          " left: [...new Set(q('.turn-left').map(e => e.dataset.at))],"
                          " taken: [...new Set(q('.turn-taken').map(e => e.dataset.at))].sort()}")


NO_TURN = {"route": [], "piece": {}, "captured": {}, "left": [], "taken": []}


def test_claim_turn_so_far_drawn_while_clicking(page, shots, tmp_path):
    driver = page
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(CHAIN))
    load_position(driver, path)
    click_point(driver, "c1")
    assert turn_so_far(driver) == NO_TURN                # picked up, not moved yet
    click_point(driver, "c3")
    # the Viking drawn on c3 and faded on c1, d3 crossed out: what the landing on c3 captured
    wait(driver, lambda d: turn_so_far(d) == {"route": ["c1 c3"], "piece": {"c3": "1"}, "captured": {"d3": "2"},
                                              "left": ["c1"], "taken": ["d3"]}, "the first landing drawn")
    click_point(driver, "c5")
    click_point(driver, "e5")
    wait(driver, lambda d: turn_so_far(d) == {"route": ["c1 c3 c5 e5"], "piece": {"e5": "1"},
                                              "captured": {"b5": "2", "d3": "2", "e4": "2"},
                                              "left": ["c1"], "taken": ["b5", "d3", "e4"]},
         "three landings drawn")
    assert current_move(driver) == "start"               # nothing played: the turn goes on at e4 or e6
    driver.save_screenshot(str(shots / "marks-claim-turn-so-far.png"))
    driver.find_element(By.TAG_NAME, "body").send_keys("f")       # flipped mid-turn: the Viking's 1 upright
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board #flipped .turn-piece"), "the turn flipped")
    assert upside_down_texts(driver) == []
    driver.find_element(By.TAG_NAME, "body").send_keys("f")
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board #flipped")
         and d.find_elements(By.CSS_SELECTOR, "#board .turn-piece"), "the turn turned back")
    assert upside_down_texts(driver) == []
    click_point(driver, "e5")                            # the last landing taken back: e4 stands again
    wait(driver, lambda d: turn_so_far(d) == {"route": ["c1 c3 c5"], "piece": {"c5": "1"},
                                              "captured": {"b5": "2", "d3": "2"},
                                              "left": ["c1"], "taken": ["b5", "d3"]}, "two landings drawn")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(driver, lambda d: turn_so_far(d) == NO_TURN, "the marks gone with the clicks (Escape)")
    # a jump chain: its route through c5, the two Vikings its landing on c3 captured
    click_point(driver, "a5")
    click_point(driver, "c3")
    wait(driver, lambda d: turn_so_far(d) == {"route": ["a5 c5 c3"], "piece": {"c3": "1"},
                                              "captured": {"c2": "2", "d3": "2"},
                                              "left": ["a5"], "taken": ["c2", "d3"]}, "the jump chain drawn")
    click_point(driver, "c3")                            # put down again: the Viking back on a5
    wait(driver, lambda d: turn_so_far(d) == NO_TURN, "the marks gone with the second click")
    click_point(driver, "c3")
    click_point(driver, "a1")                            # the tower ends the turn: played
    wait(driver, lambda d: current_move(d) == "a5-c3 T@a1", "the turn played")
    wait(driver, lambda d: marks(d, ".last-captured") == {"c2": "2", "d3": "2"}, "the last move's marks")
    assert turn_so_far(driver) == NO_TURN
    assert not console_errors(driver)


def test_claim_legend_counts_in_words(page, tmp_path):
    """The legend read "towers 1 on the island" and, short, "1 towers"."""
    driver = page
    path = tmp_path / "tower.json"
    position = dict(CHAIN, board=[". . . . 2 T1", *CHAIN["board"][1:]])       # colour 1: one tower
    path.write_text(json.dumps(position))
    load_position(driver, path)
    legend = script(driver, "return Array.from(document.querySelectorAll('#board text[data-short]'),"
                            " t => [t.dataset.short, t.parentElement.querySelector('title').textContent])")
    assert legend[0] == ["colour 1: 3 Vikings, 15 lost; 1 tower, 2 in hand",
                         "colour 1: 3 Vikings on the island, 15 lost; 1 tower on the island, 2 in hand"], legend
    assert legend[1][0] == "colour 2: 9 Vikings, 9 lost; 0 towers, 3 in hand", legend


def test_claim_first_click_on_an_occupied_point(page):
    driver = page
    load_position(driver, SEEDS / "claim/settle-2p.json")
    click_point(driver, "c3")
    click_point(driver, "d5")
    wait(driver, lambda d: "settles Vikings on c3 and d5" in last_move(d), "the settle said")
    assert marks(driver, ".last-placed") == {"c3": "", "d5": ""}
    click_point(driver, "c3")
    wait(driver, lambda d: "c3 is occupied (a Viking of colour 1)" in message(d), "the reason c3 is refused")
    # no second point was made up for it
    assert "+?" in message(driver)
    # the play phase: an opponent's Viking is not a start
    load_position(driver, SEEDS / "claim/play-2p.json")
    click_point(driver, "d3")
    wait(driver, lambda d: "d3 holds a Viking of colour 2, not yours" in message(d), "the reason d3 is refused")


def test_claim_it_highlights_roll_stop_and_illegal_click(page, shots):
    driver = page
    load_position(driver, SEEDS / "claimit/start-3p.json")
    assert shows_words(driver, {"roll"})                 # nothing placed yet: stop is not legal
    load_position(driver, SEEDS / "claimit/mid-game-3p.json")
    assert set(legal(driver)) == {"roll", "stop"} and shows_words(driver, {"roll", "stop"})
    assert not driver.find_elements(By.CSS_SELECTOR, "#board .legal-space")
    driver.find_element(By.ID, "dice-entry").send_keys("2,6,2")
    driver.find_element(By.XPATH, "//div[@id='actions']//button[text()='roll these']").click()
    wait(driver, lambda d: current_move(d) == "roll:2,6,2", "the typed roll")
    wait(driver, lambda d: last_move(d).startswith("Last move (player 1): roll:2,6,2 (dice 2, 6, 2"), "the roll said")
    # each legal space highlighted with the marker the roll puts there, as the legal moves say
    placements = legal(driver)
    assert placements == ["w6@2,2", "w2@2,6", "w2@6,2"]
    shown = wait(driver, lambda d: script(d, "return Object.fromEntries(Array.from("
                                             "document.querySelectorAll('#board .legal-space'), "
                                             "e => [e.dataset.space, e.dataset.markers]))"), "the highlights")
    assert shown == {"2,2": "w6", "2,6": "w2", "6,2": "w2"}
    assert shows_words(driver, set())                    # dice rolled: place a marker, no roll or stop
    click_point(driver, "1,1")
    wait(driver, lambda d: "1,1" in message(d), "the reason 1,1 is refused")
    assert message(driver) == ("Illegal: Space 1,1 is not a candidate of the roll 2, 6, 2: a marker may go on 3 "
                               "spaces (highlighted): 2,2 2,6 6,2.")
    driver.save_screenshot(str(shots / "marks-claimit-roll.png"))
    click_point(driver, "2,6")
    wait(driver, lambda d: current_move(d) == "w2@2,6", "the marker placed")
    wait(driver, lambda d: last_move(d).startswith("Last move (player 1): w2@2,6 (white 2 on space 2,6"),
         "the placement said")
    assert marks(driver, ".last-placed") == {"2,6": ""}
    assert shows_words(driver, {"roll", "stop"})
    assert not driver.find_elements(By.CSS_SELECTOR, "#board .legal-space")
    driver.save_screenshot(str(shots / "marks-claimit-placed.png"))
    assert not console_errors(driver)


def test_color_claim_move_marked_and_refusals_explained(page, shots):
    driver = page
    load_position(driver, SEEDS / "colorclaim/start-3x3-seed1.json")
    click_point(driver, "a1")
    click_point(driver, "a2")
    choice = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#actions button.move[data-move="a1xa2"]'),
                  "the choice of move")
    choice[0].click()
    wait(driver, lambda d: current_move(d) == "a1xa2", "the claim played")
    wait(driver, lambda d: "a1xa2 claims K1 (black)" in last_move(d), "the claim said")
    assert marks(driver, ".last-square") == {"a1": "", "a2": ""}
    assert marks(driver, ".last-claimed") == {"a2": "K1"}          # the pyramid claimed, drawn in the corner
    driver.save_screenshot(str(shots / "marks-colorclaim.png"))
    # b1 cannot move: a1 is empty now, and both other neighbours are player 1's, shielded by the claim
    click_point(driver, "b1")
    wait(driver, lambda d: "b1" in message(d), "the reason b1 cannot move")
    assert message(driver) == ("Illegal: the stack on b1 (B1) cannot move: b2 is player 1's, shielded by his claim; "
                               "a1 is empty; c1 is player 1's, shielded by his claim.")
    # a stack and an empty neighbour: the server's reason for that very move
    click_point(driver, "a2")
    click_point(driver, "a1")
    wait(driver, lambda d: "a1 is empty" in message(d) and "a2-a1" in message(d), "the reason a2-a1 is refused")
    assert not console_errors(driver)


# /tmp/qa-claim's safe.json: player 2 to move, and the conquest check at the turn's start takes
# territory b, so the turn is written T@d4 c2-c3 (a tower first)
TOWER_FIRST = {"game": "claim", "players": 2, "variant": "standard", "territories": QUADRANTS,
               "board": ["2 . . . . .", ". 1 . . . 2", ". . . . . .",
                         ". 1 . 1 . 1", ". . 2 . 2 .", "1 . . 2 . 2"],
               "phase": "play", "first_player": 1, "to_move": 2}


def test_claim_turn_that_starts_with_a_tower_says_so(page, tmp_path):
    driver = page
    path = tmp_path / "tower-first.json"
    path.write_text(json.dumps(TOWER_FIRST))
    load_position(driver, path)
    click_point(driver, "c2")       # four free neighbours: the tower is what is missing
    wait(driver, lambda d: message(d).startswith("Illegal"), "the reason c2 is refused")
    assert message(driver) == ("Illegal: territory b is yours at the start of this turn: first click where its "
                               "tower goes (d4, d5, d6, e4, e5, e6, f4, f6)."), message(driver)
    # the tower, then the Viking: the turn plays
    click_point(driver, "d4")
    click_point(driver, "c2")
    click_point(driver, "c3")
    wait(driver, lambda d: current_move(d) == "T@d4 c2-c3", "the turn played")


def applied(path, moves, out):
    """The position `moves` reach from the file `path`, written to `out` (claimsolve apply)."""
    done = subprocess.run([sys.executable, "-c", "from claimsolve.cli.main import main; main()", "apply", str(path),
                           moves], capture_output=True, text=True, check=True)
    out.write_text(done.stdout)
    return out


def refused(driver, *points):
    """Clicks `points`, then waits for the page to refuse the last: its message."""
    for point in points:
        click_point(driver, point)
    return wait(driver, lambda d: message(d).startswith("Illegal") and message(d), f"the refusal of {points[-1]}")


def test_claim_brawl_and_towers_refusals_say_why(page, tmp_path):
    driver = page
    # rules.brawl "even": player 2's removal leaves player 3 short; the library's reason, not the cap
    load_position(driver, applied(SEEDS / "claim/brawl-3p.json", "xi13 xi12 xj12 xk11", tmp_path / "brawl.json"))
    assert refused(driver, "k13", "l12", "i11", "g10") == (
        "Illegal: move 'xk13 xl12 xi11 xg10': after this removal player 3 could remove only 3 opposing Vikings "
        'within the cap, not 4 (rules.brawl "even": every later player of the brawl must still be able to take 4)')
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    # one point: the mover's own colour; a colour at its cap (colour 3 has lost 3)
    assert refused(driver, "g11") == "Illegal: g11 is your own Viking (colour 2): remove opposing Vikings."
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    threes = [name for name, token in script(driver, "return Array.from(window.claimsolveBoard.state.layout.points,"
                                                     " ([n, p]) => [n, window.claimsolveBoard.state.layout.grid"
                                                     ".board[p.r][p.c]])") if token == "3"]
    assert refused(driver, *threes[:2]) == "Illegal: colour 3 has lost 3 Vikings: the brawl cap of 4 allows 1 more, 2 given."
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    # the towers phase: territory d holds Vikings of both colours
    load_position(driver, SEEDS / "claim/towers-2p.json")
    assert refused(driver, "g4").startswith("Illegal: no tower goes on g4: territory d holds opposing Vikings: ")


def test_claim_wrong_click_mid_turn_keeps_the_turn(page, tmp_path):
    driver = page
    # /tmp/qa-claim's shore.json: player 1 to move; b5-b6 conquers territory a, a tower then due
    path = tmp_path / "shore.json"
    path.write_text(json.dumps({**TOWER_FIRST, "to_move": 1}))
    load_position(driver, path)
    click_point(driver, "b5")
    click_point(driver, "b6")
    wait(driver, lambda d: message(d) == "b5-b6 conquers territory a: click where its tower goes "
                                        "(a4, a5, a6, b4, b5, c4, c5, c6).", "the tower asked for")
    assert refused(driver, "e5") == ("Illegal: after b5, b6 the turn does not go on at e5: b5-b6 conquers "
                                     "territory a: click where its tower goes (a4, a5, a6, b4, b5, c4, c5, c6).")
    # the clicks before the refused one stay chosen: the tower's click ends the turn
    assert script(driver, "return window.claimsolveBoard.state.clicks") == ["b5", "b6"]
    click_point(driver, "a4")
    wait(driver, lambda d: current_move(d) == "b5-b6 T@a4", "the turn played")
    # a brawl's whole removal refused keeps the removals clicked before
    load_position(driver, applied(SEEDS / "claim/brawl-3p.json", "xi13 xi12 xj12 xk11", tmp_path / "brawl.json"))
    refused(driver, "k13", "l12", "i11", "g10")
    assert script(driver, "return window.claimsolveBoard.state.clicks") == ["k13", "l12", "i11"]
