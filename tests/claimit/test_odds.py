"""The odds table: cli.md's JSON, exact parts exact, Monte Carlo parts
converging to the exact values."""
import math
import os
from pathlib import Path

import pytest

import claimsolve
from claimsolve.claimit import optimum, rules
from claimsolve.claimit.odds import OVERRULE, odds
from claimsolve.claimit.plans import best_by_decision, best_decision_chances, plan_rows
from claimsolve.render.claimit import render_odds, sureness
from claimsolve.render.charts import odds_svg
from claimsolve.errors import ClaimsolveError

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claimit"
FULL = ["B/1 B/2 B/1 B/2 B/1 B/2", "B/2 B/1 B/2 B/1 B/2 B/1", "B/1 B/2 B/1 B/2 B/1 B/2",
        "B/2 B/1 B/2 B/1 B/2 B/1"]


def seed(name):
    return claimsolve.load(str(SEEDS / name))


def small(rows, dice=None):
    data = {"game": "claimit", "players": 2, "to_move": 1, "board": rows, "target": 15}
    if dice is not None:
        data["dice"] = dice
    return claimsolve.from_dict(data)


def test_json_has_the_cli_fields():
    position = seed("mid-game-3p.json")
    table = odds(position, samples=200, seed=3, optimum_time=0.05).to_json()
    assert table["bust_probability"] == position.bust_rolls() / 216
    assert table["recommendation"] in ("roll", "stop")
    labels = [row["label"] for row in table["rows"]]
    assert labels[:3] == ["stop now", "roll once more, then stop", "roll up to 2 more times, then stop"]
    assert "follow the play-outs' policy" in labels
    for row in table["rows"]:
        assert 0.0 <= row["survive"] <= 1.0
        lo, hi = row["win_ci95"]
        assert lo <= row["win"] <= hi
        assert not any(key.startswith("_") for key in row)
    for objective in ("secured", "held"):
        entry = table["turn_optimum"][objective]
        assert set(entry["decisions"]) == {"roll", "stop"}
        assert entry["value"] == max(entry["decisions"].values())
    assert table["samples"] == 200 and table["seed"] == 3
    import json
    json.dumps(table)


def test_the_table_says_a_final_round_and_the_variant():
    """odds said nothing of the final round (the turns left decide how much
    risk is worth) nor of release_white; `analyze` says both with the board."""
    table = odds(seed("final-round-3p.json"), samples=50, seed=1, optimum_time=0.05)
    text = render_odds(table)
    assert "Final round (player 3 reached the target): 3 turns left, this one included." in text
    assert table.to_json()["final_round"] == {"triggered_by": 3, "turns_left": 3}
    assert "release_white" not in text and table.to_json()["release_white"] is False
    data = seed("final-round-3p.json").to_json()
    data.update(to_move=3, final_round={"triggered_by": 3, "turns_left": 1})
    last = render_odds(odds(claimsolve.from_dict(data), samples=50, seed=1, optimum_time=0.05))
    assert "1 turn left, this one included; the last of the game" in last
    variant = odds(seed("release-white-2p.json"), samples=50, seed=1, optimum_time=0.05)
    assert "Variant release_white: a black marker put on a white marker sends that white back" in \
        render_odds(variant)
    assert variant.to_json()["release_white"] is True and variant.to_json()["final_round"] is None


def test_confidence_words_never_say_certain_either_way():
    """The board showed "(0% sure it is the best of the 5)": a sample is
    still a sample, at either end."""
    assert [sureness(c) for c in (0.0, 0.004, 0.005, 0.5, 0.994, 0.995, 1.0)] == \
        ["under 1% sure", "under 1% sure", "under 1% sure", "50% sure", "99% sure",
         "over 99% sure", "over 99% sure"]


def test_play_outs_cut_by_the_time_budget_say_so():
    """`odds --time 0.5` played 1,356 play-outs a row of 2,000 asked and
    said "played out 1,356 times per row (seed 9)", as though that were all
    the seed gives."""
    table = odds(seed("late-turn-roll-3p.json"), samples=10 ** 7, seed=9, time=0.3)
    assert table.samples < 10 ** 7 and table.to_json()["samples_asked"] == 10 ** 7
    text = " ".join(render_odds(table).split())
    assert f"played out {table.samples:,} times per row (seed 9), of 10,000,000 asked: the time budget cut " \
           "them short" in text
    whole = odds(seed("late-turn-roll-3p.json"), samples=100, seed=9, optimum_time=0.05)
    assert whole.to_json()["samples_asked"] == whole.samples == 100
    assert "asked" not in render_odds(whole)


def test_a_rounded_elo_of_nothing_has_no_sign():
    """"Elo difference A - B: -0 (95% CI -301 to +301)" said A the weaker."""
    from claimsolve.render.text import _elo_text
    assert [_elo_text(x) for x in (-0.3, 0.0, 0.4, -0.6, 12.4)] == ["+0", "+0", "+0", "-1", "+12"]


