"""Every answer says what its numbers are and how sure: `exact` only where
every shown score is proven, a method and a sentence for the scores, the
column that orders the list, and what is proven of each move on its own."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import claimsolve
from claimsolve.cli.main import main
from claimsolve.search.result import Suggestion

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def test_a_depth_limited_alpha_beta_answer_is_never_exact():
    position = claimsolve.load(SEEDS / "claim" / "play-2p.json")
    answer = claimsolve.analyze(position, engine="alphabeta", time=0.3).to_json()
    assert answer["engine"] == "alphabeta" and answer["exact"] is False
    assert answer["method"] == f"alpha-beta depth {answer['depth']}"
    assert "not proven" in answer["scores"] and "evaluation points" in answer["scores"]
    assert answer["ordered_by"] == "score"
    assert all("proven" not in s and "result" not in s for s in answer["suggestions"])
    scores = [s["score"] for s in answer["suggestions"]]
    assert scores == sorted(scores, reverse=True)


def test_a_finished_game_keeps_scores_a_sentence_and_gives_its_final_scores(tmp_path):
    """`scores` is always the sentence saying what the scores are; a
    finished game's own scores are `final_scores` (they had overwritten it
    with a list)."""
    path = tmp_path / "over.json"
    path.write_text(json.dumps({"game": "colorclaim", "board": ["R1 . G2", ". . .", "B3 . Y1/K2"],
                                "claims": ["G", "K"]}))
    done = CliRunner().invoke(main, ["analyze", str(path), "--json"])
    assert done.exit_code == 0, done.output
    answer = json.loads(done.stdout)
    assert answer["scores"] == "no moves: the game is over"
    assert answer["final_scores"] == [2, 4] and answer["winners"] == [2]
    assert answer["result"].startswith("player 2 wins")


def test_a_drawn_claim_says_draw_in_its_json_as_in_its_text(tmp_path):
    """A Claim game drawn by quiet plies listed every seat as a winner in
    `analyze --json`, the text "a draw after 200 quiet plies" nowhere."""
    start = json.loads((SEEDS / "claim" / "play-2p.json").read_text())
    start["history"]["quiet_plies"] = 200
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(start))
    done = CliRunner().invoke(main, ["analyze", str(path), "--json"])
    assert done.exit_code == 0, done.output
    answer = json.loads(done.stdout)
    assert answer["over"] is True and answer["winners"] == [1, 2]
    assert answer["result"] == "a draw after 200 quiet plies"
    text = CliRunner().invoke(main, ["analyze", str(path)])
    # said once, by the board, and then why nothing is suggested
    assert text.stdout.count("a draw after 200 quiet plies") == 1, text.stdout
    assert "Game over: a draw after 200 quiet plies." in text.stdout
    assert text.stdout.rstrip().endswith("No move to suggest: the game is over."), text.stdout


def test_a_solver_that_does_not_finish_says_so_and_alpha_beta_answers():
    # the 4x4 start of seed 7 needs tens of millions of nodes to prove: not in 0.05 s
    position = claimsolve.new("colorclaim", size="4x4", seed=7)
    answer = claimsolve.analyze(position, time=0.05).to_json()
    assert answer["engine"] == "alphabeta" and answer["exact"] is False
    # it says what the solver proved in the time, nothing proven or not
    note = next(note for note in answer["notes"] if note.startswith("solver:"))
    assert note.startswith(("solver: proved nothing within", "solver: not finished in")) and "not proven" not in note
    assert "not proven" in answer["scores"]


def test_a_finished_solve_is_exact_move_by_move():
    position = claimsolve.load(SEEDS / "colorclaim" / "start-3x3-seed1.json")
    answer = claimsolve.analyze(position, time=5).to_json()
    assert answer["engine"] == "solver" and answer["exact"] is True
    assert answer["method"] == "exact solver" and answer["ordered_by"] == "value"
    for s in answer["suggestions"]:
        value = s["score"]
        assert s["proven"] == ("=0" if value == 0 else f"={value:+d}")
        assert s["result"] == ("win" if value > 0 else "loss" if value < 0 else "draw")


def test_a_value_only_answer_proves_its_best_move_and_bounds_the_others():
    position = claimsolve.new("colorclaim", size="4x4", seed=1)
    result = claimsolve.solve(position, value_only=True)
    answer = claimsolve.analysis.Analysis(position, result).to_json()
    assert result.complete and answer["exact"] is False      # the other moves are bounds only
    best = answer["suggestions"][0]
    assert best["move"] == result.info["best_move"] and best["proven"] == _eq(result.info["value"])
    assert answer["method"] == "exact solver (the value and one best move)"
    assert answer["notes"] and "is proven" in answer["notes"][0]
    others = answer["suggestions"][1:]
    assert others and all(s.get("proven", "").startswith(("<=", ">=")) or ".." in s.get("proven", "")
                          for s in others if "proven" in s)


def test_mcts_lists_are_ordered_by_visits_and_say_how_sure_each_mean_is():
    position = claimsolve.load(SEEDS / "claim" / "settle-2p.json")
    answer = claimsolve.analyze(position, iterations=3000, seed=3).to_json()
    assert answer["engine"] == "mcts" and answer["exact"] is False
    assert answer["ordered_by"] == "visits" and answer["method"] == f"MCTS, {answer['iterations']:,} simulations"
    rows = answer["suggestions"]
    visits = [s["visits"] for s in rows]
    assert visits == sorted(visits, reverse=True)
    assert 0 < sum(s["share"] for s in rows) <= 1.0001
    for s in rows:
        low, high = s["ci95"]
        assert 0 <= low <= s["score"] <= high <= 1
        assert s["share"] == pytest.approx(s["visits"] / sum(visits), abs=1e-3) or len(rows) < 3


def test_the_text_names_the_ordering_column_and_shows_it():
    result = CliRunner().invoke(main, ["analyze", str(SEEDS / "claim" / "settle-2p.json"), "--iterations", "2000"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("#  move"))
    assert header.split() == ["#", "move", "visits", "share", "mean", "95%", "CI"]
    assert any(line.startswith("Ordered by visits") for line in lines)
    assert any(line.startswith("Scores: mean result") for line in lines)


def test_analyze_json_carries_the_labels():
    result = CliRunner().invoke(main, ["analyze", str(SEEDS / "colorclaim" / "start-3x3-seed1.json"), "--json"])
    data = json.loads(result.output)
    assert {"exact", "method", "scores", "ordered_by", "notes", "complete"} <= set(data)
    assert data["exact"] is True


@pytest.mark.parametrize("extra, score, exact, text", [
    ({"margin": 3}, 1.0, True, "=+3"),
    ({"margin_at_least": 1}, 1.0, True, ">=+1"),
    ({"margin_at_most": -2}, 0.0, True, "<=-2"),
    ({"lower": 1, "upper": 3}, 1, False, "+1..+3"),
    ({"lower": None, "upper": 0}, 0, False, "<=0"),
    ({}, -4, True, "=-4"),
    ({}, 0.61, False, None),
])
def test_what_is_proven_of_a_move_as_text(extra, score, exact, text):
    visits = 10 if ("margin" in str(extra) or score == 0.61) else None
    suggestion = Suggestion(move="m", score=score, visits=visits, exact=exact, extra=dict(extra))
    assert suggestion.proven == text
    assert suggestion.to_json().get("proven") == text


def _eq(value):
    return "=0" if value == 0 else f"={value:+d}"


def test_a_line_says_what_it_is_and_what_separates_its_moves():
    """`|` split a Claim line of turns with spaces in them, unexplained."""
    from claimsolve.render.text import pv_line
    assert pv_line(["c5-b5", "d3-d4"]) == "PV (the best line found): c5-b5 d3-d4"
    assert pv_line(["xa1 xb2 xc3 xd4", "xe5 xf6 xg7 xh8"]) == \
        "PV (the best line found; | between moves): xa1 xb2 xc3 xd4 | xe5 xf6 xg7 xh8"


def test_a_claim_it_answer_says_its_two_rankings_differ_in_level_too():
    """A board user saw MCTS's "roll 0.479" beside the play-outs' 28.4% for
    one position, with only "the two orders can differ" to explain it."""
    answer = claimsolve.analyze(claimsolve.load(SEEDS / "claimit" / "mid-game-3p.json"), time=0.3).to_json()
    assert "odds" in answer
    assert any("differ in order and in level" in note and "the learned value where its play-outs stop" in note
               for note in answer["notes"])


@pytest.mark.parametrize("seed, sides, scale", [
    ("claim/play-2p.json", 2, "(1 win, 0.5 draw, 0 loss;"),
    ("claim/play-4p.json", 2, "(1 win, 0.5 draw, 0 loss;"),            # two teams
    ("claim/play-3p.json", 3, "(1 win, 1/3 a draw, 0 loss;"),
    ("claimit/mid-game-3p.json", 3, "(1 win, 1/k of a win shared by k, 0 loss;"),
    # 2 players: a tie shares the win, as review's unit says, not "0.5 draw"
    ("claimit/spec-example-2p.json", 2, "(1 win, 1/k of a win shared by k: 0.5 on a tie of the two, 0 loss;"),
])
def test_a_mean_result_says_what_a_draw_counts_for_the_sides(seed, sides, scale):
    """The MCTS line said "(1 win, 0.5 draw, 0 loss)" at three seats too,
    where a Claim draw is shared 1/3 each and a Claim It! tie 1/k."""
    from claimsolve.analysis import analyze
    from claimsolve.claim import review
    from claimsolve.render.text import answer_lines

    position = claimsolve.load(SEEDS / seed)
    assert len(position.teams()) == sides
    analysis = analyze(position, engine="mcts", iterations=50, threads=1, playing=True)
    assert scale in analysis.to_json()["scores"]
    assert scale in answer_lines(analysis)[1]
    if position.game == "claim":
        assert scale[:-1] + ")" in review.profile(position)["unit"]
    if position.game == "claimit":
        from claimsolve.claimit import review as claimit_review
        words = claimit_review.unit(claimit_review.WIN)
        assert "1/k of a win shared by k" in words and "draw" not in words


def test_show_json_says_what_its_scores_are():
    """Claim It!'s `show --json` held the largest groups in `scores`
    without saying so."""
    from claimsolve.render.text import summary

    claimit = summary(claimsolve.load(SEEDS / "claimit" / "mid-game-3p.json"))
    assert claimit["scores"] == [3, 1, 3] and claimit["scores_are"].startswith("each player's largest group")
    colorclaim = summary(claimsolve.load(SEEDS / "colorclaim" / "start-6x5.json"))
    assert "points" in colorclaim["scores_are"] and len(colorclaim["scores"]) == 2
    assert "scores_are" not in summary(claimsolve.load(SEEDS / "claim" / "play-2p.json"))


def _mcts_tier(s, value):
    """Where a row of an MCTS list belongs: moves proven at the position's
    proven margin, proven wins, the other moves, proven losses."""
    if value is not None and s.get("margin") == value:
        return 0
    return {"win": 1, "loss": 3}.get(s.get("result"), 2)


def test_an_mcts_list_is_ordered_as_its_note_says_and_shows_every_bound():
    """On a proven root (=+13) the moves proven at it came first, then every
    other move by visits: the unproven c2-d2 stood above the proven wins
    d1xd2 (=+11) and c1xd1 (=+7) while the note said proven results come
    first, and its proven bound (<=+1, in the JSON) was not in the text."""
    position = claimsolve.new("colorclaim", size="4x3", seed=3)
    for move in "b2-b1 b3xc3 c3-c2 b1xc1 a2xa1 d3xd2".split():
        position = position.play(move)
    analysis = claimsolve.analyze(position, engine="mcts", iterations=2000, seed=0)
    answer = analysis.to_json()
    rows, value = answer["suggestions"], answer.get("value")
    assert value == 13                       # MCTS-Solver proves the root in a few dozen simulations
    tiers = [_mcts_tier(s, value) for s in rows]
    assert tiers == sorted(tiers) and {1, 2} <= set(tiers)
    wins = [s["margin_at_least"] if "margin" not in s else s["margin"] for s in rows if _mcts_tier(s, value) == 1]
    assert wins == sorted(wins, reverse=True)
    others = [s["visits"] for s in rows if _mcts_tier(s, value) == 2]
    assert others == sorted(others, reverse=True)
    assert any("the moves proven at it come first" in note and "proven losses last" in note
               for note in answer["notes"])
    from claimsolve.render.text import answer_lines
    text = answer_lines(analysis)
    assert any(line.startswith("Ordered by what MCTS-Solver proved") for line in text)
    for s in rows:
        line = next(line for line in text if line.split()[1:2] == [s["move"]])
        if "proven" in s:
            assert f"({s['proven']})" in line or line.endswith(f"proven {s['proven']}"), line


def test_mcts_ranks_proofs_the_same_on_a_root_not_proven():
    from claimsolve.search import mcts
    rows = [("unproven", 50, 0.6, None, None), ("loss-unbounded", 40, 0.0, None, -2),
            ("win-small", 5, 1.0, 1, None), ("loss-small", 3, 0.0, -3, -1), ("bound", 30, 0.4, None, 4),
            ("win-large", 2, 1.0, 6, 6), ("draw", 45, 0.5, 0, 0)]
    ranked = [row[0] for row in mcts._ranked([[(m, v, v * mean, lo, hi) for m, v, mean, lo, hi in rows]],
                                             (None, None))]
    assert ranked == ["win-large", "win-small", "unproven", "draw", "bound", "loss-small", "loss-unbounded"]


def test_a_bound_is_never_a_score_like_a_value_and_its_order_is_said():
    """`analyze --time 3` of the 4x4 seed 1 start (the value proven, not every
    move's): c4xd4 "score": 2 exact, then a1-a2, b1-b2, c1-c2 ... "score": 2
    each, bounds (<=+2) with nothing to tell them from the value, ranked
    2, 3, 4 in the order the moves are generated and nothing saying so.
    The same on the 4x3 seed 1 start (value-only: d3xd2 =+2, the rest <=)."""
    position = claimsolve.load(SEEDS / "colorclaim" / "start-4x3-seed1.json")
    result = claimsolve.solve(position, value_only=True)
    analysis = claimsolve.analysis.Analysis(position, result)
    answer = analysis.to_json()
    rows = answer["suggestions"]
    assert rows[0]["move"] == "d3xd2" and rows[0]["exact"] is True and "bound" not in rows[0]
    for s in rows:
        assert ("exact" in s) != ("bound" in s)            # a value, or a bound saying it is one
    bounded = [s for s in rows if "bound" in s]
    assert len(bounded) > 3 and all(s["score"] == 2 for s in bounded[:3])
    for s in bounded:
        assert s["bound"] == "upper" and s["score"] == s["upper"] and s["lower"] is None
        assert s["proven"] == (f"<={s['upper']:+d}" if s["upper"] else "<=0")
    assert "not ranked among themselves" in answer["order"] and "order the moves are generated" in answer["order"]
    assert '"bound" in the JSON' in answer["scores"]
    from claimsolve.render.text import answer_lines
    assert answer["order"] in answer_lines(analysis)


def test_the_solver_s_order_puts_a_move_proven_at_least_as_good_first():
    from claimsolve.search import alphabeta
    moves = [("none", None, None), ("le0", None, 0), ("le1", None, 1), ("eq1", 1, 1), ("ge1", 1, None)]
    suggestions = [alphabeta._solved_suggestion(name, lower, upper) for name, lower, upper in moves]
    alphabeta._solver_order(suggestions, [])
    # >=+1 is proven at least as good as =+1; no bound at all goes last
    assert [s.move for s in suggestions] == ["ge1", "eq1", "le1", "le0", "none"]
    assert [s.extra.get("bound") for s in suggestions] == ["lower", None, "upper", "upper", None]


def test_alpha_beta_marks_claims_won_and_lost_moves_proven(tmp_path):
    """Claim scores a won game 10,000 and its static evaluation stays
    inside it, so a move scored +-10,000 is a proven result; alpha-beta
    listed five moves that win at once as "a heuristic, not proven" where
    MCTS-Solver proved the same wins."""
    path = tmp_path / "wins.json"
    path.write_text(json.dumps({"game": "claim", "players": 2, "territories": ["a a b b", "a a b b", "c c c c"],
                                "board": ["T1 . . .", ". 1 . .", "T1 2 . 1"]}))
    answer = claimsolve.analyze(claimsolve.load(path), engine="alphabeta", time=1, top=20).to_json()
    by_move = {s["move"]: s for s in answer["suggestions"]}
    assert by_move["d1-d2 T@c2"]["score"] == 10000 and by_move["d1-d2 T@c2"]["result"] == "win"
    assert by_move["d1-d2 T@c2"]["proven"] == "=+10000"
    assert by_move["b2-a2"]["score"] == -10000 and by_move["b2-a2"]["result"] == "loss"
    assert answer["exact"] is True and "proven results" in answer["scores"]
    top = claimsolve.analyze(claimsolve.load(path), engine="alphabeta", time=1, top=3).to_json()
    assert top["exact"] is False and top["scores"].endswith("not proven, except the moves marked proven")
    assert all(s["result"] == "win" for s in top["suggestions"])


def test_only_a_two_sided_search_proves_a_loss_by_the_win_score():
    from claimsolve.search.alphabeta import _won_or_lost
    assert _won_or_lost(10000, "exact", 10000, "paranoid") and _won_or_lost(10000, "lower", 10000, "sides")
    assert not _won_or_lost(10000, "upper", 10000, "sides")          # at most a win proves nothing
    assert _won_or_lost(-10000, "upper", 10000, "sides")
    assert not _won_or_lost(-10000, "exact", 10000, "paranoid")      # everyone against the mover
    assert not _won_or_lost(9999, "exact", 10000, "sides") and not _won_or_lost(10000, "exact", 0, "sides")


def test_the_solvers_note_counts_every_move_proven_to_reach_the_value():
    """The note said "with one move that reaches it; 4 other moves have
    their value proven too" above a list of two moves proven at the value
    (b2xb3 and b3xb4 "+1 proven win (=+1)")."""
    from claimsolve.analysis import answer_labels
    from claimsolve.search.result import SearchResult
    moves = [Suggestion("b2xb3", 1, exact=True), Suggestion("b3xb4", 1, exact=True),
             Suggestion("a3xa2", 0, exact=True), Suggestion("a1-a2", 1, extra={"bound": "upper"})]
    result = SearchResult(engine="solver", suggestions=moves, complete=True,
                          info={"value_only": True, "value": 1, "result": "win"})
    game = claimsolve.catalog.game_of(claimsolve.load(SEEDS / "colorclaim" / "start-3x3-seed1.json"))
    notes = answer_labels(result, game)["notes"]
    # (it said "with one move that reaches it", which a QA player read as "only one": the other moves
    # with bounds only may reach it too)
    assert notes[0] == ("solver: the value +1 (win) is proven; 2 moves are proven to reach it (listed first), "
                        "1 is proven worse (listed last) and 1 other has no value proven in the time and may "
                        "reach it too (<=+1 says only that none is better)"), notes
    result.suggestions = moves[:1] + moves[2:]
    assert answer_labels(result, game)["notes"][0].startswith(
        "solver: the value +1 (win) is proven; 1 move is proven to reach it (listed first), 1 is proven worse")


def test_a_proven_value_lists_moves_that_may_reach_it_above_moves_proven_worse():
    """A QA player's 5x4 position at 1 s: the value 0 proven, the list
    ran c2-c1 =0, b2xb1 =-2, c2-b2 =-2, c2-c3 =-3 (the worst of its 43
    moves), then b1-b2 <=0, below it though it may draw (five moves did):
    the solver ordered by lower bound alone.  Under a proven value, the
    moves that reach it, then those that may, then those proven worse."""
    from claimsolve.search.alphabeta import _solved_suggestion, _solver_order
    moves = [_solved_suggestion("c2-c1", 0, 0), _solved_suggestion("b2xb1", -2, -2),
             _solved_suggestion("c2-c3", -3, -3), _solved_suggestion("b1-b2", None, 0),
             _solved_suggestion("a1-a2", None, -1), _solved_suggestion("e1-e2", None, None)]
    _solver_order(moves, ["c2-c1"], 0)
    assert [s.move for s in moves] == ["c2-c1", "b1-b2", "e1-e2", "b2xb1", "c2-c3", "a1-a2"]
    _solver_order(moves, ["c2-c1"])                      # no value proven: by lower bound, as before
    assert [s.move for s in moves] == ["c2-c1", "b2xb1", "c2-c3", "b1-b2", "a1-a2", "e1-e2"]
