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
