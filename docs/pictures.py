"""Remakes every picture in docs/ from the command or the board scene that makes it.

`PICTURES` is the table: each picture's file in docs/, how it is made and
what it shows.  An SVG is drawn by the command the docs show beside it
(its `--svg` file copied into docs/), after the commands that make what it
reads (`before`: a study's database, ...); a PNG is a screenshot of the
board: `claimsolve serve` started on a free port, headless Chromium
(Selenium) at 1280x800 driven to the scene, the engine's seed the server's
fixed default.  As in docs/regenerate.py, each picture is made in a scratch
directory where `seeds` is the repository's, and `claimsolve` is this
Python's with this repository's package first on its path.

`--check` remakes nothing on disk: it lists the pictures whose file is
missing, and the SVGs whose words (titles, labels, legends: every text,
not the coordinates) differ from what the command draws now; the figures
of the work done (seconds, rates, node counts) are not compared.  A PNG is
only checked to be there.  Exit 1 if any is listed.

    python docs/pictures.py                        # remake every picture
    python docs/pictures.py --check                # list the missing and stale ones; exit 1 if any
    python docs/pictures.py docs/odds.svg          # only these
    python docs/pictures.py --fast                 # leave out the slow ones (the studies)

The board's screenshots need Chromium, its driver and Selenium (the
`test` extra, `apt-get install chromium chromium-driver`); the study charts
matplotlib (the `charts` extra).
"""
import argparse
import html
import importlib.util
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TIMEOUT = 900                  # seconds a command may take (the 4-player study: about a minute)
WINDOW = (1280, 800)           # the board's screenshots, CSS px
WAIT = 60                      # seconds a step on the board may take

sys.path.insert(0, str(ROOT))
from claimsolve.words import counted  # noqa: E402 (this repository's, as regenerate's commands use)

_spec = importlib.util.spec_from_file_location("docs_regenerate", DOCS / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)


@dataclass
class Picture:
    """One picture of docs/: `name` its file there; `shows` what it shows.

    An SVG: `command`, the command shown beside it in the docs, writes
    `made` (a path in the scratch directory), after the `before` commands.
    A PNG: `scene(driver, url, workdir)` drives the board at `url` (the
    `before` commands run first in `workdir`) and leaves it showing the
    picture."""
    name: str
    shows: str
    command: Optional[str] = None
    made: Optional[str] = None
    before: tuple = ()
    scene: Optional[Callable] = None
    slow: bool = False            # more than a few seconds: left out by --fast
    how: str = ""                 # a PNG: how the scene is made, in words

    @property
    def path(self):
        return DOCS / self.name

    @property
    def screenshot(self):
        return self.scene is not None


# --- the board's scenes ------------------------------------------------------------------

def _script(driver, text, *args):
    return driver.execute_script(text, *args)


def _wait(driver, condition, what):
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.common.exceptions import TimeoutException
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(lambda d: condition(d))
    except TimeoutException:
        message = _script(driver, "const m = document.getElementById('message'); return m && m.textContent")
        raise RuntimeError(f"waited {WAIT} s for {what}; the page says: {message!r}") from None


def _board_ready(driver):
    return _script(driver, "const s = window.claimsolveBoard && window.claimsolveBoard.state;"
                           "return Boolean(s && s.line.length && s.line[s.index].tokens &&"
                           " document.querySelector('#board [data-point]'))")


def _select(driver, element_id, value):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element(By.ID, element_id)).select_by_value(value)


def _load(driver, path):
    """Loads a position file or a record as the Load button does."""
    from selenium.webdriver.common.by import By
    _script(driver, "document.getElementById('load-file').hidden = false")
    driver.find_element(By.ID, "load-file").send_keys(str(path))
    _script(driver, "document.getElementById('load-file').hidden = true")
    _wait(driver, lambda d: "Loaded" in (_script(d, "return document.getElementById('message').textContent") or "")
          and _board_ready(d), f"{path.name} loaded")


def _engine_done(driver):
    return _wait(driver, lambda d: (lambda t: t if t and t.startswith("(done") else None)(
        _script(d, "return document.getElementById('engine-state').textContent")), "the analysis done")


def _settle(driver):
    """Lets the page finish drawing (fonts, the last redraw) before the shot."""
    _script(driver, "return document.fonts.ready.then(() => true)")
    time.sleep(0.5)


