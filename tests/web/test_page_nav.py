"""The analysis board's navigation, measured against lichess's analysis
board (the fixtures of test_page.py): the address follows the game and the
move shown, so a reload or a copied address reopens them.  The engine is
switched off: nothing here needs it.

Screenshots go to $CLAIMSOLVE_SCREENSHOTS (or a temporary folder, printed).
"""
import pytest

from .browser import SKIP, By, Keys, browser, message, server, shots, wait  # noqa: F401
from .test_page import current_move, move_list, new_game, play
from .test_page_marks import board_ready, console_errors, script

pytestmark = [SKIP, pytest.mark.slow]


def engine_off(driver):
    box = driver.find_element(By.ID, "engine-on")
    if box.is_selected():
        box.click()


@pytest.fixture(scope="module")
def page(server, browser):
    browser.get(server)
    wait(browser, board_ready, "the first board")
    engine_off(browser)
    return browser


def shown(driver):
    return script(driver, "return window.claimsolveBoard.state.index")


def address_at(driver, at):
    """Waits for the address to hold the game with the move `at` shown."""
    wait(driver, lambda d: "#game=" in d.current_url and d.current_url.endswith(f"&at={at}"), f"the address at {at!r}")
    return driver.current_url


def a_game_with_a_variation(driver):
    """Color Claim 3x3 seed 1: a1xa2 c1xb1, and c3xc2 a variation of c1xb1,
    the variation shown."""
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    play(driver, "c1xb1")
    driver.find_element(By.ID, "undo-button").click()
    wait(driver, lambda d: current_move(d) == "a1xa2", "a1xa2 shown")
    play(driver, "c3xc2")
    assert move_list(driver) == ["start", "a1xa2", "c1xb1", "(c3xc2)"]


def test_the_address_follows_the_game_and_a_reload_reopens_it(page, server):
    """The game went into the address only when Link was pressed; a reload
    lost it (after asking).  Now every move and every step writes it, without
    a history entry each."""
    driver = page
    entries = script(driver, "return history.length")
    a_game_with_a_variation(driver)
    address_at(driver, "0.1")                          # the variation's move: the second child of a1xa2
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)        # back to a1xa2
    wait(driver, lambda d: current_move(d) == "a1xa2", "a1xa2 shown")
    address_at(driver, "0")
    assert script(driver, "return history.length") == entries          # replaced, never pushed
    driver.refresh()
    wait(driver, lambda d: board_ready(d) and move_list(d) == ["start", "a1xa2", "c1xb1", "(c3xc2)"],
         "the game again after the reload")
    assert current_move(driver) == "a1xa2" and shown(driver) == 1
    engine_off(driver)
    # a copied address, opened anew: the same game at the variation's move
    driver.find_element(By.CSS_SELECTOR, "#move-list .variation .move").click()
    link = address_at(driver, "0.1")
    driver.get("about:blank")
    driver.get(link)
    wait(driver, lambda d: board_ready(d) and current_move(d) == "c3xc2", "the variation's move of the address")
    assert move_list(driver) == ["start", "a1xa2", "c1xb1", "(c3xc2)"]
    engine_off(driver)
    # Link: the address as it is, and its length
    driver.find_element(By.ID, "link-button").click()
    wait(driver, lambda d: "The address holds this game and move" in message(d), "Link's words")
    assert driver.current_url == link
    assert not console_errors(driver)


def press(driver, *keys):
    """Keys sent to the page (the body), as a player presses them."""
    driver.find_element(By.TAG_NAME, "body").send_keys(*keys)


def at(driver, path):
    """Waits for the move shown to be the node at `path` (the child taken
    at each step from the start: "" the start, "1" its second child)."""
    def there(d):
        return d.execute_script("const b = window.claimsolveBoard; let n = b.state.line[0];"
                                "for (const k of arguments[0]) n = n && n.children[k];"
                                "const shown = b.state.line[b.state.index];"
                                "return n === shown && Boolean(shown.tokens)",
                                [int(k) for k in path.split(".") if k])
    wait(driver, there, f"the move at {path!r} shown")


def fork(driver):
    """The fork box: its moves, and the one chosen."""
    return script(driver, "const box = document.getElementById('fork'); if (!box || box.hidden) return null;"
                          "return Array.from(box.querySelectorAll('button'), b => (b.classList.contains('chosen')"
                          " ? '*' : '') + b.textContent)")


