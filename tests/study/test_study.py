"""Studies (claimsolve study): real runs on small studies, with real worker
processes, a real subprocess interrupted and killed mid-study, and a local
Dask cluster whose worker is killed mid-study.  3x3 Color Claim solves take
tens of milliseconds; every study here is small."""
import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import claimsolve
from claimsolve import study
from claimsolve.cli.main import main
from claimsolve.errors import ClaimsolveError
from claimsolve.study import kinds, stats

CLI = [sys.executable, "-m", "claimsolve.cli.main"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def rows(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, worker, run FROM tasks ORDER BY id").fetchall()


def runs(db):
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute("SELECT * FROM runs ORDER BY run")]


def pid_of(worker):
    return int(worker.rsplit(":", 1)[1])


def wait_for_rows(db, count, proc, limit=120):
    """Polls the study file (read while the run writes: WAL) until it holds
    `count` rows."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        if os.path.exists(db):
            try:
                if len(rows(db)) >= count:
                    return
            except sqlite3.OperationalError:      # the tables are not made yet
                pass
        time.sleep(0.05)
    raise AssertionError(f"the study did not reach {count} rows")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:        # a zombie is dead
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


# -- tasks and their parameters ----------------------------------------------------------------

def test_seeds_and_policies_are_read_and_refused_as_options():
    assert kinds.parse_seeds("1-5,3,9,7-8") == [1, 2, 3, 4, 5, 7, 8, 9]
    assert kinds.seeds_text([1, 2, 3, 4, 5, 7, 8, 9]) == "1-5,7-9"
    for bad in ("", "5-1", "a-3", "-1"):
        with pytest.raises(ClaimsolveError, match="--seeds"):
            kinds.parse_seeds(bad)
    assert kinds.split_policies("threshold:3..5,risk:0.2,optimum") == [
        "threshold:3", "threshold:4", "threshold:5", "risk:0.2", "optimum"]
    # a comma inside a spec's options stays with its spec
    assert kinds.split_policies("mcts:time=0.5,c=1.2,greedy") == ["mcts:time=0.5,c=1.2", "greedy"]
    assert len(kinds.tables(["a", "b", "c", "d"], 3)) == 4
    assert kinds.tables(["a", "b"], 3) == [["a", "a", "b"], ["a", "b", "b"]]


# -- the Python API's refusals: one line naming the parameter or the key of `options` -----------------

SOLVE = {"game": "colorclaim", "size": "3x3", "seeds": "1-2"}
MATCH = {"game": "claimit", "a": "random", "b": "threshold:3", "games": 2}
POLICIES = {"game": "claimit", "policies": "random,threshold:3", "games": 2}
LADDER = {"game": "claimit", "specs": "random,threshold:3", "games_per_table": 2}
SELFPLAY = {"game": "claimit", "a": "random", "games": 2}
KEY = "parameter 'options', key"
SEEDS = "must be seeds like '1-1000' or '1-10,20,30-40', or a list of seeds like [1, 2, 3]"

BAD_RUNS = [      # (kind, options, run's other arguments, the start of the one line, or all of it)
    ("solve", dict(SOLVE, seeds=100), {}, f"{KEY} 'seeds': {SEEDS}, not 100"),
    ("solve", dict(SOLVE, seeds=None), {}, f"{KEY} 'seeds': {SEEDS}, not null"),
    ("solve", dict(SOLVE, seeds=[]), {}, f"{KEY} 'seeds': {SEEDS}, not []"),
    ("solve", dict(SOLVE, seeds={"1": 2}), {}, f"{KEY} 'seeds': {SEEDS}, not "),
    ("solve", dict(SOLVE, seeds=[1, "x"]), {}, f"{KEY} 'seeds': must be a whole number from 0 to "),
    ("solve", dict(SOLVE, seeds="5-1"), {}, f"{KEY} 'seeds': the range 5-1 runs backwards"),
    ("solve", dict(SOLVE, seeds="-3"), {}, f"{KEY} 'seeds': must be seeds from 0 to {2 ** 63 - 1} or ranges of "
                                           "them like 1-1000, not '-3'"),
    ("solve", dict(SOLVE, seeds="1-2,7-"), {}, f"{KEY} 'seeds': must be seeds from 0 to "),
    ("solve", dict(SOLVE, seeds=[1, -3]), {}, f"{KEY} 'seeds': must be a whole number from 0 to {2 ** 63 - 1}, "
                                              "not -3"),
    ("solve", dict(SOLVE, bogus=1), {}, "parameter 'options': unknown key 'bogus' (the solve study takes game, "
                                        "seeds, size, time, hash_mb)"),
    ("solve", {"game": "colorclaim", "size": "3x3"}, {}, "parameter 'options': key 'seeds' is missing (the solve "
                                                         "study needs game, seeds)"),
    ("solve", dict(SOLVE, time=-1), {}, f"{KEY} 'time': must be a number of seconds above 0"),
    ("solve", dict(SOLVE, hash_mb=0), {}, f"{KEY} 'hash_mb': must be a whole number of MB from 1 to "),
    ("solve", dict(SOLVE, size="9"), {}, f"{KEY} 'size': '9': write WxH"),
    ("solve", dict(SOLVE, game=5), {}, f"{KEY} 'game': must be a game's id (claim, claimit, colorclaim), not 5"),
    ("solve", {5: 1}, {}, "parameter 'options': unknown key 5 (the solve study takes"),
    ("solve", "1-100", {}, "parameter 'options': must be a dict of the study's options (the solve study takes "),
    ("solve", None, {}, "parameter 'options': must be a dict of the study's options"),
    ("match", {"game": "claimit", "a": "random", "b": "random"}, {},
     "parameter 'options': key 'games' is missing (the match study needs game, a, b, games)"),
    ("match", dict(MATCH, games=0), {}, f"{KEY} 'games': must be a whole number from 1 to 10000000, not 0"),
    ("match", dict(MATCH, games=10 ** 8), {}, f"{KEY} 'games': must be a whole number from 1 to 10000000, not "
                                               "100000000"),
    ("match", dict(MATCH, a=5), {}, f"{KEY} 'a': must be a player spec like mcts:time=0.5, not 5"),
    ("match", dict(MATCH, players=9), {}, f"{KEY} 'players': 9: Claim It! has 2 to 5 players"),
    ("match", dict(MATCH, island="x"), {}, f"{KEY} 'island': claimit has no islands"),
    ("match", dict(MATCH, sprt=5), {}, f"{KEY} 'sprt': needs two Elo bounds ELO0,ELO1"),
    ("match", dict(MATCH, players=3, sprt="0,10"), {}, f"{KEY} 'sprt': Elo needs two sides"),
    ("match", dict(MATCH, sprt="0,10", alpha="x"), {}, f"{KEY} 'alpha': must be an error rate above 0 and below 1"),
    ("match", dict(MATCH, beta=1), {}, f"{KEY} 'beta': must be an error rate above 0 and below 1, not 1"),
    ("match", dict(MATCH, duplicate="no"), {}, f"{KEY} 'duplicate': must be True or False, not 'no'"),
    ("match", dict(MATCH, game="colorclaim", size="3x3", b="random", duplicate=True), {},
     f"{KEY} 'duplicate': colorclaim has no dice"),
    ("match", dict(MATCH, bogus=1), {}, "parameter 'options': unknown key 'bogus' (the match study takes game, a, b, "),
    ("policies", {"game": "claimit", "games": 2}, {}, "parameter 'options': key 'policies' is missing"),
    ("policies", dict(POLICIES, policies="random"), {}, f"{KEY} 'policies': a round robin needs two specs or more"),
    ("policies", dict(POLICIES, games="x"), {}, f"{KEY} 'games': must be a whole number from 1 to "),
    ("policies", dict(POLICIES, seed=-1), {}, f"{KEY} 'seed': must be a whole number from 0 to "),
    ("policies", dict(POLICIES, duplicate=1), {}, f"{KEY} 'duplicate': must be True or False, not 1"),
    ("policies", dict(POLICIES, size="3x3"), {}, f"{KEY} 'size': claimit has no board sizes"),
    ("ladder", {"game": "claimit", "specs": "random,threshold:3"}, {},
     "parameter 'options': key 'games_per_table' is missing (the ladder study needs game, specs, games_per_table)"),
    ("ladder", dict(LADDER, games_per_table=0), {}, f"{KEY} 'games_per_table': must be a whole number from 1 to "),
    ("ladder", dict(LADDER, games_per_table=10 ** 9), {}, f"{KEY} 'games_per_table': must be a whole number from 1 "
                                                         "to 10000000, not 1000000000"),
    ("ladder", dict(LADDER, specs="random,threshold:3,threshold:4", games_per_table=10 ** 7), {},
     f"{KEY} 'games_per_table': at most 10,000,000 games in one study"),
    ("ladder", dict(LADDER, anchor="greedy"), {}, f"{KEY} 'anchor': 'greedy' is not one of the specs"),
    ("ladder", dict(LADDER, specs=None), {}, f"{KEY} 'specs': needs player specs like "),
    ("ladder", dict(LADDER, games=2), {}, "parameter 'options': unknown key 'games' (the ladder study takes "),
    ("selfplay", {"game": "claimit", "a": "random"}, {}, "parameter 'options': key 'games' is missing"),
    ("selfplay", dict(SELFPLAY, b=5), {}, f"{KEY} 'b': must be a player spec like mcts:time=0.5, not 5"),
    ("selfplay", dict(SELFPLAY, games=-1), {}, f"{KEY} 'games': must be a whole number from 1 to "),
    ("selfplay", dict(SELFPLAY, duplicate=True), {}, "parameter 'options': unknown key 'duplicate'"),
    ("bogus", SOLVE, {}, "parameter 'kind': must be one of solve, match, policies, ladder, selfplay, not 'bogus'"),
    (5, SOLVE, {}, "parameter 'kind': must be one of solve, match, policies, ladder, selfplay, not 5"),
    ("solve", SOLVE, {"db": 5}, "parameter 'db': must be a file name (a str or a path), not 5"),
    ("solve", SOLVE, {"db": None}, "parameter 'db': must be a file name (a str or a path), not null"),
    ("solve", SOLVE, {"db": "."}, "parameter 'db': is a folder, not a study file"),
    ("solve", SOLVE, {"workers": 0}, "parameter 'workers': must be a whole number from 1 to 1024, not 0"),
    ("solve", SOLVE, {"workers": -2}, "parameter 'workers': must be a whole number from 1 to 1024, not -2"),
    ("solve", SOLVE, {"workers": "x"}, "parameter 'workers': must be a whole number from 1 to 1024, not 'x'"),
    ("solve", SOLVE, {"workers": 1, "scheduler": "tcp://127.0.0.1:9"}, "parameter 'workers': is for local processes"),
    ("solve", SOLVE, {"batch": 0}, "parameter 'batch': must be a whole number from 1 to 100000, not 0"),
    ("solve", SOLVE, {"scheduler": 5}, "parameter 'scheduler': needs the Dask scheduler's address"),
    ("solve", SOLVE, {"progress": 5}, "parameter 'progress': must be a function or None, not 5"),
]


@pytest.fixture(scope="module")
def begun(tmp_path_factory):
    """A small solve study, done."""
    db = tmp_path_factory.mktemp("begun") / "cc.sqlite"
    assert study.run("solve", SOLVE, str(db), workers=1)["completed"] == 2
    return db


def test_python_gives_seeds_as_a_list_and_the_file_as_a_path(tmp_path):
    """The forms the command line cannot give: seeds as a list (or a
    range), a pathlib path, a number as text (as `--workers 1` gives it)."""
    db = tmp_path / "cc.sqlite"
    assert study.run("solve", dict(SOLVE, seeds=[3, 1, 2, 1]), db, workers="1")["completed"] == 3
    assert study.report(db)["summary"]["study"]["params"]["seeds"] == "1-3"
    assert study.run("solve", dict(SOLVE, seeds=range(1, 4)), db, workers=1)["completed"] == 0    # the same study


@pytest.mark.parametrize("kind, options, arguments, needle", BAD_RUNS,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(BAD_RUNS)])
def test_python_refusals_name_the_parameter_or_key_and_touch_no_file(tmp_path, begun, kind, options, arguments,
                                                                    needle):
    """study.run from Python: a bad kind, options (not a dict, an unknown
    key, a missing one, a value of the wrong type or out of range, for
    every kind), db, workers, batch or scheduler is a ClaimsolveError in
    one line naming the parameter or the key of `options` (these were
    TypeErrors, a run for ever with workers=-2, a study file made and left
    with alpha='x'), before any file is made or touched."""
    before = begun.read_bytes(), sorted(os.listdir(begun.parent))
    folder = tmp_path / "new"
    folder.mkdir()
    for db in (str(folder / "s.sqlite"), str(begun)):
        others = dict(arguments)
        db = others.pop("db", db)
        with pytest.raises(ClaimsolveError) as refused:
            study.run(kind, options, db, **others)
        line = str(refused.value)
        assert "\n" not in line and (line.startswith(needle) or line.startswith(f"{db}: {needle}")), line
    assert os.listdir(folder) == []
    assert (begun.read_bytes(), sorted(os.listdir(begun.parent))) == before


def test_the_command_line_names_the_same_refusals_by_its_options(tmp_path):
    db = tmp_path / "s.sqlite"
    for args, python, line in (
            (("--seeds", "5-1"), {"seeds": "5-1"}, "option '--seeds': the range 5-1 runs backwards"),
            (("--seeds", "1-2", "--hash", 0), {"hash_mb": 0}, "option '--hash': must be a whole number of MB")):
        result = run("study", "solve", "colorclaim", "--size", "3x3", *args, "--db", db, "--workers", 1)
        assert result.exit_code == 2 and result.stderr.startswith(f"claimsolve: {line}"), result.output
        with pytest.raises(ClaimsolveError) as refused:
            study.run("solve", dict(SOLVE, **python), db, workers=1)
        key = next(iter(python))
        assert str(refused.value).startswith(f"{KEY} '{key}': {line.split(': ', 1)[1]}"), str(refused.value)
    assert os.listdir(tmp_path) == []


def test_solve_study_finds_the_solver_values_and_continues_without_redoing(tmp_path):
    db = str(tmp_path / "cc.sqlite")
    options = {"game": "colorclaim", "size": "3x3", "seeds": "1-30"}
    outcome = study.run("solve", options, db, workers=1)
    assert outcome["status"] == "done" and outcome["completed"] == 30 and outcome["duplicates"] == 0
    report = study.report(db)
    summary = report["summary"]
    assert summary["study"]["status"] == "finished" and summary["solved"] == 30
    first = summary["first_player"]
    assert sum(first[w]["count"] for w in ("win", "draw", "loss")) == 30
    for row in report["rows"][:3]:
        solved = claimsolve.solve(claimsolve.new("colorclaim", size="3x3", seed=row["seed"]))
        assert row["value"] == solved.info["value"] and row["best"] == solved.best.move
    assert "finished, 30 of 30 tasks" in report["text"]
    # processor time as well as wall time: a shared machine's waits show as the gap
    cpu = [row["cpu_seconds"] for row in report["rows"]]
    assert summary["cpu_seconds"]["max"] == round(max(cpu), 6) and "Processor seconds per setup" in report["text"]
    # again: nothing to do, nothing written
    again = study.run("solve", options, db, workers=1)
    assert again["completed"] == 0 and again["done"] == 30 and len(rows(db)) == 30


def test_other_parameters_on_the_same_file_are_refused_in_one_line(tmp_path):
    db = tmp_path / "cc.sqlite"
    assert run("study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-4", "--db", db,
               "--workers", 1).exit_code == 0
    for args in (("solve", "colorclaim", "--size", "3x3", "--seeds", "1-5"),
                 ("solve", "colorclaim", "--size", "4x3", "--seeds", "1-4"),
                 ("match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random")):
        result = run("study", *args, "--db", db)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("claimsolve: ") and str(db) in lines[0], lines
    result = run("study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-5", "--db", db)
    assert "--seeds 1-4, not --seeds 1-5" in result.stderr
    assert len(rows(str(db))) == 4
    # another GAME (an argument, not an option; the parameters it derives, such as the seats, not listed)
    games = tmp_path / "games.sqlite"
    assert run("study", "match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", 2,
               "--db", games, "--workers", 1).exit_code == 0
    result = run("study", "match", "claimit", "--a", "random", "--b", "random", "--games", 2, "--db", games)
    assert result.exit_code == 2 and "holds a match study of colorclaim, not claimit: give the same game" in \
        result.stderr and "--players" not in result.stderr and "--game" not in result.stderr, result.stderr
    # not a study
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    (tmp_path / "text.sqlite").write_text("not a database at all, just text " * 100)
    for path in (other, tmp_path / "text.sqlite"):
        result = run("study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-4", "--db", path)
        assert result.exit_code == 2 and "not a claimsolve study" in result.stderr, result.output
        assert run("study", "report", path).exit_code == 2
    assert run("study", "report", tmp_path / "missing.sqlite").exit_code == 2
    assert not (tmp_path / "missing.sqlite").exists()


def test_a_second_run_on_the_same_file_is_refused_while_one_runs(tmp_path):
    from claimsolve.study.store import Store
    db = str(tmp_path / "cc.sqlite")
    kind = kinds.get_kind("solve")
    params = kind.options(game="colorclaim", size="3x3", seeds="1-4")
    holding = Store.create_or_open(db, "solve", params, kind.columns, kind.describe)
    try:
        result = run("study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-4", "--db", db)
        assert result.exit_code == 2 and "another study run" in result.stderr
    finally:
        holding.close()
    assert run("study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-4", "--db", db,
               "--workers", 1).exit_code == 0


# -- interrupted and killed, then continued --------------------------------------------------

SOLVE_120 = ["study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-120", "--workers", "2", "--batch", "2"]


def test_a_worker_whose_coordinator_died_while_it_started_leaves_at_once():
    """kill -9 of the coordinator while a worker is still starting (before
    it asked for the death signal) left that worker waiting for work for
    ever, holding the study's output open: a worker adopted by another
    process leaves as soon as it starts."""
    code = ("import os; from claimsolve.study.runners import _worker_init; "
            "_worker_init(os.getppid()); print('stayed', flush=True); _worker_init(os.getppid() + 1); print('ran on')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "stayed\n" and done.returncode == 1, done


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_study_continues_every_task_done_once(tmp_path, how):
    db = str(tmp_path / "cc.sqlite")
    # Ctrl-C as a terminal sends it, even when this test runs where SIGINT is ignored (a background job)
    proc = subprocess.Popen(CLI + SOLVE_120 + ["--db", db], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for_rows(db, 10, proc)
    proc.send_signal(how)
    out, err = proc.communicate(timeout=60)
    first = rows(db)
    done_first = len(first)
    assert 10 <= done_first < 120
    if how == signal.SIGINT:
        assert proc.returncode == 130, err
        assert "Interrupted" in err and "run the same command again" in err
        assert err.strip().splitlines()[-1] == "claimsolve: interrupted"
        assert runs(db)[0]["status"] == "interrupted"
    elif how == signal.SIGTERM:
        # stopped as by Ctrl-C (no leaked semaphores), then ended by the signal as asked
        assert proc.returncode == -signal.SIGTERM, err
        assert err.startswith("Stopped (SIGTERM): ") and "run the same command again" in err, err
        assert "leaked" not in err and "Traceback" not in err, err
        assert runs(db)[0]["status"] == "interrupted"
    else:
        assert proc.returncode == -signal.SIGKILL
        assert runs(db)[0]["status"] == "running"       # killed: it could not say
        # its workers died with it (they do not run on, orphaned)
        workers = {pid_of(worker) for _, worker, _ in first}
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers)
    assert runs(db)[0]["completed"] == done_first
    # the unfinished study's report says how far it got
    report = run("study", "report", db)
    assert report.exit_code == 0 and f"UNFINISHED, {done_first} of 120 tasks" in report.stdout
    summary = json.loads(run("study", "report", db, "--json").stdout)
    assert summary["study"]["done"] == done_first and summary["study"]["total"] == 120
    # the same command continues: only the tasks not done are sent, each recorded once
    again = subprocess.run(CLI + SOLVE_120 + ["--db", db, "--json"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    outcome = json.loads(again.stdout)["run"]
    assert outcome["completed"] == 120 - done_first and outcome["duplicates"] == 0
    final = rows(db)
    assert [task for task, _, _ in final] == list(range(1, 121))
    assert {task for task, _, run_ in final if run_ == 1} == {task for task, _, _ in first}
    second = runs(db)[1]
    assert second["todo"] == 120 - done_first and second["completed"] == 120 - done_first
    assert second["status"] == "done"


def test_a_killed_local_worker_costs_only_its_batches(tmp_path):
    db = str(tmp_path / "cc.sqlite")
    killed = []

    def kill_one(batch):
        if not killed:
            killed.append(pid_of(batch[0]["worker"]))
            os.kill(killed[0], signal.SIGKILL)

    outcome = study.run("solve", {"game": "colorclaim", "size": "3x3", "seeds": "1-40"}, db, workers=2, batch=3,
                        on_batch=kill_one)
    assert outcome["status"] == "done" and outcome["completed"] == 40 and outcome["duplicates"] == 0
    assert outcome["resent"] > 0                     # the batches in flight went again
    final = rows(db)
    assert [task for task, _, _ in final] == list(range(1, 41))
    by_killed = sum(1 for _, worker, _ in final if pid_of(worker) == killed[0])
    assert by_killed >= 3 and by_killed % 3 == 0        # only whole batches it had finished


def test_an_error_in_a_worker_stops_the_study_in_one_line_and_leaves_no_file(tmp_path):
    """Weights for 3 players in a 2-player match are found in the worker, at
    the first search: the error crosses back to the coordinator (it used to
    fail to unpickle, which the pool took for a dead worker: the study
    restarted its workers for ever and printed nothing)."""
    import numpy as np
    from claimsolve.colorclaim import ColorClaimPosition
    from claimsolve.search import learned

    shipped = learned.shipped_weights(ColorClaimPosition.new(size="6x5").engine_game())
    weights = dict(np.load(shipped))
    weights["players"] = np.array(3)
    np.savez(tmp_path / "three.npz", **weights)
    for command in (["match", "colorclaim", "--size", "3x3", "--a", "mcts:iterations=50,weights=three.npz",
                     "--b", "random", "--games", "2"],
                    ["ladder", "colorclaim", "--size", "3x3", "--specs", "random,mcts:iterations=50,weights=three.npz",
                     "--games-per-table", "2"]):
        process = subprocess.Popen(CLI + ["study", *command, "--db", "s.sqlite", "--workers", "1"], cwd=tmp_path,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)      # the workers too
            process.communicate()
            pytest.fail(f"study {command[0]} still running after 120 s")
        assert process.returncode == 2, stderr
        assert stderr.count("\n") == 1 and "Traceback" not in stderr
        assert "three.npz: the weights are for colorclaim with 3 players" in stderr
        assert sorted(os.listdir(tmp_path)) == ["three.npz"]


def test_errors_cross_between_processes_whole():
    """Every error a user can cause pickles and unpickles as itself (a study's
    worker sends it to the coordinator)."""
    import pickle
    from claimsolve.errors import MoveError, PlayerError, PositionError
    from claimsolve.records import RecordError
    from claimsolve.study.check import Problem

    for error in (ClaimsolveError("no", "a.json"), PositionError("board", "bad", "p.json"), MoveError("x9", "no"),
                  PlayerError("mcts:c=x", "bad c"), RecordError("no moves", "r.jsonl", line=3), Problem("bad", "s.db")):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error) and back.__dict__ == error.__dict__


def test_a_batch_whose_worker_keeps_dying_stops_the_study(tmp_path):
    """Workers killed every half second, before any game of Claim It! can
    end: the first batch's worker dies four times and the study stops with
    one line (it used to send the batch again for ever)."""
    import multiprocessing
    import threading

    stop = threading.Event()
    deadline = time.monotonic() + 60        # then the study may finish: a study that never stops fails

    def killer():
        while not stop.wait(0.5) and time.monotonic() < deadline:
            for child in multiprocessing.active_children():
                child.kill()

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        with pytest.raises(ClaimsolveError, match=r"died 4 times \(out of memory\?\): the study stops"):
            study.run("match", {"game": "claimit", "players": 2, "a": "mcts:iterations=20000", "b": "threshold:5",
                                "games": 4}, str(tmp_path / "s.sqlite"), workers=1, batch=1)
    finally:
        stop.set()
        thread.join()


SCRIPT = """{indent}from claimsolve import study
{indent}outcome = study.run("solve", {{"game": "colorclaim", "size": "3x2", "seeds": "1-4"}}, "s.sqlite", workers=2)
{indent}print(outcome["status"], outcome["done"])
"""


def test_a_script_that_starts_a_study_unguarded_is_told_so_in_one_line(tmp_path):
    """A script starting a study at its top level: each local worker (spawn)
    imports it again and reached the study's start. It used to end in 8
    tracebacks ("another study run is writing this file") and "died 4
    times (out of memory?)"; the workers now leave at once and the
    coordinator says why, once. Under the guard the same study runs."""
    (tmp_path / "unguarded.py").write_text(SCRIPT.format(indent=""))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "unguarded.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    line = ("claimsolve.errors.ClaimsolveError: study: a worker process imported the script again and reached its "
            "study.run: start the study under `if __name__ == \"__main__\":` (Python's multiprocessing imports the "
            "script anew in each worker)")
    assert done.stderr.splitlines()[-1] == line, done.stderr
    assert done.stderr.count("Traceback") == 1 and done.stderr.count("study.run: start the study under") == 1
    assert "another study run" not in done.stderr and "out of memory" not in done.stderr
    assert time.monotonic() - started < 60
    assert not (tmp_path / "s.sqlite").exists()                 # nothing recorded: no study file left
    (tmp_path / "guarded.py").write_text('if __name__ == "__main__":\n' + SCRIPT.format(indent="    "))
    done = subprocess.run([sys.executable, "guarded.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "done 4\n", "")


def test_dask_cluster_with_a_worker_killed_mid_study(tmp_path):
    distributed = pytest.importorskip("distributed")
    db = str(tmp_path / "cc.sqlite")
    killed = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        with distributed.Client(cluster) as client:
            pids = set(client.run(os.getpid).values())
            assert len(pids) == 2

            def kill_one(batch):
                if not killed:
                    killed.append(pid_of(batch[0]["worker"]))
                    os.kill(killed[0], signal.SIGKILL)

            outcome = study.run("solve", {"game": "colorclaim", "size": "3x3", "seeds": "1-60"}, db,
                                scheduler=cluster.scheduler_address, batch=4, on_batch=kill_one)
            # the other kinds on the same cluster
            games = study.run("match", {"game": "claimit", "a": "threshold:4", "b": "threshold:3", "games": 6},
                              str(tmp_path / "m.sqlite"), scheduler=cluster.scheduler_address)
            table = study.run("policies", {"game": "claimit", "policies": "threshold:2..4", "games": 6},
                              str(tmp_path / "p.sqlite"), scheduler=cluster.scheduler_address)
            assert games["completed"] == 6 and table["completed"] == 6
            local = study.run("match", {"game": "claimit", "a": "threshold:4", "b": "threshold:3", "games": 6},
                              str(tmp_path / "m-local.sqlite"), workers=1)
            assert local["completed"] == 6
            with sqlite3.connect(tmp_path / "m.sqlite") as a, sqlite3.connect(tmp_path / "m-local.sqlite") as b:
                query = "SELECT id, points, moves FROM tasks ORDER BY id"     # seeded: the same games anywhere
                assert a.execute(query).fetchall() == b.execute(query).fetchall()
    assert killed and killed[0] in pids
    assert outcome["status"] == "done" and outcome["completed"] == 60 and outcome["duplicates"] == 0
    assert outcome["runner"].startswith("dask:")
    final = rows(db)
    assert [task for task, _, _ in final] == list(range(1, 61))
    by_killed = sum(1 for _, worker, _ in final if pid_of(worker) == killed[0])
    assert by_killed >= 4 and by_killed % 4 == 0        # only whole batches it had handed back
    # the same values as locally
    local = str(tmp_path / "local.sqlite")
    study.run("solve", {"game": "colorclaim", "size": "3x3", "seeds": "1-6"}, local, workers=1)
    with sqlite3.connect(db) as a, sqlite3.connect(local) as b:
        query = "SELECT seed, value, best FROM tasks WHERE seed <= 6 ORDER BY seed"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


def test_an_unreachable_scheduler_is_refused_and_leaves_no_file(tmp_path):
    pytest.importorskip("distributed")
    db = str(tmp_path / "cc.sqlite")
    with pytest.raises(ClaimsolveError, match="cannot reach the Dask scheduler"):
        study.run("solve", {"game": "colorclaim", "size": "3x3", "seeds": "1-3"}, db,
                  scheduler="tcp://127.0.0.1:9", connect_timeout=1)
    assert os.listdir(tmp_path) == []


def test_an_unreachable_scheduler_leaves_a_study_begun_as_it_was(tmp_path):
    pytest.importorskip("distributed")
    db = str(tmp_path / "cc.sqlite")
    options = {"game": "colorclaim", "size": "3x3", "seeds": "1-3"}
    study.run("solve", {**options, "seeds": "1-3"}, db, workers=1)
    before = open(db, "rb").read()
    with pytest.raises(ClaimsolveError, match="cannot reach the Dask scheduler"):
        study.run("solve", {**options, "seeds": "1-3"}, db, scheduler="tcp://127.0.0.1:9", connect_timeout=1)
    assert open(db, "rb").read() == before and study.report(db)["summary"]["study"]["done"] == 3


# -- match, SPRT, policies -----------------------------------------------------------------------

def test_sprt_accepts_h1_for_the_clearly_stronger_and_h0_for_the_weaker(tmp_path):
    strong = str(tmp_path / "strong.sqlite")
    options = {"game": "colorclaim", "size": "3x3", "a": "mcts:iterations=50", "b": "random", "games": 400,
               "sprt": "0,50"}
    outcome = study.run("match", options, strong, workers=2)
    assert outcome["status"] == "decided" and outcome["decision"]["decision"] == "H1"
    summary = study.report(strong)["summary"]
    assert summary["sprt"]["decision"] == "H1" and summary["games"] < 100
    assert summary["study"]["status"] == "decided"
    # decided: running it again plays nothing
    assert study.run("match", options, strong, workers=2)["status"] == "decided"
    assert study.report(strong)["summary"]["games"] == summary["games"]

    weak = str(tmp_path / "weak.sqlite")
    outcome = study.run("match", dict(options, a="random", b="mcts:iterations=50"), weak, workers=2)
    assert outcome["decision"]["decision"] == "H0"


def test_an_sprt_read_batch_by_batch_says_where_it_first_decided(tmp_path):
    """A QA researcher's SPRT stopped after 23 games with an LLR of 30.30
    against bounds of 2.94: it had passed them near game 7, and the report
    said only "decided after 23 games".  It says now at which game, in the
    games' order, the test first decided, and the decision keeps it."""
    from claimsolve.study import reports, stats as study_stats

    path = str(tmp_path / "quick.sqlite")
    options = {"game": "claimit", "players": 2, "a": "threshold:5", "b": "random", "games": 400, "sprt": "0,200"}
    outcome = study.run("match", options, path, workers=2)
    decision = outcome["decision"]
    assert decision["decision"] == "H1"
    first = decision["first_at"]
    # the first prefix of the games, by number, at which the test decides
    import sqlite3
    with sqlite3.connect(path) as conn:
        points = [p for (p,) in conn.execute("SELECT a_points FROM tasks ORDER BY id")]
    def decided(k):
        part = points[:k]
        return study_stats.sprt_decision(part.count(1), sum(0 < p < 1 for p in part), part.count(0),
                                         0, 200)["decision"]
    assert decided(first) == "H1" and not any(decided(k) for k in range(1, first))
    info = study.report(path)["summary"]["study"]
    assert info["decision"]["first_at"] == first
    line = reports._progress_line(info)
    if first < info["decision"]["games"]:
        assert f"it had decided after game {first:,}: it is read as each batch of games comes back" in line


def test_a_signed_figure_that_rounds_to_nothing_reads_plus_zero():
    """A ladder's report said "(the first to move: edge -0.000)"."""
    from claimsolve.stats import signed
    from claimsolve.study.kinds import _seats_line

    assert [signed(v, 3) for v in (-0.00004, -0.0004, -0.0, 0.0123, -0.0123)] == \
        ["+0.000", "+0.000", "+0.000", "+0.012", "-0.012"]
    line = _seats_line({"by_seat": {"1": {"mean": 0.49996}, "2": {"mean": 0.50004}},
                        "first_mover": {"edge": -0.00004}})
    assert line.endswith("(the first to move: edge +0.000)")


def test_sprt_statistics():
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    # even results lean to H0 between 0 and 10 Elo; a large lead to H1
    assert stats.sprt_llr(500, 0, 500, 0, 10) < 0 < stats.sprt_llr(600, 0, 400, 0, 10)
    assert stats.sprt_decision(600, 0, 400, 0, 10)["decision"] == "H1"
    assert stats.sprt_decision(400, 200, 400, 0, 10)["decision"] is None or \
        stats.sprt_decision(400, 200, 400, 0, 10)["decision"] == "H0"
    # a few early games never decide
    assert stats.sprt_decision(3, 0, 0, 0, 10)["decision"] is None


def test_sprt_needs_two_sides():
    with pytest.raises(ClaimsolveError, match="two sides"):
        kinds.get_kind("match").options(game="claimit", players=3, a="threshold:3", b="threshold:4", games=10,
                                        sprt="0,10")


def test_match_study_plays_as_match_does_and_reports_seats(tmp_path):
    db = tmp_path / "m.sqlite"
    result = run("study", "match", "claimit", "--players", 3, "--a", "threshold:4", "--b", "threshold:3",
                 "--games", 9, "--seed", 5, "--db", db, "--workers", 1, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 9 and summary["sides"] == 3 and "elo" not in summary
    assert set(summary["by_seat"]) == {"1", "2", "3"}
    records = study.report(str(db))["rows"]
    # A's seat rotates through the seats; each start is played once per side
    assert [r["a_seats"] for r in records] == [[1], [2], [3]] * 3
    assert all(sum(r["points"]) == pytest.approx(1.0) for r in records)
    assert all(r["a_points"] == r["points"][r["a_seats"][0] - 1] for r in records)


def test_match_study_with_duplicate_dice_plays_the_games_of_match_duplicate(tmp_path):
    from claimsolve.match import run_match
    db = tmp_path / "m.sqlite"
    args = ("study", "match", "claimit", "--players", 3, "--a", "threshold:2", "--b", "threshold:5",
            "--games", 6, "--seed", 4, "--db", db, "--workers", 1)
    result = run(*args, "--duplicate")
    assert result.exit_code == 0, result.output
    played = [r["moves"] for r in study.report(str(db))["rows"]]
    assert played == [r.moves for r in run_match("claimit", "threshold:2", "threshold:5", 6, players=3, seed=4,
                                                  duplicate=True).records]
    assert played != [r.moves for r in run_match("claimit", "threshold:2", "threshold:5", 6, players=3,
                                                  seed=4).records]
    assert "claimit --players 3 --duplicate: A = threshold:2" in study.report(str(db))["text"]
    # continued with the same options: nothing to do; without --duplicate: refused, naming it, nothing written
    assert run(*args, "--duplicate").exit_code == 0
    refused = run(*args)
    assert refused.exit_code == 2 and "--duplicate, not no --duplicate" in refused.stderr, refused.output
    assert len(rows(str(db))) == 6


def test_a_round_robin_with_duplicate_dice_deals_every_game_of_a_round_alike(tmp_path):
    db = str(tmp_path / "ci.sqlite")
    # the same rule in every seat but one spec's name: every game of a round is one game
    options = {"game": "claimit", "players": 3, "specs": "threshold:5,threshold:k=5", "games_per_table": 3,
               "seed": 2, "duplicate": True}
    study.run("ladder", options, db, workers=1)
    report = study.report(db)
    by_round = {}
    for row in report["rows"]:
        by_round.setdefault(row["round"], set()).add((row["plies"], tuple(row["points"])))
    assert len(by_round) == 1 and len(by_round[0]) == 1 and len(report["rows"]) == 6
    plain = str(tmp_path / "plain.sqlite")
    study.run("ladder", dict(options, duplicate=False), plain, workers=1)
    assert len({(row["plies"], tuple(row["points"])) for row in study.report(plain)["rows"]}) > 1


def test_duplicate_dice_in_a_study_need_a_game_with_dice(tmp_path):
    db = tmp_path / "cc.sqlite"
    result = run("study", "ladder", "colorclaim", "--size", "3x3", "--specs", "random,alphabeta:depth=1",
                 "--games-per-table", 2, "--duplicate", "--db", db)
    assert result.exit_code == 2 and "'--duplicate': colorclaim has no dice" in result.stderr, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and not db.exists()


def test_policies_round_robin_rotates_every_seating(tmp_path):
    db = str(tmp_path / "ci.sqlite")
    options = {"game": "claimit", "players": 2, "policies": "threshold:2..4", "games": 10}
    outcome = study.run("policies", options, db, workers=1)
    assert outcome["completed"] == 12                   # rounded up to two rounds of 3 tables x 2 seatings
    report = study.report(db)
    seatings = [tuple(r["seating"]) for r in report["rows"]]
    assert len(set(seatings)) == 6 and seatings[:6] == seatings[6:]
    assert all(entry["games"] == 8 for entry in report["summary"]["policies"])
    assert "round robin of 3 policies at 2 seats" in report["text"]


def test_report_charts(tmp_path):
    pytest.importorskip("matplotlib")
    db = str(tmp_path / "ci.sqlite")
    study.run("policies", {"game": "claimit", "players": 3, "policies": "threshold:2..4", "games": 3}, db, workers=1)
    result = run("study", "report", db, "--svg", tmp_path / "charts")
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "charts" / "policies.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "threshold:3" in svg


def test_progress_bar_shows_rate_and_time_left():
    text = study.progress_text({"done": 412, "total": 1000, "rate": 23.4, "eta": 25.1, "note": "first: +87%"})
    assert text.startswith("[#########") and "412/1,000 41%" in text and "23.4/s" in text and "ETA 0:25" in text
    assert text.endswith("first: +87%")
    slow = study.progress_text({"done": 3, "total": 600, "rate": 0.05, "eta": 11940, "note": ""})
    assert "3.0/min" in slow and "ETA 3:19:00" in slow
    assert "ETA --:--" in study.progress_text({"done": 0, "total": 5, "rate": 0.0, "eta": None, "note": ""})


# -- counts in reports -------------------------------------------------------------------------------

GROUPED = [       # (kind, options of 1,500 tasks, the SQL that makes row `id` of a copy of a row)
    ("solve", {"game": "colorclaim", "size": "3x3", "seeds": "1-1500"}, "seed = :id"),
    ("match", {"game": "claimit", "a": "threshold:4", "b": "threshold:3", "games": 1500}, None),
    ("policies", {"game": "claimit", "players": 2, "policies": "threshold:2..4", "games": 1500}, "round = :id / 6"),
    ("ladder", {"game": "claimit", "players": 2, "specs": "threshold:2..4", "games_per_table": 500},
     "round = :id / 6"),
    ("selfplay", {"game": "claimit", "a": "threshold:3", "games": 1500}, None),
]


@pytest.mark.parametrize("kind, options, renumber", GROUPED, ids=[case[0] for case in GROUPED])
def test_every_count_in_a_report_has_its_thousands_grouped(tmp_path, kind, options, renumber):
    """A report read "18553 of 20,000 tasks": some counts were grouped
    (words.counted), others not.  A study of 1,500 tasks stopped after its
    first batch, its rows copied to 1,200 (a copy of a task's row is a
    valid row), then finished, then decided: no count of four digits or
    more is written without its commas."""
    db = str(tmp_path / "s.sqlite")

    def stop(rows):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        study.run(kind, options, db, workers=1, batch=1, on_batch=stop)
    ungrouped = re.compile(r"(?<![\d.,+-])\d{4,}")       # not a part of a decimal, a range or a signed figure

    def text():
        shown = study.report(db)["text"].replace(db, "FILE")
        assert not ungrouped.findall(shown), shown
        for counts in re.findall(r"A: \+(\S+) =(\S+) -(\S+) ", shown):      # a match's wins, draws and losses
            assert not any(re.fullmatch(r"\d{4,}", count) for count in counts), shown
        return shown

    def copy_first_row_to(ids):
        with contextlib.closing(sqlite3.connect(db)) as conn:
            first = conn.execute("SELECT * FROM tasks ORDER BY id LIMIT 1").fetchone()
            names = [d[0] for d in conn.execute("SELECT * FROM tasks LIMIT 0").description]
            for task in ids:
                row = dict(zip(names, first), id=task)
                conn.execute(f"INSERT OR IGNORE INTO tasks VALUES ({', '.join('?' * len(names))})", list(row.values()))
                if renumber:
                    conn.execute(f"UPDATE tasks SET {renumber} WHERE id = :id", {"id": task})
            conn.commit()

    ids = list(kinds.KINDS[kind].task_ids(study.report(db)["summary"]["study"]["params"]))
    copy_first_row_to(ids[:1200])
    assert "UNFINISHED, 1,200 of 1,500 tasks done (80.0%" in text()
    copy_first_row_to(ids)
    assert "finished, 1,500 of 1,500 tasks (1 run)" in text()
    if kind == "match":
        with contextlib.closing(sqlite3.connect(db)) as conn:
            conn.execute("DELETE FROM tasks WHERE id >= 1200")
            conn.execute("INSERT INTO meta VALUES ('decision', ?)", (json.dumps({"decision": "H1", "games": 1200}),))
            conn.commit()
        assert "decided H1 after 1,200 games (1,200 of at most 1,500 played, 1 run)" in text()
