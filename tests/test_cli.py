"""The command line as a user meets it (README.md, `claimsolve --help`)."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from claimsolve.cli.main import main

SEEDS = __import__("pathlib").Path(__file__).resolve().parent.parent / "seeds"


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return result


def run_json(*args, input=None):
    result = run(*args, "--json", input=input)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def p44(tmp_path):
    result = run("new", "colorclaim", "--size", "4x4", "--seed", "7")
    assert result.exit_code == 0, result.output
    path = tmp_path / "p.json"
    path.write_text(result.stdout)
    return path


def test_new_is_seeded_and_loadable(p44):
    again = run("new", "colorclaim", "--size", "4x4", "--seed", "7").stdout
    assert again == p44.read_text()
    data = json.loads(again)
    assert data["game"] == "colorclaim" and len(data["board"]) == 4
    assert all(len(row.split()) == 4 for row in data["board"])
    other = run("new", "colorclaim", "--size", "4x4", "--seed", "8").stdout
    assert other != again


def test_show_moves_apply(p44, tmp_path):
    shown = run("show", p44)
    assert shown.exit_code == 0 and "a" in shown.stdout
    moves = run_json("moves", p44)
    assert moves and all(isinstance(m, str) for m in moves)
    plain = run("moves", p44).stdout.split()
    assert plain == moves
    after = run("apply", p44, moves[0])
    assert after.exit_code == 0, after.output
    q = json.loads(after.stdout)
    assert q["to_move"] == 2
    # the input file is untouched
    assert json.loads(p44.read_text())["to_move"] == 1
    # applying from standard input gives the same
    piped = run("apply", "-", moves[0], input=p44.read_text())
    assert piped.stdout == after.stdout


def test_perft_json_lists_counts_per_depth():
    start = SEEDS / "colorclaim" / "start-6x5.json"
    data = run_json("perft", start, "--depth", "2")
    assert data["depth"] == 2 and len(data["nodes"]) == 2
    assert data["nodes"][0] == len(run_json("moves", start))


def test_solve_json_fields(tmp_path):
    pos = tmp_path / "s.json"
    pos.write_text(run("new", "colorclaim", "--size", "3x3", "--seed", "2").stdout)
    data = run_json("solve", pos)
    assert set(data) >= {"value", "result", "best_moves", "moves", "pv", "nodes", "seconds"}
    assert data["result"] == ("win" if data["value"] > 0 else "loss" if data["value"] < 0 else "draw")
    values = {m["move"]: m["value"] for m in data["moves"]}
    assert set(values) == set(run_json("moves", pos))
    assert max(values.values()) == data["value"]
    assert set(data["best_moves"]) == {m for m, v in values.items() if v == data["value"]}
    assert data["pv"][0] in data["best_moves"]


def test_analyze_json_best_first(p44):
    data = run_json("analyze", p44, "--time", "0.3", "--top", "3")
    assert data["game"] == "colorclaim" and data["to_move"] == 1
    assert data["engine"] in ("solver", "alphabeta", "mcts")
    assert 1 <= len(data["suggestions"]) <= 3
    assert data["suggestions"][0]["move"] in run_json("moves", p44)


@pytest.mark.parametrize("content, fragment", [
    ("{not json", "invalid JSON"),
    ('{"game": "chess"}', "game"),
    ('{"game": "colorclaim", "board": ["R1 G1", "B1 Y1"], "colour": 1}', "colour"),
    ('{"game": "colorclaim", "board": ["R1 G1", "B1 Q1"]}', "board"),
    ('{"game": "colorclaim", "board": ["R1 G1", "B1 Y1"], "to_move": 3}', "to_move"),
])
def test_bad_positions_exit_2_with_one_line(tmp_path, content, fragment):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("show", path)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0] and fragment in lines[0]
    assert "Traceback" not in result.output


def test_missing_file_and_illegal_move(p44, tmp_path):
    missing = run("show", tmp_path / "nope.json")
    assert missing.exit_code == 2 and "nope.json" in missing.stderr
    illegal = run("apply", p44, "a1-d4")
    assert illegal.exit_code == 2
    assert "a1-d4" in illegal.stderr and str(p44) in illegal.stderr
    assert len(illegal.stderr.strip().splitlines()) == 1


def test_console_script_exit_codes(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    proc = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "show", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "bad.json" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_show_svg_writes_a_picture_or_nothing(p44, tmp_path):
    picture = tmp_path / "board.svg"
    assert run("show", p44, "--svg", picture).exit_code == 0
    assert picture.read_text().lstrip().startswith(("<svg", "<?xml"))
    assert oct(picture.stat().st_mode & 0o044) != "0o0"      # readable like any new file
    missing = run("show", p44, "--svg", tmp_path / "no" / "board.svg")
    assert missing.exit_code == 2 and "board.svg" in missing.stderr
    assert not (tmp_path / "no").exists()


def test_claimit_flow(tmp_path):
    start = tmp_path / "c.json"
    start.write_text(run("new", "claimit", "--players", "3").stdout)
    after = run("apply", start, "roll:3,5,1", "w1@3,5")
    assert after.exit_code == 0, after.output
    q = tmp_path / "q.json"
    q.write_text(after.stdout)
    assert json.loads(after.stdout)["board"][2].split()[4] == "w1"
    assert set(run_json("moves", q)) == {"roll", "stop"}
    table = run_json("odds", q, "--samples", "300")
    assert table["bust_probability"] == pytest.approx(1 / 216)
    assert table["recommendation"] in ("roll", "stop")
    assert set(table["turn_optimum"]) >= {"secured", "held"}
    data = run_json("analyze", q, "--iterations", "2000")
    assert data["engine"] == "mcts" and data["suggestions"][0]["move"] in ("roll", "stop")
    assert "odds" in data
    dice = run("apply", q, "roll", "--seed", "4")
    assert dice.exit_code == 0 and dice.stdout == run("apply", q, "roll", "--seed", "4").stdout
    refused = run("perft", q, "--depth", "2")
    assert refused.exit_code == 2 and "dice" in refused.stderr and str(q) in refused.stderr


def test_no_progress_when_stderr_is_not_a_terminal(p44):
    result = run("analyze", p44, "--time", "0.3", "--json")
    assert result.exit_code == 0 and result.stderr == ""


def test_perft_pads_with_zeros_past_the_end(tmp_path):
    # two stacks left: one move ends the game (nothing can move onto nothing)
    pos = tmp_path / "end.json"
    pos.write_text(json.dumps({"game": "colorclaim", "board": ["R1 G2", ". ."]}))
    data = run_json("perft", pos, "--depth", "3")
    assert data["nodes"][0] == len(run_json("moves", pos)) > 0
    assert data["nodes"][1:] == [0, 0]
    solved = run_json("solve", pos)
    assert solved["value"] == max(m["value"] for m in solved["moves"])


def same_file_refused(result, option, shown):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert lines == [f"claimsolve: option '{option}': {shown} is the position file this command reads; "
                     "give another file"]


@pytest.mark.parametrize("command", [("show",), ("analyze", "--time", "0.2"), ("odds", "--samples", "50")])
@pytest.mark.parametrize("spelling", ["same", "dot", "link"])
def test_svg_output_may_not_be_the_position_file(tmp_path, monkeypatch, command, spelling):
    game = ("claimit", "--players", "3") if command[0] == "odds" else ("colorclaim", "--size", "4x4", "--seed", "7")
    monkeypatch.chdir(tmp_path)
    pos = tmp_path / "same.json"
    pos.write_text(run("new", *game).stdout)
    before = pos.read_bytes()
    if spelling == "link":
        (tmp_path / "link.json").symlink_to(pos)
        read, written = "link.json", "same.json"
    else:
        read, written = "same.json", "./same.json" if spelling == "dot" else "same.json"
    result = run(command[0], read, *command[1:], "--svg", written)
    same_file_refused(result, "--svg", written)
    assert pos.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["same.json"] + (["link.json"] if spelling == "link"
                                                                                 else []))


def test_svg_output_beside_the_position_file_is_written(p44, tmp_path):
    before = p44.read_bytes()
    result = run("show", p44, "--svg", tmp_path / "other.svg")
    assert result.exit_code == 0, result.output
    assert p44.read_bytes() == before and (tmp_path / "other.svg").read_text().lstrip().startswith(("<svg", "<?xml"))


def test_play_record_may_not_be_the_loaded_position(p44):
    before = p44.read_bytes()
    result = run("play", "colorclaim", "--load", p44, "--record", p44, "--vs", "random", input="quit\n")
    same_file_refused(result, "--record", p44)
    assert result.stdout == ""                  # refused before the game starts
    assert p44.read_bytes() == before


def test_match_svg_may_not_be_its_save_file(tmp_path, monkeypatch):
    # the chart would replace the games saved (exit 0 before)
    monkeypatch.chdir(tmp_path)
    result = run("match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", "2",
                 "--save", "games.jsonl", "--svg", "./games.jsonl")
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == ["claimsolve: option '--svg': ./games.jsonl is the --save file; "
                                                  "give another file"]
    assert list(tmp_path.iterdir()) == []


def test_svg_output_that_is_read_only_is_refused_before_any_work(p44, tmp_path):
    picture = tmp_path / "kept.svg"
    picture.write_text("mine")
    picture.chmod(0o444)
    result = run("show", p44, "--svg", picture)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"claimsolve: {picture}: option '--svg': cannot write: the file is read-only"]
    assert result.stdout == "" and picture.read_text() == "mine"


def test_svg_output_os_access_refuses_is_refused_before_any_work(p44, tmp_path, monkeypatch):
    # the same refusal where the tests run as root (whom os.access lets write anything)
    picture = tmp_path / "kept.svg"
    picture.write_text("mine")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if os.fspath(p) == str(picture) and mode == os.W_OK
                        else real_access(p, mode, **kw))
    result = run("show", p44, "--svg", picture)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"claimsolve: {picture}: option '--svg': cannot write: the file is read-only"]
    assert result.stdout == "" and picture.read_text() == "mine"


def test_odds_takes_two_threads_for_the_turn_optimum():
    """`odds --threads 2`: the same exact turn optimum as one thread;
    `--threads 3` refused in one line, exit code 2."""
    start = SEEDS / "claimit" / "start-3p.json"
    one = run_json("odds", start, "--samples", "20")["turn_optimum"]
    two = run_json("odds", start, "--samples", "20", "--threads", "2")["turn_optimum"]
    for objective in ("secured", "held"):
        assert one[objective]["exact"] and two[objective]["exact"]
        assert two[objective]["decisions"] == pytest.approx(one[objective]["decisions"], abs=1e-9)
    refused = run("odds", start, "--threads", "3")
    assert refused.exit_code == 2 and "--threads" in refused.stderr and len(refused.stderr.splitlines()) == 1


def test_an_unfinished_solve_says_what_it_proved_in_a_few_lines():
    """Moves with no bound are one line (their count), moves sharing a bound
    one line each bound; exact values and lone bounds keep their rows."""
    from claimsolve.render import solve_text
    from claimsolve.search.result import SearchResult, Suggestion

    position = __import__("claimsolve").load(SEEDS / "colorclaim" / "start-4x4-seed1.json")
    moves = position.legal_moves()

    def bound(move, lower, upper):
        return Suggestion(move, None, extra={"lower": lower, "upper": upper})

    suggestions = ([Suggestion(moves[0], 2, exact=True), bound(moves[1], None, 0)]
                   + [bound(move, None, 2) for move in moves[2:30]] + [bound(move, 1, 3) for move in moves[30:32]]
                   + [bound(move, None, None) for move in moves[32:]])
    result = SearchResult("solver", suggestions, pv=[moves[0]], nodes=1000, seconds=0.5, complete=False,
                          info={"value": None, "lower": 2, "upper": None})
    lines = solve_text(position, result).splitlines()
    assert lines[0] == "Not finished within the time limit. Proven so far: the value for player 1 lies in [+2, ?]."
    assert lines[2:9] == [
        "move      value",
        f"{moves[0]:<8}     +2",
        f"{moves[1]:<8}   <=+0",
        f"{moves[30]:<8}  +1..+3",
        f"{moves[31]:<8}  +1..+3",
        f"28 moves <=+2: {', '.join(moves[2:7])} and 23 more",
        f"The other {len(moves) - 32} moves: no bound proven yet ({', '.join(moves[32:37])} and "
        f"{len(moves) - 37} more)",
    ]
    none = SearchResult("solver", [bound(move, None, None) for move in moves], nodes=10, seconds=0.1,
                        complete=False, info={"value": None, "lower": None, "upper": None})
    lines = solve_text(position, none).splitlines()
    assert lines[0] == "Not finished within the time limit. Nothing proven yet: no bound on the value for player 1."
    assert lines[2] == f"{len(moves)} moves: no bound proven yet ({', '.join(moves[:5])} and {len(moves) - 5} more)"
    assert len(lines) == 4


def test_solve_cut_short_on_the_full_board_is_a_few_lines():
    result = run("solve", SEEDS / "colorclaim" / "start-6x5.json", "--time", "0.3")
    assert result.exit_code == 0
    assert len(result.stdout.strip().splitlines()) < 12          # not a row per move of its 196
    assert "[?, ?]" not in result.stdout


def test_help_loads_no_engine_nor_numpy_and_leaves_ctrl_c_alone():
    # start-up stays fast: `claimsolve --help` lists every command and game
    # without loading an engine (claimsolve._*), numpy or the web board; the
    # command modules (cli/framework.py and the topics) import without
    # changing Ctrl-C, which only cli/main.py holds while it loads
    code = """