def test_keys_as_on_lichess(page, shots):
    """Left/Right, Home/End only: no way to choose a variation, to step
    between lines or from fork to fork without the mouse.  As on lichess:
    up/down choose at a fork (else the first/last move), shift+left/right go
    from fork to fork, shift+up/down to the line beside; j/k, 0/$, f, ?."""
    driver = page
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    play(driver, "c1xb1")
    third = script(driver, "const s = window.claimsolveBoard.state; return s.line[s.index].legal[0]")
    play(driver, third)
    # a variation at the start (c3xc2), one after a1xa2 (c3xc2 too)
    driver.find_element(By.CSS_SELECTOR, "#move-list li.start").click()
    at(driver, "")
    play(driver, "c3xc2")
    driver.find_element(By.CSS_SELECTOR, '#move-list li[data-label="a1xa2"]').click()
    at(driver, "0")
    play(driver, "c3xc2")
    assert move_list(driver) == ["start", "a1xa2", "(c3xc2)", "c1xb1", "(c3xc2)", third]
    at(driver, "0.1")
    press(driver, Keys.HOME, Keys.ARROW_DOWN, Keys.ARROW_RIGHT)
    at(driver, "1")                # down at the start's fork chose the variation c3xc2 (not the last move)
    press(driver, Keys.ARROW_LEFT, Keys.ARROW_UP)
    at(driver, "")
    wait(driver, lambda d: fork(d) == ["*a1xa2", "c3xc2"], "a1xa2 chosen in the fork box")
    press(driver, Keys.ARROW_DOWN)
    wait(driver, lambda d: fork(d) == ["a1xa2", "*c3xc2"], "c3xc2 chosen")
    assert shown(driver) == 0
    driver.save_screenshot(str(shots / "keys-fork.png"))
    press(driver, Keys.ARROW_RIGHT)
    at(driver, "1")
    press(driver, Keys.ARROW_LEFT)
    at(driver, "")
    assert fork(driver) == ["a1xa2", "*c3xc2"]          # the line shown now goes through c3xc2
    press(driver, Keys.ARROW_UP)
    wait(driver, lambda d: fork(d) == ["*a1xa2", "c3xc2"], "a1xa2 chosen")
    press(driver, Keys.ARROW_UP)                       # round the list
    wait(driver, lambda d: fork(d) == ["a1xa2", "*c3xc2"], "c3xc2 chosen again")
    press(driver, Keys.ARROW_DOWN, "j")                # j: forward, as the right arrow
    at(driver, "0")
    assert fork(driver) == ["*c1xb1", "c3xc2"]
    # shift+up/down: the line beside the one shown, at the fork it leaves (here the start's)
    press(driver, Keys.SHIFT, Keys.ARROW_DOWN, Keys.NULL)
    at(driver, "1")
    press(driver, Keys.SHIFT, Keys.ARROW_DOWN, Keys.NULL)      # round the list
    at(driver, "0")
    press(driver, Keys.SHIFT, Keys.ARROW_UP, Keys.NULL)
    at(driver, "1")
    press(driver, "k", Keys.ARROW_RIGHT)               # k: back; right: the main line's a1xa2 again
    at(driver, "0")
    # end, then shift+left/right from fork to fork
    press(driver, Keys.END)
    at(driver, "0.0.0")
    press(driver, Keys.SHIFT, Keys.ARROW_LEFT, Keys.NULL)       # the last fork before: a1xa2
    at(driver, "0")
    press(driver, "K")                                 # shift+k: the start, where the moves fork
    at(driver, "")
    press(driver, Keys.SHIFT, Keys.ARROW_RIGHT, Keys.NULL)      # the next fork along the line shown
    at(driver, "0")
    press(driver, "J")                                 # no fork ahead: the end of the line
    at(driver, "0.0.0")
    # up and down where there is no fork: the first and the last move; 0 and $ as Home and End
    press(driver, Keys.ARROW_LEFT)
    at(driver, "0.0")
    press(driver, Keys.ARROW_DOWN)
    at(driver, "0.0.0")
    press(driver, Keys.ARROW_UP)
    at(driver, "")
    press(driver, "$")
    at(driver, "0.0.0")
    press(driver, "0")
    at(driver, "")
    # f flips the board; ? shows the keys
    press(driver, "f")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board #flipped"), "the board turned round")
    press(driver, "f")
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board #flipped"), "the board turned back")
    press(driver, "?")
    wait(driver, lambda d: d.find_element(By.ID, "keys-help").get_attribute("open") is not None, "the keys shown")
    driver.save_screenshot(str(shots / "keys-help.png"))
    press(driver, "?")
    # never while typing: a key in a field is the field's
    script(driver, "const i = document.createElement('input'); i.id = 'typing'; document.body.append(i)")
    try:
        driver.find_element(By.ID, "typing").send_keys(Keys.ARROW_DOWN, Keys.END, "j", "f", "$")
        assert shown(driver) == 0 and not driver.find_elements(By.CSS_SELECTOR, "#board #flipped")
        assert driver.find_element(By.ID, "typing").get_attribute("value") == "jf$"
    finally:
        script(driver, "document.getElementById('typing').remove()")
    assert not console_errors(driver)


