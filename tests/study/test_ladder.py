"""`claimsolve study ladder`: a round robin, then Elo ratings with 95%
intervals fitted to every game at once (claimsolve.study.ratings).  A tiny
real ladder (Color Claim 3x3: random, a depth-1 search, MCTS), stopped and
continued; the fit itself on simulated tournaments whose true ratings are
known, and against choix where both apply."""
import contextlib
import hashlib
import itertools
import json
import re
import sqlite3

import numpy as np
import pytest
from click.testing import CliRunner

from claimsolve import study
from claimsolve.cli.main import main
from claimsolve.errors import ClaimsolveError, Interrupted
from claimsolve.study import ratings

SPECS = "random,alphabeta:depth=1,mcts:iterations=50"
LADDER = ["study", "ladder", "colorclaim", "--size", "3x3", "--specs", SPECS, "--games-per-table", "8"]
OPTIONS = {"game": "colorclaim", "size": "3x3", "specs": SPECS, "games_per_table": 8}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line(result):
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("claimsolve: "), lines
    return lines[0]


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    """A finished tiny ladder: its file, its JSON (from the run) and its
    report's text."""
    db = str(tmp_path_factory.mktemp("ladder") / "l.sqlite")
    result = run(*LADDER, "--db", db, "--workers", 1, "--json")
    assert result.exit_code == 0, result.output
    return db, json.loads(result.stdout), run("study", "report", db).stdout


# -- a real ladder --------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_ladder_ranks_mcts_above_random_with_the_anchor_at_zero(ladder):
    db, summary, text = ladder
    assert summary["kind"] == "ladder" and summary["games"] == 24 and summary["games_per_table"] == 8
    assert summary["anchor"] == "random" and summary["converged"]
    by_spec = {entry["spec"]: entry for entry in summary["ladder"]}
    assert set(by_spec) == set(SPECS.split(","))
    assert by_spec["random"]["rating"] == 0 and by_spec["random"]["ci95"] == [0, 0]
    assert by_spec["mcts:iterations=50"]["rating"] > 100
    assert by_spec["mcts:iterations=50"]["rank"] < by_spec["random"]["rank"]
    for entry in summary["ladder"]:
        lo, hi = entry["ci95"]
        assert lo <= entry["rating"] <= hi
        assert entry["games"] == 16          # two tables of 8 games each
    assert [entry["rank"] for entry in summary["ladder"]] == [1, 2, 3]
    assert [entry["rating"] for entry in summary["ladder"]] == sorted(
        (entry["rating"] for entry in summary["ladder"]), reverse=True)
    # the text says what the rating is and how the interval was made
    assert "Elo points above random, held at 0" in text
    assert "Hessian of the" in text and "log-likelihood" in text


@pytest.mark.slow
def test_the_json_has_what_the_text_shows(ladder):
    _db, summary, text = ladder
    table = [line.split() for line in text.splitlines() if re.match(r"\s+\d+\s+\S+\s+[-+]?\d+\s", line)]
    assert len(table) == 3
    for cells, entry in zip(table, summary["ladder"]):
        assert int(cells[0]) == entry["rank"] and cells[1] == entry["spec"]
        assert int(cells[2]) == round(entry["rating"])
        if entry["spec"] == "random":
            assert cells[3] == "anchor"
        else:
            assert [int(cells[3]), int(cells[5])] == [round(x) for x in entry["ci95"]] and cells[4] == "to"
        assert int(cells[-2]) == entry["games"] and cells[-1] == f"{entry['mean']:.3f}"


@pytest.mark.slow
def test_the_report_draws_the_ladder(ladder, tmp_path):
    pytest.importorskip("matplotlib")
    db, _summary, _text = ladder
    result = run("study", "report", db, "--svg", tmp_path / "charts")
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "charts" / "ladder.svg").read_text()
    assert "<svg" in svg and "mcts:iterations=50" in svg and "Elo rating above random" in svg


