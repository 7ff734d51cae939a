"""A game reviewed on the analysis board in a real browser (the fixtures of
test_page.py), as a lichess player reads a review.  The engine is switched
off: the review alone works the server.

Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import json
import math

import pytest

import claimsolve
from claimsolve import records
from claimsolve.match import run_match
from claimsolve.positions import from_dict
from claimsolve.render.style import CHARTS, MARKS

from .browser import SKIP, ActionChains, By, Keys, Select, browser, message, server, shots, wait  # noqa: F401
from .test_page import board_ready, console_errors, downloaded_json, load_file

pytestmark = [SKIP, pytest.mark.slow]

# a Color Claim 3x3 game (docs/review.md's: random against alpha-beta), the exact solver's in a
# review: player 1's c1-c2 and b3xa3 are mistakes, each losing 3 points (a3xb3, a2xa1 were best)
START = claimsolve.new("colorclaim", size="3x3", seed=1)
MOVES = ["c1-c2", "b1xb2", "b3xa3", "a2-a3", "c2xc3"]
# as a player keeps it: who played, what was said, and its result
META = {"record": 1, "game": "colorclaim", "start": START.to_json(), "players": ["you", "alphabeta:depth=2"],
        "moves": [{"move": "c1-c2", "comment": "I wanted the black"}] + MOVES[1:],
        "result": {"points": [0.0, 1.0], "winners": [2]},
        "comment": "club night, game 1", "event": "Club", "date": "2024-05-01"}


def script(driver, text, *args):
    return driver.execute_script(text, *args)


@pytest.fixture(scope="module")
def page(server, browser):
    browser.get(server)
    wait(browser, board_ready, "the first board")
    box = browser.find_element(By.ID, "engine-on")
    if box.is_selected():
        box.click()
    return browser


def load(driver, tmp_path, record, name):
    path = tmp_path / name
    path.write_text(json.dumps(record) + "\n")
    load_file(driver, path)
    wait(driver, lambda d: message(d).startswith(f"Loaded {name}") and board_ready(d), f"{name} loaded")


def reviewed(driver, time="1"):
    """The main line reviewed at `time` s a position: the review's result.
    (The 3x3 game's positions are proven in milliseconds, its grades exact,
    given the time: at 0.1 s a position a loaded machine left the start to
    alpha-beta, and a mistake went ungraded in a CI run.)"""
    Select(driver.find_element(By.ID, "review-time")).select_by_value(time)
    driver.find_element(By.ID, "review-button").click()
    return wait(driver, lambda d: script(d, "const r = window.claimsolveBoard.state.review; return r && r.result"),
                "the review")


def show_ply(driver, ply):
    script(driver, "const b = window.claimsolveBoard; b.goTo(b.state.review.nodes[arguments[0]])", ply)
    wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.index") == ply and board_ready(d),
         f"ply {ply} shown")


def best_said(head, result, ply):
    """The verdict at a graded move of `result` (a review's): its words, then the engine's line."""
    return f"{head} Best: {' '.join(result['moves'][ply - 1]['line'])}."


def verdict(driver):
    return script(driver, "const v = document.getElementById('review-verdict'); return v && !v.hidden && "
                          "v.textContent ? v.textContent : null")


def test_a_graded_move_shows_the_better_move_on_the_board_and_in_words(page, tmp_path, shots):
    """At a mistake the engine's best move was only in a tooltip, and the
    arrow on the board the live engine's for the next move: as on lichess,
    the better move is drawn in the position before it, in a colour of its
    own, and a line under the board says "Mistake (-3 points, exact).
    a3xb3 was best."."""
    driver = page
    load(driver, tmp_path, META, "graded.json")
    result = reviewed(driver)
    assert [(m["grade"], m["best"]) for m in result["moves"] if m["grade"] == "mistake"] == \
        [("mistake", "a3xb3"), ("mistake", "a2xa1")]
    assert [m["line"][0] for m in result["moves"] if m["grade"] == "mistake"] == ["a3xb3", "a2xa1"]
    show_ply(driver, 1)
    wait(driver, lambda d: verdict(d) == best_said("Mistake (-3 points, exact).", result, 1), "the mistake said")
    drawn = script(driver, """
        const g = document.querySelector('#board #review-best .review-best');
        if (!g) return null;
        const line = g.querySelector('line'), L = window.claimsolveBoard.state.layout;
        const p = (name) => { const q = L.points.get(name); return [q.x, q.y]; };
        return {move: g.dataset.move, stroke: line.getAttribute('stroke'),
                from: [Number(line.getAttribute('x1')), Number(line.getAttribute('y1'))],
                to: [Number(line.getAttribute('x2')), Number(line.getAttribute('y2'))], a3: p('a3'), b3: p('b3')}""")
    assert drawn and drawn["move"] == "a3xb3", drawn
    # from a3 towards b3 (its head short of b3's centre), in a colour none of the engine's arrows has
    # (from a3's edge, not its centre: the line kept off the piece it moves)
    direction = [b - a for a, b in zip(drawn["a3"], drawn["b3"])]
    offset = [b - a for a, b in zip(drawn["a3"], drawn["from"])]
    start = sum(x * y for x, y in zip(direction, offset)) / sum(x * x for x in direction)
    assert 0 < start <= 0.3 and abs(direction[0] * offset[1] - direction[1] * offset[0]) < 1e-6, (direction, offset)
    drawn_way = [b - a for a, b in zip(drawn["a3"], drawn["to"])]
    along = sum(x * y for x, y in zip(direction, drawn_way)) / sum(x * x for x in direction)
    across = direction[0] * drawn_way[1] - direction[1] * drawn_way[0]
    assert 0.5 < along < 1 and abs(across) < 1e-6, (direction, drawn_way)
    assert drawn["stroke"] == MARKS["better"] and drawn["stroke"] not in MARKS["line"]
    driver.save_screenshot(str(shots / "review-mistake-better-move.png"))
    # the engine's own move (ply 2): nothing drawn, nothing said
    show_ply(driver, 2)
    wait(driver, lambda d: verdict(d) is None, "no words at the best move")
    assert not script(driver, "return document.querySelectorAll('#board #review-best *').length")
    # turned round, the arrow is drawn on the board turned
    show_ply(driver, 3)
    driver.find_element(By.ID, "flip-button").click()
    try:
        wait(driver, lambda d: script(d, "return document.querySelector('#board #flipped #review-best "
                                         ".review-best[data-move=\"a2xa1\"]') !== null"),
             "the arrow on the board flipped")
        assert verdict(driver) == best_said("Mistake (-3 points, exact).", result, 3)
    finally:
        driver.find_element(By.ID, "flip-button").click()
    assert not console_errors(driver)


def shown_node(driver):
    return script(driver, """
        const b = window.claimsolveBoard, s = b.state, n = s.line[s.index];
        let inVariation = false;
        for (let m = n; m && m.parent; m = m.parent) if (m.parent.children[0] !== m) inVariation = true;
        return {move: n.move, position: n.position, inVariation, ply: s.index,
                parentId: n.parent ? n.parent.id : null, id: n.id,
                siblings: n.parent ? n.parent.children.map((c) => c.move) : []}""")


def test_a_click_on_the_best_line_plays_it_as_a_variation(page, tmp_path, shots):
    """As on lichess, a mistake shows the engine's whole line from the position before it, not its
    first move alone: "Best: a3xb3 a1xa2 ..."; a click plays it as a variation there and shows its first
    move's position, the right arrow stepping through the rest; a second click goes to the same
    variation.  A record saved before lines were kept still says "a3xb3 was best.", no button."""
    driver = page
    load(driver, tmp_path, META, "best-line.json")
    result = reviewed(driver)
    line = result["moves"][0]["line"]
    assert line[0] == "a3xb3" and len(line) > 2, line
    show_ply(driver, 1)
    wait(driver, lambda d: verdict(d) == best_said("Mistake (-3 points, exact).", result, 1), "the best line said")
    button = driver.find_element(By.CSS_SELECTOR, "#review-verdict button.best-line")
    assert button.text == " ".join(line)
    driver.save_screenshot(str(shots / "review-best-line.png"))
    before = shown_node(driver)
    button.click()
    wait(driver, lambda d: shown_node(d)["move"] == "a3xb3" and board_ready(d), "the line's first move shown")
    node = shown_node(driver)
    assert node["inVariation"] and node["ply"] == 1 and node["siblings"] == ["c1-c2", "a3xb3"], node
    assert node["parentId"] == before["parentId"]           # from the position before the mistake
    assert from_dict(node["position"]) == START.play("a3xb3")
    # the move list holds it as a variation: "(1. a3xb3 2. a1xa2 ...)"
    shown = script(driver, "return Array.from(document.querySelectorAll('#move-list .variation .move'),"
                           " e => e.dataset.label)")
    assert shown == line, shown
    driver.save_screenshot(str(shots / "review-best-line-variation.png"))
    # the right arrow steps through the line
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    wait(driver, lambda d: shown_node(d)["move"] == line[1] and board_ready(d), "the line's second move")
    assert from_dict(shown_node(driver)["position"]) == START.play(line[0]).play(line[1])
    # a second click: the same variation, nothing added
    show_ply(driver, 1)
    driver.find_element(By.CSS_SELECTOR, "#review-verdict button.best-line").click()
    wait(driver, lambda d: shown_node(d)["move"] == "a3xb3" and board_ready(d), "the variation again")
    assert shown_node(driver)["id"] == node["id"] and shown_node(driver)["siblings"] == ["c1-c2", "a3xb3"]
    # the review stays open: the main line is the one reviewed
    assert script(driver, "return window.claimsolveBoard.state.review.result !== null")
    # a record whose grades have no line: the best move in words, no button
    load(driver, tmp_path, GRADED, "no-line.json")
    script(driver, "const b = window.claimsolveBoard; b.goTo(b.mainLine()[1])")
    wait(driver, lambda d: verdict(d) == "Mistake (-3 points, exact). a3xb3 was best.", "no line, the move")
    assert not driver.find_elements(By.CSS_SELECTOR, "#review-verdict button.best-line")
    assert not console_errors(driver)


def test_claim_it_two_players_by_win_chance_draws_a_line_per_seat(page, tmp_path, shots):
    """A Claim It! review of 2 players drew player 1's line alone, as though
    player 2's were its mirror, where the net's values of the two seats
    do not add up to 1 (0.473 and 0.426 at the start of the QA tester's
    game): a line per seat, as with 3 players; Color Claim's margins that do
    mirror stay one line."""
    driver = page
    game = run_match("claimit", "threshold:3", "random", 1, players=2, seed=11).records[0]
    record = records.GameRecord.from_moves(from_dict(game.start), game.moves[:20], players=["threshold:3", "random"])
    load(driver, tmp_path, record.to_json(), "claimit-2p.json")
    result = reviewed(driver, "0.1")
    assert result["graph"] == "chance" and result["mirrored"] is False
    # the record the board saves names the measure of its grades (it was loaded in the default's unit)
    saved_moves = script(driver, "return window.claimsolveBoard.recordJson().moves")
    assert {m["eval"]["objective"] for m in saved_moves if isinstance(m, dict) and "eval" in m} == \
        {result["objective"]}, saved_moves[:3]
    assert any(abs(sum(row) - 1) > 0.01 for row in result["evals"])
    seats = script(driver, "return Array.from(document.querySelectorAll('#review-graph path.evaluation'),"
                           " p => p.dataset.seat)")
    assert seats == ["1", "2"]
    # its axis: the win chance at the top, the middle and the bottom
    assert [label["text"] for label in axis_labels(driver)] == ["100%", "50%", "0%"]
    keys = script(driver, "return Array.from(document.querySelectorAll('#review-legend .seat-key'),"
                          " k => k.textContent)")
    assert keys == ["player 1", "player 2"]
    legend = driver.find_element(By.ID, "review-legend").text
    # the unit named once (it read "player 1's win chance after every ply (win chance)")
    assert legend.startswith("each player's win chance after every ply;") and "(win chance)" not in legend
    driver.save_screenshot(str(shots / "review-claimit-2p-lines.png"))
    load(driver, tmp_path, META, "mirrored.json")
    result = reviewed(driver)
    assert result["mirrored"] is True
    assert script(driver, "return document.querySelectorAll('#review-graph path.evaluation').length") == 1
    assert driver.find_element(By.ID, "review-legend").text.startswith(
        "player 1's margin after every ply (points);")
    assert not console_errors(driver)


def saved(driver):
    """The record Save game writes (the downloads emptied first)."""
    for path in driver.downloads.glob("*"):
        path.unlink()
    driver.find_element(By.ID, "save-game-button").click()
    return wait(driver, lambda d: downloaded_json(d, "colorclaim-game*.json"), "the saved game")


def test_save_game_keeps_what_the_loaded_record_had(page, tmp_path):
    """Save game dropped the loaded record's players, comment, event and date,
    and wrote a finished game's result null: all that still holds is kept,
    the result while the main line is the one loaded; a game whose moves
    changed gets the reader's result of its final position.  The review's
    summary names the players as the command line does."""
    driver = page
    load(driver, tmp_path, META, "meta.json")
    record = saved(driver)
    for key in ("players", "comment", "event", "date", "result"):
        assert record.get(key) == META[key], (key, record.get(key))
    assert record["moves"] == META["moves"]
    reviewed(driver)
    rows = script(driver, "return Array.from(document.querySelectorAll('#review-summary tbody tr'),"
                          " r => r.children[0].textContent)")
    assert rows == ["Player 1 (you)", "Player 2 (alphabeta:depth=2)"]
    # the last move deleted: not over, no result; the rest kept
    script(driver, "const b = window.claimsolveBoard; b.goTo(b.mainLine()[5]); b.deleteFromHere()")
    wait(driver, lambda d: script(d, "return window.claimsolveBoard.mainLine().length") == 5, "the move deleted")
    record = saved(driver)
    assert record["result"] is None and record["event"] == "Club" and record["players"] == META["players"]
    # played again: the main line loaded, its result again
    script(driver, "window.claimsolveBoard.playMove('c2xc3')")
    wait(driver, lambda d: script(d, "return window.claimsolveBoard.mainLine().length") == 6, "c2xc3 played")
    assert saved(driver)["result"] == META["result"]
    # a game played here to its end: the reader's result (it was null)
    load(driver, tmp_path, {"record": 1, "start": START.to_json(), "moves": []}, "empty.json")
    for move in MOVES:
        count = script(driver, "return window.claimsolveBoard.mainLine().length")
        script(driver, "window.claimsolveBoard.playMove(arguments[0])", move)
        wait(driver, lambda d: script(d, "return window.claimsolveBoard.mainLine().length") == count + 1
             and board_ready(d), f"{move} played")
    record = saved(driver)
    assert record["result"] == {"points": [0.0, 1.0], "winners": [2]}
    assert "players" not in record and "event" not in record
    assert not console_errors(driver)


def test_the_review_says_where_the_servers_cap_cut_its_time(page, tmp_path):
    """"review 1 s" ran 0.269 s a position on a 108-move game, the status
    saying only "Reviewed 108 moves in 29.54 s": the cut is said, while it
    runs and after (this server's cap is 5 s: 6 positions at 0.816 s)."""
    driver = page
    load(driver, tmp_path, META, "cut.json")
    Select(driver.find_element(By.ID, "review-time")).select_by_value("1")
    running = script(driver, "document.getElementById('review-button').click();"
                             "return document.getElementById('review-status').textContent")
    assert running == ("Reviewing 5 moves at up to 0.82 s a position (cut from 1 s to fit this server's 5 s cap)...")
    wait(driver, lambda d: script(d, "const r = window.claimsolveBoard.state.review; return r && r.result"),
         "the review")
    status = driver.find_element(By.ID, "review-status").text
    assert status.startswith("Reviewed 5 moves in ") and \
        " at up to 0.82 s a position (cut from 1 s to fit this server's 5 s cap); 5 exact. Values: points" in status, status
    result = script(driver, "return window.claimsolveBoard.state.review.result")
    assert result["time_per_move"] == 0.816
    # within the cap: nothing cut, nothing said of it
    status = reviewed(driver, "0.3") and driver.find_element(By.ID, "review-status").text
    assert " at up to 0.3 s a position; 5 exact." in status and "cut" not in status, status


def test_a_new_review_leaves_nothing_of_the_one_before(page, tmp_path):
    """Reviewing a Claim It! game right after a Color Claim one, the legend
    under the empty graph still read "player 1's margin after every ply
    (points)" while the new review ran."""
    driver = page
    load(driver, tmp_path, META, "first.json")
    reviewed(driver)
    assert driver.find_element(By.ID, "review-legend").text.startswith("player 1's margin")
    game = run_match("claimit", "threshold:3", "random", 1, players=2, seed=11).records[0]
    second = records.GameRecord.from_moves(from_dict(game.start), game.moves[:30])
    load(driver, tmp_path, second.to_json(), "second.json")
    shown = script(driver, "document.getElementById('review-button').click();"
                           "return ['review-legend', 'review-graph', 'review-summary'].map("
                           "id => document.getElementById(id).textContent)")
    assert shown == ["", "", ""], shown
    driver.find_element(By.ID, "review-button").click()            # Stop review
    wait(driver, lambda d: "Review stopped" in message(d), "the review stopped")


def test_the_summarys_counts_go_to_the_moves_and_the_graph_says_each_ply(page, tmp_path, shots):
    """As on lichess, a player's count of inaccuracies, mistakes or blunders
    goes to his next move of that grade (a click, or the keyboard: Tab to it,
    Enter); hovering the graph says the ply's move, its grade and value (its
    title was "ply 3" alone)."""
    driver = page
    load(driver, tmp_path, META, "counts.json")
    result = reviewed(driver)
    counts = script(driver, "return Array.from(document.querySelectorAll('#review-summary button.grade-count'),"
                            " b => [b.dataset.seat, b.dataset.grade, b.textContent])")
    assert counts == [["1", "mistake", "2"]], counts
    button = driver.find_element(By.CSS_SELECTOR, "#review-summary button.grade-count")
    index = lambda d: script(d, "return window.claimsolveBoard.state.index")      # noqa: E731
    button.click()                                       # from the game's end: round to the first
    wait(driver, lambda d: index(d) == 1, "player 1's first mistake")
    driver.find_element(By.CSS_SELECTOR, "#review-summary button.grade-count").click()
    wait(driver, lambda d: index(d) == 3, "his next one")
    # the keyboard: a button, reached with Tab, pressed with Enter
    assert script(driver, "return document.querySelector('#review-summary button.grade-count').tabIndex") == 0
    script(driver, "document.querySelector('#review-summary button.grade-count').focus()")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(driver, lambda d: index(d) == 1, "round to the first again")
    # the graph hovered: the ply's move, grade and value
    rect = driver.find_element(By.CSS_SELECTOR, '#review-graph rect.ply[data-ply="3"]')
    ActionChains(driver).move_to_element(rect).perform()
    tip = wait(driver, lambda d: script(d, "const t = document.getElementById('review-tip');"
                                           "return t.hidden ? null : t.textContent"), "the tip")
    words = f"3. P1 b3xa3: {best_said('Mistake (-3 points, exact).', result, 3)} Player 1 -6."
    assert tip == words
    assert rect.find_element(By.TAG_NAME, "title").get_attribute("textContent") == words
    assert script(driver, "return document.querySelector('#review-graph rect.ply[data-ply=\"2\"] title')"
                          ".textContent") == "2. P2 b1xb2: best. Player 1 -3."
    driver.save_screenshot(str(shots / "review-graph-hover.png"))
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "status")).perform()
    wait(driver, lambda d: script(d, "return document.getElementById('review-tip').hidden"), "the tip gone")
    assert not console_errors(driver)