def test_stop_now_row_is_exact():
    position = seed("late-turn-stop-3p.json")
    rows = plan_rows(position, samples=50, seed=0)
    stop = rows[0]
    assert stop["plan"] == "stop"
    start = rules.bust(position.board)
    after = rules.stop(position.board, position.to_move)
    assert stop["survive"] == 1.0
    assert stop["secured_gain"] == rules.secured_count(after, 1) - rules.secured_count(start, 1)
    assert stop["held_gain"] == rules.held_count(after, 1) - rules.held_count(start, 1)
    assert stop["group_gain"] == rules.largest_group(after, 1) - rules.largest_group(start, 1)


def test_one_more_roll_survives_as_often_as_the_exact_odds_say():
    position = seed("late-turn-roll-3p.json")
    exact = 1 - position.bust_rolls() / 216
    errors = []
    for samples in (500, 20000):
        row = plan_rows(position, samples=samples, seed=1, rest_of_game=False)[1]
        assert row["plan"] == "roll:1"
        errors.append(abs(row["survive"] - exact))
        sd = math.sqrt(exact * (1 - exact) / samples)
        assert errors[-1] < 4 * sd
    assert errors[1] < 0.01


def test_optimum_row_converges_to_the_exact_turn_optimum():
    """Playing the turn by the exact optimum (secured), the Monte Carlo mean
    of the secured gain approaches the exact expectimax value; its held gain
    never beats the exact held optimum."""
    position = small(FULL + ["B/1 B/2 B/1 1 . 1", "w1 2/w2 . 2 1 w4"])
    optimum.solver_for(position, "secured").clear()
    exact = optimum.solve(position, "secured", time=optimum.NO_DEADLINE)
    held = optimum.solve(position, "held", time=optimum.NO_DEADLINE)
    solver = optimum.solver_for(position, "secured")
    errors = []
    for samples in (1000, 40000):
        row = plan_rows(position, samples=samples, seed=5, rest_of_game=False, solver=solver)[-1]
        assert row["plan"] == "optimum"
        errors.append(abs(row["secured_gain"] - exact["value"]))
        assert errors[-1] < 4 * 1.5 / math.sqrt(samples)
        assert row["held_gain"] <= held["value"] + 4 * 2 / math.sqrt(samples)
    assert errors[1] < 0.02
    # a plan that is not optimal falls short of the exact value
    rows = plan_rows(position, samples=40000, seed=5, rest_of_game=False)
    for row in rows:
        assert row["secured_gain"] <= exact["value"] + 4 * 1.5 / math.sqrt(40000)


def test_table_includes_the_optimum_row_when_exact():
    position = small(FULL + ["B/1 B/2 B/1 1 . 1", "w1 2/w2 . 2 1 w4"])
    table = odds(position, samples=300, seed=0, optimum_time=optimum.NO_DEADLINE)   # small: milliseconds
    assert table.turn_optimum["secured"]["exact"] is True
    assert table.turn_optimum["held"]["exact"] is True
    assert table.rows[-1]["plan"] == "optimum"
    assert table.rows[-1]["decision"] == "roll"           # secured: roll 0.51 > stop 0


def test_with_dice_the_rows_are_the_placements():
    position = seed("mid-game-dice-3p.json")
    result = odds(position, samples=300, seed=0, optimum_time=0.05)
    table = result.to_json()
    assert table["mode"] == "placement"
    assert sorted(row["decision"] for row in table["rows"]) == sorted(position.legal_moves())
    assert table["recommendation"] in position.legal_moves()
    wins = [row["win"] for row in table["rows"]]
    assert wins == sorted(wins, reverse=True)              # ranked
    assert set(table["turn_optimum"]["secured"]["decisions"]) == set(position.legal_moves())


def test_policy_row_names_the_policys_own_first_decision():
    # late in this turn the bust chance is above the policy's 25%: it stops
    position = seed("late-turn-roll-3p.json")
    rows = plan_rows(position, samples=100, seed=0)
    policy = [r for r in rows if r["plan"] == "policy"][0]
    assert position.bust_rolls() / 216 > 0.25
    assert policy["decision"] == "stop"
    assert policy["survive"] == 1.0


def test_start_of_turn_must_roll():
    position = seed("start-3p.json")
    result = odds(position, samples=100, seed=0, optimum_time=0.05)
    assert result.recommendation == "roll"
    assert result.margin is None
    assert all(row["decision"] == "roll" for row in result.rows)
    assert result.bust_probability == 0.0


def test_same_seed_same_table_and_progress_changes_nothing():
    position = seed("mid-game-3p.json")
    seen = []
    a = odds(position, samples=120, seed=9, optimum_time=0.02).to_json()
    b = odds(position, samples=120, seed=9, optimum_time=0.02, progress=seen.append).to_json()
    for table in (a, b):
        table.pop("seconds")
        for objective in table["turn_optimum"].values():
            objective.pop("seconds", None)
    assert a["rows"] == b["rows"]
    assert seen and seen[-1]["samples"] == "120/120"
    c = odds(position, samples=120, seed=10, optimum_time=0.02).to_json()
    assert c["rows"] != a["rows"]


