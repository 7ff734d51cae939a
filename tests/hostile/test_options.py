"""Hostile moves, options and player specs (issue 8): numbers are checked
once (claimsolve.limits) before they reach the C code, the same way for
every command, every spec and the Python API; each refusal is one line
naming the option as the user wrote it."""
import json

import pytest

import claimsolve
from claimsolve import limits
from claimsolve.errors import ClaimsolveError
from claimsolve.player_kinds import make_player

from .common import (CLAIM, CLAIM_SETTLE, CLAIMIT, CLAIMIT_DICE, COLORCLAIM, assert_contract, assert_refused,
                     run)

HUGE = "1" * 5000

# --- moves ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path,move", [
    (COLORCLAIM, f"a{HUGE}-a1"), (COLORCLAIM, f"a1-a{HUGE}"), (COLORCLAIM, "a١-a٢"), (COLORCLAIM, "a１-a２"),
    (COLORCLAIM, "b²-b³"), (COLORCLAIM, "a1-a1\n"), (COLORCLAIM, "a1\x00-a2"), (COLORCLAIM, ""),
    (COLORCLAIM, "x" * 1_000_000), (COLORCLAIM, "a-1-a2"), (COLORCLAIM, "\u202ea1-a2"),
    (CLAIMIT, "roll:４,１,４"), (CLAIMIT, "roll:4,1"), (CLAIMIT, f"roll:{HUGE},1,1"), (CLAIMIT, "stop\nroll"),
    (CLAIMIT_DICE, "w３@２,５"), (CLAIMIT_DICE, f"w3@{HUGE},5"), (CLAIMIT_DICE, "B@٢,٥"),
    (CLAIM, f"c{HUGE}-c4"), (CLAIM, "c٣-c４"), (CLAIM, "T@d٤ c3-c4"), (CLAIM, "pass pass"),
    (CLAIM_SETTLE, "c３+d５"), (CLAIM_SETTLE, f"c3=1{HUGE}+d5"), (CLAIM_SETTLE, "+"),
])
def test_hostile_moves_are_refused_naming_the_move(path, move):
    line = assert_refused(run("apply", path, move), path, "move '")
    assert len(line) < 1200


# --- numbers on every command that takes them -------------------------------------------------

BAD_NUMBERS = ["-1", "18446744073709551616", str(2 ** 64 + 1), HUGE, "１", "١", "1_000", "0x10", "nan", "inf",
               "-inf", "1e999", "", " ", "1e5x", "++1", "½"]

SEED_COMMANDS = [
    ("new", "colorclaim"), ("new", "claim", "--island", "random"), ("apply", CLAIMIT, "roll"),
    ("odds", CLAIMIT, "--samples", "10"), ("analyze", CLAIMIT, "--time", "0.05"),
    ("analyze", COLORCLAIM, "--time", "0.05"), ("analyze", CLAIM, "--time", "0.05"),
    ("match", "claimit", "--a", "random", "--b", "random", "--games", "1"),
]


@pytest.mark.parametrize("command", SEED_COMMANDS, ids=lambda c: "-".join(map(str, c))[-40:])
@pytest.mark.parametrize("value", BAD_NUMBERS + ["9223372036854775808"])
def test_seed_is_checked_on_every_command(command, value):
    assert_refused(run(*command, "--seed", value), "'--seed'")


@pytest.mark.parametrize("command", SEED_COMMANDS, ids=lambda c: "-".join(map(str, c))[-40:])
def test_largest_seed_is_taken(command):
    assert_contract(run(*command, "--seed", str(limits.MAX_SEED)))


@pytest.mark.parametrize("game", ["colorclaim", "claimit", "claim"])
def test_largest_seed_seeds_every_game_of_a_match(game):
    """Start i is seeded SEED + i: past the largest seed for the second
    game, which must not be refused as the user's --seed would be."""
    size = ["--size", "3x3"] if game == "colorclaim" else []
    result = assert_contract(run("match", game, "--a", "mcts:iterations=10", "--b", "random", "--games", "3",
                                 "--seed", str(limits.MAX_SEED), *size))
    assert result.exit_code == 0