def test_the_evaluation_bar_stays_in_the_window_while_a_review_is_open(page, tmp_path, shots):
    """At 1400x900 with the review panel open the bar ran as tall as the
    board and the panel together: its number's top at 770 px in a window
    757 px high.  It is as tall as the board beside it."""
    driver = page
    size = driver.get_window_size()
    driver.set_window_size(1400, 900)
    try:
        load(driver, tmp_path, META, "bar.json")
        reviewed(driver)
        show_ply(driver, 5)                 # the game over: the bar says "lost" (the engine is off)
        script(driver, "window.scrollTo(0, 0)")
        box = wait(driver, lambda d: script(d, """
            const text = document.getElementById('eval-text'), bar = document.getElementById('eval-bar');
            const wrap = document.getElementById('board-wrap').getBoundingClientRect();
            if (!text.textContent) return null;
            return {text: text.getBoundingClientRect().bottom, bar: bar.getBoundingClientRect().bottom,
                    wrap: wrap.bottom, window: window.innerHeight}"""), "the bar's number")
        driver.save_screenshot(str(shots / "review-eval-bar-1400x900.png"))
        assert box["text"] <= box["window"], box
        assert box["bar"] <= box["wrap"] + 1, box
    finally:
        driver.set_window_size(size["width"], size["height"])