def test_render_is_an_aligned_table():
    position = seed("mid-game-3p.json")
    text = render_odds(odds(position, samples=100, seed=0, optimum_time=0.02))
    # 3 players: weights are shipped, so the learned win objective recommends, the plans check it
    assert "stop now" in text and "Recommendation (learned win objective):" in text
    assert "a model's estimate" in text and "Check, by the Monte Carlo plans above:" in text
    assert "busts with" in text and "/216" in text
    lines = [line for line in text.splitlines() if line.startswith(("stop now", "roll "))]
    assert len({line.index("%") for line in lines}) == 1


def test_the_check_says_when_the_plans_disagree_with_the_learned_objective():
    # the text recommended w1@5,6 by the net, the JSON w5@1,6 by the plans,
    # and the check line compared w5@1,6 with its runner-up only, and never
    # said how sure the plans were
    table = odds(seed("mid-game-dice-3p.json"), samples=100, seed=0, optimum_time=0.02)
    decisions = [row["decision"] for row in table.rows]
    plans = table.monte_carlo["recommendation"]
    learned = table.turn_optimum["win"]["decisions"]
    for name in learned:
        learned[name] = 0.5 if name != plans else 0.0      # the net prefers another move
    chosen = next(name for name in learned if name != plans)
    learned[chosen] = 1.0
    text = " ".join(render_odds(table).split())
    theirs = max((r for r in table.rows if r["decision"] == plans), key=lambda r: r["win"])
    ours = max((r for r in table.rows if r["decision"] == chosen), key=lambda r: r["win"])
    assert f"Recommendation (learned win objective): {chosen}:" in text
    assert (f"Check, by the Monte Carlo plans above: they disagree, and prefer {plans}: "
            f"'{theirs['label']}' wins {100 * theirs['win']:.1f}%") in text
    assert f"where '{ours['label']}' wins {100 * ours['win']:.1f}%" in text
    assert f"{100 * (theirs['win'] - ours['win']):.1f} percentage points lower;" in text
    # how sure the plans are that theirs is the best of all the placements, not only better than ours
    confidence, candidates = table.monte_carlo["confidence"], len(set(decisions))
    assert candidates > 2 and table.to_json()["candidates"] == candidates
    assert f"the plans are {sureness(confidence)} that {plans} is the best of the {candidates}." in text
    for name in learned:                             # agreeing: the check as before
        learned[name] = 1.0 if name == plans else 0.0
    text = " ".join(render_odds(table).split())
    assert "they disagree" not in text and f"sure it is the best of the {candidates}." in text


def test_the_plans_overrule_the_net_where_they_are_over_99_percent_sure():
    """On seeds/claimit/mid-game-dice-3p.json the net's search, cut after 2
    rolls, recommended w1@5,6 (0.451 against 0.441), where the plans put it
    4.7 points below w5@1,6 and were over 99% sure of it, and MCTS gave
    w5@1,6 93% of 917,712 simulations and w1@5,6 none: the text, the JSON
    and the picture recommended the net's move all the same.  Where the
    plans are that sure, theirs is the recommendation, and all three say
    what the net chose and why it is overruled."""
    from claimsolve.render.charts import odds_svg

    table = odds(seed("mid-game-dice-3p.json"), samples=2000, seed=0, optimum_time=0.02)
    best = best_by_decision(table.rows)
    plans = table.monte_carlo["recommendation"]
    worst = min(best, key=lambda d: best[d]["win"])
    values = table.turn_optimum["win"]["decisions"]
    for name in values:
        values[name] = 0.6 if name == worst else 0.4            # the net prefers the plans' worst
    sure = best_decision_chances(table.rows, [worst, plans])[plans]
    assert sure > OVERRULE
    assert table.recommended_by == table.MONTE_CARLO and table.recommendation == plans
    assert table.overruled == {"learned": worst, "by": plans, "confidence": sure,
                               "margin": best[plans]["win"] - best[worst]["win"]}
    data = table.to_json()
    assert (data["recommendation"], data["recommended_by"]) == (plans, "Monte Carlo plans")
    assert data["overruled"]["learned"] == worst and data["overruled"]["confidence"] == round(sure, 6)
    assert data["confidence"] == data["monte_carlo"]["confidence"]
    text = " ".join(render_odds(table).split())
    assert "Recommendation (learned win objective)" not in text
    assert "Learned win objective, overruled by the plans: " in text
    assert f"Recommendation, by the Monte Carlo plans above: {plans}: win chance" in text
    said = (f"The plans overrule the learned win objective's {worst}: they are over 99% sure that it wins less "
            f"than {plans} ({100 * best[worst]['win']:.1f}%")
    assert said in text
    picture = " ".join(odds_svg(table).split())
    assert f"Recommendation (Monte Carlo plans): {plans}:" in picture and f"learned win objective&#x27;s {worst}" \
        in picture.replace("&#39;", "&#x27;").replace("'", "&#x27;")
    # less sure than that, the net's choice stands, the plans' doubt said beside it: the next test