import signal, sys
import claimsolve.cli.framework, claimsolve.cli.analyze, claimsolve.cli.play
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
from claimsolve.cli.main import main
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
try:
    main(["--help"], prog_name="claimsolve")
except SystemExit as exc:
    assert exc.code == 0
heavy = sorted(m for m in sys.modules if m.startswith(("claimsolve._", "claimsolve.web"))
               or m.split(".")[0] in ("numpy", "starlette", "uvicorn"))
print(heavy, file=sys.stderr)
sys.exit(1 if heavy else 0)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Commands:" in proc.stdout and "colorclaim" in proc.stdout


def test_match_duplicate_dice_are_refused_for_a_game_without_dice():
    refused = run("match", "colorclaim", "--a", "random", "--b", "random", "--duplicate")
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines() == ["claimsolve: option '--duplicate': colorclaim has no dice to deal alike"]


@pytest.mark.parametrize("command", ["play", "review", "prompt"])
def test_a_game_record_never_replaces_a_file_that_exists(tmp_path, monkeypatch, command):
    # play --record and review --save replaced an earlier game with rc 0; the
    # prompt's `save` a file the user had: each is refused as match --save is
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "keep.json"
    keep.write_text('{"an earlier game": 1}\n')
    if command == "play":
        result = run("play", "colorclaim", "--size", "3x3", "--vs", "random", "--record", "keep.json", input="quit\n")
        assert result.stdout == ""                      # refused before the game starts
    elif command == "review":
        assert run("match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", "1",
                   "--save", "g.jsonl").exit_code == 0
        result = run("review", "g.jsonl", "--time", "0.05", "--save", "keep.json")
        assert result.stdout == ""
    else:
        result = run("play", "colorclaim", "--size", "3x3", "--vs", "random",
                     input="save keep.json\nsave mine.json\nsave mine.json\nquit\n")
        assert result.exit_code == 0, result.output
        assert result.stdout.count("Saved the position to mine.json.") == 2   # its own file, twice
        assert "Saved the position to keep.json" not in result.stdout
    option = {"play": "--record", "review": "--save", "prompt": None}[command]
    where = f"option '{option}': " if option else ""
    assert f"claimsolve: keep.json: {where}the file exists; it is not overwritten" in result.stderr
    if option:
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert keep.read_text() == '{"an earlier game": 1}\n'