AXIS = """
    const svg = document.getElementById('review-graph'), box = svg.getBoundingClientRect();
    const plot = svg.querySelector('rect.ground').getBoundingClientRect();
    return Array.from(svg.querySelectorAll('.axis text'), t => {
        const r = t.getBoundingClientRect();
        return {text: t.textContent, top: r.top - box.top, bottom: r.bottom - box.top, left: r.left - box.left,
                right: r.right - box.left, height: r.height, plot: plot.left - box.left, graph: box.height};
    });"""


def axis_labels(driver):
    return script(driver, AXIS)


def assert_legible_axis(labels, texts):
    """The axis's labels `texts` top to bottom, whole within the graph, left of its plot, at least
    10 CSS px tall (the board's LEGIBLE) and none over another."""
    assert [label["text"] for label in labels] == texts, labels
    for label in labels:
        assert label["height"] >= 10, label
        assert label["left"] >= 0 and label["right"] <= label["plot"], label
        assert label["top"] >= -1 and label["bottom"] <= label["graph"] + 1, label
    for upper, lower in zip(labels, labels[1:]):
        assert upper["bottom"] <= lower["top"] + 1, (upper, lower)


def test_the_review_graph_says_its_values_on_an_axis(page, tmp_path, shots):
    """The board's review graph had no axis: a line that rose and fell, its values only in the
    tooltips.  As review --svg labels it, the value at the top, the middle and the bottom in the
    review's unit (+N, 0, -N points; 100%, 50%, 0% of a win chance), legible on a desktop and on
    a phone."""
    driver = page
    size = driver.get_window_size()
    load(driver, tmp_path, META, "axis.json")
    result = reviewed(driver)
    assert result["graph"] == "margin"
    values = [v for row in result["evals"] for v in row if v is not None]
    bound = max(1, math.ceil(max(abs(v) for v in values)))
    assert_legible_axis(axis_labels(driver), [f"+{bound}", "0", f"-{bound}"])
    assert "points" in script(driver, "return document.querySelector('#review-graph .axis title').textContent")
    driver.save_screenshot(str(shots / "review-axis-desktop.png"))
    driver.set_window_size(390, 844)             # a phone's width: the graph drawn anew by a review
    try:
        result = reviewed(driver)
        script(driver, "document.getElementById('review-graph').scrollIntoView()")
        assert_legible_axis(axis_labels(driver), [f"+{bound}", "0", f"-{bound}"])
        driver.save_screenshot(str(shots / "review-axis-phone.png"))
    finally:
        driver.set_window_size(size["width"], size["height"])
    assert not console_errors(driver)