def test_what_is_exact_and_what_is_estimated_is_said():
    """The picture's bust bars are the play-outs' (the exact chance of the
    next roll is in its subtitle): its column says so.  An exact turn
    optimum that evaluated no turn state said "0 turn states evaluated"."""
    from claimsolve.render.charts import odds_svg

    table = odds(seed("late-turn-stop-3p.json"), samples=100, seed=0, optimum_time=optimum.NO_DEADLINE)
    picture = odds_svg(table)
    assert "(exact)" in picture and "turn busts (play-outs)" in picture and ">bust chance<" not in picture
    assert table.turn_optimum["held"]["exact"]
    table.turn_optimum["held"]["states"] = 0
    table.turn_optimum["secured"]["states"] = 1
    text = render_odds(table)
    assert "held spaces gained: 3.046 (exact, no turn state needed evaluating: bounds (or this turn's memo) " \
           "settled it)" in text
    assert "secured spaces gained: 2.000 (exact, 1 turn state evaluated)" in text
    assert "0 turn states" not in text


def test_rolls_are_counted_in_words():
    # "at most 2 more roll(s)"
    table = odds(seed("mid-game-3p.json"), samples=100, seed=0, optimum_time=0.02)
    decisions = {"roll": 0.4, "stop": 0.3}
    table.turn_optimum["win"] = {"exact": False, "reason": "not finished", "weights": "w.npz", "decisions": decisions,
                                 "lower_bound": {"rolls": 1, "value": 0.4, "decisions": decisions}}
    table.turn_optimum["secured"] = {"exact": False, "reason": "not finished", "value": 1.0,
                                     "decisions": {"roll": 1.0, "stop": 0.0},
                                     "monte_carlo": {"value": 1.0, "decisions": {"roll": 1.0, "stop": 0.0}},
                                     "lower_bound": {"rolls": 2, "value": 0.9, "decisions": {"roll": 0.9, "stop": 0}}}
    text = " ".join(render_odds(table).split())
    assert "at most 1 more roll, each line cut there" in text
    assert "best play with at most 2 more rolls):" in text and "(s)" not in text


def test_text_json_and_picture_recommend_the_same_move():
    """`odds` printed "Recommendation (learned win objective): roll" while
    its --json said "recommendation": "stop" (the plans', confidence
    0.578): one recommendation, whose `recommended_by` says, and the other
    source's preference under `monte_carlo` with its confidence."""
    from claimsolve.render.charts import odds_svg

    table = odds(seed("late-turn-stop-3p.json"), samples=200, seed=1, optimum_time=0.02)
    plans = table.monte_carlo["recommendation"]
    other = "roll" if plans == "stop" else "stop"
    table.turn_optimum["win"]["decisions"] = {plans: 0.2, other: 0.3}        # the net disagrees
    data = table.to_json()
    assert data["recommendation"] == other and data["recommended_by"] == "learned win objective"
    assert data["overruled"] is None and 0.5 < table.monte_carlo["confidence"] <= OVERRULE   # not sure enough
    assert f"Recommendation (learned win objective): {other}:" in render_odds(table)
    assert f"Recommendation (learned win objective, a model's estimate): {other}." in odds_svg(table)
    assert f"The plans above prefer {plans}:" in odds_svg(table)
    mc = data["monte_carlo"]
    assert mc["recommendation"] == plans and 0.0 <= mc["confidence"] <= 1.0
    assert data["compared_with"] == max((r for r in table.rows if r["decision"] == plans),
                                        key=lambda r: r["win"])["label"]
    assert data["confidence"] == pytest.approx(1 - mc["confidence"], abs=2e-6)     # two decisions
    assert data["margin"] == pytest.approx(-mc["margin"], abs=2e-6)
    # equal as shown: the net recommends neither, the plans recommend, said so everywhere
    table.turn_optimum["win"]["decisions"] = {plans: 0.25, other: 0.25}
    data = table.to_json()
    assert data["recommendation"] == plans and data["recommended_by"] == "Monte Carlo plans"
    assert data["monte_carlo"]["recommendation"] == plans and data["confidence"] == data["monte_carlo"]["confidence"]
    text = " ".join(render_odds(table).split())
    assert f"Recommendation, by the Monte Carlo plans above: {plans}: win chance" in text
    assert f"Recommendation (Monte Carlo plans): {plans}:" in odds_svg(table)
    del table.turn_optimum["win"]                                  # no weights: the plans alone
    assert table.to_json()["recommendation"] == plans
    assert f"Recommendation: {plans}: win chance" in render_odds(table)


