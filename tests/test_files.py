"""claimsolve.files: what the user had is never lost or replaced by
something else."""
import os

import pytest

from claimsolve.errors import ClaimsolveError
from claimsolve.files import write_atomically


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