def paste(driver, text):
    """The text put in the Paste dialog (opened), and Open pressed."""
    if not driver.find_element(By.ID, "paste-dialog").get_attribute("open"):
        driver.find_element(By.ID, "paste-button").click()
        wait(driver, lambda d: d.find_element(By.ID, "paste-dialog").get_attribute("open") is not None, "the dialog")
    driver.execute_script("document.getElementById('paste-text').value = arguments[0]", text)
    driver.find_element(By.ID, "paste-open").click()


def paste_error(driver):
    return driver.find_element(By.ID, "paste-error").text


def test_a_position_or_a_record_pasted_as_text(page, shots, tmp_path):
    """A position or a record could only come from a file (Load).  Paste
    takes its text; bad text gets Load's one line, the dialog keeps the text
    and the game shown stays."""
    import json

    from .browser import SEEDS
    from .test_page import TWO_GAMES, load_file

    driver = page
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    before = move_list(driver)
    # a position with a bad cell: the server's line, as Load gives it for the same text in a file
    bad = json.dumps({"game": "colorclaim", "board": ["X1 G2", "R1 B1"], "to_move": 1})
    driver.find_element(By.ID, "paste-button").click()
    wait(driver, lambda d: d.find_element(By.ID, "paste-dialog").get_attribute("open") is not None, "the dialog")
    driver.find_element(By.ID, "paste-text").send_keys(bad[:10], Keys.ARROW_LEFT, Keys.HOME)   # typing: no move
    assert shown(driver) == 1
    paste(driver, bad)
    wait(driver, lambda d: paste_error(d), "the pasted position refused")
    said = paste_error(driver)
    assert said.startswith("pasted text: field 'board[0]': cell 1 (a2) 'X1'") and "\n" not in said, said
    assert driver.find_element(By.ID, "paste-text").get_attribute("value") == bad          # the text kept
    assert move_list(driver) == before and shown(driver) == 1                             # the game kept
    driver.save_screenshot(str(shots / "paste-error.png"))
    driver.find_element(By.ID, "paste-cancel").click()
    path = tmp_path / "bad.json"
    path.write_text(bad)
    load_file(driver, path)
    wait(driver, lambda d: message(d).startswith("bad.json: "), "Load's line for the same text")
    assert message(driver) == "bad.json: " + said.removeprefix("pasted text: ")
    # a record with a move that is not one; then text that is no JSON at all
    record = {"record": 1, "game": "colorclaim", "start": json.loads((SEEDS / "colorclaim/start-3x3-seed1.json")
              .read_text()), "moves": ["a1xa2", "zz"]}
    paste(driver, json.dumps(record))
    wait(driver, lambda d: paste_error(d), "the pasted record refused")
    # (the reader's name for the text, "record: ", is not said after the text's own: the command line
    # says "syntax.json: invalid JSON ...", the board said "syntax.json: record: invalid JSON ...")
    assert paste_error(driver).startswith("pasted text: ") and "'zz'" in paste_error(driver)
    assert "record: " not in paste_error(driver), paste_error(driver)
    paste(driver, "hello")
    wait(driver, lambda d: "invalid JSON" in paste_error(d), "text that is no JSON")
    assert paste_error(driver).startswith("pasted text: invalid JSON"), paste_error(driver)
    paste(driver, "  ")
    wait(driver, lambda d: "nothing pasted" in paste_error(d), "nothing pasted")
    assert move_list(driver) == before
    # a good position: opened, the dialog closed
    paste(driver, (SEEDS / "claim/play-2p.json").read_text())
    wait(driver, lambda d: board_ready(d) and message(d) == "Loaded pasted text." and
         script(d, "return window.claimsolveBoard.state.line[0].position.game") == "claim", "the pasted position")
    assert driver.find_element(By.ID, "paste-dialog").get_attribute("open") is None
    # JSON lines of two games: which one? (as Load asks)
    paste(driver, TWO_GAMES)
    wait(driver, lambda d: d.find_element(By.ID, "game-dialog").get_attribute("open") is not None, "which game?")
    driver.find_element(By.CSS_SELECTOR, "#game-choice option[value='2']").click()
    driver.find_element(By.ID, "game-open").click()
    wait(driver, lambda d: move_list(d) == ["start", "b2-a2", "a1xb1", "c1-b1", "c2-c3", "b3-c3", "a3-a2"],
         "game 2 of the pasted lines")
    assert message(driver) == "Loaded pasted text (game 2 of 2): 6 moves."
    assert driver.find_element(By.ID, "paste-dialog").get_attribute("open") is None
    # the texts refused were the server's 400 answers, which the browser logs; nothing else
    assert not [e for e in console_errors(driver) if "status of 400 (Bad Request)" not in e["message"]]


