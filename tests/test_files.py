"""claimsolve.files: what the user had is never lost or replaced by
something else."""
import os

import pytest

from claimsolve.errors import ClaimsolveError
from claimsolve.files import LineLog, write_atomically


def test_write_atomically_writes_and_replaces_a_regular_file(tmp_path):
    path = tmp_path / "out.svg"
    write_atomically(path, "one")
    write_atomically(path, "two")
    assert path.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["out.svg"]      # no temporary file left


def test_write_atomically_follows_a_link_and_keeps_it(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


@pytest.mark.parametrize("make", ["folder", "fifo", "device"])
def test_write_atomically_refuses_what_is_not_a_regular_file(tmp_path, make):
    if make == "folder":
        path = tmp_path / "dir"
        path.mkdir()
    elif make == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    else:
        path = "/dev/null"
    with pytest.raises(ClaimsolveError, match="not a regular file"):
        write_atomically(path, "text")
    assert os.path.exists(path) and not os.path.isfile(path)      # still what it was


@pytest.mark.parametrize("mode", [0o600, 0o640])
def test_write_atomically_keeps_an_existing_files_permissions(tmp_path, mode):
    path = tmp_path / "m.svg"
    path.write_text("old")
    path.chmod(mode)
    old_umask = os.umask(0o022)         # a new file would be 0644
    try:
        write_atomically(path, "new")
    finally:
        os.umask(old_umask)
    assert path.read_text() == "new"
    assert path.stat().st_mode & 0o7777 == mode


def test_write_atomically_gives_a_new_file_the_umasks_permissions(tmp_path):
    path = tmp_path / "new.svg"
    old_umask = os.umask(0o027)
    try:
        write_atomically(path, "new")
    finally:
        os.umask(old_umask)
    assert path.stat().st_mode & 0o7777 == 0o640


def test_write_atomically_keeps_the_permissions_of_a_linked_file(tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("old")
    real.chmod(0o600)
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert real.stat().st_mode & 0o7777 == 0o600


def test_write_atomically_refuses_a_read_only_file(tmp_path):
    path = tmp_path / "kept.svg"
    path.write_text("mine")
    path.chmod(0o444)
    with pytest.raises(ClaimsolveError, match="cannot write: the file is read-only") as caught:
        write_atomically(path, "new")
    assert caught.value.source == str(path)
    assert path.read_text() == "mine" and path.stat().st_mode & 0o7777 == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["kept.svg"]


def test_write_atomically_refuses_what_os_access_says_is_not_writable(tmp_path, monkeypatch):
    # the refusal itself, also where the tests run as root (whom os.access lets write anything)
    path = tmp_path / "kept.svg"
    path.write_text("mine")
    real_access = os.access
    refused = os.path.realpath(path)
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if os.path.realpath(p) == refused and mode == os.W_OK
                        else real_access(p, mode, **kw))
    with pytest.raises(ClaimsolveError, match="cannot write: the file is read-only"):
        write_atomically(path, "new")
    assert path.read_text() == "mine"


def test_a_new_file_is_written_where_hard_links_are_not_allowed(tmp_path, monkeypatch):
    # replace=False links the finished file into place; a file system that
    # has no hard links gets it by a rename, still never over a file
    def no_links(source, target):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(os, "link", no_links)
    write_atomically(tmp_path / "new.json", "game\n", replace=False)
    assert (tmp_path / "new.json").read_text() == "game\n"
    with pytest.raises(ClaimsolveError, match="the file exists; it is not overwritten"):
        write_atomically(tmp_path / "new.json", "another\n", replace=False)
    assert (tmp_path / "new.json").read_text() == "game\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json"]


def test_a_line_log_another_holds_is_refused_while_it_is_empty(tmp_path):
    """Two `match --save same.jsonl` started together (the file absent)
    both played, their games' lines interleaved in one file: the second
    finds the file the first made, still empty, and is now refused."""
    from claimsolve.cli.main import main
    from click.testing import CliRunner

    path = tmp_path / "same.jsonl"
    with LineLog(path, "--save") as first:
        with pytest.raises(ClaimsolveError, match=r"option '--save': another program is writing this file"):
            LineLog(path, "--save")
        done = CliRunner().invoke(main, ["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random",
                                         "--games", "3", "--save", str(path)])
        assert done.exit_code == 2 and done.stdout == "", done.output
        assert done.stderr == (f"claimsolve: {path}: option '--save': another program is writing this file "
                               "(another match --save?); give another name\n")
        assert path.exists() and path.read_text() == ""          # the first's file, left to it
        first.write("{}\n")
    assert path.read_text() == "{}\n"
    # once the first is done, an empty file is taken as before; one with lines refused
    path.write_text("")
    with LineLog(path, "--save") as again:
        again.write("{}\n")
    with pytest.raises(ClaimsolveError, match="the file exists"):
        LineLog(path, "--save")