def claim_middle_game(driver, url, workdir):
    """seeds/claim/play-2p.json loaded, the engine's 3 s answer, the pointer on
    the best suggestion: its whole line drawn as numbered arrows."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    _select(driver, "engine-time", "3")
    _load(driver, workdir / "seeds" / "claim" / "play-2p.json")
    _engine_done(driver)
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#suggestions tbody tr"), "the suggestions")
    row = driver.find_element(By.CSS_SELECTOR, "#suggestions tbody tr")
    ActionChains(driver).move_to_element(row).perform()
    _wait(driver, lambda d: _script(d, "return document.querySelectorAll('#arrows line').length") > 1,
          "the best line's arrows")
    _settle(driver)


def colorclaim_review(driver, url, workdir):
    """game.jsonl (made by `before`) loaded and reviewed at 0.5 s a position,
    then its ply 3 (c3-b3, a blunder) shown by a click on the graph: the
    graph under the board with a line at that ply, the grades in the moves
    list, the summary per player.  (A fixed ply: the grades of moves that
    alpha-beta estimates vary a little from run to run.)"""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    _select(driver, "engine-time", "1")
    _load(driver, workdir / "game.jsonl")
    _select(driver, "review-time", "0.5")
    driver.find_element(By.ID, "review-button").click()
    _wait(driver, lambda d: _script(d, "const r = window.claimsolveBoard.state.review;"
                                       "return Boolean(r && r.result)")
          and d.find_elements(By.CSS_SELECTOR, "#review-summary tbody tr"), "the review's result")
    ply = 3
    target = driver.find_element(By.CSS_SELECTOR, f'#review-graph rect.ply[data-ply="{ply}"]')
    ActionChains(driver).move_to_element(target).click().perform()
    _wait(driver, lambda d: _script(d, "return window.claimsolveBoard.state.index") == ply, f"ply {ply} shown")
    _engine_done(driver)
    # the pointer off the board and the suggestions: no hover marks in the picture
    ActionChains(driver).move_to_element(driver.find_element(By.TAG_NAME, "h1")).perform()
    _settle(driver)


# --- the table ------------------------------------------------------------------------------

GAME_4X4 = ("claimsolve match colorclaim --size 4x4 --a random --b alphabeta:depth=2 --games 1 --seed 1 "
            "--save game.jsonl")

PICTURES = [
    Picture("analyze-claim.svg",
            "analyze --svg: a three-seat Claim middle game, the five best turns drawn as arrows along "
            "their routes, MCTS's mean results and intervals beside",
            command="claimsolve analyze seeds/claim/play-3p.json --iterations 50000 --svg analysis.svg",
            made="analysis.svg"),
    Picture("analyze-colorclaim.svg",
            "analyze --svg: a Color Claim 4x3 start, the five best moves with their exact values",
            command="claimsolve analyze seeds/colorclaim/start-4x3-seed1.json --svg analysis.svg",
            made="analysis.svg"),
    Picture("odds.svg",
            "odds --svg: roll again or stop, the plans' win chances with their intervals and bust chances",
            command="claimsolve new claimit --players 3 | claimsolve apply - roll:3,5,1 w1@3,5 | "
                    "claimsolve odds - --seed 1 --svg odds.svg",
            made="odds.svg"),
    Picture("match.svg",
            "match --svg: A's running score over 60 games with its 95% interval",
            command="claimsolve match claimit --players 2 --a threshold:3 --b risk:0.2 --games 60 --seed 1 "
                    "--svg match.svg",
            made="match.svg"),
    Picture("study-ladder.svg",
            "study report --svg: the tour's Claim It! ladder, Elo ratings with 95% intervals",
            before=("claimsolve study ladder claimit --players 3 --specs threshold:5,threshold:3,random,"
                    "mcts:iterations=200 --games-per-table 60 --anchor threshold:5 --db ladder.sqlite --workers 2",),
            command="claimsolve study report ladder.sqlite --svg charts/",
            made="charts/ladder.svg", slow=True),
    Picture("study-claimit-4p.svg",
            "study report --svg: the thresholds' points per game at 4 players with 95% intervals",
            before=("claimsolve study policies claimit --players 4 --policies threshold:2..8 --games 4000 "
                    "--db ci4.sqlite",),
            command="claimsolve study report ci4.sqlite --svg charts/",
            made="charts/policies.svg", slow=True),
    Picture("serve.png",
            "The analysis board: a Claim middle game, the best line drawn as arrows",
            scene=claim_middle_game,
            how="seeds/claim/play-2p.json loaded, think 3 s, the pointer on the best suggestion"),
    Picture("board-review.png",
            "A Color Claim 4x4 game reviewed on the board",
            before=(GAME_4X4,), scene=colorclaim_review,
            how="the game of `before` loaded, Review at 0.5 s a position, ply 3 shown"),
]


# --- making them --------------------------------------------------------------------------

def environment(workdir):
    """regenerate.py's environment (this repository's package first), with
    matplotlib's SVGs reproducible: a fixed date and fixed ids."""
    env = regenerate.environment()
    rc = Path(workdir) / "matplotlibrc"
    rc.write_text("svg.hashsalt: claimsolve-docs\n")
    env["MATPLOTLIBRC"] = str(rc)
    env["SOURCE_DATE_EPOCH"] = "0"
    return env


def run(command, workdir, env):
    """Runs `command` with bash in `workdir`; a failure raises, with what it printed."""
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=workdir, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"`{command}` exited {done.returncode}:\n{done.stdout}{done.stderr}")


