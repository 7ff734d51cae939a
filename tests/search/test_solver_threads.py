"""The exact solver with more than one worker thread (ext/alphabeta_workers.pxi):
the same values as one thread and as brute force, progress, errors and
refusals (bounds when the time runs out: test_alphabeta.py)."""
import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, HealthCheck

import claimsolve
from claimsolve import _alphabeta
from claimsolve.cli.main import main
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.errors import ClaimsolveError
from claimsolve.search import alphabeta
from colorclaim_helpers import move_values, reduced
from .test_alphabeta import small_positions, play_line


def values(result):
    return {s.move: s.score for s in result.suggestions}


def assert_line_reaches(position, pv, value):
    end = play_line(position, pv)
    assert end.is_over()
    margin = end.margin() if end.player_to_move == position.player_to_move else -end.margin()
    assert margin == value


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_two_threads_equal_brute_force(position):
    if position.is_over():
        return
    result = alphabeta.solve(position, threads=2)
    truth = move_values(position)
    assert result.complete and values(result) == truth
    assert truth[result.pv[0]] == max(truth.values())
    assert_line_reaches(position, result.pv, max(truth.values()))


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("position", [ColorClaimPosition.new(size="4x3", seed=1),
                                      ColorClaimPosition.new(size="4x3", seed=3),
                                      reduced("4x4", 2, 10)], ids=["4x3-1", "4x3-3", "4x4-2-reduced"])
def test_threads_give_the_values_of_one_thread(position, threads):
    one = alphabeta.solve(position)
    many = alphabeta.solve(position, threads=threads)
    assert many.complete and values(many) == values(one)
    assert many.info == one.info
    assert_line_reaches(position, many.pv, one.info["value"])
    # value only: the same value, and its best move is worth it
    quick = alphabeta.solve(position, threads=threads, value_only=True)
    assert quick.complete and quick.info["value"] == one.info["value"]
    assert values(one)[quick.info["best_move"]] == one.info["value"]
    assert quick.nodes < many.nodes


def test_a_small_shared_table_grows_and_gives_the_same_values():
    # a 1 MB table grows and fills while both threads write to it
    position = ColorClaimPosition.new(size="4x3", seed=2)
    one = alphabeta.solve(position, hash_mb=64)
    table = _alphabeta.Table(1)
    many = alphabeta.solve(position, threads=2, table=table)
    assert values(many) == values(one)
    assert table.used > 0 and table.bytes_in_use <= 2 ** 20


def test_progress_counts_every_worker_and_its_errors_stop_them_all():
    # the first report comes after 0.1 s, long before a 4x4 value is proven
    position = ColorClaimPosition.new(size="4x4", seed=1)
    seen = []
    result = alphabeta.solve(position, time=0.5, threads=2, progress=seen.append)
    assert seen and not result.complete
    assert all(info["phase"] in ("value", "moves") for info in seen)
    assert all(info["best"] in position.legal_moves() for info in seen if info.get("best"))
    assert [info["nodes"] for info in seen] == sorted(info["nodes"] for info in seen)
    assert seen[-1]["nodes"] <= result.nodes

    class Stop(Exception):
        pass

    def fail(info):
        raise Stop()

    with pytest.raises(Stop):
        alphabeta.solve(ColorClaimPosition.new(size="4x4", seed=1), threads=2, progress=fail)


def test_threads_are_checked():
    position = ColorClaimPosition.new(size="3x3", seed=1)
    for bad in (0, 65, 1.5, "two"):
        with pytest.raises(ClaimsolveError, match="'threads'"):
            claimsolve.solve(position, threads=bad)


def test_the_command_line_solves_with_threads(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(claimsolve.dumps(ColorClaimPosition.new(size="4x3", seed=2)))
    runner = CliRunner()
    one = runner.invoke(main, ["solve", str(path), "--json"])
    two = runner.invoke(main, ["solve", str(path), "--threads", "2", "--json"])
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert (a["value"], a["best_moves"]) == (b["value"], b["best_moves"])
    assert {m["move"]: m["value"] for m in a["moves"]} == {m["move"]: m["value"] for m in b["moves"]}
    bad = runner.invoke(main, ["solve", str(path), "--threads", "0"])
    assert bad.exit_code == 2 and "threads" in bad.output and "Traceback" not in bad.output


def test_the_solver_player_takes_threads():
    from claimsolve.player_kinds import make_player
    position = ColorClaimPosition.new(size="3x3", seed=2)
    exact = alphabeta.solve(position)
    best = {s.move for s in exact.suggestions if s.score == exact.info["value"]}
    assert make_player("solver:threads=2").choose(position) in best
    with pytest.raises(ClaimsolveError, match="'threads'"):
        make_player("solver:threads=0")