def test_an_address_that_cannot_be_opened_stays_until_the_game_changes(page, server):
    """A changed or cut address said so, and the page then wrote the game it
    showed over it: what the player had pasted was gone.  It stays until he
    moves (or loads a game)."""
    driver = page
    broken = f"{server}#game=not-a-game&at=0"
    driver.get("about:blank")
    driver.get(broken)
    wait(driver, lambda d: board_ready(d) and "cannot be read" in message(d), "the refusal")
    assert "The address keeps it until you move or load a game" in message(driver)
    engine_off(driver)
    driver.find_element(By.ID, "flip-button").click()       # a look at the board changes no game
    assert driver.current_url == broken
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    address_at(driver, "0")


def test_escape_in_which_game_acts_as_cancel(page):
    """Escape in "Which game?" closed it without an answer: Paste's Open
    stayed disabled and Ctrl+Enter did nothing until a reload."""
    from .test_page import TWO_GAMES

    driver = page
    new_game(driver, "colorclaim", size="3x3", seed=1)
    paste(driver, TWO_GAMES)
    wait(driver, lambda d: d.find_element(By.ID, "game-dialog").get_attribute("open") is not None, "which game?")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(driver, lambda d: d.find_element(By.ID, "paste-open").is_enabled(), "Open usable again")
    assert driver.find_element(By.ID, "game-dialog").get_attribute("open") is None
    assert driver.find_element(By.ID, "paste-dialog").get_attribute("open") is not None       # the text kept
    driver.find_element(By.ID, "paste-text").send_keys(Keys.CONTROL, Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "game-dialog").get_attribute("open") is not None, "asked again")
    driver.find_element(By.ID, "game-open").click()
    wait(driver, lambda d: message(d).startswith("Loaded pasted text (game 1 of 2): ")
         and d.find_element(By.ID, "paste-dialog").get_attribute("open") is None, "game 1 opened")


def test_link_on_an_address_that_could_not_be_opened(page, server):
    """Link said "The address holds this game and move" of a cut address it
    had refused; and a New game like the one shown kept that address."""
    driver = page
    broken = f"{server}#game=not-a-game&at=0"
    driver.get("about:blank")
    driver.get(broken)
    wait(driver, lambda d: board_ready(d) and "cannot be read" in message(d), "the refusal")
    engine_off(driver)
    driver.find_element(By.ID, "link-button").click()
    wait(driver, lambda d: "a game this page could not open" in message(d), "Link's words")
    assert "holds this game" not in message(driver) and driver.current_url == broken
    new_game(driver, script(driver, "return window.claimsolveBoard.state.games[0].id"))    # the default options
    address_at(driver, "")
    driver.find_element(By.ID, "link-button").click()
    wait(driver, lambda d: "The address holds this game and move" in message(d), "Link's words for the new game")


