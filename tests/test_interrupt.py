"""Ctrl-C, as a user presses it: SIGINT sent to a real `claimsolve` process
once its work is under way (it has spent a second of CPU: the modules are
loaded and the search runs).  Every command then ends with exit code 130 and
one line on standard error, no traceback, within a generous bound (a hang is
the failure); where the search has an answer so far, it is printed, marked
interrupted.  And the budgets, by what was done rather than by the clock."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import claimsolve

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
# the command as its console script starts it
COMMAND = [sys.executable, "-c",
           "import sys; from claimsolve.cli.main import main; sys.exit(main(prog_name='claimsolve'))"]
STOP_BOUND = 10.0          # seconds from SIGINT to exit, generously: a hang is the failure
INTERRUPTED_LINE = "claimsolve: interrupted\n"

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads CPU time from /proc")


def cpu_seconds(pid):
    """User + system CPU seconds of a process (Linux /proc)."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def sigint_as_from_a_terminal():
    """Run in the child before it starts: SIGINT's default action, as a
    command typed at a terminal has it.  The test runner may itself ignore
    SIGINT (a script's background job, `nohup`, some CI runners) and a child
    inherits that: the command then rightly keeps ignoring Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args, group=False):
    return subprocess.Popen(COMMAND + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=group, preexec_fn=sigint_as_from_a_terminal)


def wait_until_working(proc, cpu=1.0, timeout=60.0):
    """Waits until `proc` has spent `cpu` seconds of CPU (its work is under
    way: loading takes a fraction of that); fails if it ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"ended before it was interrupted: {proc.communicate()}"
        if cpu_seconds(proc.pid) >= cpu:
            return
        time.sleep(0.05)
    raise AssertionError("the command did no work")


def interrupt(proc, group=False):
    """Ctrl-C: SIGINT to the process (with `group`, to its whole process
    group, as a terminal sends it); returns (stdout, stderr)."""
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=STOP_BOUND)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("still running long after Ctrl-C")


def assert_interrupted(proc, err):
    assert proc.returncode == 130, err
    assert err == INTERRUPTED_LINE, err          # one line: no traceback, no KeyboardInterrupt


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    folder = tmp_path_factory.mktemp("positions")
    out = {}
    for name, size, seed in (("c65", "6x5", 1), ("c44", "4x4", 7)):
        path = folder / f"{name}.json"
        path.write_text(claimsolve.dumps(claimsolve.new("colorclaim", size=size, seed=seed)))
        out[name] = path
    out["claimit"] = SEEDS / "claimit" / "mid-game-3p.json"
    out["claim"] = SEEDS / "claim" / "play-2p.json"
    return out


def test_analyze_mcts_prints_its_answer_so_far(positions):
    proc = start(["analyze", positions["c65"], "--engine", "mcts", "--time", 600])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    lines = out.splitlines()
    assert lines[-1] == "Interrupted (Ctrl-C): the answer so far."
    assert any(line.startswith("1  ") for line in lines)      # the ranked moves
    assert "PV (the best line found):" in out


def test_analyze_mcts_json_is_marked_interrupted(positions):
    proc = start(["analyze", positions["c65"], "--engine", "mcts", "--time", 600, "--json"])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["complete"] is False
    assert data["suggestions"] and data["iterations"] > 0
    legal = claimsolve.load(str(positions["c65"])).legal_moves()
    assert data["suggestions"][0]["move"] in legal


def test_analyze_mcts_threads_ctrl_c_from_a_terminal(positions):
    # a terminal sends SIGINT to the whole process group: the workers get it
    # too, answer what they searched and end without a traceback
    proc = start(["analyze", positions["c65"], "--engine", "mcts", "--threads", 2, "--time", 600, "--json"],
                 group=True)
    wait_until_working(proc)
    workers = children(proc.pid)
    out, err = interrupt(proc, group=True)
    assert_interrupted(proc, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["threads"] == 2 and data["suggestions"]
    assert_gone(workers)


def test_analyze_mcts_threads_ctrl_c_to_the_parent_only(positions):
    # `kill -INT <pid>`: the parent tells its workers
    proc = start(["analyze", positions["c65"], "--engine", "mcts", "--threads", 2, "--time", 600, "--json"])
    wait_until_working(proc)
    workers = children(proc.pid)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["suggestions"]
    assert_gone(workers)


def assert_gone(pids, timeout=10.0):
    deadline = time.monotonic() + timeout
    for pid in pids:
        while os.path.exists(f"/proc/{pid}") and _state(pid) != "Z" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not os.path.exists(f"/proc/{pid}") or _state(pid) == "Z", f"worker {pid} still running"


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0].decode()
    except OSError:
        return "Z"


def test_analyze_alphabeta_prints_the_last_completed_depth(positions):
    proc = start(["analyze", positions["c65"], "--engine", "alphabeta", "--time", 600, "--json"])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["complete"] is False
    assert data["depth"] >= 1 and data["suggestions"][0]["depth"] >= 1


