"""`study report --svg DIR` draws in a folder, refusing, before any work,
with one line and exit code 2, a file and a folder whose parent is
missing."""
import hashlib

import pytest
from click.testing import CliRunner

from claimsolve.cli.main import main

MATCH = ["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", "2"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(result, shown, what):
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [f"claimsolve: {shown}: {what}"]
    assert result.stdout == ""              # before any work: nothing printed


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A position, a game record and a tiny ladder study, made once."""
    folder = tmp_path_factory.mktemp("made")
    pos = folder / "p.json"
    pos.write_text(run("new", "colorclaim", "--size", "3x3", "--seed", "3").stdout)
    record = folder / "g.jsonl"
    assert run(*MATCH, "--save", record).exit_code == 0
    db = folder / "lad.sqlite"
    result = run("study", "ladder", "colorclaim", "--size", "3x3", "--specs", "random,alphabeta:depth=1",
                 "--games-per-table", "2", "--db", db, "--workers", "1")
    assert result.exit_code == 0, result.output
    return {"pos": pos, "record": record, "db": db}


# -- study report --svg DIR: a folder of charts --------------------------------------------------

@pytest.mark.parametrize("victim", ["lad.sqlite", "m1.json", "/dev/null"])
def test_report_svg_refuses_a_file_in_one_line(made, tmp_path, monkeypatch, victim):
    # it printed the report, then FileExistsError from os.makedirs, exit 1
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    if victim == "m1.json":
        (tmp_path / victim).write_text('{"a game": 1}\n')
    elif victim == "lad.sqlite":
        (tmp_path / victim).write_bytes(made["db"].read_bytes())
    kept = {p: digest(tmp_path / p) for p in ("lad.sqlite", "m1.json") if (tmp_path / p).exists()}
    refused(run("study", "report", made["db"], "--svg", victim), victim,
            "option '--svg': is not a folder; the charts go in a folder (give a folder's name)")
    assert {p: digest(tmp_path / p) for p in kept} == kept


def test_report_svg_makes_its_folder_but_never_the_parents(made, tmp_path):
    # --svg /nonexist/deep/dir made the whole path, where other outputs refuse a missing folder
    pytest.importorskip("matplotlib")
    deep = tmp_path / "nonexist" / "deep" / "dir"
    refused(run("study", "report", made["db"], "--svg", deep), deep,
            f"option '--svg': cannot make the folder: the folder {deep.parent} does not exist")
    assert not (tmp_path / "nonexist").exists()
    result = run("study", "report", made["db"], "--svg", tmp_path / "charts")
    assert result.exit_code == 0, result.output
    assert f"Chart: {tmp_path / 'charts' / 'ladder.svg'}" in result.stdout
    # the charts are pictures: drawn again, they are rewritten
    assert run("study", "report", made["db"], "--svg", tmp_path / "charts").exit_code == 0