# the record review --save writes of the game above: its grades ("eval") and no unit
GRADED = {"record": 1, "game": "colorclaim", "start": START.to_json(), "moves": [
    {"move": "c1-c2", "eval": {"best": "a3xb3", "before": 0.0, "after": -3.0, "loss": 3.0, "grade": "mistake",
                               "exact": True}},
    "b1xb2",
    {"move": "b3xa3", "eval": {"best": "a2xa1", "before": -3.0, "after": -6.0, "loss": 3.0, "grade": "mistake",
                               "exact": True}},
    "a2-a3", "c2xc3"]}


def test_a_records_grades_say_their_losses_unit_as_a_review_does(page, tmp_path, shots):
    """A record loaded with review --save's grades and not reviewed here said its losses without
    a unit: "Mistake (-3, exact)." under the board, "loss 3" in the move's tooltip, where the
    review says "-3 points".  They say the unit of the game's review."""
    driver = page
    load(driver, tmp_path, GRADED, "graded-saved.json")
    assert script(driver, "return window.claimsolveBoard.state.review") is None
    script(driver, "const b = window.claimsolveBoard; b.goTo(b.mainLine()[1])")
    wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.index") == 1 and board_ready(d), "ply 1")
    wait(driver, lambda d: verdict(d) == "Mistake (-3 points, exact). a3xb3 was best.", "the mistake in points")
    title = script(driver, "return document.querySelector('#move-list li.current').title")
    assert "mistake: loss 3 points; the engine's a3xb3 (exact)" in title, title
    driver.save_screenshot(str(shots / "record-grades-unit.png"))
    # the same words as the review's own
    result = reviewed(driver)
    show_ply(driver, 3)
    wait(driver, lambda d: verdict(d) == best_said("Mistake (-3 points, exact).", result, 3), "the review's words")
    assert not console_errors(driver)