def draw(picture):
    """The SVG text `picture`'s command draws now."""
    with regenerate.scratch() as workdir:
        env = environment(workdir)
        for command in picture.before + (picture.command,):
            run(command, workdir, env)
        return (Path(workdir) / picture.made).read_text()


WORK = re.compile(r"\d[\d,.]*(?= s\b| ms\b|/s\b| nodes\b| simulations\b)|\d[\d,.]*(?=/s\b)")


def words(svg):
    """The texts of an SVG, in order: every <text> (its tspans joined) and
    <title>, and the comments matplotlib writes before each text it draws as
    paths; whitespace collapsed, figures of work done written N."""
    found = []
    for match in re.finditer(r"<text\b[^>]*>(.*?)</text>|<title>(.*?)</title>|<!-- (.*?) -->", svg, re.S):
        text = next(group for group in match.groups() if group is not None)
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
        if text:
            found.append(WORK.sub("N", text))
    return found


class Board:
    """`claimsolve serve` on a free loopback port and headless Chromium, as
    tests/web/browser.py starts them; the server runs in `workdir`."""

    def __init__(self, workdir, env):
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from claimsolve.cli.main import main; main()", "serve", "--port", "0",
             "--workers", "2", "--max-time", "30"],
            cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://[^/]+/", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"serve did not say where it listens: {line!r} {self.process.stderr.read()}")
        self.url = match.group(0)
        options = Options()
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={WINDOW[0]},{WINDOW[1]}", "--hide-scrollbars",
                         "--disable-background-networking", "--disable-component-update", "--no-first-run"):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        # the viewport exactly WINDOW, whatever the window's frame takes
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": 1, "mobile": False})

    def shoot(self, picture, workdir, target):
        self.driver.get("about:blank")
        self.driver.get(self.url)
        _wait(self.driver, _board_ready, "the first board")
        picture.scene(self.driver, self.url, Path(workdir))
        self.driver.save_screenshot(str(target))

    def close(self):
        self.driver.quit()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def shoot(pictures):
    """Takes the screenshots of `pictures` (PNG entries), each in its own
    scratch directory, with one server and one browser."""
    with regenerate.scratch() as serving:
        board = Board(serving, environment(serving))
        try:
            for picture in pictures:
                started = time.monotonic()
                with regenerate.scratch() as workdir:
                    env = environment(workdir)
                    for command in picture.before:
                        run(command, workdir, env)
                    board.shoot(picture, workdir, picture.path)
                print(f"docs/{picture.name}: remade ({time.monotonic() - started:.0f} s)", flush=True)
        finally:
            board.close()


def chosen(files, fast):
    """The pictures named by `files` (paths or names; all by default), less
    the slow ones with `fast`; an unknown name is a SystemExit."""
    by_name = {picture.name: picture for picture in PICTURES}
    if files:
        unknown = [f for f in files if Path(f).name not in by_name]
        if unknown:
            raise SystemExit(f"not a picture of the table: {', '.join(unknown)} (known: {', '.join(by_name)})")
        pictures = [by_name[Path(f).name] for f in files]
    else:
        pictures = list(PICTURES)
    return [picture for picture in pictures if not (fast and picture.slow)]


def check(pictures):
    """The pictures that are missing or whose words differ from what their
    command draws now, each with why; printed as found."""
    stale = []
    for picture in pictures:
        if not picture.path.is_file():
            why = "missing"
        elif picture.screenshot:
            continue
        else:
            now, shown = words(draw(picture)), words(picture.path.read_text())
            if now == shown:
                continue
            first = next((i for i, (a, b) in enumerate(zip(now, shown)) if a != b), min(len(now), len(shown)))
            why = (f"its words differ from what `{picture.command}` draws now: text {first + 1} is "
                   f"{shown[first] if first < len(shown) else '(none)'!r}, now "
                   f"{now[first] if first < len(now) else '(none)'!r}")
        stale.append(picture)
        print(f"docs/{picture.name}: {why}", flush=True)
    return stale


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="pictures to remake (default: every one of the table)")
    parser.add_argument("--check", action="store_true",
                        help="remake nothing; list the pictures missing or whose words differ")
    parser.add_argument("--fast", action="store_true", help="leave out the slow pictures (the studies)")
    args = parser.parse_args(argv)
    pictures = chosen(args.files, args.fast)
    if args.check:
        stale = check(pictures)
        print(f"{len(stale)} of {counted(len(pictures), 'picture')} missing or stale")
        return 1 if stale else 0
    began = time.monotonic()
    for picture in pictures:
        if picture.screenshot:
            continue
        started = time.monotonic()
        picture.path.write_text(draw(picture))
        print(f"docs/{picture.name}: remade ({time.monotonic() - started:.0f} s)", flush=True)
    shots = [picture for picture in pictures if picture.screenshot]
    if shots:
        shoot(shots)
    print(f"{counted(len(pictures), 'picture')} remade in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
