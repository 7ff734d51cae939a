"""How `analyze` (engine auto) answers a Color Claim endgame: the exact
solver's value and best move first, every move's value when the budget
allows, alpha-beta otherwise."""
import json
from pathlib import Path

from claimsolve.analysis import analyze
from claimsolve.positions import load as load_file
from claimsolve.render.text import analysis_text
from claimsolve.colorclaim import ColorClaimPosition
from claimsolve.colorclaim import analysis as colorclaim_analysis

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "colorclaim"


def claim_seed(name):
    return load_file(SEEDS.parent / "claim" / name)


def load(name):
    return ColorClaimPosition.from_json(json.loads((SEEDS / name).read_text()))


def test_auto_solves_every_move_of_a_small_endgame():
    position = load("late-6x5.json")           # 10 stacks: every move's value in milliseconds
    result = analyze(position, time=60).result
    assert result.engine == "solver" and result.complete
    assert not result.info.get("value_only")
    assert result.info["value"] == 22 and all(s.exact for s in result.suggestions)
    assert result.best.move == "b5-a5"


def test_auto_answers_with_the_value_when_every_move_would_take_too_long(monkeypatch):
    position = load("endgame-6x5-20-seed1.json")
    assert position.stack_count() == 20
    solve = colorclaim_analysis.alphabeta.solve
    calls = []

    def every_move_runs_out(position, **options):
        calls.append(options.get("value_only", False))
        if not options.get("value_only"):
            options["time"] = 1e-4            # every move's value cannot finish in this
        return solve(position, **options)

    monkeypatch.setattr(colorclaim_analysis.alphabeta, "solve", every_move_runs_out)
    result = analyze(position, time=600).result
    assert calls == [True, False]
    assert result.engine == "solver" and result.complete
    assert result.info["value_only"] and result.info["value"] == 6
    best = result.suggestions[0]
    assert best.exact and best.score == 6 and best.move == result.info["best_move"]
    # the full answer agrees: that move is worth 6 (checked by the solver from it)
    assert -analyze(position.play(best.move), time=600).result.info["value"] == 6


def test_moves_the_value_only_answer_did_not_value_show_their_bounds(monkeypatch):
    # when only the value fits in the budget, the other moves have bounds
    # (at most the value), which analyze must not print as values
    position = load("start-4x3-seed1.json")
    solve = colorclaim_analysis.alphabeta.solve

    def every_move_runs_out(position, **options):
        if not options.get("value_only"):
            options["time"] = 1e-4
        return solve(position, **options)

    monkeypatch.setattr(colorclaim_analysis.alphabeta, "solve", every_move_runs_out)
    analysis = analyze(position, time=600, top=8)
    result = analysis.result
    assert result.info["value_only"] and result.info["value"] == 2
    bounded = [s for s in result.suggestions if not s.exact]
    assert bounded
    rows = {line.split()[1]: line.split()[2] for line in analysis_text(analysis).splitlines()
            if line[:1].isdigit() and len(line.split()) >= 3}
    for s in bounded:
        lower, upper = s.extra["lower"], s.extra["upper"]
        expected = (f"<={upper:+d}" if lower is None else f">={lower:+d}" if upper is None
                    else f"{lower:+d}..{upper:+d}")
        assert rows[s.move] == expected
    assert rows[result.info["best_move"]] == "+2"


def test_an_iteration_budget_under_auto_means_mcts_even_with_a_time():
    for position in (load("start-4x3-seed1.json"), claim_seed("play-2p.json")):
        result = analyze(position, time=30, iterations=200).result
        assert result.engine == "mcts"
        assert result.info["iterations"] == 200      # the iterations ended it, not the 30 s


def test_the_solver_runs_on_the_cores_unless_told(monkeypatch):
    """Unset, `threads` gives the exact solver the cores (at most 2) and
    MCTS one process; told, every solve gets that many.  The value is the
    same either way."""
    position = load("late-6x5.json")
    solve = colorclaim_analysis.alphabeta.solve
    threads = []

    def counting_threads(position, **options):
        threads.append(options["threads"])
        return solve(position, **options)

    monkeypatch.setattr(colorclaim_analysis.alphabeta, "solve", counting_threads)
    values = {}
    for told in (None, 1):
        threads.clear()
        result = analyze(position, time=600, threads=told).result
        assert result.engine == "solver" and result.complete
        values[told] = result.info["value"]
        expected = colorclaim_analysis.alphabeta.default_threads() if told is None else told
        assert threads and set(threads) == {expected}
    assert values == {None: 22, 1: 22}


def test_default_threads_are_the_cores_this_process_may_use_at_most_two():
    import os
    import subprocess
    import sys
    from claimsolve.search.alphabeta import DEFAULT_THREADS_MAX, default_threads
    assert DEFAULT_THREADS_MAX == 2
    assert default_threads() == min(2, len(os.sched_getaffinity(0)))
    one_core = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
                "from claimsolve.search.alphabeta import default_threads; print(default_threads())")
    out = subprocess.run([sys.executable, "-c", one_core], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