def bar_state(driver):
    return script(driver, "return {text: document.getElementById('eval-text').textContent,"
                          " fill: document.getElementById('eval-fill').style.height,"
                          " title: document.getElementById('eval-bar').title,"
                          " seat: document.getElementById('eval-seat').textContent}")


def test_the_evaluation_bar_shows_the_reviews_value_with_the_engine_off(page, tmp_path, shots):
    """With the engine off the bar stayed empty at 50% on every reviewed ply while the graph and the
    verdict showed the value; lichess's gauge shows the server analysis.  The bar shows the review's
    value at the ply shown, in its unit, its tooltip saying it is the review's, proven or not, and
    how it was found; flipped, the other seat's."""
    driver = page
    load(driver, tmp_path, META, "bar-review.json")
    result = reviewed(driver)
    for ply in (1, 3):
        show_ply(driver, ply)
        value = result["evals"][ply][0]
        shown = wait(driver, lambda d: bar_state(d)["text"] and bar_state(d), f"the bar at ply {ply}")
        assert shown["text"] == (f"{value:+d}" if value else "0"), (ply, shown, value)
        assert shown["fill"] != "50%" and float(shown["fill"].rstrip("%")) < 50, shown
        assert shown["seat"] == "P1"
        assert shown["title"].startswith("Evaluation for player 1") and \
            f": the review's value at this ply (the live engine is off), {shown['text']} points (proven, by exact " \
            "solver)" in shown["title"], shown["title"]
        assert result["evals_exact"][ply] is True       # "proven" is the position's own (evals_exact)
    driver.save_screenshot(str(shots / "review-eval-bar-engine-off.png"))
    driver.find_element(By.ID, "eval-flip").click()
    try:
        flipped = wait(driver, lambda d: bar_state(d)["seat"] == "P2" and bar_state(d), "the bar flipped")
        assert flipped["text"] == f"{result['evals'][3][1]:+d}" and float(flipped["fill"].rstrip("%")) > 50, flipped
    finally:
        driver.find_element(By.ID, "eval-flip").click()
    # no review: the bar is empty again
    load(driver, tmp_path, {"record": 1, "start": START.to_json(), "moves": MOVES[:2]}, "plain.json")
    wait(driver, lambda d: bar_state(d)["text"] == "" and bar_state(d)["fill"] == "50%", "the bar empty")
    assert not console_errors(driver)


