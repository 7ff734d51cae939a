"""What the hostile-input tests share: running the command line in this
process (click's CliRunner) and the contract every answer must keep
(docs/cli.md): success is exit 0 with output; bad input is exit code 2 and
exactly one line on stderr, `claimsolve: ...`, naming the file and the
field, option or move; never exit 1, never a traceback."""
import json
import pathlib

from click.testing import CliRunner

from claimsolve.cli.main import main

SEEDS = pathlib.Path(__file__).resolve().parent.parent.parent / "seeds"
SEED_FILES = sorted(SEEDS.glob("*/*.json"))

# one small seed of each game, and one with dice on the table
COLORCLAIM = SEEDS / "colorclaim" / "start-3x3-seed1.json"
CLAIMIT = SEEDS / "claimit" / "mid-game-3p.json"
CLAIMIT_DICE = SEEDS / "claimit" / "mid-game-dice-3p.json"
CLAIM = SEEDS / "claim" / "play-2p.json"
CLAIM_SETTLE = SEEDS / "claim" / "settle-3p.json"
ONE_OF_EACH = {"colorclaim": COLORCLAIM, "claimit": CLAIMIT, "claim": CLAIM}


def run(*args, input=None):
    """The command line run in this process; exceptions are caught (an
    uncaught one is exit code 1 and result.exception, which the contract
    forbids)."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=True)


def describe(result):
    exc = result.exception
    shown = "" if exc is None or isinstance(exc, SystemExit) else f" {type(exc).__name__}: {exc!s:.300}"
    return f"exit {result.exit_code}{shown}; stderr {result.stderr[:600]!r}; stdout {result.stdout[:200]!r}"


def assert_contract(result, args=None):
    """Exit 0 with output, or exit 2 with one line; nothing else.  (`moves`
    of a finished game lists no move: with `args` given, its empty output
    passes.)"""
    assert result.exit_code in (0, 2), describe(result)
    assert "Traceback" not in result.stderr, describe(result)
    if result.exit_code == 2:
        assert_one_line(result)
    elif not (args and args[0] == "moves"):
        assert result.stdout.strip(), describe(result)
    return result


def assert_one_line(result):
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and result.stderr.endswith("\n"), describe(result)
    assert lines[0].startswith("claimsolve: "), describe(result)
    assert lines[0].isprintable(), describe(result)
    return lines[0]


def assert_refused(result, *needles):
    """Exit 2, one line naming every one of `needles`, nothing on stdout."""
    assert result.exit_code == 2, describe(result)
    line = assert_one_line(result)
    for needle in needles:
        assert str(needle) in line, f"{needle!r} not in {line!r}"
    assert result.stdout == "", describe(result)
    return line


def seed_data(path):
    return json.loads(pathlib.Path(path).read_text())