def test_analyze_claim_alphabeta(positions):
    proc = start(["analyze", positions["claim"], "--time", 600])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    assert out == "" or out.rstrip().endswith("Interrupted (Ctrl-C): the answer so far.")


def test_analyze_claimit_during_the_search(positions):
    proc = start(["analyze", positions["claimit"], "--time", 600, "--json"])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["suggestions"]


@pytest.mark.parametrize("command", [["analyze", "--engine", "solver", "--json"], ["solve", "--json"],
                                     ["solve", "--threads", "2", "--json"]])
def test_the_solver_prints_its_bounds_when_it_has_some(positions, command):
    proc = start([command[0], positions["c44"], *command[1:], "--time", 600])
    wait_until_working(proc, cpu=2.0)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    if out:                     # nothing proven yet: no answer, only the line
        data = json.loads(out)
        assert data["interrupted"] is True and data["complete"] is False


def test_odds_stops(positions):
    proc = start(["odds", positions["claimit"], "--samples", 10_000_000])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    assert out == ""


def test_odds_stops_the_turn_optimums_two_threads(positions):
    """Ctrl-C while the exact turn optimum runs on two threads (mid-game-3p
    does not finish in its 4 s): both stop, one line, nothing on stdout."""
    proc = start(["odds", positions["claimit"], "--threads", 2])
    wait_until_working(proc, cpu=1.0)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    assert out == ""


def test_perft_stops(positions):
    proc = start(["perft", positions["c65"], "--depth", 14])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    assert out == ""


def test_match_keeps_every_finished_game_and_prints_the_score(tmp_path):
    saved = tmp_path / "games.jsonl"
    proc = start(["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "mcts:iterations=50",
                  "--games", 10 ** 9, "--save", saved, "--json"])
    wait_until_working(proc, cpu=1.5)
    assert saved.exists() and saved.stat().st_size > 0      # written as the games end, not at the end
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    score = json.loads(out)
    assert score["interrupted"] is True
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert len(records) == score["games"] > 0                # every finished game, counted and written
    assert score["wins"] + score["draws"] + score["losses"] == score["games"]
    assert all(record["moves"] and len(record["result"]["points"]) == 2 for record in records)


def test_match_text_score(tmp_path):
    proc = start(["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", 10 ** 9])
    wait_until_working(proc)
    out, err = interrupt(proc)
    assert_interrupted(proc, err)
    assert "A's score:" in out and out.rstrip().endswith("Interrupted (Ctrl-C): the answer so far.")


def test_ctrl_c_while_the_modules_load_is_one_line():
    # SIGINT arrives as cli.main imports click (a finder sends it): the
    # handler in place while the modules load ends the command at once
    code = """
import os, signal, sys
class Ctrl_C:
    def find_spec(self, name, path=None, target=None):
        if name == "click":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Ctrl_C())
for name in [n for n in sys.modules if n == "click" or n.startswith("click.")]:
    del sys.modules[name]
from claimsolve.cli.main import main
sys.exit(main(prog_name="claimsolve"))
"""
    proc = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True, timeout=60,
                          preexec_fn=sigint_as_from_a_terminal)
    assert proc.returncode == 130 and proc.stderr == INTERRUPTED_LINE and proc.stdout == ""