def test_a_reviewed_game_saved_and_loaded_again_shows_its_review(page, tmp_path, shots):
    """Reviewed, saved with Save game, the page reloaded and the file loaded: the ?!/?/?? marks and
    the verdicts came back, but the review panel (graph and per-player summary) stayed hidden until
    Review was run again.  The record's grades make the panel: the same graph, summary and bar."""
    driver = page
    load(driver, tmp_path, META, "to-save.json")
    result = reviewed(driver)
    heights = ("return Array.from(document.querySelector('#review-graph path.evaluation').getAttribute('d')"
               ".matchAll(/,([-0-9.]+)/g), m => m[1])")     # (its width is the panel's, which a scroll bar changes)
    graph = script(driver, heights)
    summary = driver.find_element(By.ID, "review-summary").text
    record = saved(driver)
    assert all(isinstance(m, dict) and m["eval"]["method"] == "exact solver" for m in record["moves"]), record
    driver.get(driver.current_url)
    wait(driver, board_ready, "the page reloaded")
    if driver.find_element(By.ID, "engine-on").is_selected():
        driver.find_element(By.ID, "engine-on").click()
    load(driver, tmp_path, record, "reloaded.json")
    wait(driver, lambda d: d.find_element(By.ID, "review-panel").is_displayed(), "the review panel")
    assert script(driver, heights) == graph
    assert driver.find_element(By.ID, "review-summary").text == summary
    assert driver.find_element(By.ID, "review-status").text.startswith("Review loaded with the record: 5 moves graded")
    assert script(driver, "return Array.from(document.querySelectorAll('#review-summary button.grade-count'),"
                          " b => b.dataset.grade)") == ["mistake"]
    show_ply(driver, 3)
    wait(driver, lambda d: verdict(d) == best_said("Mistake (-3 points, exact).", result, 3), "the verdict")
    assert bar_state(driver)["text"] == f"{result['evals'][3][0]:+d}"
    driver.save_screenshot(str(shots / "review-saved-reloaded.png"))
    # a Review here grades it again
    assert reviewed(driver)["moves"] == result["moves"]
    assert not console_errors(driver)