def test_equal_values_recommend_neither_and_no_win_at_all_is_said():
    """A 5-player final round player 1 cannot win: the net valued roll and
    stop 0.000 each and the text recommended roll; the plans, all at 0.0%,
    were said to "disagree ... 0.0 points lower"."""
    table = odds(seed("mid-game-3p.json"), samples=100, seed=0, optimum_time=0.02)
    learned = table.turn_optimum["win"]["decisions"]
    for name in learned:
        learned[name] = 0.25
    text = " ".join(render_odds(table).split())
    assert f"Learned win objective, no choice: {' and '.join(learned)} tie at 0.250," in text
    assert "they disagree" not in text and "sure." in text                # the plans' own check
    for row in table.rows:
        row["win"], row["win_ci95"] = 0.0, [0.0, 0.0364]
    # the net values them alike and no play-out won: no recommendation anywhere (the JSON named the first row's)
    assert (table.recommendation, table.recommended_by) == (None, None)
    data = table.to_json()
    assert data["recommendation"] is None and data["recommended_by"] is None and data["margin"] is None
    assert data["monte_carlo"]["recommendation"] is None
    assert "No recommendation: no plan won any of its 100 play-outs" in " ".join(odds_svg(table).split())
    learned[next(iter(learned))] = 0.5
    text = " ".join(render_odds(table).split())
    assert "No plan above won any of its 100 play-outs: player 1's win chance is under 3.6% whatever he does" in text
    assert "they disagree" not in text and "points lower" not in text and "sure." not in text


def test_a_tie_is_one_verdict_naming_the_moves_alike_and_which_to_play():
    """`play`'s `?` at a placement printed "Recommendation (learned win
    objective): w6@3,5 and w5@3,6 and ... alike" (every placement, 0.366 and
    0.362 alike), then "No recommendation: ... (and the net values them
    alike)" of two others the net valued 0.299 and 0.297: a heading that
    recommended nothing, and a claim the numbers beside it denied."""
    table = odds(seed("mid-game-dice-3p.json"), samples=200, seed=0, optimum_time=0.02)
    a, b, c, *rest = [row["decision"] for row in table.rows]
    values = {a: 0.4, b: 0.3, c: 0.4, **{d: 0.2 for d in rest}}       # the net ties a and c
    table.turn_optimum["win"]["decisions"] = values
    for row in table.rows:                                           # the plans tie a and b (50.0% as shown)
        row["win"] = {a: 0.5, b: 0.5002}.get(row["decision"], 0.4)
    assert table.recommendation is None
    text = render_odds(table)
    lines = text.splitlines()
    assert not [line for line in lines if line.startswith("Recommendation")], text
    assert [line for line in lines if "recommendation" in line.lower()] == [
        next(line for line in lines if line.startswith("No recommendation:"))]
    joined = " ".join(text.split())
    assert f"Learned win objective, no choice: {a} and {c} tie at 0.400, to the 3 decimals shown (then {b} 0.300" \
        in joined
    assert "values them alike" not in joined
    assert (f"No recommendation: {b} and {a} alike: the best plan of each wins 50.0% of its 200 play-outs, the net "
            f"values them {b} 0.300, {a} 0.400: to play one, {a}: the net values it highest of them.") in joined
    assert table.to_json()["no_recommendation"] in joined
    # the net ties them too: the one whose plan wins more before rounding, and how sure the play-outs are
    values[b] = 0.4
    joined = " ".join(render_odds(table).split())
    assert f"the net values each 0.400: to play one, {b}: its best plan wins 0.02 percentage points more" in joined
    assert f"than {a}'s before rounding, " in joined and "% sure of it." in joined
    picture = " ".join(odds_svg(table).split())
    assert f"to play one, {b}" in picture


def test_no_interval_or_confidence_claims_certainty_from_a_sample():
    # a row no play-out won showed "0.0% (0.0-0.0%)"; a check "100% sure"
    from claimsolve.render.claimit import sureness
    table = odds(seed("final-round-3p.json"), samples=300, seed=0, optimum_time=0.02)
    never = [row for row in table.rows if row["win"] == 0.0]
    assert never, "the final round's table has a row no play-out wins"
    for row in table.rows:
        low, high = row["win_ci95"]
        assert low <= row["win"] <= high and high > low
    assert all(0.0 < row["win_ci95"][1] < 0.02 for row in never)           # Wilson at 0 of 300: 0-1.3%
    assert sureness(0.584903) == "58% sure" and sureness(1.0) == "over 99% sure"


