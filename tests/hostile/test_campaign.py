"""A small run of the hostile-input campaign (tests/hostile/campaign.py,
issue 34, "Done means"): a few fresh inputs of each class, each a real
process with a time limit, and not one traceback, hang, wrong exit code,
5xx answer or changed input file.  CLAIMSOLVE_CAMPAIGN_SEED=S draws other
inputs (the default seed keeps the run the same every time); the long run
is `python -m tests.hostile.campaign --budget-seconds 300`."""
import os

import pytest

from .campaign import KINDS, campaign, failures, table

SEED = int(os.environ.get("CLAIMSOLVE_CAMPAIGN_SEED", "34"))


def assert_clean(tallies):
    report = table(tallies) + "\n" + failures(tallies)
    for tally in tallies:
        assert tally.tried > 0, report
        for _, kind in KINDS:
            assert tally.count(kind) == 0, report


@pytest.mark.slow
def test_a_small_campaign_finds_no_failure(tmp_path):
    tallies = campaign(SEED, budget_seconds=40, classes=["server", "study", "play", "env", "fields"], inputs=3,
                       root=str(tmp_path), log=None)
    assert_clean(tallies)


@pytest.mark.slow
def test_the_largest_islands_keep_their_budgets(tmp_path):
    tallies = campaign(SEED, budget_seconds=20, classes=["islands"], inputs=2, root=str(tmp_path), log=None)
    assert_clean(tallies)


def test_the_campaign_counts_what_goes_wrong(tmp_path):
    """The checks can fail: a traceback, an undocumented exit code, a hang
    and a changed input file are each counted, with the command to run."""
    from .campaign import Ran, Tally, check, digest
    path = tmp_path / "p.json"
    path.write_text("{}")
    tally = Tally("x")
    before = digest([str(path)])
    path.write_text("{ }")
    check(tally, Ran(1, b"", b"Traceback (most recent call last):\n", 0.1), ["show", path], tmp_path,
          reads=[str(path)], before_hash=before)
    check(tally, Ran(None, b"", b"", 9.0), ["moves", path], tmp_path, timeout=5)
    assert tally.tried == 2
    assert [tally.count(kind) for _, kind in KINDS] == [1, 1, 1, 0, 1]
    assert all("python -m claimsolve.cli.main" in f.repro and str(path) in f.repro for f in tally.failures)