def test_keys_come_back_from_a_box_ticked_or_a_select_focused(page):
    """After Engine was ticked the arrows and j/k did nothing until a click
    elsewhere; with a select focused, Left changed it instead of stepping
    back.  As on lichess, a box ticked gives the keys back to the board, a
    closed select too (its list, open, keeps them)."""
    driver = page
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    box = driver.find_element(By.ID, "engine-on")
    box.click()                                        # on, then off: each a tick with the keys after it
    driver.switch_to.active_element.send_keys("k")
    wait(driver, lambda d: shown(d) == 0, "k after a tick: back to the start")
    box.click()
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait(driver, lambda d: shown(d) == 1, "Right after a tick: a1xa2")
    think = script(driver, "const s = document.getElementById('engine-time'); s.focus(); return s.value")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    wait(driver, lambda d: shown(d) == 0, "Left on a focused select: back to the start")
    assert script(driver, "return document.getElementById('engine-time').value") == think


def asks_first(driver):
    """Whether leaving the page would ask first (its beforeunload handler)."""
    return script(driver, "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
                          "return e.defaultPrevented")


def test_a_cut_link_typed_over_a_game_asks_before_a_reload_drops_it(page, server):
    """A cut link typed into the address bar of a tab showing a game was
    refused and kept there; a reload then opened it, and the game shown was
    gone without a word.  Leaving asks first while the game has moves."""
    driver = page
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    address_at(driver, "0")
    driver.refresh()                                   # the game as a link opens it: nothing unsaved
    wait(driver, lambda d: board_ready(d) and move_list(d) == ["start", "a1xa2"], "the game of the address")
    engine_off(driver)
    assert not asks_first(driver)
    script(driver, "location.hash = '#game=not-a-game&at=0'")
    wait(driver, lambda d: "cannot be read" in message(d), "the refusal")
    assert move_list(driver) == ["start", "a1xa2"] and driver.current_url.endswith("#game=not-a-game&at=0")
    assert asks_first(driver)
    play(driver, "c1xb1")                              # a move: the address holds the game again
    address_at(driver, "0.0")
    assert not asks_first(driver)


def test_a_link_says_what_it_could_not_use(page, server):
    """`#game=` with nothing after it opened a new game without a word; an
    `&at=` the game does not have was ignored; a link whose text inflates to
    something not JSON showed the browser's parser error."""
    import base64
    import zlib

    driver = page
    driver.get("about:blank")
    driver.get(f"{server}#game=")
    wait(driver, lambda d: board_ready(d) and "The link holds no game (nothing after #game=)." == message(d),
         "the empty link said")
    engine_off(driver)
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    good = address_at(driver, "0")
    driver.get("about:blank")
    driver.get(good.replace("&at=0", "&at=0.5"))
    wait(driver, lambda d: board_ready(d) and "at the start: its move (&at=0.5) is not one of the game's" in message(d),
         "the bad move said")
    assert move_list(driver) == ["start", "a1xa2"] and shown(driver) == 0
    engine_off(driver)
    code = base64.urlsafe_b64encode(zlib.compress(b"hello, not JSON")).decode().rstrip("=")
    driver.get("about:blank")
    driver.get(f"{server}#game={code}&at=")
    wait(driver, lambda d: board_ready(d) and "cannot be read" in message(d), "the refusal")
    assert "its text is not a game record's JSON" in message(driver), message(driver)
    assert "JSON.parse" not in message(driver) and "Unexpected" not in message(driver)
    engine_off(driver)


def test_paste_names_what_the_text_is_and_skips_a_bom(page):
    """`[1,2,3]` pasted was "a position, not a game record"; a position
    pasted with a byte-order mark before it got Python's "utf-8-sig" words
    (a file's BOM is skipped: the browser's text() drops it)."""
    from .browser import SEEDS

    driver = page
    new_game(driver, "colorclaim", size="3x3", seed=1)
    paste(driver, "[1,2,3]")
    wait(driver, lambda d: paste_error(d), "the array refused")
    assert paste_error(driver) == "pasted text: a JSON array, not a position or a game record " \
                                  "(docs/records.md)", paste_error(driver)
    paste(driver, "\ufeff" + (SEEDS / "claim/play-2p.json").read_text())
    wait(driver, lambda d: board_ready(d) and message(d) == "Loaded pasted text." and
         script(d, "return window.claimsolveBoard.state.line[0].position.game") == "claim", "the pasted position")


def asked(driver):
    """The words of the page's question before an unsaved game is replaced, while it is open."""
    return script(driver, "const q = document.getElementById('discard-dialog');"
                          "return q && q.open ? document.getElementById('discard-text').textContent : null")


def start_new(driver, game="colorclaim"):
    """New game, `game` with its defaults, Start pressed (what comes after: the caller's)."""
    from selenium.webdriver.support.ui import Select
    driver.find_element(By.ID, "new-button").click()
    Select(driver.find_element(By.ID, "new-game")).select_by_value(game)
    driver.find_element(By.ID, "new-start").click()