@pytest.mark.slow
def test_a_stopped_ladder_continues_to_the_same_ratings(ladder, tmp_path):
    db_whole, summary, _text = ladder
    db = str(tmp_path / "l.sqlite")
    budget = []

    def stop_after_two_batches(rows):
        budget.append(len(rows))
        if len(budget) == 2:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted):
        study.run("ladder", OPTIONS, db, workers=1, batch=3, on_batch=stop_after_two_batches)
    partial = study.report(db)
    assert partial["summary"]["study"]["done"] == 6 and "UNFINISHED, 6 of 24" in partial["text"]
    assert len(partial["summary"]["ladder"]) == 3          # a ladder of the games so far
    outcome = study.run("ladder", OPTIONS, db, workers=1)
    assert outcome["completed"] == 18 and outcome["duplicates"] == 0
    again = study.report(db)["summary"]
    # the same games (seeded by their number), so the same ladder as the run in one go
    assert again["ladder"] == summary["ladder"]
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert [row[0] for row in conn.execute("SELECT id FROM tasks ORDER BY id")] == list(range(24))


@pytest.mark.parametrize("args, needle", [
    (["--specs", "random,nosuchplayer"], "nosuchplayer"),
    (["--specs", "random"], "two specs or more"),
    (["--specs", "random,mcts:iterations=5,random"], "random is given twice"),
    (["--specs", "random,mcts:iterations=5", "--anchor", "alphabeta:depth=1"], "--anchor"),
    (["--specs", "random,mcts:iterations=5", "--games-per-table", "0"], "--games-per-table"),
])
def test_bad_input_gets_one_line_and_leaves_no_file(tmp_path, args, needle):
    db = tmp_path / "bad.sqlite"
    base = ["study", "ladder", "colorclaim", "--size", "3x3", "--games-per-table", "2"]
    line = one_line(run(*base, *args, "--db", db, "--workers", 1))
    assert needle in line, line
    assert not db.exists()


def test_a_stored_anchor_not_among_the_specs_is_refused(tmp_path):
    db = str(tmp_path / "l.sqlite")
    study.run("ladder", dict(OPTIONS, specs="random,alphabeta:depth=1", games_per_table=2), db, workers=1)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        params = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'params'").fetchone()[0])
        conn.execute("UPDATE meta SET value = ? WHERE key = 'params'", (json.dumps(dict(params, anchor="greedy")),))
        conn.commit()
    line = one_line(run("study", "report", db))
    assert "'anchor'" in line and db in line
    # another anchor on the same study is another study: refused, the file kept
    other = one_line(run("study", "ladder", "colorclaim", "--size", "3x3", "--specs", "random,alphabeta:depth=1",
                         "--games-per-table", 2, "--anchor", "alphabeta:depth=1", "--db", db))
    assert db in other


# -- the fit on simulated tournaments ------------------------------------------------------------

def simulate(true, seats, games_per_table, rng, shared=0.0):
    """Rows of a round robin of specs with Elo ratings `true`: every table
    of `seats` different specs, the winner drawn by the model; with chance
    `shared` the win is shared by the two likeliest winners."""
    specs = [f"s{i}" for i in range(len(true))]
    strength = 10 ** (np.asarray(true, float) / 400)
    rows = []
    for table in itertools.combinations(range(len(true)), seats):
        chances = strength[list(table)] / strength[list(table)].sum()
        for _ in range(games_per_table):
            points = [0.0] * seats
            if rng.random() < shared:
                for seat in np.argsort(chances)[-2:]:
                    points[seat] = 0.5
            else:
                points[rng.choice(seats, p=chances)] = 1.0
            rows.append({"seating": [specs[i] for i in table], "points": points})
    return specs, rows


def fitted(specs, rows, **kwargs):
    seats, points, _games = ratings.table_counts(specs, rows)
    return ratings.fit(specs, seats, points, **kwargs)


@pytest.mark.parametrize("seats, true", [(2, [0, 100, 300]), (3, [0, 100, 300, 200])])
def test_the_fit_recovers_known_ratings_within_its_intervals(seats, true):
    inside = 0
    for seed in range(5):
        specs, rows = simulate(true, seats, 300, np.random.default_rng(seed))
        fit = fitted(specs, rows)
        assert fit["converged"] and fit["ratings"][0] == 0 and fit["ci95"][0] == [0, 0]
        inside += all(lo <= t <= hi for t, (lo, hi) in zip(true, fit["ci95"]))
        # the fit is close: within 3 standard errors, each rating
        assert all(abs(r - t) <= 3 * se + 1e-9 for r, t, se in zip(fit["ratings"], true, fit["se"]))
    assert inside >= 4, inside