@pytest.mark.parametrize("command,option", [
    (("analyze", COLORCLAIM), "--time"), (("analyze", CLAIMIT), "--time"), (("solve", COLORCLAIM), "--time"),
    (("odds", CLAIMIT, "--samples", "10"), "--time"),
    (("analyze", COLORCLAIM, "--engine", "mcts"), "--iterations"), (("analyze", CLAIMIT), "--iterations"),
    (("analyze", COLORCLAIM, "--time", "0.05"), "--top"), (("analyze", COLORCLAIM, "--time", "0.05"), "--threads"),
    (("analyze", COLORCLAIM, "--time", "0.05"), "--hash"), (("solve", COLORCLAIM, "--time", "0.05"), "--hash"),
    (("odds", CLAIMIT), "--samples"), (("perft", COLORCLAIM), "--depth"),
    (("match", "colorclaim", "--a", "random", "--b", "random"), "--games"),
    (("new", "claimit"), "--players"), (("match", "claimit", "--a", "random", "--b", "random"), "--players"),
])
@pytest.mark.parametrize("value", BAD_NUMBERS + ["0"])
def test_numbers_are_checked_on_every_option(command, option, value):
    assert_refused(run(*command, option, value), f"'{option}'")


@pytest.mark.parametrize("args,option", [
    (("analyze", COLORCLAIM, "--threads", "65"), "--threads"),
    (("analyze", COLORCLAIM, "--iterations", str(2 ** 64)), "--iterations"),
    (("analyze", COLORCLAIM, "--hash", str(10 ** 12)), "--hash"),
    (("solve", COLORCLAIM, "--hash", "99999999"), "--hash"),
    (("odds", CLAIMIT, "--samples", "1"), "--samples"),
    (("odds", CLAIMIT, "--samples", str(10 ** 12)), "--samples"),
    (("odds", CLAIMIT, "--time", "nan"), "--time"),
    (("perft", COLORCLAIM, "--depth", "65"), "--depth"),
    (("match", "colorclaim", "--a", "random", "--b", "random", "--games", str(10 ** 12)), "--games"),
    (("new", "colorclaim", "--size", f"{HUGE}x5"), "--size"),
    (("new", "colorclaim", "--size", "６x５"), "--size"),
    (("new", "colorclaim", "--size", "6x５"), "--size"),
    (("new", "colorclaim", "--size", "1x1"), "--size"),
    (("new", "colorclaim", "--size", "6x5x4"), "--size"),
    (("new", "claim", "--players", "9"), "--players"),
    (("new", "claim", "--island", "x" * 5000), "--island"),
    (("new", "claim", "--variant", "chaos"), "--variant"),
    (("new", "claimit", "--players", "1"), "--players"),
    (("new", "claimit", "--size", "6x6"), "--size"),
    (("match", "colorclaim", "--a", "random", "--b", "random", "--games", "1", "--size", "６x５"), "--size"),
])
def test_out_of_range_values_name_the_option(args, option):
    line = assert_refused(run(*args), f"'{option}'")
    assert HUGE[:50] not in line and "x" * 100 not in line


@pytest.mark.parametrize("command", [
    ("study", "match", "colorclaim", "--a", "random", "--b", "random", "--games"),
    ("study", "policies", "colorclaim", "--policies", "random,greedy", "--games"),
    ("study", "selfplay", "colorclaim", "--a", "random", "--games"),
    ("study", "ladder", "colorclaim", "--specs", "random,greedy", "--games-per-table"),
])
@pytest.mark.parametrize("value", ["0", str(10 ** 7 + 1), str(10 ** 9), "x"])
def test_a_study_states_the_range_of_games_it_takes(tmp_path, command, value):
    """A study takes at most 10,000,000 games: every refusal says so (one
    said "at most 10,000,000", another "from 1 to 1000000000")."""
    line = assert_refused(run(*command, value, "--db", tmp_path / "s.db"), f"'{command[-1]}'",
                          f"must be a whole number from 1 to {10 ** 7}, not '{value}'")
    assert str(10 ** 9) not in line.replace(f"'{value}'", "")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("seeds,shown", [("-3", "'-3'"), ("3-", "'3-'"), ("1-2,-7", "'-7'"), ("-", "'-'"),
                                         ("1--3", "'-3'"), ("x-3", "'x'")])