def test_play_prints_its_record_when_the_record_file_cannot_be_written(tmp_path, monkeypatch):
    # a file made under --record while the game is played (by another program: `save` refuses the
    # name, so the check at the start is passed over here): the game is printed, not lost
    monkeypatch.chdir(tmp_path)
    (tmp_path / "late.json").write_text(json.dumps({"game": "colorclaim"}))
    monkeypatch.setattr("claimsolve.cli.play.refuse_existing", lambda option, path: None)
    result = run("play", "colorclaim", "--size", "3x3", "--vs", "random", "--record", "late.json",
                 input="quit\n")
    assert result.exit_code == 2, result.output
    assert "The game's record (0 moves, match --save format):" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == ("claimsolve: late.json: option '--record': the file exists; it "
                                                      "is not overwritten (remove it, or give another name)")
    assert json.loads((tmp_path / "late.json").read_text())["game"] == "colorclaim"


def test_typed_dice_for_a_game_without_dice_are_refused():
    result = run("play", "colorclaim", "--size", "3x3", "--dice", "typed", input="quit\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == "claimsolve: option '--dice': colorclaim has no dice to type"


def test_every_command_has_json():
    """The contract: every command has `--json` (play and serve had none)."""
    import click

    def commands(command, path):
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from commands(sub, path + [name])
        else:
            yield " ".join(path), command

    found = dict(commands(main, []))
    assert {"play", "serve", "analyze", "study report", "train"} <= set(found)
    assert [name for name, command in found.items()
            if not any("--json" in getattr(p, "opts", ()) for p in command.params)] == []


def test_a_progress_line_fits_its_terminals_row():
    """It was padded and cut to 100 characters: on an 80-column terminal
    every redraw wrapped into a new line (a 3 s move left 8 of them), and at
    160 columns "... visits 179,285  mean" lost its number.  A field that
    does not fit is left out whole."""
    import io

    from claimsolve.progress import ProgressLine

    class Terminal(io.StringIO):
        def __init__(self, columns):
            super().__init__()
            self.columns = columns

        def fileno(self):
            return -1

    info = {"iterations": 84808, "seconds": 1.36, "best": "T@g3 i4-i3", "visits": 179285, "mean": 0.38}
    for columns, shown in ((80, "best T@g3 i4-i3"), (160, "seconds 1.36  best's visits 179,285")):
        screen = Terminal(columns)
        line = ProgressLine("player 2 (engine) thinking", stream=screen, interval=0)
        line._columns = lambda columns=columns: columns
        line(info)
        written = screen.getvalue()
        assert written.startswith("\r") and len(written) == columns             # one row, the last column free
        assert shown in written
        if columns == 80:
            assert "visits" not in written and "seconds" not in written   # left out whole, not cut through
    # a pseudo-terminal whose size was never set says 0 columns: 100, not a line cut to nothing (the
    # hostile play tests' terminal saw "player 2 (engine)..." and never "thinking")
    import os
    master, child = os.openpty()
    with os.fdopen(child, "w") as stream:
        assert os.get_terminal_size(child).columns == 0
        assert ProgressLine("x", stream=stream)._columns() == 100
    os.close(master)


def test_a_progress_line_says_whose_mean_it_shows():
    """The engine's line read "... best T@g3 i4-i3  visits 179,285  mean
    0.38": a mean of what?  It is the search's mean result of its best
    move, said so, and put next to the move: on a 100-column terminal the
    mean came last and was left out, now the search's counts are."""
    import io

    from claimsolve.progress import ProgressLine

    def shown(info, columns):
        screen = io.StringIO()
        line = ProgressLine("player 2 (engine) thinking", stream=screen, interval=0)
        line._columns = lambda: columns
        line(info)
        return screen.getvalue().strip()

    mcts = {"iterations": 84808, "seconds": 1.36, "best": "T@g3 i4-i3", "visits": 179285, "mean": 0.38}
    assert shown(mcts, 160) == ("player 2 (engine) thinking: best T@g3 i4-i3  best's mean win chance 0.38  "
                                "iterations 84,808  seconds 1.36  best's visits 179,285")
    for columns in (80, 100):
        assert "best T@g3 i4-i3  best's mean win chance 0.38" in shown(mcts, columns)
    alphabeta = {"depth": 4, "score": 3, "best": "e1xe2", "nodes": 2905088, "seconds": 0.6}
    assert shown(alphabeta, 100) == ("player 2 (engine) thinking: best e1xe2  best's score +3  depth 4  "
                                     "nodes 2,905,088  seconds 0.6")