def test_the_intervals_cover_the_true_ratings_about_95_percent_of_the_time():
    true = [0, 50, 150, 300]
    covered = total = 0
    widths = []
    for seed in range(60):
        specs, rows = simulate(true, 2, 60, np.random.default_rng(100 + seed))
        fit = fitted(specs, rows)
        for t, (lo, hi) in list(zip(true, fit["ci95"]))[1:]:
            covered += lo <= t <= hi
            total += 1
            widths.append(hi - lo)
    assert 0.89 <= covered / total <= 0.99, covered / total
    assert 100 < np.median(widths) < 300        # 60 games a pair: intervals of some 200 Elo


def test_the_fit_is_choix_maximum_likelihood_where_both_apply():
    choix = pytest.importorskip("choix")
    true = [0, 100, 300, 200]
    specs, rows = simulate(true, 3, 100, np.random.default_rng(7))
    fit = fitted(specs, rows, prior=0)
    data = [(specs.index(next(s for s, p in zip(row["seating"], row["points"]) if p == 1)),
             tuple(specs.index(s) for s, p in zip(row["seating"], row["points"]) if p == 0)) for row in rows]
    theirs = choix.opt_top1(len(specs), data, alpha=1e-9)
    theirs = (theirs - theirs[0]) * ratings.ELO
    assert fit["ratings"] == pytest.approx(list(theirs), abs=0.5)


def test_draws_shared_wins_and_a_clean_sweep():
    # every game drawn: all equal, exactly
    specs = ["a", "b", "c"]
    rows = [{"seating": list(pair), "points": [0.5, 0.5]} for pair in itertools.combinations(specs, 2)] * 10
    fit = fitted(specs, rows)
    assert fit["ratings"] == pytest.approx([0, 0, 0], abs=1e-6)
    # a and b share every win against c at 3 seats: equal, both far above c
    rows = [{"seating": ["a", "b", "c"], "points": [0.5, 0.5, 0.0]}] * 20
    fit = fitted(specs, rows, anchor=2)
    assert fit["ratings"][0] == pytest.approx(fit["ratings"][1]) and fit["ratings"][0] > 300
    # b beats a every time: the prior keeps it finite, the interval above 0
    rows = [{"seating": ["a", "b"], "points": [0.0, 1.0]}] * 30
    fit = fitted(["a", "b"], rows)
    assert fit["converged"] and 300 < fit["ratings"][1] < 2000 and fit["ci95"][1][0] > 0
    # half a point is half a win: 10 wins and 10 draws as 15 wins and 5 losses
    half = [{"seating": ["a", "b"], "points": [1.0, 0.0]}] * 10 + [{"seating": ["a", "b"], "points": [0.5, 0.5]}] * 10
    whole = [{"seating": ["a", "b"], "points": [1.0, 0.0]}] * 15 + [{"seating": ["a", "b"], "points": [0.0, 1.0]}] * 5
    assert fitted(["a", "b"], half)["ratings"] == pytest.approx(fitted(["a", "b"], whole)["ratings"])


def test_a_ladder_with_no_game_yet_reports_its_heading_alone(tmp_path):
    from claimsolve.study.kinds import get_kind
    from claimsolve.study.store import Store
    db = str(tmp_path / "l.sqlite")
    kind = get_kind("ladder")
    Store.create_or_open(db, "ladder", kind.options(**OPTIONS), kind.columns, kind.describe).close()
    result = run("study", "report", db, "--svg", tmp_path / "charts")
    assert result.exit_code == 0, result.output
    assert "UNFINISHED, 0 of 24" in result.stdout and "ladder of 3 specs at 2 seats, 0 games" in result.stdout
    assert "Rating" not in result.stdout and "Chart" not in result.stdout
    assert json.loads(run("study", "report", db, "--json").stdout)["ladder"] == []


