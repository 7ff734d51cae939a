"""What the board's browser tests share: `claimsolve serve` started as a
process on a free loopback port, Debian's headless Chromium driven through
Selenium, and the waits that a page redrawing itself needs.

Skipped, saying why, where Chromium, its driver or Selenium is missing; in
CI (CLAIMSOLVE_REQUIRE_BROWSER, set by .ci/run) a missing one fails.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
try:
    from selenium import webdriver
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
    MISSING = None
except ImportError:
    ActionChains = By = Keys = Select = None
    MISSING = "selenium is not installed (pip install -e '.[test]')"
if MISSING is None and not (CHROMIUM and CHROMEDRIVER):
    MISSING = "Chromium and its driver are not installed (apt-get install chromium chromium-driver)"

if MISSING is not None and os.environ.get("CLAIMSOLVE_REQUIRE_BROWSER"):
    raise RuntimeError(f"browser tests: {MISSING}")
SKIP = pytest.mark.skipif(MISSING is not None, reason=f"browser tests: {MISSING}")

WAIT = 30            # seconds a step may take on a busy machine before the test fails


@pytest.fixture(scope="module")
def server():
    process = subprocess.Popen(
        [sys.executable, "-c", "from claimsolve.cli.main import main; main()", "serve", "--port", "0",
         "--workers", "2", "--max-time", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://[^/]+/", line)
    if not match:
        process.kill()
        pytest.fail(f"serve did not say where it listens: {line!r} {process.stderr.read()}")
    yield match.group(0)
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ.get("CLAIMSOLVE_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {folder}")
    return folder


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium; files the page saves land in `driver.downloads`."""
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                     "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                     "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    downloads = tmp_path_factory.mktemp("downloads")
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.downloads = downloads
    yield driver
    driver.quit()


def message(driver):
    return driver.execute_script("return document.getElementById('message').textContent")


DISCARDING = ("const q = document.getElementById('discard-dialog');"
              "if (!q || !q.open) return false; document.getElementById('discard-yes').click(); return true;")


def wait(driver, condition, what):
    """Waits for `condition`.  Where the page asks before a game with unsaved moves is replaced (New
    game, Load, Paste: docs/board.md), the wait answers Discard, as a player who asked for the new
    game means, unless `driver.discard_unsaved` is False (the tests of the question itself)."""
    def met(d):
        if getattr(d, "discard_unsaved", True) and d.execute_script(DISCARDING):
            return False
        return condition(d)
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(met)
    except TimeoutException:
        pytest.fail(f"waited {WAIT} s for {what}; message: {message(driver)!r}")


def click_point(driver, name):
    """Clicks the point `name`, waiting for the board to hold it: after a
    move the page draws the board anew, and a point found while it does
    may be gone when clicked."""
    def clicked(d):
        points = d.find_elements(By.CSS_SELECTOR, f'#board [data-point="{name}"]')
        if not points:
            return False
        try:
            ActionChains(d).move_to_element(points[0]).click().perform()
        except StaleElementReferenceException:
            return False
        return True
    wait(driver, clicked, f"point {name} on the board")


def hover_until(driver, selector, condition, what):
    """Moves the mouse onto the element of `selector` until `condition`
    holds: a table the page draws anew as the engine's answers come in (the
    suggestions) may replace the row between its finding and the hover."""
    def done(d):
        if condition(d):
            return True
        try:
            ActionChains(d).move_to_element(d.find_element(By.CSS_SELECTOR, selector)).perform()
        except (StaleElementReferenceException, NoSuchElementException):
            pass
        return False
    wait(driver, done, what)


def mouse_away(driver):
    """Moves the mouse off the suggestions onto the status line (an offset from
    where it was could fall outside the window, depending on the layout)."""
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "status")).perform()


def unflipped(driver):
    """Turns the board back if a test before left it turned round (the
    page is shared by a module's tests)."""
    if driver.find_elements(By.CSS_SELECTOR, "#board #flipped"):
        driver.find_element(By.ID, "flip-button").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board #flipped"), "the board turned back")


def click_until(driver, selector, cls, what):
    """Clicks the element of `selector` until it has the class `cls`: a
    list the page draws anew (the move list, as the engines' answers come
    in) may replace the element just clicked, and that click reaches no
    listener."""
    def done(d):
        if d.find_elements(By.CSS_SELECTOR, f"{selector}.{cls}"):
            return True
        try:
            d.find_element(By.CSS_SELECTOR, selector).click()
        except (StaleElementReferenceException, NoSuchElementException):
            pass
        return False
    wait(driver, done, what)