def test_a_study_names_the_seeds_it_refuses(tmp_path, seeds, shown):
    """`--seeds -3` was refused as "... not ''": the seed refused is named."""
    line = assert_refused(run("study", "solve", "colorclaim", "--size", "3x3", "--seeds", seeds,
                              "--db", tmp_path / "s.db"), "'--seeds'", f"not {shown}")
    assert "''" not in line
    assert list(tmp_path.iterdir()) == []


def test_iteration_budget_is_refused_for_engines_without_one():
    for engine in ("solver", "alphabeta"):
        assert_refused(run("analyze", COLORCLAIM, "--engine", engine, "--iterations", "10"), "'--iterations'",
                       engine)
    assert_refused(run("analyze", CLAIMIT, "--engine", "alphabeta"), "'--engine'")
    assert_refused(run("analyze", CLAIM, "--engine", "solver"), "'--engine'")


# --- budgets too small for one iteration --------------------------------------------------

@pytest.mark.parametrize("path", [COLORCLAIM, CLAIMIT, CLAIMIT_DICE, CLAIM, CLAIM_SETTLE])
@pytest.mark.parametrize("engine", ["mcts", "auto"])
def test_a_tiny_budget_still_suggests_a_move(path, engine):
    result = assert_contract(run("analyze", path, "--engine", engine, "--time", "1e-9", "--json"))
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["suggestions"], data
    position = claimsolve.load(path)
    assert all(s["move"] in position.legal_moves() for s in data["suggestions"] if " " not in s["move"])


@pytest.mark.parametrize("game,spec", [("colorclaim", "mcts:time=1e-9"), ("claimit", "mcts:time=1e-9"),
                                       ("colorclaim", "alphabeta:time=1e-9"), ("colorclaim", "solver:time=1e-9"),
                                       ("claimit", "optimum:time=1e-9,samples=2")])
def test_a_tiny_budget_plays_a_match(game, spec):
    result = assert_contract(run("match", game, "--a", spec, "--b", "random", "--games", "1", "--size", "3x3")
                             if game == "colorclaim" else
                             run("match", game, "--a", spec, "--b", "random", "--games", "1"))
    assert result.exit_code == 0


# --- player specs ---------------------------------------------------------------------------

@pytest.mark.parametrize("game,spec,needles", [
    ("colorclaim", "alphabeta:hash=1000000000000", ["'hash'"]),
    ("colorclaim", "alphabeta:hash=0", ["'hash'"]),
    ("colorclaim", "alphabeta:depth=65", ["'depth'"]),
    ("colorclaim", "alphabeta:depth=１", ["'depth'"]),
    ("colorclaim", "alphabeta:time=nan", ["'time'"]),
    ("colorclaim", "alphabeta:width=3", ["unknown option 'width'", "depth, time, hash"]),
    ("colorclaim", "solver:depth=3", ["unknown option 'depth'", "time, hash"]),
    ("colorclaim", "mcts:memory=inf", ["'memory'"]),
    ("colorclaim", "mcts:memory=1e12", ["'memory'"]),
    ("colorclaim", "mcts:iterations=" + "1" + "0" * 30, ["'iterations'"]),
    ("colorclaim", "mcts:iterations=0", ["'iterations'"]),
    ("colorclaim", "mcts:threads=1000000", ["'threads'", "64"]),
    ("colorclaim", "mcts:threads=0", ["'threads'"]),
    ("colorclaim", "mcts:time=-1", ["'time'"]),
    ("colorclaim", "mcts:c=-1", ["'c'"]),
    ("colorclaim", "mcts:playout=fast", ["'playout'", "game, uniform"]),
    ("colorclaim", "mcts:time=1,time=2", ["'time'", "twice"]),
    ("colorclaim", "mcts:samples=5", ["unknown option 'samples'", "time, iterations"]),
    ("colorclaim", "mcts:time", ["option 'time' needs a value (write time=VALUE)"]),
    ("claimit", "optimum:samples,time=1", ["option 'samples' needs a value (write samples=VALUE)"]),
    ("colorclaim", "random:foo=1", ["unknown option 'foo'", "no options"]),
    ("colorclaim", "random:1", ["unknown option '1'"]),
    ("colorclaim", "warp:speed=9", ["unknown kind 'warp'"]),
    ("colorclaim", "threshold:2", ["threshold plays claimit"]),
    ("claimit", "optimum:time=-1", ["'time'"]),
    ("claimit", "optimum:samples=1", ["'samples'"]),
    ("claimit", "optimum:samples=" + HUGE, ["'samples'"]),
    ("claimit", "optimum:foo=1", ["unknown option 'foo'", "time, samples"]),
    ("claimit", "threshold:0", ["'k'", "without k="]),
    ("claimit", "threshold:２", ["'k'"]),
    ("claimit", "threshold", ["needs a value"]),
    ("claimit", "threshold:2,k=3", ["'k'", "twice"]),
    ("claimit", "risk:nan", ["'p'"]),
    ("claimit", "risk:1.5", ["'p'"]),
    ("claimit", "risk:p=0.3,q=1", ["unknown option 'q'"]),
    ("claim", "greedy:depth=2", ["unknown option 'depth'", "no options"]),
])
def test_bad_player_specs_are_refused_naming_the_option(game, spec, needles):
    for side in ("--a", "--b"):
        other = "--b" if side == "--a" else "--a"
        line = assert_refused(run("match", game, side, spec, other, "random", "--games", "1"),
                              f"player '{spec[:30]}", *needles)
        assert "--samples" not in line or "--samples" in spec