def test_a_turn_start_is_not_asked_roll_or_stop():
    # "roll again or stop?" was asked where stop is not legal yet
    table = odds(seed("start-3p.json"), samples=100, seed=0, optimum_time=0.02)
    assert table.to_json()["mode"] == "must roll"
    first = render_odds(table).splitlines()[0]
    assert first.startswith("Player 1 to move: the turn begins with a roll (stop is not legal yet)")
    assert "roll again or stop" not in first
    # its first roll is the compulsory one, not "roll once more"
    labels = [row["label"] for row in table.rows]
    assert labels[:2] == ["roll (the turn's compulsory first roll), then stop",
                          "roll up to 2 times (the first compulsory), then stop"]
    assert "once more" not in render_odds(table) and "more times" not in render_odds(table)
    assert odds(seed("mid-game-3p.json"), samples=100, seed=0, optimum_time=0.02).mode == "roll or stop"


def test_finished_game_has_no_odds():
    with pytest.raises(ClaimsolveError):
        odds(seed("game-over-3p.json"), samples=10)


def test_analyze_gives_the_turn_optimum_its_threads(monkeypatch):
    """`analyze --threads 2` (MCTS in two processes) runs the odds table's
    exact turn optimum on two threads (the real search, its calls
    recorded): the same exact values as one.  Untold, `analyze` and `odds`
    run it on the cores this process may use, at most 2."""
    position = claimsolve.load(str(Path(__file__).resolve().parents[2] / "seeds" / "claimit" / "start-3p.json"))
    seen, real = [], optimum.solve

    def recorded(*args, **kwargs):
        seen.append(args[4] if len(args) > 4 else kwargs.get("threads", 1))
        return real(*args, **kwargs)

    monkeypatch.setattr(optimum, "solve", recorded)
    one = claimsolve.analyze(position, iterations=300, threads=1).odds.turn_optimum
    assert seen == [1, 1]
    two = claimsolve.analyze(position, iterations=300, threads=2).odds.turn_optimum
    assert seen == [1, 1, 2, 2]
    for objective in ("secured", "held"):
        assert one[objective]["exact"] and two[objective]["exact"]
        assert two[objective]["decisions"] == pytest.approx(one[objective]["decisions"], abs=1e-9)
    cores = min(2, len(os.sched_getaffinity(0)))
    claimsolve.analyze(position, iterations=300)
    claimsolve.odds(position, samples=20)
    assert seen == [1, 1, 2, 2] + [cores] * 4


def test_the_analyze_player_gives_the_search_the_whole_budget(monkeypatch):
    """The analyze player plays MCTS's first suggestion, never the odds
    table's: it makes no table, and its search gets the player's whole
    time (the real search, its calls recorded); `analyze` itself still
    gives the search SEARCH_SHARE and makes the table."""
    from claimsolve.analysis import analyze
    from claimsolve.claimit import analysis, odds as odds_module
    from claimsolve.player_kinds import make_player
    from claimsolve.search import mcts

    position = seed("mid-game-3p.json")
    tables, budgets = [], []
    real_odds, real_search = odds_module.odds, mcts.search
    monkeypatch.setattr(odds_module, "odds", lambda *a, **k: tables.append(1) or real_odds(*a, **k))
    monkeypatch.setattr(mcts, "search", lambda *a, **k: budgets.append(k["time"]) or real_search(*a, **k))
    player = make_player("analyze:time=0.02", seed=3)
    move = player.choose(position)
    assert move in position.legal_moves()
    assert tables == [] and budgets == [0.02] and player.last.odds is None
    assert move == player.last.result.suggestions[0].move
    full = claimsolve.analyze(position, time=0.02, threads=1)
    assert tables == [1] and budgets == [0.02, pytest.approx(0.02 * analysis.SEARCH_SHARE)]
    assert full.odds is not None
    alone = analyze(position, iterations=200, threads=1, playing=True)
    assert alone.odds is None and alone.result.nodes == 200 and tables == [1]


WON_ALREADY = {     # player 1's last turn of the final round: his 12 secured spaces win whatever he does
    "game": "claimit", "players": 3, "to_move": 1, "dice": None,
    "board": ["B/1 B/1 B/1 B/1 B/1 B/1", "B/1 B/1 B/1 B/1 B/1 B/1", ". . . . . .",
              "B/2 B/2 . w3 . .", ". . . . B/3 B/3", ". . . . . ."],
    "final_round": {"triggered_by": 1, "turns_left": 1}, "variant": {"release_white": False}}


def _won_already(tmp_path):
    import json
    path = tmp_path / "won.json"
    path.write_text(json.dumps(WON_ALREADY))
    return odds(claimsolve.load(str(path)), samples=60, seed=0, optimum_time=0.5)


