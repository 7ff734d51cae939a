"""Sentences wrapped to the terminal (claimsolve.prose): on an 80-column
terminal `analyze`, `odds` and `play`'s `?` printed each note, verdict and
reason as one long line, and the terminal cut its words at the right edge
("...through each mov" / "e (1 win, ..."). Now a sentence is broken between
words at the terminal's width (COLUMNS where it is set), its lines after
the first indented; tables and boards are not touched, and through a pipe
without COLUMNS the text is as it was."""
import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

from click.testing import CliRunner

from claimsolve import prose
from claimsolve.cli.main import main

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
# the exact solver's whole answer (it finishes in a fraction of a second): the same words every run
ANALYZE = ["analyze", str(SEEDS / "colorclaim" / "start-3x3-seed1.json"), "--engine", "solver", "--threads", "1",
           "--time", "60"]
ODDS = ["odds", str(SEEDS / "claimit" / "late-turn-roll-3p.json"), "--samples", "50", "--threads", "1"]


def run(args, columns=None):
    env = {"NO_COLOR": "1"} if columns is None else {"NO_COLOR": "1", "COLUMNS": str(columns)}
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    return result.output


def words(text):
    """The words of `text`, the line of the work done (its counts and
    times vary from run to run) left out."""
    return [word for line in text.splitlines() if " nodes in " not in line for word in line.split()]


def test_wrap_breaks_between_words_with_a_hanging_indent():
    text = ("Scores: mean result for the player to move over the simulations through each move (1 win, "
            "0.5 draw, 0 loss; 3,960 in all), with its 95% interval.")
    assert prose.wrap(text) == [text]                        # no width given: one line, as always
    with prose.wrapping(60):
        lines = prose.wrap(text)
        assert prose.width() == 60
    assert len(lines) == 3 and all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("Scores: mean") and all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == text  # every word whole, none lost
    with prose.wrapping(60):                                 # an indented paragraph keeps its indent, and more
        lines = prose.wrap("    " + text)
    assert lines[0].startswith("    Scores") and all(line.startswith("      ") for line in lines[1:])
    with prose.wrapping(20):                                 # never narrower than NARROWEST
        assert all(len(line) <= 60 for line in prose.wrap(text)) and len(prose.wrap(text)) == 3
    with prose.wrapping(lambda: None):                       # a function of the width: a pipe, no width
        assert prose.wrap(text) == [text]
    cut = text.rindex(" ", 0, 101)                          # a paragraph always wrapped at 100 still is
    assert prose.wrap(text, fallback=100) == [text[:cut], "  " + text[cut + 1:]]


def test_wrap_keeps_a_move_with_spaces_in_it_whole():
    moves = ["xc5 xe4 xi5 xl5", "xc6 xf6 xj4 xk7", "pass", "T@b4 l5-l6 l6-l5"]
    text = "PV (the best line found; | between moves): " + " | ".join(moves)
    for columns in range(60, 80):
        with prose.wrapping(columns):
            lines = prose.wrap(text, whole=moves)
        assert all(len(line) <= columns for line in lines)
        assert " ".join(line.strip() for line in lines) == text
        assert all(any(move in line for line in lines) for move in moves)     # each move on one line
    broken = []                              # without `whole`, a move of several words may be broken
    for columns in range(60, 80):
        with prose.wrapping(columns):
            broken.append(not all(any(move in line for line in prose.wrap(text)) for move in moves))
    assert any(broken)


def test_analyze_wraps_its_sentences_at_columns_by_words():
    """Color Claim's exact answer at 60 and 80 columns: every line fits,
    the words are those of the unwrapped answer (none cut), the table's
    rows are whole."""
    piped = run(ANALYZE)
    assert max(len(line) for line in piped.splitlines()) > 100   # one line a sentence, as it was
    for columns in (60, 80):
        text = run(ANALYZE, columns)
        lines = text.splitlines()
        assert all(len(line) <= columns for line in lines), [line for line in lines if len(line) > columns]
        assert words(text) == words(piped)
        table = [line for line in piped.splitlines() if re.match(r"\d+  \S+ +\S+ ", line) or line.startswith("#  move")]
        assert table and all(row in lines for row in table)
        assert any(line.startswith("  ") and "owner" in line for line in lines)    # a paragraph's hanging lines


def test_json_is_not_wrapped():
    answer = json.loads(run(ANALYZE + ["--json"], 60))
    assert len(answer["scores"]) > 60 and "\n" not in answer["scores"]


