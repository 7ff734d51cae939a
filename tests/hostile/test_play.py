"""`claimsolve play` against hostile input (issue 34, class 4): file names
no file can have and files that cannot be written are one line and the game
goes on; a Ctrl-C at the prompt or while the engine thinks, once or twice,
ends the game with its record and exit code 130, never death by SIGINT (on
a real pseudo-terminal, as a person presses it); garbage typed or piped in
(binary bytes, NUL, control characters, bytes that are not UTF-8, huge
lines) never gives a traceback.  Hypothesis draws the garbage: in this
process against the session (many examples), and through a pipe and a
pseudo-terminal against the command (a few, a process each).
CLAIMSOLVE_FUZZ_EXAMPLES=200 runs more, with fresh randomness."""
import os
import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

import claimsolve
from claimsolve.cli.framework import error_line
from claimsolve.play import Session

from .terminal import WAIT, Terminal

EXAMPLES = int(os.environ.get("CLAIMSOLVE_FUZZ_EXAMPLES", "0"))
PROMPT = b"(you)> "
COMMAND = [sys.executable, "-m", "claimsolve.cli.main", "play"]

# --- in this process ----------------------------------------------------------------

class Person:
    def __init__(self, lines):
        self.lines = list(lines)
        self.out, self.err = [], []

    def ask(self, prompt):
        return self.lines.pop(0) if self.lines else None


class FirstMove:
    name = "first"
    progress = None

    def choose(self, position):
        legal = position.legal_moves()
        return "stop" if "stop" in legal else legal[0]

    def observe(self, position, move):
        pass

    def reset(self):
        pass


def play_lines(start, lines, seed=0):
    person = Person(lines)
    game = Session(start, human={1}, engine=FirstMove(), rng=random.Random(seed), out=person.out.append,
                   err=person.err.append, ask=person.ask)
    game.run()
    return game, person


STARTS = {"colorclaim": lambda: claimsolve.new("colorclaim", size="3x3", seed=1),
          "claimit": lambda: claimsolve.new("claimit", players=2),
          "claim": lambda: claimsolve.load(os.path.join(os.path.dirname(__file__), "..", "..", "seeds", "claim",
                                                        "play-2p.json"))}


@pytest.mark.parametrize("name", ["a\0b", "\0", "x/\0/y.json", "ok\udcff\udcfe\0.json", "\ud800.json"])
def test_a_name_no_file_can_have_is_one_line_and_the_game_goes_on(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    start = STARTS["colorclaim"]()
    first = start.legal_moves()[0]
    game, person = play_lines(start, [f"save {name}", first])
    assert len(person.err) == 1 and "cannot write" in person.err[0]
    line = error_line(person.err[0])
    assert "\n" not in line and line.isprintable()
    assert game.moves[0] == first                        # the game went on
    assert os.listdir(tmp_path) == []                    # nothing written, nothing left behind


def test_files_that_cannot_be_written_are_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    locked = tmp_path / "locked.json"
    locked.write_text("mine")
    locked.chmod(0o444)
    names = ["folder", "no/such/folder/p.json", "x" * 300, "/dev/full", "/dev/null", ".", "locked.json"]
    start = STARTS["colorclaim"]()
    game, person = play_lines(start, [f"save {name}" for name in names] + [start.legal_moves()[0]])
    assert len(person.err) == len(names), person.err
    assert all("cannot write" in line for line in person.err)
    assert locked.read_text() == "mine" and len(game.moves) >= 1
    assert sorted(os.listdir(tmp_path)) == ["folder", "locked.json"]


def test_a_name_that_is_not_utf8_is_written_as_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = b"\xff\xfe game.json".decode("utf-8", "surrogateescape")
    _, person = play_lines(STARTS["claimit"](), [f"save {name}"])
    assert person.err == [] and os.listdir(os.fsencode(tmp_path)) == [b"\xff\xfe game.json"]
    assert person.out[-1] == "Saved the position to \\udcff\\udcfe game.json."     # printable


garbage_line = st.one_of(
    st.text(max_size=40),                                                  # any characters, lone surrogates too
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),   # bytes as stdin reads them
    st.sampled_from(["", " ", "?x", "undo", "moves", "moves all", "moves 7", "board", "help", "save",
                     "roll", "stop", "pass", "T@", "x", "-", "a1-", "a1xa1", "c3-e3 e3-", "w9@1,1",
                     "roll:0,0,0", "roll:1,1", "B@7,7", "\x00", "\x1b[A", "\r", "\t\t"]),
    st.integers(1000, 200_000).map(lambda n: "c3-" * n),                  # huge lines
    st.text(max_size=20).map(lambda name: "save " + name),                 # any file name
)


