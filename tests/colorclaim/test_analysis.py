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


def _proofs(suggestions):
    return {s.move: s.proven for s in suggestions if s.proven}


def _respects_proofs(suggestions):
    """No move stands below one it is proven better than (its proven lower
    bound at or above the other's proven upper bound, not proven equal)."""
    inf = float("inf")
    bounds = [s.margin_bounds() for s in suggestions]
    bounds = [(-inf if lo is None else lo, inf if hi is None else hi) for lo, hi in bounds]
    return not any(bounds[j][0] >= bounds[i][1] and bounds[i][0] < bounds[j][1]
                   for i in range(len(bounds)) for j in range(i + 1, len(bounds)))


def _cut_short_solve(position, value_bounds, **options):
    """A solve of `position` cut short by the time, made deterministic: the
    full solve's values, kept as `value_bounds` says ({move: "exact",
    "upper", "lower"}; the others unbounded), as an unfinished solve answers."""
    from claimsolve.search import alphabeta
    from claimsolve.search.result import SearchResult, Suggestion
    full = alphabeta.solve(position)
    suggestions = []
    for s in full.suggestions:
        kept = value_bounds.get(s.move)
        if kept == "exact":
            suggestions.append(Suggestion(move=s.move, score=s.score, result=s.result, exact=True))
            continue
        lower = s.score if kept == "lower" else None
        upper = s.score if kept == "upper" else None
        result = "win" if lower is not None and lower > 0 else "loss" if upper is not None and upper < 0 else None
        suggestions.append(Suggestion(move=s.move, score=lower if lower is not None else upper, result=result,
                                      extra={"lower": lower, "upper": upper}))
    lower = max((s.score for s in full.suggestions if value_bounds.get(s.move) in ("exact", "lower")),
                default=None)
    return SearchResult(engine="solver", suggestions=suggestions, pv=[], nodes=full.nodes, seconds=1.61,
                        complete=False, info={"lower": lower, "upper": None, "value_only": True,
                                              "best_move": None})


def test_alpha_beta_keeps_what_the_solver_proved_before_its_time_ran_out(monkeypatch):
    """`analyze` of the 4x4 seed 1 start in 1.2-2 s: the solver proved
    c4xd4 =+2 and d3xd4 <=0, then alpha-beta answered without them:
    "1 d3xd4 +0 5", "2 c4xd4 +0 5", "Note: solver: not proven within 1.61 s".
    The same here on the 4x3 seed 1 start (its full solve takes a fraction
    of a second; alpha-beta does not solve it in 0.2 s): the solver's
    partial answer is the full one's, kept in part."""
    position = load("start-4x3-seed1.json")
    kept = {"d3xd2": "exact", "c2xd2": "upper", "a2xb2": "upper", "d1xd2": "lower", "a1xb1": "upper"}
    partial = _cut_short_solve(position, kept)
    monkeypatch.setattr(colorclaim_analysis.alphabeta, "solve", lambda position, **options: partial)
    analysis = analyze(position, time=0.2, threads=1)
    result = analysis.result
    assert result.engine == "alphabeta" and not result.info.get("solved")
    assert _proofs(result.suggestions) == _proofs(partial.suggestions)      # every proof kept
    assert len(result.suggestions) == len(position.legal_moves())
    # d3xd2 (=+2) stands above every move proven <=0 or <=-1, wherever alpha-beta put them; the
    # moves with no proof keep alpha-beta's places (how deep it got depends on the machine)
    order = [s.move for s in result.suggestions]
    assert all(order.index("d3xd2") < order.index(move) for move in ("c2xd2", "a2xb2", "a1xb1"))
    proven = result.suggestions[order.index("d3xd2")]
    assert proven.exact and proven.score == 2 and proven.result == "win" and proven.depth is None
    assert _respects_proofs(result.suggestions)
    # no score shown outside what is proven of its move ("+4" beside "proven <=0"): it stands at the bound
    for s in result.suggestions:
        lower, upper = s.margin_bounds()
        assert (lower is None or s.score >= lower) and (upper is None or s.score <= upper), s
        if "heuristic" in s.extra:
            assert s.extra["bound"] == ("upper" if s.extra["heuristic"] > s.score else "lower")
    scores = [s.score for s in result.suggestions if s.margin_bounds() == (None, None)]
    assert scores == sorted(scores, reverse=True)       # the unproven ones by score, as before
    answer = analysis.to_json()
    proven = {s["move"]: s["proven"] for s in answer["suggestions"] if "proven" in s}
    assert proven == _proofs(partial.suggestions)
    assert answer["solver_tried"]["proven"] == proven
    note = next(note for note in answer["notes"] if note.startswith("solver:"))
    assert "not proven" not in note and "d3xd2 =+2" in note and "the position >=+2" in note
    assert answer["pv"][0] == answer["suggestions"][0]["move"]
    assert answer["order"].startswith("Ordered by the solver's proofs where they decide")
    text = analysis_text(analysis)
    assert answer["order"] in text
    row = next(line for line in text.splitlines() if line.split()[1:2] == ["d3xd2"])
    assert "proven win (=+2)" in row
    assert next(line for line in text.splitlines() if line.split()[1:2] == ["c2xd2"]).endswith("proven <=0")
    if answer.get("pv_cut_short"):
        assert "(cut short at" in text


