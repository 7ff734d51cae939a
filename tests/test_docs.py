"""The documentation against the program: every command output shown in
README.md and docs/*.md is what the command prints now (docs/regenerate.py
makes them; exactly where the output is seeded, by its shape where it
varies), the README's Python block runs as shown (doctest), every shown
output is marked with its command, and the site builds with `mkdocs build
--strict`."""
import doctest
import json
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent

spec = importlib.util.spec_from_file_location("docs_regenerate", ROOT / "docs" / "regenerate.py")
regenerate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regenerate)
spec = importlib.util.spec_from_file_location("docs_pictures", ROOT / "docs" / "pictures.py")
pictures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pictures)

# The markdown files holding shown outputs that the test runs (the `slow` and
# `timed` ones are left to docs/regenerate.py).
FILES = [path for path in regenerate.markdown_files()
         if any(not item.flags & regenerate.UNTESTED for item in regenerate.parse(path))]


def _name(path):
    return str(path.relative_to(ROOT))


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=_name)
def test_shown_outputs_are_what_the_commands_print(path):
    differ = []
    for item, printed in regenerate.outputs(regenerate.parse(path), fast=True):
        if not regenerate.matches(item, printed):
            differ.append(f"{item.where}: `{item.command}` prints now:\n{printed}\n--- the file shows:\n{item.text}")
    assert not differ, "run `python docs/regenerate.py`:\n\n" + "\n\n".join(differ)


def test_readme_and_tour_have_outputs_the_test_runs():
    assert {"README.md", "docs/tour.md", "docs/cli.md"} <= {_name(path) for path in FILES}


def test_shape_is_the_first_words_with_numbers_as_n():
    assert regenerate.skeleton("25,952 nodes in 1.80 s\n\n1  i3+l5  0.641") == ["N", "", "N"]
    item = regenerate.Shown(ROOT / "README.md", 1, "x", frozenset({"shape"}), "PV: a\n1,234 nodes", 0, 0)
    assert regenerate.matches(item, "PV: b c\n99 nodes")
    assert not regenerate.matches(item, "PV: b c\n99 nodes\nNote: more")
    assert not regenerate.matches(item, "Best: b\n99 nodes")
    exact = regenerate.Shown(ROOT / "README.md", 1, "x", frozenset(), "depth  1  27", 0, 0)
    assert regenerate.matches(exact, "depth  1  27") and not regenerate.matches(exact, "depth  1  28")


def test_every_shown_output_is_marked_with_its_command():
    """A fenced block with a `$ command` line followed by what it prints
    must come right after an `<!-- output: command -->` marker (blocks of
    commands alone show no output and need none); the markers parse."""
    unmarked = []
    for path in regenerate.markdown_files():
        regenerate.parse(path)              # a malformed marker raises, naming the file and line
        lines = path.read_text().split("\n")
        fence = None
        for i, line in enumerate(lines):
            if line.startswith("```"):
                fence = None if fence is not None else i
                continue
            if fence is None or not line.startswith("$ "):
                continue
            shows_output = i + 1 < len(lines) and lines[i + 1] and not lines[i + 1].startswith(("$ ", "```"))
            marked = fence > 0 and regenerate.MARKER.match(lines[fence - 1].strip())
            if shows_output and not marked:
                unmarked.append(f"{_name(path)}:{i + 1}: {line}")
    assert not unmarked, "shown outputs without an <!-- output: ... --> marker:\n" + "\n".join(unmarked)


IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.(?:svg|png|jpe?g|gif))\)")


def _images():
    """[(markdown file, 0-based line, the picture's path)] of every picture README.md and docs/*.md show."""
    found = []
    for path in regenerate.markdown_files():
        for i, line in enumerate(path.read_text().split("\n")):
            found += [(path, i, (path.parent / target).resolve()) for target in IMAGE.findall(line)]
    return found


def test_the_pictures_table_names_every_picture_shown_and_every_picture_file():
    """docs/pictures.py remakes every picture: each one README.md and
    docs/*.md show, and each picture file in docs/, is in its table (once)."""
    names = [picture.name for picture in pictures.PICTURES]
    assert len(names) == len(set(names))
    shown = {target for _, _, target in _images()}
    assert shown, "no pictures found in the markdown"
    assert {target.parent for target in shown} == {ROOT / "docs"}, "a picture outside docs/"
    assert sorted(t.name for t in shown if t.name not in names) == [], "shown but not in docs/pictures.py's table"
    files = {path.name for ext in ("svg", "png", "jpg", "jpeg", "gif") for path in (ROOT / "docs").glob(f"*.{ext}")}
    assert sorted(files - set(names)) == [], "files in docs/ that docs/pictures.py does not remake"
    assert sorted(set(names) - {t.name for t in shown}) == [], "in the table but shown nowhere"
    for picture in pictures.PICTURES:
        assert (picture.command and picture.made) if picture.name.endswith(".svg") else picture.scene, picture.name


def test_each_svg_is_shown_beside_the_command_that_draws_it():
    """Every place an SVG is shown, its command (as the table has it) is in
    the 15 lines before it, so the reader sees how to draw it himself."""
    commands = {picture.name: picture.command for picture in pictures.PICTURES if picture.command}
    missing = []
    for path, line, target in _images():
        if target.name in commands:
            before = " ".join(" ".join(path.read_text().split("\n")[max(0, line - 15):line]).split())
            if commands[target.name] not in before:
                missing.append(f"{_name(path)}:{line + 1}: {target.name}: `{commands[target.name]}`")
    assert not missing, "pictures shown without their command before them:\n" + "\n".join(missing)


