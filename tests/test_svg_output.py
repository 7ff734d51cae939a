"""A picture (--svg) rewrites only a picture: every command's --svg refuses,
before any work, a file that is neither empty nor an SVG picture (a study,
a game record, a position), with one line and exit code 2, the file's
bytes kept; `study report --svg DIR` draws in a folder, refusing a file
and a folder whose parent is missing."""
import hashlib
import pathlib

import pytest
from click.testing import CliRunner

from claimsolve.cli.main import main

NOT_A_PICTURE = "option '--svg': would overwrite a file that is not an SVG picture; give another name or remove it"
SEEDS = pathlib.Path(__file__).resolve().parent.parent / "seeds"
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


def commands(made, svg):
    return {
        "show": ["show", made["pos"], "--svg", svg],
        "analyze": ["analyze", made["pos"], "--time", "0.05", "--svg", svg],
        "odds": ["odds", made["pos"], "--samples", "20", "--svg", svg],
        "match": [*MATCH, "--svg", svg],
        "review": ["review", made["record"], "--time", "0.02", "--svg", svg],
    }


@pytest.mark.parametrize("victim", ["lad.sqlite", "g.jsonl", "p.json", "text"])
@pytest.mark.parametrize("command", ["show", "analyze", "odds", "match", "review"])
def test_svg_never_overwrites_a_file_that_is_not_a_picture(made, tmp_path, monkeypatch, command, victim):
    # `match ... --svg lad.sqlite` replaced a ladder study with a chart, exit 0
    monkeypatch.chdir(tmp_path)
    path = tmp_path / victim
    if victim == "text":
        path.write_text("my notes, not a picture\n")
    else:
        path.write_bytes(made[{"lad.sqlite": "db", "g.jsonl": "record", "p.json": "pos"}[victim]].read_bytes())
    before = digest(path)
    refused(run(*commands(made, victim)[command]), victim, NOT_A_PICTURE)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [victim]


# where each command draws its picture, once its work is done
DRAWN_BY = {"analyze": ("claimsolve.render", "analysis_svg"), "odds": ("claimsolve.render", "odds_svg"),
            "match": ("claimsolve.render", "match_svg"), "review": ("claimsolve.render.review", "review_svg")}


@pytest.mark.parametrize("command", ["show", "analyze", "odds", "match", "review"])
def test_svg_keeps_a_file_another_program_wrote_during_the_work(made, tmp_path, monkeypatch, command):
    """`analyze p.json --time 3 --svg x.svg` replaced what another program
    wrote in x.svg (absent at the start) during the search: the file is
    checked again as the picture is written, and kept; the answer is
    printed first, then the one-line refusal."""
    import importlib
    svg = tmp_path / "x.svg"

    def appearing(draw):
        def drawn(*args, **kwargs):
            svg.write_text("PRECIOUS\n")
            return draw(*args, **kwargs)
        return drawn

    if command == "show":
        from claimsolve.cli import positions
        read = positions.read_position
        monkeypatch.setattr(positions, "read_position", lambda pos: appearing(lambda: read(pos))())
    else:
        module, name = DRAWN_BY[command]
        module = importlib.import_module(module)
        monkeypatch.setattr(module, name, appearing(getattr(module, name)))
    args = commands(made, svg)[command]
    if command == "odds":                            # a position odds takes: Claim It!'s
        args[1] = SEEDS / "claimit" / "mid-game-3p.json"
    if command == "review":
        args += ["--game", "1"]
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stderr.strip().splitlines() == [f"claimsolve: {svg}: {NOT_A_PICTURE}"]
    assert result.stdout.strip()                     # the answer is not lost
    assert svg.read_text() == "PRECIOUS\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.svg"]


@pytest.mark.parametrize("content", ["", "<svg xmlns='http://www.w3.org/2000/svg'/>",
                                     "\ufeff\n  <?xml version='1.0'?>\n<!-- old -->\n<svg/>", "  \n"])
@pytest.mark.parametrize("command", ["show", "match"])
def test_svg_rewrites_an_empty_file_or_a_picture(made, tmp_path, command, content):
    picture = tmp_path / "old.svg"
    picture.write_text(content, encoding="utf-8")
    result = run(*commands(made, picture)[command])
    assert result.exit_code == 0, result.output
    assert picture.read_text().lstrip().startswith(("<svg", "<?xml")) and picture.read_text() != content
    # and the picture it wrote may be rewritten again
    assert run(*commands(made, picture)[command]).exit_code == 0


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


def test_report_svg_keeps_a_file_that_has_a_charts_name(made, tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "ladder.svg").write_text("my notes\n")
    result = run("study", "report", made["db"], "--svg", tmp_path)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [f"claimsolve: {tmp_path / 'ladder.svg'}: {NOT_A_PICTURE}"]
    assert (tmp_path / "ladder.svg").read_text() == "my notes\n"


@pytest.mark.parametrize("data, picture", [
    (b"", True), (b" \n\t", True), (b"<svg xmlns='http://www.w3.org/2000/svg'/>", True),
    (b"\xef\xbb\xbf\n<svg/>", True),
    (b'<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"\n'
     b'  "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<!-- Created with matplotlib -->\n<svg>', True),
    (b"SQLite format 3\x00", False), (b'{"game": "claimit"}\n', False), (b"my notes about <svg\n", False),
    (b'<?xml version="1.0"?>\n<html><body><svg/></body></html>', False),      # a page with a picture inside
    (b'<?xml version="1.0"?>', False), (b"<!-- a comment --><svg/>", False),
])
def test_what_counts_as_a_picture(tmp_path, data, picture):
    from claimsolve.files import is_picture
    path = tmp_path / "f"
    path.write_bytes(data)
    assert is_picture(path) is picture