@pytest.mark.parametrize("spec", ["mcts:time=0.5", "mcts:iterations=100,c=1.4,memory=16,threads=2,depth=8,playout=uniform",
                                  "alphabeta:depth=2,hash=16", "alphabeta:time=0.1", "solver:hash=8", "random",
                                  "mcts: time = 0.5 ", "mcts:time=+0.5"])
def test_good_player_specs_are_taken(spec):
    assert make_player(spec, seed=2 ** 70, game="colorclaim") is not None


# --- the Python API checks as the command line does ---------------------------------------

@pytest.mark.parametrize("call,name", [
    (lambda p: claimsolve.analyze(p, time=-1), "time"),
    (lambda p: claimsolve.analyze(p, time=float("nan")), "time"),
    (lambda p: claimsolve.analyze(p, iterations=2 ** 64), "iterations"),
    (lambda p: claimsolve.analyze(p, iterations=10, engine="solver"), "iterations"),
    (lambda p: claimsolve.analyze(p, seed=-1), "seed"),
    (lambda p: claimsolve.analyze(p, seed=10 ** 5000), "seed"),
    (lambda p: claimsolve.analyze(p, threads=1000), "threads"),
    (lambda p: claimsolve.analyze(p, hash_mb=10 ** 12), "hash_mb"),
    (lambda p: claimsolve.analyze(p, engine=["mcts"]), "engine"),
    (lambda p: claimsolve.analyze(p, top=0), "top"),
    (lambda p: claimsolve.solve(p, time=0), "time"),
    (lambda p: claimsolve.solve(p, hash_mb=1.5), "hash_mb"),
    (lambda p: claimsolve.perft(p, 65), "depth"),
    (lambda p: claimsolve.perft(p, 2.0), "depth"),
    (lambda p: claimsolve.perft(p, True), "depth"),
])
def test_the_api_refuses_what_the_options_refuse(call, name):
    with pytest.raises(ClaimsolveError, match=f"^parameter '{name}': "):
        call(claimsolve.load(COLORCLAIM))


@pytest.mark.parametrize("progress,shown", [(5, "5"), ("bar", "'bar'"), ([print], "[")])
def test_the_api_refuses_a_progress_that_is_no_function(progress, shown):
    """claimsolve.solve(p, progress=5) ran the search and failed in it with
    "TypeError: 'int' object is not callable": `progress` is checked first,
    named, in every call that takes one."""
    from claimsolve import records
    colorclaim, claimit = claimsolve.load(COLORCLAIM), claimsolve.load(CLAIMIT)
    record = records.GameRecord.from_moves(colorclaim, [colorclaim.legal_moves()[0]], players=["a", "b"])
    for call in (lambda: claimsolve.solve(colorclaim, progress=progress, time=5),
                 lambda: claimsolve.analyze(colorclaim, progress=progress, time=5),
                 lambda: claimsolve.odds(claimit, progress=progress, samples=10),
                 lambda: claimsolve.review(record, progress=progress, time=5)):
        with pytest.raises(ClaimsolveError) as refused:
            call()
        assert str(refused.value).startswith(f"parameter 'progress': must be a function or None, not {shown}")
    assert claimsolve.solve(colorclaim, progress=lambda *args: None, time=5).best is not None