def test_a_proven_win_goes_above_the_moves_proven_below_it_and_no_further():
    from claimsolve.analysis import rank_by_proofs
    from claimsolve.search.result import Suggestion

    def move(name, lower=None, upper=None):
        extra = {}
        if lower is not None:
            extra["margin_at_least"] = lower
        if upper is not None:
            extra["margin_at_most"] = upper
        return Suggestion(move=name, score=0, depth=5, extra=extra)

    # alpha-beta's order: a draw at most, the proven +2, an unproven move, one <=+2, one >=+3
    heuristic = [move("d3xd4", upper=0), move("c4xd4", 2, 2), move("x"), move("y", upper=2), move("z", lower=3)]
    ranked = [s.move for s in rank_by_proofs(heuristic)]
    # x is not bounded: nothing is proven better than it, so alpha-beta's place stands;
    # z (>=+3) is above c4xd4 (=+2), which is above every move proven <=+2 or less
    assert ranked == ["x", "z", "c4xd4", "d3xd4", "y"]
    # two moves proven equal keep alpha-beta's order
    assert [s.move for s in rank_by_proofs([move("a", 1, 1), move("b", 1, 1)])] == ["a", "b"]
    assert [s.move for s in rank_by_proofs([move("a", upper=1), move("b", 1, 1)])] == ["b", "a"]


def test_every_move_s_solve_cut_short_adds_its_proofs_to_the_value(monkeypatch):
    """When the value was proven and every move's values were not, the
    answer was the value-only solve's alone: what the second solve proved
    in the rest of the budget was dropped."""
    position = load("start-4x3-seed1.json")
    solve = colorclaim_analysis.alphabeta.solve
    full = {s.move: s.score for s in solve(position).suggestions}
    partial = _cut_short_solve(position, {"a2xa1": "exact", "c2xd2": "exact", "a1xb1": "lower"})

    def every_move_runs_out(position, **options):
        if options.get("value_only"):
            return solve(position, **options)
        return partial

    monkeypatch.setattr(colorclaim_analysis.alphabeta, "solve", every_move_runs_out)
    result = analyze(position, time=600).result
    assert result.engine == "solver" and result.complete and result.info["value"] == 2
    moves = {s.move: s for s in result.suggestions}
    assert moves["a2xa1"].exact and moves["a2xa1"].score == full["a2xa1"]
    assert moves["c2xd2"].exact and moves["c2xd2"].score == full["c2xd2"]
    assert moves["a1xb1"].margin_bounds()[0] == full["a1xb1"]            # and the value-only solve's upper bound
    assert result.suggestions[0].move == result.info["best_move"]
    assert _respects_proofs(result.suggestions)