def test_odds_wraps_its_notes_and_leaves_its_table_whole():
    piped = run(ODDS)
    text = run(ODDS, 60)
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("plan"))
    assert header.rstrip().endswith("win (95% CI)") and len(header) > 60          # the table is not wrapped
    rows = [line for line in piped.splitlines() if line.endswith("%)")]
    assert len(rows) >= 5 and all(row in lines for row in rows)
    table = set(rows) | {header, "-" * len(header)}
    assert all(len(line) <= 60 for line in lines if line not in table), \
        [line for line in lines if len(line) > 60 and line not in table]
    columns_note = ("Columns: survive, the chance the turn ends without a bust; +secured, +held, +group, the spaces "
                    "this turn secures, the spaces it adds to those held, and what it adds to the largest group "
                    "(means over the play-outs, a bust counting 0); win, the chance of winning the game.")
    at = next(i for i, line in enumerate(lines) if line.startswith("Columns:"))
    paragraph = [lines[at]] + [line for line in lines[at + 1:at + 5] if line.startswith("  ")]
    assert " ".join(line.strip() for line in paragraph) == columns_note
    # through a pipe the notes are wrapped at 100 columns, as they always were
    assert any(90 < len(line) <= 100 and line.startswith("Columns:") for line in piped.splitlines())


def test_play_wraps_its_sentences_and_the_hint(monkeypatch, tmp_path):
    """`play` with COLUMNS=60: the greeting, the engine's moves and `?`'s
    answer fit, the hint's table stays whole."""
    from tests.test_play import Player

    monkeypatch.setenv("COLUMNS", "60")
    player = Player("colorclaim", "--load", SEEDS / "colorclaim" / "start-3x4-seed1.json", "--vs", "random",
                    "--seed", "1", cwd=tmp_path)
    greeting = player.until_prompt().splitlines()
    assert greeting[0].startswith("Color Claim (2012): you play") and greeting[1].startswith("  ")
    assert " ".join(line.strip() for line in greeting[:2]) == ("Color Claim (2012): you play seat 1, the engine "
                                                               "(random) the others.  Type a move, or help.")
    assert all(len(line) <= 60 for line in greeting)
    hint = player.type("?")
    lines = hint.splitlines()
    assert all(len(line) <= 60 for line in lines), [line for line in lines if len(line) > 60]
    assert any(line.startswith("Scores: ") for line in lines) and any(line.startswith("  ") for line in lines)
    assert any(re.match(r"#  move +(value|score)", line) for line in lines)
    assert player.type("quit") is None


def test_a_terminal_is_wrapped_at_its_width_and_a_pipe_not():
    """Without COLUMNS: a terminal 70 columns wide gets the answer at 70
    (the width asked of the terminal), a pipe one line a sentence."""
    env = dict(os.environ, NO_COLOR="1")
    env.pop("COLUMNS", None)
    command = [sys.executable, "-m", "claimsolve.cli.main", *ANALYZE]
    master, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 70, 0, 0))
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=child, stderr=subprocess.DEVNULL, env=env)
        os.close(child)
        shown = bytearray()
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:                  # the terminal's other end closed: the command ended
                break
            if not chunk:
                break
            shown.extend(chunk)
        assert proc.wait(timeout=120) == 0
    finally:
        os.close(master)
    lines = shown.decode().replace("\r\n", "\n").splitlines()
    assert lines and all(len(line) <= 70 for line in lines), [line for line in lines if len(line) > 70]
    assert any(len(line) > 60 for line in lines)              # at the terminal's width, not the narrowest
    piped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120).stdout
    assert max(len(line) for line in piped.splitlines()) > 100


def test_solve_and_review_wrap_their_sentences(tmp_path):
    """solve's line of the moves with no bound yet, and review's values,
    grades and summaries, at COLUMNS=60 (the tables are narrower)."""
    solved = run(["solve", str(SEEDS / "colorclaim" / "start-4x4-seed1.json"), "--time", "0.3"], 60).splitlines()
    assert all(len(line) <= 60 for line in solved), [line for line in solved if len(line) > 60]
    record = tmp_path / "game.jsonl"
    run(["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "alphabeta:depth=2", "--games", "1",
         "--seed", "1", "--save", str(record)])
    piped = run(["review", str(record), "--threads", "1"])
    text = run(["review", str(record), "--threads", "1"], 60)
    lines = text.splitlines()
    assert all(len(line) <= 60 for line in lines), [line for line in lines if len(line) > 60]
    assert max(len(line) for line in piped.splitlines()) > 150
    after = slice(text.index("Values:"), None)           # the first line's seconds vary
    assert text[after].split() == piped[piped.index("Values:"):].split()
    assert "ply  seat  move   best   before  after  loss  grade" in lines
