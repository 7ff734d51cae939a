"""`claimsolve solve --value-only` as a user meets it: the value and one best
move, its JSON fields, and the combinations it refuses (one line, exit 2)."""
import json

import pytest

from claimsolve.cli.main import main
from click.testing import CliRunner

SEEDS = __import__("pathlib").Path(__file__).resolve().parent.parent / "seeds"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def p33(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(run("new", "colorclaim", "--size", "3x3", "--seed", "2").stdout)
    return path


def test_value_only_json_fields_agree_with_the_full_answer(p33):
    fast = run("solve", p33, "--value-only", "--json")
    assert fast.exit_code == 0, fast.output
    data = json.loads(fast.stdout)
    assert set(data) == {"value", "result", "best_move", "pv", "nodes", "seconds", "complete", "value_only"}
    assert data["value_only"] is True and data["complete"] is True
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    assert data["pv"][0] == data["best_move"]
    full = json.loads(run("solve", p33, "--json").stdout)
    assert "nodes" in full and "value_only" not in full
    assert data["value"] == full["value"] and data["result"] == full["result"]
    assert data["best_move"] in full["best_moves"]
    assert data["nodes"] <= full["nodes"]


def test_value_only_text(p33):
    out = run("solve", p33, "--value-only")
    assert out.exit_code == 0, out.output
    full = json.loads(run("solve", p33, "--json").stdout)
    assert f"Value {full['value']:+d} for player 1" in out.stdout
    best_line = next(line for line in out.stdout.splitlines() if line.startswith("Best: "))
    assert best_line.split()[1] in full["best_moves"]
    assert "move      value" not in out.stdout       # no every-move table
    assert "nodes in" in out.stdout


def test_value_only_with_a_time_limit_is_accepted(p33):
    out = run("solve", p33, "--value-only", "--time", "30", "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["complete"] is True


@pytest.mark.parametrize("args,words", [
    (["--value-only=yes"], "option '--value-only' does not take a value"),
    (["--value-only", "--time", "0"], "option '--time'"),
    (["--value-only", "--hash", "0"], "option '--hash'"),
])
def test_bad_combinations_are_one_line_exit_2(p33, args, words):
    out = run("solve", p33, *args)
    assert out.exit_code == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("claimsolve: ") and words in lines[0]


def test_value_only_on_a_game_without_a_solver_is_refused():
    out = run("solve", SEEDS / "claimit" / "mid-game-3p.json", "--value-only", "--json")
    assert out.exit_code == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "exact solving is for colorclaim" in lines[0]
