"""Regenerates every command output shown in README.md and docs/*.md.

A shown output is a fenced block right after a marker comment naming its
command:

    <!-- output: claimsolve perft seeds/claim/play-2p.json --depth 3 -->
    ```
    $ claimsolve perft seeds/claim/play-2p.json --depth 3
    depth  1                27
    ...
    ```

The block is `$ COMMAND` and what the command prints (standard output, then
standard error, as a terminal shows them).  The word after `output` may say
more, comma-separated, before the colon:

    shape   the output varies from run to run (timings, node counts on two
            threads, MCTS, budgets in wall-clock time): tests/test_docs.py
            compares its shape (the same lines, each line's first word with
            its digits as N), not its text;
    slow    it takes more than a few seconds: regenerated here, not run by
            tests/test_docs.py;
    timed   even its shape depends on how fast the machine is (what a
            wall-clock budget proves, which lines it prints): regenerated
            here, not run by tests/test_docs.py.

    <!-- output shape,slow: claimsolve odds d.json -->

The commands of one markdown file run with bash, in the order they appear,
in one scratch directory (so that a file made by one block, `claimsolve new
... > p.json`, is there for the next), where `seeds` is the repository's;
`claimsolve` is the one of this Python's environment, importing this
repository's package.

    python docs/regenerate.py                 # rewrite every shown output
    python docs/regenerate.py --check         # list the outputs that differ; exit 1 if any
    python docs/regenerate.py README.md       # only these files
    python docs/regenerate.py --fast          # leave out the `slow` and `timed` ones
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- output(?: ([a-z,]+))?: (.+?) -->$")
FLAGS = {"shape", "slow", "timed"}
UNTESTED = {"slow", "timed"}       # tests/test_docs.py leaves these out
TIMEOUT = 600


@dataclass
class Shown:
    """One shown output: where it is, its command, how it is checked, and
    the text the markdown shows (the lines after `$ COMMAND`)."""
    path: Path
    line: int              # 1-based line of the marker
    command: str
    flags: frozenset
    text: str
    start: int             # index of the block's first output line in the file's lines
    end: int               # index of its closing fence

    @property
    def where(self):
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def markdown_files():
    """README.md and every docs/*.md, in a fixed order."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def parse(path):
    """The shown outputs of one markdown file; a malformed one is a
    ValueError naming the file and line."""
    lines = path.read_text().split("\n")
    shown = []
    for i, line in enumerate(lines):
        match = MARKER.match(line.strip())
        if not match:
            continue
        where = f"{path.relative_to(ROOT)}:{i + 1}"
        flags = frozenset(match.group(1).split(",")) if match.group(1) else frozenset()
        if flags - FLAGS:
            raise ValueError(f"{where}: unknown output flag(s) {', '.join(sorted(flags - FLAGS))}")
        command = match.group(2)
        if i + 2 >= len(lines) or not lines[i + 1].startswith("```"):
            raise ValueError(f"{where}: the marker must be followed by a fenced block")
        if lines[i + 2] != f"$ {command}":
            raise ValueError(f"{where}: the block must start with `$ {command}`")
        end = i + 3
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{where}: the block is not closed")
        shown.append(Shown(path, i + 1, command, flags, "\n".join(lines[i + 3:end]), i + 3, end))
    return shown


def environment():
    """This environment's `claimsolve` first on the PATH, importing this
    repository's package (an editable install of another checkout, a
    worktree's main one, would otherwise be imported), no colours, and
    the sentences unwrapped, as a pipe gets them (no COLUMNS to wrap them
    at: claimsolve.prose)."""
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["NO_COLOR"] = "1"
    env.pop("CLAIMSOLVE_COLOR", None)
    return env


def run(command, workdir, env):
    """What `command` prints in `workdir`: standard output, then standard
    error; trailing blank lines dropped."""
    done = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)
    return (done.stdout + done.stderr).rstrip("\n")


def scratch():
    """A scratch directory with `seeds` the repository's (a context manager)."""
    directory = tempfile.TemporaryDirectory(prefix="claimsolve-docs-")
    os.symlink(ROOT / "seeds", Path(directory.name) / "seeds")
    return directory


def outputs(shown, fast=False):
    """[(Shown, what its command prints now)] for the shown outputs of one
    file, run in order in one scratch directory (`fast`: leaving out the
    slow and timed ones)."""
    env = environment()
    with scratch() as workdir:
        return [(item, run(item.command, workdir, env)) for item in shown
                if not (fast and item.flags & UNTESTED)]


def skeleton(text):
    """The shape of an output: per line, its first word with every run of
    digits (and the commas and points inside numbers) written N."""
    shape = []
    for line in text.split("\n"):
        words = line.split()
        shape.append(re.sub(r"\d[\d,.]*", "N", words[0]) if words else "")
    return shape


def matches(item, printed):
    """True when `printed` is what `item` shows: the same text, or for a
    `shape` output the same skeleton."""
    if "shape" in item.flags:
        return skeleton(item.text) == skeleton(printed)
    return item.text == printed


def rewrite(path, results):
    """Writes the outputs printed now into the file's blocks."""
    lines = path.read_text().split("\n")
    for item, printed in sorted(results, key=lambda pair: -pair[0].start):
        lines[item.start:item.end] = printed.split("\n") if printed else []
    path.write_text("\n".join(lines))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="markdown files (default: README.md and docs/*.md)")
    parser.add_argument("--check", action="store_true", help="rewrite nothing; list the outputs that differ")
    parser.add_argument("--fast", action="store_true", help="leave out the outputs marked slow or timed")
    args = parser.parse_args(argv)
    files = [Path(f).resolve() for f in args.files] or markdown_files()
    differ = 0
    for path in files:
        shown = parse(path)
        if not shown:
            continue
        results = outputs(shown, fast=args.fast)
        for item, printed in results:
            if not matches(item, printed):
                differ += 1
                print(f"{item.where}: {item.command}: {'shape ' if 'shape' in item.flags else ''}differs")
        if not args.check:
            rewrite(path, results)
            print(f"{path.relative_to(ROOT)}: {len(results)} output{'s' * (len(results) != 1)} written")
    if args.check:
        print(f"{differ} output{'s differ' if differ != 1 else ' differs'}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