def test_a_round_already_won_recommends_nothing(tmp_path):
    # every play-out won: "stop: win chance +0.0 percentage points over 'roll once more', 50% sure" was a coin flip
    result = _won_already(tmp_path)
    assert all(f"{100 * r['win']:.1f}" == "100.0" for r in result.rows)
    assert result.recommendation is None and result.recommended_by is None
    data = result.to_json()
    assert data["recommendation"] is None and data["margin"] is None and data["confidence"] is None
    assert data["monte_carlo"]["recommendation"] is None
    why = data["no_recommendation"]
    assert why.startswith("roll and stop alike") and "every plan wins 100.0%" in why, why
    text = render_odds(result)
    assert "percentage points" not in text and f"No recommendation: {why}." in " ".join(text.split())
    picture = odds_svg(result)
    assert "percentage points" not in picture and "roll and stop alike" in picture
    # and no plan is drawn (or printed in bold) as the best of plans that all win alike
    assert 'class="plan best"' not in picture
    assert "\x1b[1m" not in render_odds(result, color=True)


def test_no_play_out_won_compares_nothing_in_the_json(tmp_path):
    # the net recommends, no play-out won: the text says nothing was compared, the JSON said margin 0.0,
    # confidence 0.5
    result = _won_already(tmp_path)
    for row in result.rows:
        row["win"], row["win_ci95"] = 0.0, [0.0, 0.06]
    result.turn_optimum["win"] = {**result.turn_optimum.get("win", {}), "decisions": {"roll": 0.2, "stop": 0.1},
                                  "weights": "test.npz", "exact": True, "states": 1, "value": 0.2}
    assert result.recommended_by == result.LEARNED and result.recommendation == "roll"
    data = result.to_json()
    assert data["margin"] is None and data["confidence"] is None and data["compared_with"] is None
    assert "No plan above won" in render_odds(result)


def test_plans_alike_neither_confirm_nor_contradict_the_nets_choice():
    # the net recommends; the plans' best win alike: "win chance +0.0 percentage points over ..., 50% sure"
    table = odds(seed("mid-game-3p.json"), samples=100, seed=0, optimum_time=0.02)
    for row in table.rows:
        row["win"] = 0.5
    assert table.recommended_by == table.LEARNED and table.monte_carlo["recommendation"] is None
    text = " ".join(render_odds(table).split())
    assert "the plans' best win alike as shown (50.0% each): they neither confirm nor contradict it." in text
    assert "percentage points" not in text
    picture = " ".join(odds_svg(table).split())
    assert "they neither confirm nor contradict it" in picture and "percentage points" not in picture


def test_a_row_with_one_win_has_an_interval_no_narrower_than_one_with_none():
    """Of 6,000 play-outs, a row with no win had Wilson's 0-0.064%, a row
    with one win the normal interval on its spread, 0-0.049%: the row that
    won once was said surer of losing.  Rows with fewer than RARE wins (or
    losses) take Wilson's."""
    from claimsolve.claimit.plans import RARE, _Tally
    from claimsolve.stats import wilson_interval
    tally = _Tally(3)
    tally.n = 6000
    for j, wins in enumerate((0, 1, 3000)):
        tally.sums[j][4] = tally.cross[j][j] = float(wins)      # rewards of 0 or 1
    none, once, half = (tally.mean_ci(j)[1] for j in range(3))
    assert none[1] <= once[1] and once == wilson_interval(1 / 6000, 6000)
    assert once[1] > 0.0009                      # 1 in 6,000: up to about 0.094%
    assert RARE <= 3000 and half != wilson_interval(0.5, 6000)   # plenty: the normal one on the spread
    assert abs(half[0] - (0.5 - 1.96 * (0.25 * 6000 / 5999 / 6000) ** 0.5)) < 1e-4


def test_with_a_budget_the_learned_objective_gets_what_the_play_outs_left():
    """`odds --time 2` gave the win search, which the recommendation
    follows, its share alone (0.15 s of its 0.2 s) and returned after
    0.33 s, leaving 85% of the budget unused: less search than without
    --time (1 s)."""
    import claimsolve
    position = claimsolve.load(SEEDS / "spec-example-2p.json")
    win = claimsolve.odds(position, samples=200, time=2).to_json()["turn_optimum"]["win"]
    assert win["seconds"] > 1.0, win          # (the whole call's time is benchmarks/bench_budgets.py's)


def _tally_of(rewards):
    """A tally of plans whose win rewards are the columns of `rewards`
    (samples x plans), as plan_tally adds them up."""
    import numpy as np
    from claimsolve.claimit.plans import _Tally
    rewards = np.asarray(rewards, dtype=float)
    tally = _Tally(rewards.shape[1])
    tally.add({"samples": rewards.shape[0],
               "sums": [[0.0, 0.0, 0.0, 0.0, float(column.sum())] for column in rewards.T],
               "cross": (rewards.T @ rewards).tolist()})
    return tally


def _games(chances, samples=6000, seed=0, shared=0.5):
    """Won (1) or lost (0) play-outs of plans with these true win chances,
    the same dice behind each sample: a sample's plans agree more often
    than chance (`shared` of them play out as the first plan would)."""
    import numpy as np
    rng = np.random.default_rng(seed)
    common = rng.random(samples)
    own = rng.random((samples, len(chances)))
    luck = np.where(rng.random((samples, len(chances))) < shared, common[:, None], own)
    return (luck < np.asarray(chances)[None, :]).astype(float)