@settings(max_examples=EXAMPLES or 100, deadline=None, derandomize=not EXAMPLES, database=None,
          suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(sorted(STARTS)), lines=st.lists(garbage_line, max_size=12), seed=st.integers(0, 9))
@example(game="claim", lines=["save a\x00b", "save \ud800", "c3-e3", "save \x1b\udcff"], seed=0)
def test_garbage_lines_never_raise(game, lines, seed, tmp_path_factory):
    """Whatever is typed, the session answers and goes on: refusals are
    lines (one line each once error_line has written them), the game is
    played on, and its record replays."""
    where = tmp_path_factory.mktemp("garbage")
    here = os.getcwd()
    os.chdir(where)
    try:
        start = STARTS[game]()
        lines = [line for line in lines if line.strip() != "?"]     # the engine's hint: a second each
        play, person = play_lines(start, lines + ["quit"], seed=seed)
    finally:
        os.chdir(here)
    for complaint in person.err:
        line = error_line(complaint)
        assert "\n" not in line and line.isprintable() and len(line) <= 1100
    position = start
    for move in play.moves:
        position = position.play(move)
    assert position == play.position


# --- a real process: a pipe, and a pseudo-terminal -----------------------------------------

def assert_ended_by_ctrl_c(code, out):
    assert code == 130, (code, out[-1500:])          # not -2: death by SIGINT
    assert "Traceback" not in out, out[-3000:]
    assert "The game's record (" in out and "claimsolve: interrupted" in out, out[-1500:]
    assert out.index("The game's record (") < out.rindex("claimsolve: interrupted")


@pytest.mark.slow
def test_ctrl_c_at_the_prompt_prints_the_record_and_exits_130(tmp_path):
    """Once, after a command, and twice (the second as the record comes)."""
    for tries in range(3):
        term = Terminal("play", "colorclaim", "--size", "3x3", "--seed", str(tries), "--vs", "random", cwd=tmp_path)
        term.until(PROMPT)
        if tries:                                   # after a move or two
            term.type(b"moves\n")
            term.until(PROMPT, term.until(b"moves") + 1)
        term.press_ctrl_c()
        if tries == 2:                              # and again while the record is printed
            term.until(b"The game's record")
            term.type(term.intr)
        assert_ended_by_ctrl_c(*term.ended())


@pytest.mark.slow
@pytest.mark.parametrize("twice", [False, True])
def test_ctrl_c_while_the_engine_thinks_prints_the_record_and_exits_130(tmp_path, twice):
    """The engine on its move and on `?` (5 s each: the Ctrl-C comes first),
    with a second Ctrl-C 0-60 ms after the first."""
    for tries in range(4):
        term = Terminal("play", "colorclaim", "--size", "6x5", "--seed", str(tries), "--vs", "mcts:time=5",
                        cwd=tmp_path)
        start = term.until(PROMPT)
        term.type(b"a1-a2\n" if tries % 2 else b"?\n")
        term.until(b"thinking", start)
        time.sleep(0.1 * tries)                     # somewhere in the search
        term.type(term.intr)
        if twice:
            time.sleep(0.02 * tries)
            term.type(term.intr)
        assert_ended_by_ctrl_c(*term.ended())


# a process per example: no shrinking (each try costs seconds; the example is printed as drawn)
PROCESS_PHASES = [Phase.explicit, Phase.reuse, Phase.generate]


def _garbage_bytes(draw_lines):
    return b"".join(line + b"\n" for line in draw_lines)


byte_line = st.one_of(st.binary(max_size=60), st.sampled_from([b"\xff\xfe\xfd", b"\x00\x00", b"\x1b[A\x1b[B",
                                                               b"save \xff.json", b"save a\x00b", b"moves all",
                                                               b"x" * 3000, b"\xc3\x28", b"\xed\xa0\x80"]))


@pytest.mark.slow
@settings(max_examples=EXAMPLES or 3, deadline=None, derandomize=not EXAMPLES, database=None,
          suppress_health_check=list(HealthCheck), phases=PROCESS_PHASES)