def test_a_move_proven_to_reach_the_positions_floor_comes_first_with_its_own_line(monkeypatch):
    """`analyze` of a 4x4 start (seed 2) in 2 s, top 3: the solver proved
    the position >=+5 and d4xd3 =+5; the list read "1 c3-d3 <=+7", "2 c2-b2
    <=+7", "3 b3-b2 <=+7" (alpha-beta's heuristic bounds; really -2, -1,
    -2), d4xd3 not listed, and the analyze player played c2-b2.  Here: the
    4x3 seed 1 start, the solver cut short having proved d1xd2 =+1 (and so
    the position >=+1), alpha-beta's list cut to its first 3."""
    position = load("start-4x3-seed1.json")
    partial = _cut_short_solve(position, {"d1xd2": "exact"})
    partial.info["lower"] = 1                      # what d1xd2 =+1 proves of the position
    monkeypatch.setattr(colorclaim_analysis.alphabeta, "solve", lambda position, **options: partial)
    analysis = analyze(position, time=0.2, threads=1, top=3)
    first = analysis.result.suggestions[0]
    assert (first.move, first.score, first.exact) == ("d1xd2", 1, True)
    # its line is not alpha-beta's continuation (a heuristic line) but the move alone, said to be cut short
    assert analysis.result.pv == ["d1xd2"]
    assert "(cut short at 1 move" in analysis_text(analysis)
    assert "a move proven to reach what the position is proven worth comes first" in analysis.to_json()["order"]


def test_a_solve_cut_to_its_first_moves_is_not_called_exact():
    """`analyze start-4x4-seed1.json --time 3`: the value proven, every
    move's not; cut to the 5 shown, all proven, it read "Engine: exact
    solver", `"exact": true`, no note, and left out c1xb1 (=+1, a bound
    only here) under moves proven -1."""
    from claimsolve.analysis import Analysis, cut_to_top
    from claimsolve.search.result import SearchResult, Suggestion
    position = load("start-4x3-seed1.json")
    exact = [Suggestion(move=m, score=v, exact=True, result="win" if v > 0 else "loss")
             for m, v in (("d3xd2", 2), ("a1xb1", -1), ("c2xd2", -1))]
    bounded = [Suggestion(move="d1xd2", score=2, extra={"lower": None, "upper": 2, "bound": "upper"})]
    result = SearchResult(engine="solver", suggestions=exact + bounded, pv=["d3xd2"], complete=True,
                          info={"value": 2, "result": "win", "value_only": True, "best_move": "d3xd2"})
    cut_to_top(result, 3)
    assert [s.move for s in result.suggestions] == ["d3xd2", "a1xb1", "c2xd2"] and not result.exact
    answer = Analysis(position, result).to_json()
    assert answer["exact"] is False and answer["left_out"] == {"moves": 1, "unproven": 1}
    assert any("1 move with bounds only is not shown" in note for note in answer["notes"])


def test_an_unfinished_solve_says_what_it_proved_of_the_position():
    # `--engine solver --time 1.5` on start-4x4-seed1 had proved the position >=+2; the note left it out
    from claimsolve.analysis import answer_labels
    from claimsolve.catalog import get_game
    from claimsolve.search.result import SearchResult, Suggestion
    moves = [Suggestion(move="c4xd4", score=2, exact=True, result="win"),
             Suggestion(move="d3xd4", score=0, extra={"lower": None, "upper": 0, "bound": "upper"})]
    result = SearchResult(engine="solver", suggestions=moves, complete=False, seconds=1.31,
                          info={"lower": 2, "upper": None})
    note = answer_labels(result, get_game("colorclaim"))["notes"][0]
    assert note == ("solver: not finished within the time after 1.31 s; it proved the position >=+2; "
                    "1 of the 2 moves shown has its value proven")