@pytest.mark.parametrize("threads", [1, 2])
def test_an_ignored_sigint_stays_ignored(positions, threads):
    # `nohup` and background jobs of a script start with SIGINT ignored; the
    # workers of --threads too (a terminal's SIGINT reaches the whole group)
    proc = subprocess.Popen(COMMAND + ["analyze", str(positions["c65"]), "--engine", "mcts", "--time", "600",
                                       "--threads", str(threads)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        wait_until_working(proc, cpu=0.5)
        workers = children(proc.pid)
        assert len(workers) == threads - 1
        os.killpg(proc.pid, signal.SIGINT)
        for pid in [proc.pid, *workers]:              # each goes on working
            wait_until_working_pid(pid, cpu_seconds(pid) + 0.3)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def test_serve_started_with_sigint_ignored_keeps_serving_after_one():
    # the web server's own signal handling must not undo an ignored SIGINT
    # (it stopped, silently with exit 0); SIGTERM still stops it
    pytest.importorskip("uvicorn")
    import urllib.request
    proc = subprocess.Popen(COMMAND + ["serve", "--port", "0", "--workers", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        line = proc.stdout.readline()
        url = line.split(" is at ")[1].split()[0]
        with urllib.request.urlopen(url, timeout=STOP_BOUND) as response:     # serving: uvicorn's handlers are in
            assert response.status == 200
        os.killpg(proc.pid, signal.SIGINT)
        deadline = time.monotonic() + 1.0          # it stopped within 0.25 s when the bug was there
        while time.monotonic() < deadline:
            assert proc.poll() is None, f"serve ended on an ignored SIGINT: {proc.communicate()}"
            time.sleep(0.05)
        with urllib.request.urlopen(url, timeout=STOP_BOUND) as response:
            assert response.status == 200
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=STOP_BOUND)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def wait_until_working_pid(pid, cpu, timeout=60.0):
    deadline = time.monotonic() + timeout
    while cpu_seconds(pid) < cpu:
        assert time.monotonic() < deadline, f"process {pid} stopped working"
        assert _state(pid) != "Z", f"process {pid} ended"
        time.sleep(0.05)


# ---- --save, before any game -------------------------------------------------------------------

def test_match_save_never_overwrites_a_file(tmp_path):
    saved = tmp_path / "games.jsonl"
    saved.write_text("yesterday's games\n")
    proc = subprocess.run(COMMAND + ["match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random",
                                     "--games", "2", "--save", str(saved)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "exists" in proc.stderr
    assert saved.read_text() == "yesterday's games\n"


def test_match_refused_before_its_first_game_leaves_no_file(tmp_path):
    saved = tmp_path / "games.jsonl"
    proc = subprocess.run(COMMAND + ["match", "colorclaim", "--size", "3x3", "--a", "bogus", "--b", "random",
                                     "--save", str(saved)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert not saved.exists()


def test_match_save_to_a_folder_is_refused_before_playing(tmp_path):
    proc = subprocess.run(COMMAND + ["match", "colorclaim", "--size", "3x3", "--a", "mcts:time=60",
                                     "--b", "random", "--save", str(tmp_path)], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


# ---- budgets: by what was done, not by the clock --------------------------------------------

def test_odds_time_is_the_whole_tables_budget(positions):
    proc = subprocess.run(COMMAND + ["odds", str(positions["claimit"]), "--samples", "10000000", "--time", "0.5",
                                     "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    table = json.loads(proc.stdout)
    assert 100 <= table["samples"] < 10_000_000           # it stopped, and it did work


def test_claimit_analyze_shares_its_budget_with_the_table(positions):
    data = json.loads(subprocess.run(COMMAND + ["analyze", str(positions["claimit"]), "--time", "0.5", "--json"],
                                     capture_output=True, text=True, timeout=120).stdout)
    assert data["iterations"] > 0 and data["odds"]["samples"] >= 100


def test_plan_samples_stops_at_its_time_limit():
    position = claimsolve.load(str(SEEDS / "claimit" / "mid-game-3p.json"))
    from claimsolve.claimit.plans import plans_for
    game, state = position.engine_game(), position.engine_state().state_bytes()
    specs = [spec for *_, spec in plans_for(position)]
    rows = game.plan_samples(state, specs, 0, 10 ** 7, 1, True, None, 0.05)
    assert 0 < len(rows[0][0]) < 10 ** 7 and len({len(row[0]) for row in rows}) == 1
    tally = game.plan_tally(state, specs, 0, 10 ** 7, 1, True, None, 0.05)
    assert 0 < tally["samples"] < 10 ** 7
    again = game.plan_tally(state, specs, 0, 300, 1, True, None)
    full = game.plan_samples(state, specs, 0, 300, 1, True, None)
    for j in range(len(specs)):                            # the same samples, added up
        assert again["sums"][j] == pytest.approx([sum(column) for column in full[j]])


def test_the_turn_optimum_refuses_an_endless_time():
    from claimsolve.claimit import optimum
    position = claimsolve.load(str(SEEDS / "claimit" / "mid-game-3p.json"))
    solver = optimum.solver_for(position, "secured")
    for seconds in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError):
            solver.solve(position.engine_state().state_bytes(), seconds)


def test_the_solver_takes_no_iteration_budget(positions):
    proc = subprocess.run(COMMAND + ["analyze", str(positions["c65"]), "--engine", "solver", "--iterations", "10"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_moves_says_where_the_list_stopped(tmp_path):
    # a 16x16 island whose turn has about 1.8 million variants: the moves
    # stream (to a file: a pipe nobody reads would stop them), and Ctrl-C
    # ends the list with one line saying where
    island = ROOT / "tests" / "data" / "claim-16x16-battle-chains.json"
    listed = tmp_path / "moves.txt"
    with open(listed, "w") as sink:
        proc = subprocess.Popen(COMMAND + ["moves", str(island)], stdout=sink, stderr=subprocess.PIPE, text=True,
                                preexec_fn=sigint_as_from_a_terminal)
        wait_until_working(proc)
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=STOP_BOUND)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise AssertionError("still running long after Ctrl-C")
    assert proc.returncode == 130, err
    lines = listed.read_text().splitlines()
    assert len(lines) > 100
    assert err == f"claimsolve: interrupted after {len(lines):,} moves (the last: {lines[-1]}): " \
                  "the list is not complete\n"