def test_the_highest_of_equal_plans_is_not_said_sure_by_its_lead_over_the_next():
    """On the empty 3-player board with the roll 3,2,4 every placement is
    worth the same to the exact turn optimum (1.079 each), and the
    play-outs' win chances of the six lie within 0.5 points of each other
    (100,000 play-outs each); the table recommended the highest of them,
    "72% sure" (seed 1): the paired comparison of the top two, which a
    row picked as the highest of six is bound to win more often than not.
    The confidence is now that the pick is the best of all six."""
    import json
    position = json.loads((SEEDS / "start-3p.json").read_text())
    table = odds(claimsolve.from_dict(dict(position, dice=[3, 2, 4])), samples=6000, seed=1, optimum_time=0.02)
    data = table.to_json()
    assert data["recommended_by"] == "Monte Carlo plans"
    top, runner_up = sorted((r for r in table.rows if r["plan"] != "optimum"), key=lambda r: -r["win"])[:2]
    paired = top["_tally"][0].paired(top["_tally"][1], runner_up["_tally"][1])[1]
    assert paired > 0.7 and data["confidence"] < paired - 0.08, (paired, data["confidence"])   # 0.72, 0.60
    assert data["candidates"] == 6
    assert data["monte_carlo"]["confidence"] == data["confidence"]
    assert f", {sureness(data['confidence'])} it is the best of the 6." in " ".join(render_odds(table).split())
    assert f"{sureness(data['confidence'])} it is the best of the 6." in " ".join(odds_svg(table).split())
    # six plans of the same true win chance, drawn: the highest is less sure the best than ahead of the next
    old, new = [], []
    for seed in range(8):
        tally = _tally_of(_games([0.42] * 6, seed=seed))
        means = [tally.mean(j, 4) for j in range(6)]
        first, second = sorted(range(6), key=lambda j: -means[j])[:2]
        old.append(tally.paired(first, second)[1])
        new.append(tally.best_of(list(range(6)))[first])
        assert new[-1] < old[-1]
        assert sum(tally.best_of(list(range(6)))) == pytest.approx(1.0)
    assert sum(new) / 8 < sum(old) / 8 - 0.1, (old, new)


def test_of_two_plans_the_confidence_is_the_paired_comparison():
    tally = _tally_of(_games([0.42, 0.43], seed=3))
    paired = tally.paired(1, 0)[1]
    assert 0.6 < paired < 0.99
    assert tally.best_of([1, 0]) == [paired, 1.0 - paired]
    # the draws give it too, a third plan that rarely wins beside them
    tally = _tally_of(_games([0.42, 0.43, 0.05], seed=3))
    paired = tally.paired(1, 0)[1]
    assert 0.6 < paired < 0.99
    assert tally.best_of([1, 0, 2])[0] == pytest.approx(paired, abs=0.005)
    # roll or stop: two decisions, their best rows compared as before
    table = odds(seed("late-turn-stop-3p.json"), samples=300, seed=1, optimum_time=0.02)
    best = max(table.rows, key=lambda r: r["win"])
    other = max((r for r in table.rows if r["decision"] != best["decision"]), key=lambda r: r["win"])
    data = table.to_json()
    assert data["candidates"] == 2
    assert data["monte_carlo"]["confidence"] == pytest.approx(
        best["_tally"][0].paired(best["_tally"][1], other["_tally"][1])[1], abs=1e-6)


def test_a_clear_best_of_many_is_over_99_percent_sure():
    tally = _tally_of(_games([0.42, 0.42, 0.41, 0.43, 0.40, 0.47], seed=5))
    chances = tally.best_of(list(range(6)))
    assert chances[5] > 0.99 and sureness(chances[5]) == "over 99% sure"
    assert tally.best_of(list(range(6))) == chances           # the same draws every time: the same figure
    # plans that win the same in every sample share the best between them
    tally = _tally_of([[1.0, 1.0, 0.0]] * 50 + [[0.0, 0.0, 0.0]] * 50)
    assert tally.best_of([0, 1, 2]) == pytest.approx([0.5, 0.5, 0.0])


def test_a_tie_among_more_than_two_says_how_sure_the_pick_is_the_best_of_them():
    table = odds(seed("mid-game-dice-3p.json"), samples=200, seed=0, optimum_time=0.02)
    a, b, c, *rest = [row["decision"] for row in table.rows]
    table.turn_optimum["win"]["decisions"] = {d: 0.4 for d in (a, b, c, *rest)}     # the net ties them all
    for row in table.rows:                                           # the plans tie a, b and c (50.0% as shown)
        row["win"] = {a: 0.5, b: 0.5002, c: 0.4998}.get(row["decision"], 0.4)
    assert table.alike[0] == sorted([a, b, c])
    pick, why = table.tie_break
    assert pick == b and why.endswith(" it is the best of the 3"), why
    assert "of it" not in why