def test_the_api_refuses_bad_odds_and_new():
    claimit = claimsolve.load(CLAIMIT)
    for kwargs, name in ((dict(seed=-1), "seed"), (dict(samples=10 ** 30), "samples"), (dict(time=float("inf")), "time")):
        with pytest.raises(ClaimsolveError, match=f"'{name}'"):
            claimsolve.odds(claimit, **kwargs)
    for kwargs in (dict(seed=2 ** 64), dict(size=[10 ** 5000, 2]), dict(size=(-(10 ** 5000), 3)), dict(size=["6", 5]),
                   dict(size={}), dict(players=3)):
        with pytest.raises(ClaimsolveError):
            claimsolve.new("colorclaim", **kwargs)
    for kwargs in (dict(island=["standard"]), dict(island={}), dict(variant=["standard"]), dict(players=10 ** 5000),
                   dict(players=2.0), dict(size="6x5")):
        with pytest.raises(ClaimsolveError):
            claimsolve.new("claim", **kwargs)
    with pytest.raises(ClaimsolveError):
        claimsolve.new(["claim"])
    with pytest.raises(ClaimsolveError):
        claimsolve.analyze({"game": "colorclaim"})


@pytest.mark.parametrize("check,good,bad", [
    (limits.seed, [0, "7", " 7 ", "+7", limits.MAX_SEED], [-1, True, 1.0, "7.0", "0x7", "٧", limits.MAX_SEED + 1, None]),
    (limits.seconds, [0.5, "1e-9", ".5", "5.", 3], [0, -0.0, "nan", float("inf"), "1_0", "１", 10 ** 400, True]),
    (limits.threads, [1, 64], [0, 65, 10 ** 6]),
    (limits.iterations, [1, limits.MAX_ITERATIONS], [0, 2 ** 64, "1e3"]),
])
def test_limits_read_strictly(check, good, bad):
    for value in good:
        check(value, "x")
    for value in bad:
        with pytest.raises(ClaimsolveError, match="option 'x'"):
            check(value, "x")


@pytest.mark.parametrize("check,value,shown", [
    (limits.seconds, True, "not true"), (limits.seed, False, "not false"), (limits.seed, None, "not null"),
    (limits.threads, [1, None], "not [1, null]"), (limits.seed, {"a": True}, 'not {"a": true}'),
])
def test_limits_quote_json_values_in_json_spelling(check, value, shown):
    # what a web API request or a position file gives is quoted back as it was written
    with pytest.raises(ClaimsolveError) as caught:
        check(value, "x")
    assert str(caught.value).endswith(shown)


# --- output files ---------------------------------------------------------------------------

MATCH_3X3 = ("match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", "1")


@pytest.mark.parametrize("args, option", [
    (("show", COLORCLAIM, "--svg"), "--svg"), (("analyze", COLORCLAIM, "--time", "0.05", "--svg"), "--svg"),
    (("odds", CLAIMIT, "--samples", "20", "--svg"), "--svg"), (MATCH_3X3 + ("--svg",), "--svg"),
    (MATCH_3X3 + ("--save",), "--save"), (("play", "colorclaim", "--load", COLORCLAIM, "--record"), "--record"),
])
def test_an_output_file_named_dash_is_refused(tmp_path, monkeypatch, args, option):
    """`show p.json --svg -` wrote a file literally named "-"; "-" is
    standard input where a file is read, and no output file is standard
    output (docs/cli.md): refused before any work, nothing made."""
    monkeypatch.chdir(tmp_path)
    assert_refused(run(*args, "-"), f"option '{option}': '-' names no file here", "./- for a file named -")
    assert list(tmp_path.iterdir()) == []