def test_other_parameters_are_named_by_the_options_that_set_them(tmp_path):
    """A rerun with other options names those options (--specs, --games-per-
    table), not the parameters derived from them (games, rounds, seats)."""
    db = tmp_path / "l.sqlite"
    base = ["study", "ladder", "colorclaim", "--size", "3x3", "--db", db, "--workers", 1]
    assert run(*base, "--specs", "random,alphabeta:depth=1", "--games-per-table", 2).exit_code == 0
    line = one_line(run(*base, "--specs", "random,alphabeta:depth=1,mcts:iterations=5", "--games-per-table", 4))
    assert "--games-per-table 2, not --games-per-table 4" in line and "--specs random,alphabeta:depth=1, not" in line
    assert not re.search(r"--(games|rounds|per_round|seats) ", line), line


# -- study report --anchor: the same games, another spec at 0 ------------------------------------

@pytest.fixture(scope="module")
def small_ladder(tmp_path_factory):
    """A quick finished ladder of three specs (random its anchor) and a match study."""
    folder = tmp_path_factory.mktemp("small")
    db, match = folder / "l.sqlite", folder / "m.sqlite"
    study.run("ladder", dict(OPTIONS, specs="random,alphabeta:depth=1,mcts:iterations=20", games_per_table=4),
              str(db), workers=1)
    study.run("match", {"game": "colorclaim", "size": "3x3", "a": "random", "b": "random", "games": 2}, str(match),
              workers=1)
    return db, match


def test_report_anchor_rates_the_same_games_with_another_spec_at_zero(small_ladder):
    # the anchor only sets the zero, but it could not be changed after the games: a rerun with
    # another --anchor was "other parameters", and `study report --anchor` no such option
    db, _ = small_ladder
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    own = json.loads(run("study", "report", db, "--json").stdout)
    result = run("study", "report", db, "--anchor", "alphabeta:depth=1", "--json")
    assert result.exit_code == 0, result.output
    other = json.loads(result.stdout)
    assert own["anchor"] == "random" and other["anchor"] == "alphabeta:depth=1"
    assert other["study"]["params"]["anchor"] == "random"          # the stored anchor is kept
    rating = {entry["spec"]: entry["rating"] for entry in other["ladder"]}
    first = {entry["spec"]: entry["rating"] for entry in own["ladder"]}
    assert rating["alphabeta:depth=1"] == 0 and first["random"] == 0
    for a, b in itertools.combinations(rating, 2):
        assert rating[a] - rating[b] == pytest.approx(first[a] - first[b], abs=0.3)
    anchored = next(entry for entry in other["ladder"] if entry["spec"] == "alphabeta:depth=1")
    assert anchored["ci95"] == [0, 0]
    text = run("study", "report", db, "--anchor", " alphabeta:depth=1 ").stdout
    assert "Elo points above alphabeta:depth=1, held at 0" in text and "the ladder holds random at 0" in text
    assert re.search(r"alphabeta:depth=1\s+0\s+anchor", text)
    assert run("study", "report", db, "--anchor", "random").stdout == run("study", "report", db).stdout
    assert study.report(db, anchor="mcts:iterations=20")["summary"]["anchor"] == "mcts:iterations=20"
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("which, anchor, needle", [
    ("ladder", "greedy", "option '--anchor': 'greedy' is not one of the ladder's specs "
                         "(random, alphabeta:depth=1, mcts:iterations=20)"),
    ("match", "random", "option '--anchor': a match study has no ratings to anchor (only a ladder's report "
                        "takes it)"),
])
def test_report_anchor_is_refused_in_one_line_off_the_ladder(small_ladder, which, anchor, needle):
    db = small_ladder[0] if which == "ladder" else small_ladder[1]
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    result = run("study", "report", db, "--anchor", anchor)
    assert one_line(result) == f"claimsolve: {db}: {needle}"
    assert result.stdout == "" and "Traceback" not in result.output
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    with pytest.raises(ClaimsolveError, match="parameter 'anchor'"):
        study.report(db, anchor=anchor)