def test_a_game_not_saved_is_discarded_only_when_the_player_says_so(page, shots, tmp_path):
    """New game (and Load, Paste, a link put in the address) threw away a game of moves made
    and not saved, without a word.  Now the page asks first: Keep (or Esc) leaves the game as it
    was; Save first saves it, then goes on; Discard goes on.  A game saved, loaded or just
    started has nothing to lose: no question."""
    import json
    driver = page
    console_errors(driver)                     # (those of the tests before: a paste refused)
    new_game(driver, "colorclaim", size="3x3", seed=1)
    play(driver, "a1xa2")
    play(driver, "c1xb1")
    root = script(driver, "return window.claimsolveBoard.state.line[0].id")
    same = lambda d: (script(d, "return window.claimsolveBoard.state.line[0].id") == root  # noqa: E731
                      and move_list(d) == ["start", "a1xa2", "c1xb1"])
    driver.discard_unsaved = False
    try:
        # New game: asked; Keep leaves the game as it was
        start_new(driver)
        wait(driver, asked, "the question before New game")
        assert asked(driver) == "Discard this game of 2 moves? It is not saved."
        assert not driver.find_element(By.ID, "new-dialog").get_attribute("open")
        driver.save_screenshot(str(shots / "discard-asked.png"))
        driver.find_element(By.ID, "discard-keep").click()
        wait(driver, lambda d: not asked(d), "the question gone")
        assert same(driver) and current_move(driver) == "c1xb1"
        # Esc is Keep
        start_new(driver)
        wait(driver, asked, "the question again")
        driver.find_element(By.ID, "discard-keep").send_keys(Keys.ESCAPE)
        wait(driver, lambda d: not asked(d), "the question gone with Esc")
        assert same(driver)
        # Load (a position file): asked too; Keep, and the game stays
        path = tmp_path / "other.json"
        path.write_text(json.dumps(script(driver, "return window.claimsolveBoard.state.line[0].position")))
        from .test_page import load_file
        load_file(driver, path)
        wait(driver, asked, "the question before Load")
        driver.find_element(By.ID, "discard-keep").click()
        wait(driver, lambda d: not asked(d), "the question gone")
        assert same(driver)
        # a link put in the address over the game: asked; kept, the address holds the game shown again
        code = address_at(driver, "0.0").split("#game=")[1].split("&")[0]
        # (the same moves at the start: another game all the same, the moves shown being unsaved)
        driver.execute_script("location.hash = arguments[0]", f"#game={code}&at=0")
        wait(driver, asked, "the question before a link's game")
        driver.find_element(By.ID, "discard-keep").click()
        wait(driver, lambda d: not asked(d) and d.current_url.endswith("&at=0.0"), "the address given back")
        assert same(driver)
        # Save first: the game saved, then the new game
        saved = len(list(driver.downloads.glob("colorclaim-game*.json")))
        start_new(driver)
        wait(driver, asked, "the question")
        driver.find_element(By.ID, "discard-save").click()
        wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.line[0].id") != root and
             move_list(d) == ["start"], "the new game after Save first")
        wait(driver, lambda d: len(list(d.downloads.glob("colorclaim-game*.json"))) > saved, "the game saved")
        # a new game, a game saved: nothing to ask
        play(driver, "a1xa2")
        driver.find_element(By.ID, "save-game-button").click()
        wait(driver, lambda d: "Saved colorclaim-game.json" in message(d), "Save game")
        root = script(driver, "return window.claimsolveBoard.state.line[0].id")
        start_new(driver)
        wait(driver, lambda d: asked(d) or script(d, "return window.claimsolveBoard.state.line[0].id") != root,
             "the new game")
        assert not asked(driver)
        # moves made: Discard goes on
        play(driver, "a1xa2")
        root = script(driver, "return window.claimsolveBoard.state.line[0].id")
        start_new(driver)
        wait(driver, asked, "the question")
        assert asked(driver) == "Discard this game of 1 move? It is not saved."
        driver.find_element(By.ID, "discard-yes").click()
        wait(driver, lambda d: script(d, "return window.claimsolveBoard.state.line[0].id") != root and
             move_list(d) == ["start"], "the new game after Discard")
    finally:
        driver.discard_unsaved = True
    assert not console_errors(driver)