def test_the_quick_pictures_say_what_their_commands_draw_now():
    """The README's pictures said "1 points" and "scores are mean rewards"
    long after the program stopped printing it: the pictures that take a
    few seconds are drawn again and their words compared (`docs/pictures.py
    --check --fast`; the studies and the board's screenshots are left to a
    full --check)."""
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "pictures.py"), "--check", "--fast"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_pictures_words_are_its_texts_without_the_figures_of_work():
    svg = ('<svg><title>b1: stack</title><text x="1">Engine: MCTS, 5,000 simulations</text>'
           '<text><tspan>30,000 nodes in 1.44 s</tspan> <tspan>(61,606/s); budget reached.</tspan></text>'
           '<!-- threshold:5 (held at 0) --><text>3 seats: 0.913 &amp; 2 s</text></svg>')
    assert pictures.words(svg) == ["b1: stack", "Engine: MCTS, N simulations",
                                   "N nodes in N s (N/s); budget reached.", "threshold:5 (held at 0)",
                                   "3 seats: 0.913 & N s"]


def test_readme_python_block_runs_as_shown(monkeypatch):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^```pycon\n(.*?)^```", text, re.S | re.M)
    assert blocks, "README.md has no ```pycon block"
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks, 1):
        runner.run(parser.get_doctest(block, {}, f"README.md python block {number}", "README.md", 0))
    failed, attempted = runner.summarize(verbose=False)
    assert attempted >= 5 and failed == 0


def test_readme_keeps_the_two_set_up_commands_ci_reads():
    lines = (ROOT / "README.md").read_text().split("\n")
    assert 'pip install -e ".[test]" && python -m pytest' in lines
    assert "pip install . && claimsolve analyze seeds/claim/play-2p.json" in lines
    ci = (ROOT / ".ci" / "run").read_text()
    pattern = re.search(r"sed -n '(s/.*/p)'", ci).group(1)
    extracted = subprocess.run(["sed", "-n", pattern, str(ROOT / "README.md")], capture_output=True,
                               text=True, check=True).stdout.split("\n")[0]
    assert extracted == 'pip install -e ".[test]" && python -m pytest'
    assert len(lines) <= 250


@pytest.mark.slow
def test_the_site_builds_strict(tmp_path):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site"),
                           "--config-file", str(ROOT / "mkdocs.yml")], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "architecture" / "index.html").is_file()
    assert (tmp_path / "site" / "tour" / "index.html").is_file()


def test_the_site_lists_every_page_in_a_readers_order():
    """mkdocs.yml's nav names every page of docs/ once (a page left out also
    fails the strict build), home and the tour first, not alphabetically."""
    def pages(entries):
        for entry in entries:
            for value in (entry.values() if isinstance(entry, dict) else [entry]):
                yield from pages(value) if isinstance(value, list) else [value]

    nav = list(pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]))
    assert sorted(nav) == sorted(path.name for path in (ROOT / "docs").glob("*.md"))
    assert nav[:2] == ["index.md", "tour.md"] and nav != sorted(nav)


def test_the_home_page_links_every_page():
    """docs/index.md, the site's home and the repository's map of docs/,
    links every other page of docs/ (tensors.md had been left out)."""
    home = (ROOT / "docs" / "index.md").read_text()
    linked = set(re.findall(r"\]\(([a-z-]+\.md)(?:#[^)]*)?\)", home))
    pages = {path.name for path in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert pages - linked == set()


def _python_blocks():
    for path in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for block in re.findall(r"^```python\n(.*?)^```", path.read_text(), re.S | re.M):
            yield path.name, block


# run in a new interpreter per set of import lines: in this one, other tests have imported
# claimsolve's submodules already, and `import claimsolve` would seem to give them all
_REACHED = """
import json, sys
imports, names = json.loads(sys.argv[1])
namespace = {}
for line in imports:
    exec(line, namespace)
for dotted in names:
    reached = namespace.get("claimsolve")
    for part in dotted.split(".")[1:]:
        if reached is None or not hasattr(reached, part):
            print(f"{dotted}: the block's imports give no '{part}'")
            break
        reached = getattr(reached, part)
"""


def test_the_docs_python_blocks_name_what_their_imports_give():
    """docs/review.md's example called `claimsolve.render.review.review_svg`
    after `import claimsolve` alone: AttributeError, module 'claimsolve' has
    no attribute 'render'.  Every ```python block of the docs compiles (an
    excerpt that is not Python is fenced as text), its imports run, and each
    `claimsolve.a.b` it names is reached from them."""
    wanted = {}
    for name, block in _python_blocks():
        compile(block, name, "exec")
        imports, code = [], []
        for line in block.splitlines():
            (imports if re.match(r"\s*(import|from)\s", line) else code).append(line.split("#")[0].strip())
        names = re.findall(r"(?<![\w.\"'])claimsolve(?:\.\w+)+", "\n".join(code))
        if names:
            wanted.setdefault(json.dumps(sorted(set(imports))), []).append((name, names))
    assert wanted
    for imports, blocks in wanted.items():
        names = sorted({dotted for _, found in blocks for dotted in found})
        run = subprocess.run([sys.executable, "-c", _REACHED, json.dumps([json.loads(imports), names])],
                             capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert run.returncode == 0, run.stderr
        assert not run.stdout, f"{[name for name, _ in blocks]}: {run.stdout}"