@given(game=st.sampled_from(["colorclaim", "claimit", "claim"]), lines=st.lists(byte_line, min_size=5, max_size=25))
@example(game="colorclaim", lines=[b"save a\x00b", b"\x00", b"\xff\xfe\xfd", b"\xed\xa0\x80", b"x" * 100_000])
def test_garbage_through_a_pipe(tmp_path_factory, game, lines):
    where = tmp_path_factory.mktemp("pipe")
    args = {"colorclaim": ["--size", "3x3", "--seed", "1"], "claimit": [], "claim": ["--seed", "1"]}[game]
    stream = _garbage_bytes(lines) + b"x" * 2_000_000 + b"\nquit\n"
    done = subprocess.run(COMMAND + [game, "--vs", "random", *args], input=stream, capture_output=True,
                          cwd=where, timeout=WAIT, env=dict(os.environ, NO_COLOR="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert b"Traceback" not in done.stderr and b"The game's record" in done.stdout
    for line in done.stderr.decode("utf-8", "replace").splitlines():
        assert line.startswith("claimsolve: ") and line.isprintable() and len(line) <= 1100, line


@pytest.mark.slow
@settings(max_examples=EXAMPLES or 3, deadline=None, derandomize=not EXAMPLES, database=None,
          suppress_health_check=list(HealthCheck), phases=PROCESS_PHASES)
@given(game=st.sampled_from(["colorclaim", "claimit", "claim"]), lines=st.lists(byte_line, min_size=5, max_size=25))
@example(game="claimit", lines=[b"save a\x00b", b"moves", b"\x00", b"\xff\xfe", b"\x1b[A save \xc3\x28"])
def test_garbage_typed_at_a_terminal(tmp_path_factory, game, lines):
    """Bytes typed at the terminal, but those its line discipline makes a
    signal, a pause of the output or an end of input (Ctrl-C has its own
    tests): every line is answered, then `quit` ends the game."""
    where = tmp_path_factory.mktemp("pty")
    args = {"colorclaim": ["--size", "3x3", "--seed", "1"], "claimit": [], "claim": ["--seed", "1"]}[game]
    term = Terminal("play", game, "--vs", "random", *args, cwd=where)
    start = term.until(PROMPT)
    kept = [bytes(b for b in line.replace(b"\n", b" ").replace(b"\r", b" ") if b not in term.special)
            for line in lines]
    for line in kept:
        term.type(line[:1000] + b"\n")               # a terminal's line holds 4,095 bytes
        start = term.until(PROMPT, start + 1)
    term.type(b"quit\n")
    code, out = term.ended()
    assert code == 0 and "Traceback" not in out, out[-3000:]
    assert "The game's record" in out


def test_a_line_is_edited_at_a_terminal_with_the_arrow_keys_and_history(tmp_path):
    """At a terminal the arrow keys came as escape codes, refused as part
    of the move ("move 'a2-1\\x1b[Da': not a Color Claim move"): the line
    is now read with readline's editing (Left, then the missing "a") and
    history (Up: the line before); Escape then Enter ends a line as Enter
    does (readline's Meta-Ctrl-M switched to vi mode and kept the game
    waiting)."""
    term = Terminal("play", "colorclaim", "--size", "3x3", "--seed", "1", "--vs", "random", cwd=tmp_path,
                    env=dict(os.environ, TERM="xterm"))
    start = term.until(PROMPT)
    term.type(b"a2-1\x1b[Da\r")                    # Left, then the "a" the move lacked
    start = term.until(PROMPT, term.until(b"Player 1 (you) plays a2-a1", start))
    term.type(b"b9\r")
    start = term.until(PROMPT, term.until(b"move 'b9'", start))
    term.type(b"\x1b[A\r")                          # Up: b9 again
    start = term.until(PROMPT, term.until(b"move 'b9'", start))
    term.type(b"c9\x1b\r")                          # Escape, Enter
    start = term.until(PROMPT, term.until(b"move 'c9'", start))
    term.type(b"quit\r")
    code, out = term.ended()
    assert code == 0 and "\\x1b" not in out and "Traceback" not in out, out[-3000:]
    assert '"moves": ["a2-a1", ' in out


def test_typed_dice_are_asked_for_in_the_prompts_words_and_quit_ends_there():
    # the prompt asks "like 3,5,1", the refusal said "roll:a,b,c"; quit at it
    # was refused as dice
    person = Person(["7,1,1", "3,5", "quit"])
    game = Session(claimsolve.new("claimit", players=2), human={2}, engine=FirstMove(), rng=random.Random(0),
                   out=person.out.append, err=person.err.append, ask=person.ask, dice="typed")
    game.run()
    assert person.err == ["dice '7,1,1': type three dice values 1..6, like 3,5,1",
                          "dice '3,5': type three dice values 1..6, like 3,5,1"]
    assert game.quit and game.moves == []


def test_a_white_marker_beyond_six_is_named():
    start = claimsolve.load(os.path.join(os.path.dirname(__file__), "..", "..", "seeds", "claimit",
                                         "mid-game-dice-3p.json"))
    with pytest.raises(claimsolve.errors.MoveError, match="the white markers are w1 to w6"):
        start.play("w9@1,1")
