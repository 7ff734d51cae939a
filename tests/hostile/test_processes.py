"""What only a real process shows (issue 8): a standard output that fails
(`> /dev/full`, closed, a reader that stops), a closed standard input,
click's own usage errors as one line, and the console script's exit codes."""
import os
import subprocess
import sys

import pytest

from .common import CLAIM_SETTLE, COLORCLAIM

CLAIMSOLVE = [sys.executable, "-m", "claimsolve.cli.main"]
HANG_GUARD = 120          # seconds: a hung command fails the test instead of the suite


def shell(script, **kwargs):
    """Runs a bash script in which $CS is the claimsolve command."""
    env = dict(os.environ, CS=" ".join(CLAIMSOLVE))
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                          timeout=HANG_GUARD, **kwargs)


def one_line(proc, *needles):
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("claimsolve: "), proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [f"moves {COLORCLAIM}", f"show {COLORCLAIM}", "new claimit", "--help",
                                  "analyze --help", f"analyze {COLORCLAIM} --time 0.05 --json"])
def test_a_full_output_is_one_line_and_exit_2(args):
    before = os.stat("/dev/full")
    one_line(shell(f"$CS {args} > /dev/full"), "cannot write the output")
    assert os.stat("/dev/full").st_rdev == before.st_rdev         # still the device


@pytest.mark.parametrize("args", [f"moves {COLORCLAIM}", "new claimit", "--help", "--version"])
def test_a_closed_output_is_one_line_and_exit_2(args):
    one_line(shell(f"$CS {args} >&-"), "standard output is closed")


@pytest.mark.parametrize("args", [f"moves {CLAIM_SETTLE}", "--help", f"show {COLORCLAIM}"])
def test_a_reader_that_stops_ends_the_command_silently(args):
    proc = subprocess.Popen(CLAIMSOLVE + args.split(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                # before the command writes: its first write finds no reader
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode == 0 and err == b"", (proc.returncode, err)
    piped = shell(f"$CS {args} | head -c 1 > /dev/null; echo ${{PIPESTATUS[0]}}")
    assert piped.stdout.strip() == "0" and piped.stderr == "", piped


def test_a_closed_input_is_one_line():
    one_line(shell("$CS show - <&-"), "-:", "standard input is closed")
    one_line(shell("$CS play colorclaim --vs random --size 3x3 <&-"), "standard input is closed")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_inputs_are_refused(device):
    one_line(shell(f"$CS moves {device}"), device, "larger than")
    one_line(shell(f"$CS show - < {device}"), "-:", "larger than")


@pytest.mark.parametrize("args,needle", [
    ("frobnicate", "no such command"), ("analyze", "missing argument 'POS'"),
    (f"analyze {COLORCLAIM} --bogus", "no such option"), (f"analyze {COLORCLAIM} --engine warp", "'--engine'"),
    ("new colorclaim --size", "'--size' requires an argument"), (f"perft {COLORCLAIM}", "'--depth'"),
    ("--bogus", "no such option"), (f"show {COLORCLAIM} {COLORCLAIM}", "unexpected extra argument"),
    (f"analyze {COLORCLAIM} --json=1", "does not take a value"),
])
def test_usage_errors_are_one_line(args, needle):
    line = one_line(shell(f"$CS {args}"), needle)
    assert "--help" in line


def test_no_arguments_prints_the_help():
    proc = shell("$CS")
    assert proc.returncode == 0 and "Usage:" in proc.stdout and proc.stderr == ""


def test_a_device_is_not_replaced_by_a_written_file(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    one_line(shell(f"$CS show {COLORCLAIM} --svg {fifo}"), "'--svg'", "not a plain file")
    one_line(shell(f"$CS match claimit --a random --b random --games 1 --save {fifo}"), "'--save'")
    assert fifo.is_fifo()
    if os.path.exists("/dev/full"):
        one_line(shell(f"$CS show {COLORCLAIM} --svg /dev/full"), "/dev/full", "'--svg'")
        assert not os.path.isfile("/dev/full")


def test_a_link_is_followed_and_kept(tmp_path):
    target = tmp_path / "picture.svg"
    target.write_text('<svg xmlns="http://www.w3.org/2000/svg"></svg>')      # an old picture: rewritten
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    assert shell(f"$CS show {COLORCLAIM} --svg {link}").returncode == 0
    assert link.is_symlink() and target.read_text().lstrip().startswith("<svg") and len(target.read_text()) > 100
    # a link to a file that is no picture: refused, the file kept (--svg rewrites only a picture)
    data = tmp_path / "study.sqlite"
    data.write_bytes(b"SQLite format 3\x00")
    other = tmp_path / "other.svg"
    other.symlink_to(data)
    one_line(shell(f"$CS show {COLORCLAIM} --svg {other}"), "'--svg'", "not an SVG picture")
    assert other.is_symlink() and data.read_bytes() == b"SQLite format 3\x00"