def inner_size(driver, width, height):
    """The window sized so that the page's viewport is `width` x `height` CSS px."""
    driver.set_window_size(width, height)
    inner = script(driver, "return [innerWidth, innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def test_the_summarys_counts_are_in_sight_without_scrolling_sideways(page, tmp_path, shots):
    """The summary table was cut: at 1280x800 in a Claim It! review its "decisions" column showed as
    "d" behind a sideways scroll bar; at 390x844 only player, moves and mean loss were in sight, the
    counts of inaccuracies, mistakes and blunders (the buttons that go to them) out of it; at 844x390
    the blunder and exact columns were cut.  Short headers (their names in titles) and narrow
    numbers: every column in sight."""
    driver = page
    size = driver.get_window_size()
    game = run_match("claimit", "threshold:3", "random", 1, players=2, seed=11).records[0]
    record = records.GameRecord.from_moves(from_dict(game.start), game.moves[:30], players=["threshold:3", "random"])
    load(driver, tmp_path, record.to_json(), "claimit-summary.json")
    reviewed(driver, "0.1")
    heads = script(driver, "return Array.from(document.querySelectorAll('#review-summary th'),"
                           " t => [t.textContent, t.title])")
    assert [h[0] for h in heads] == ["player", "moves", "loss", "best", "good", "?!", "?", "??", "exact", "dice",
                                     "dec.", "rest"], heads
    assert dict(heads)["??"] == "blunders" and dict(heads)["dec."].startswith("decisions")
    # what dice and decisions leave of the player's change over the game (the command line's "the other")
    assert dict(heads)["rest"].endswith("(end - start - dice - decisions)")
    try:
        for width, height in ((1280, 800), (390, 844), (844, 390)):
            inner_size(driver, width, height)
            script(driver, "document.getElementById('review-summary').scrollIntoView({block: 'center'})")
            box = wait(driver, lambda d: script(d, """
                const s = document.getElementById('review-summary'), r = s.getBoundingClientRect();
                const cells = Array.from(s.querySelectorAll('th, td'), c => c.getBoundingClientRect());
                return {scroll: s.scrollWidth, client: s.clientWidth, left: r.left, right: r.right,
                        cells: cells.map(c => [c.left, c.right]), window: innerWidth}"""), "the summary measured")
            driver.save_screenshot(str(shots / f"review-summary-{width}x{height}.png"))
            assert box["scroll"] <= box["client"] + 1, (width, height, box["scroll"], box["client"])
            assert all(box["left"] - 1 <= a and b <= box["right"] + 1 for a, b in box["cells"]), (width, height, box)
    finally:
        driver.set_window_size(size["width"], size["height"])
    assert not console_errors(driver)


# the QA player's Color Claim game (cc.jsonl, game 1): a1-a2 throws a proven win (+1) into a loss (-1),
# a loss of 2 points under thresholds of 1/3/6, graded a blunder; c3xb3 loses 1 point
THROWN = {"record": 1, "game": "colorclaim", "start": {
    "game": "colorclaim", "board": ["K3 R2 K1 R1", "Y3 B1 G2 B2", "Y1 B1 G3 R3"], "to_move": 1,
    "claims": [None, None], "shield": None}, "players": ["random", "mcts:iterations=200"],
    "moves": ["a1-a2", "b1-b2", "d1-c1", "c3xb3", "a3-b3", "c2-d2", "b2-b3", "d3-d2"]}


def test_a_grade_beyond_the_thresholds_says_why_and_one_point_is_singular(page, tmp_path, shots):
    """"Blunder (-2 points, exact). d2xd3 was best." under thresholds of 1/3/6 was never explained
    on the board (a proven win thrown into a loss is always a blunder: the command line says so in a
    Note): the verdict and the move's tooltip say why, the legend gives the thresholds and the rule.
    A loss of 1 read "Inaccuracy (-1 points, exact)", "loss 1 points": singular."""
    driver = page
    load(driver, tmp_path, THROWN, "thrown.json")
    result = reviewed(driver, "0.3")
    assert [(m["grade"], m["loss"]) for m in result["moves"][:4]] == \
        [("blunder", 2), ("blunder", 3), ("blunder", 7), ("inaccuracy", 1)], result["moves"][:4]
    show_ply(driver, 1)
    assert result["moves"][0]["line"][0] == "d2xd3"
    wait(driver, lambda d: verdict(d) == best_said("Blunder (-2 points: a won game now lost, exact).", result, 1),
         "the blunder explained")
    title = script(driver, "return document.querySelector('#move-list li.current').title")
    assert "blunder: loss 2 points (a won game now lost: a blunder whatever the loss)" in title, title
    driver.save_screenshot(str(shots / "review-blunder-why.png"))
    show_ply(driver, 3)                 # a loss of 7: a blunder by the thresholds, nothing more said
    wait(driver, lambda d: (verdict(d) or "").startswith("Blunder (-7 points, exact)."), "a plain blunder")
    show_ply(driver, 4)
    wait(driver, lambda d: (verdict(d) or "").startswith("Inaccuracy (-1 point, exact)."), "one point")
    title = script(driver, "return document.querySelector('#move-list li.current').title")
    assert "inaccuracy: loss 1 point;" in title, title
    legend = driver.find_element(By.ID, "review-legend").text
    assert "Graded by the loss: an inaccuracy from 1 point, a mistake from 3, a blunder from 6; a move that " \
           "turns a proven win into a draw or loss, or a draw into a loss, is a mistake at least; a win turned " \
           "into a loss is a blunder." in legend, legend
    assert not console_errors(driver)


def test_the_graphs_grade_dots_are_ringed_apart_from_the_seats_lines(page, tmp_path):
    """As in review --svg, a grade's dot on the board's graph was a colour close to a seat's line
    (a mistake's orange on Color Claim's player 1): each dot is ringed in style.charts.grade_ring."""
    driver = page
    load(driver, tmp_path, META, "rings.json")
    reviewed(driver)
    dots = script(driver, "return Array.from(document.querySelectorAll('#review-graph circle.grade'),"
                          " c => c.getAttribute('stroke'))")
    assert dots == [CHARTS["grade_ring"]] * 2, dots


def tap(driver, x, y):
    for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_a_tap_on_the_graph_leaves_no_tip_behind(page, tmp_path, shots):
    """On a touch screen (844x390, touch emulated) a tap on the graph left its dark tip over the top
    of the graph: it goes as the tap moves to the ply, and a tap elsewhere takes it too."""
    driver = page
    size = driver.get_window_size()
    load(driver, tmp_path, META, "tap.json")
    reviewed(driver)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        inner_size(driver, 844, 390)
        script(driver, "document.getElementById('review-graph').scrollIntoView({block: 'center'})")
        at = script(driver, "const r = document.querySelector('#review-graph rect.ply[data-ply=\"3\"]')"
                            ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]")
        # (whether the tap showed the tip on its way: the tap is a mouse's move and click to the page)
        script(driver, "window.tipShown = false; const t = document.getElementById('review-tip');"
                       "new MutationObserver(() => { if (!t.hidden) window.tipShown = true; })"
                       ".observe(t, {attributes: true})")
        tap(driver, *at)
        wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.index") == 3, "the tap's ply")
        wait(driver, lambda d: script(d, "return document.getElementById('review-tip').hidden"), "the tip gone")
        assert script(driver, "return window.tipShown")
        driver.save_screenshot(str(shots / "review-graph-after-tap-844x390.png"))
        # a tip shown (as a mouse shows it), then a tap elsewhere: gone
        script(driver, "const t = document.getElementById('review-tip'); t.textContent = 'x'; t.hidden = false")
        status = script(driver, "const r = document.getElementById('review-status').getBoundingClientRect();"
                                "return [r.left + 5, r.top + 5]")
        tap(driver, *status)
        wait(driver, lambda d: script(d, "return document.getElementById('review-tip').hidden"), "gone again")
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.set_window_size(size["width"], size["height"])
    assert not console_errors(driver)
