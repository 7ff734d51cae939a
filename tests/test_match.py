"""Engine matches: seats, points, confidence and the saved games."""
import itertools
import json
import math
from pathlib import Path

import pytest

from claimsolve.errors import ClaimsolveError
from claimsolve.match import MatchResult, GameRecord, run_match, save_games
from claimsolve.positions import from_dict
from claimsolve.search.player import Player


def test_colorclaim_match_swaps_seats_and_replays(tmp_path):
    result = run_match("colorclaim", "mcts:iterations=300", "random", 4, size="3x3", seed=3)
    assert [r.a_seat for r in result.records] == [1, 2, 1, 2]
    # each starting position is played twice, A in each seat once
    assert result.records[0].start == result.records[1].start
    assert result.records[2].start != result.records[0].start
    for record in result.records:
        assert sum(record.points) == pytest.approx(1.0)
        # the saved moves replay to the recorded final position
        position = from_dict(record.start)
        for move in record.moves:
            position = position.play(move)
        assert position.to_json() == record.final
        assert list(position.points()) == record.points
    path = tmp_path / "games.jsonl"
    save_games(result, path)
    lines = path.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["moves"] == result.records[0].moves


def test_search_beats_random():
    result = run_match("colorclaim", "alphabeta:depth=4", "random", 6, size="3x3", seed=1)
    assert result.score >= 0.75
    assert result.elo() > 0


def test_claimit_three_seats_rotate_a():
    result = run_match("claimit", "threshold:2", "random", 3, players=3, seed=5)
    assert [r.a_seat for r in result.records] == [1, 2, 3]
    assert result.expected_share == pytest.approx(1 / 3)
    assert result.elo() is None
    for record in result.records:
        assert sum(record.points) == pytest.approx(1.0)
        assert any(m.startswith("roll:") for m in record.moves)
        assert "roll" not in record.moves   # chance outcomes are recorded


def _result(points):
    result = MatchResult("colorclaim", "a", "b", 2, 2)
    result.records = [GameRecord({}, [1], [], [p, 1 - p]) for p in points]
    return result


def test_interval_and_elo():
    even = _result([1, 0] * 50)
    lo, hi = even.confidence_interval()
    assert lo < 0.5 < hi and hi - lo < 0.25
    assert even.elo() == pytest.approx(0.0)
    sweep = _result([1] * 10)
    lo, hi = sweep.confidence_interval()
    assert hi == pytest.approx(1.0) and 0.6 < lo < 0.8
    assert math.isinf(sweep.elo())
    data = sweep.to_json()
    assert data["elo"] is None and data["elo_ci95"][0] > 0
    json.dumps(data, allow_nan=False)
    assert _result([1, 0.5, 0]).tally() == (1, 1, 1)


def test_bad_specs():
    with pytest.raises(ClaimsolveError, match="unknown kind"):
        run_match("colorclaim", "alphabet", "random", 2, size="3x3")
    with pytest.raises(ClaimsolveError, match="games"):
        run_match("colorclaim", "random", "random", 0, size="3x3")


def test_a_refusal_in_play_names_the_player_once():
    from claimsolve.errors import PlayerError
    from claimsolve.match import play_game
    from claimsolve.catalog import get_game

    class Refuses(Player):
        def __init__(self, error):
            self.error = error
            self.spec = "refuses:now"

        def choose(self, position):
            raise self.error

    start = get_game("colorclaim").new(size="3x3", seed=1)
    # a refusal of the game's is named by the player's spec, whatever its text begins with
    for text in ("no weights for this game", "player 'x' is not a seat"):
        with pytest.raises(PlayerError) as info:
            play_game(start, [Refuses(ClaimsolveError(text)), Refuses(None)], None)
        assert str(info.value) == f"player 'refuses:now': {text}"
    # one that names a player already is not named twice
    with pytest.raises(PlayerError) as info:
        play_game(start, [Refuses(PlayerError("mcts:c=x", "option 'c': not a number")), Refuses(None)], None)
    assert str(info.value) == "player 'mcts:c=x': option 'c': not a number"


class _Script(Player):
    """Plays the next move of a script that the seats share."""

    def __init__(self, script):
        self.script = script

    def choose(self, position):
        return next(self.script)


CYCLE = Path(__file__).parent / "data" / "claim-4p-tower-swap-cycle.json"


def test_a_round_the_rules_never_end_is_adjudicated_a_draw(tmp_path):
    from claimsolve.match import GameRecord as MatchRecord, game_result, play_game
    from claimsolve.records import load

    data = json.loads(CYCLE.read_text())
    start = from_dict(data["start"])
    script = itertools.cycle(data["cycle"])
    players = [_Script(script) for _ in range(4)]
    moves, final, adjudicated = play_game(start, players, None)
    # the whole position comes round every 48 plies: stopped the third time it is seen
    assert not final.is_over() and final == start and len(moves) == 96
    assert adjudicated == "the same position a third time, ply 96"
    points, winners = game_result(final, adjudicated)
    assert points == [0.5] * 4 and winners == []
    # the record says so, and reads back (the reader checks the draw's points)
    record = MatchRecord(start=data["start"], a_seats=[1, 3], moves=moves, points=points, winners=winners,
                         adjudicated=adjudicated)
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record.to_json()) + "\n")
    read = load(str(path))[0]
    assert read.result == {"points": [0.5] * 4, "winners": [], "adjudicated": adjudicated}
    # and at the ply cap (the only stop in a game with dice) whatever comes before
    script = itertools.cycle(data["cycle"])
    players = [_Script(script) for _ in range(4)]
    moves, final, adjudicated = play_game(start, players, None, max_plies=50)
    assert len(moves) == 50 and adjudicated == "no end after 50 plies"


def test_an_adjudication_is_checked_when_read(tmp_path):
    from claimsolve.records import load

    data = json.loads(CYCLE.read_text())
    line = {"record": 1, "game": "claim", "start": data["start"], "moves": data["cycle"][:10]}
    cases = [
        ({"points": [0.5] * 4, "winners": []}, "the game is not over after its moves"),
        ({"points": [1.0, 0.0, 1.0, 0.0], "winners": [], "adjudicated": "x"},
         "field 'result.points': [1.0, 0.0, 1.0, 0.0] is not the adjudicated draw's [0.5, 0.5, 0.5, 0.5]"),
        ({"points": [0.5] * 4, "winners": [1], "adjudicated": "x"}, "field 'result.winners'"),
        ({"points": [0.5] * 4, "adjudicated": ""}, "field 'result.adjudicated': the reason"),
        ({"points": [0.5] * 4, "adjudicated": 7}, "field 'result.adjudicated': the reason"),
    ]
    for result, message in cases:
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(dict(line, result=result)) + "\n")
        with pytest.raises(ClaimsolveError) as info:
            load(str(path))
        assert message in str(info.value) and "\n" not in str(info.value)


def test_selfplay_adjudicates_a_game_the_rules_never_end(monkeypatch):
    # the self-play study plays its own loop (it records every position): the same referee
    # stops it, and the row scores the draw over the positions played
    from claimsolve.study import selfplay
    from claimsolve.study.kinds import get_kind

    data = json.loads(CYCLE.read_text())
    start = from_dict(data["start"])
    script = itertools.cycle(data["cycle"])
    monkeypatch.setattr(selfplay, "make_player", lambda spec, seed, game: _Script(script))
    params = {"game": "claim", "a": "scripted", "b": None, "seats": 4, "seed": 0}
    row = get_kind("selfplay").run_task(params, 0, {("start", 0): start, "last_start": ("start", 0)})
    assert row["plies"] == row["positions"] == 96 and row["moves"] == data["cycle"] * 2
    assert row["points"] == [0.5] * 4 and row["adjudicated"] == "the same position a third time, ply 96"
    movers, position = [], start
    for move in row["moves"]:
        movers.append(position.player_to_move)
        position = position.play(move)
    assert row["movers"] == movers and position == start


def test_a_match_study_keeps_why_a_game_was_adjudicated(monkeypatch):
    # the match study's row says why the match stopped the game, and its report counts it;
    # a file made before the column was kept reads without it, and the report says it cannot tell
    from claimsolve.study import kinds

    data = json.loads(CYCLE.read_text())
    start = from_dict(data["start"])
    script = itertools.cycle(data["cycle"])
    kind = kinds.get_kind("match")
    params = kind.options(game="claim", a="random", b="random", games=2, players=4)
    monkeypatch.setattr(kinds, "make_player", lambda spec, seed, game: _Script(script))
    row = kind.run_task(params, 0, {("start", 0): start, "last_start": ("start", 0)})
    assert row["adjudicated"] == "the same position a third time, ply 96" and row["points"] == [0.5] * 4
    won = dict(row, points=[1.0, 0.0, 1.0, 0.0], a_points=1.0, adjudicated=None)
    summary = kind.summary(params, [dict(row, seconds=1.0), dict(won, seconds=1.0)], 2)
    assert (summary["adjudicated"], summary["draws"], summary["shared"]) == (1, 1, 1)
    assert "1 of the games were stopped by the match, not ended by the rules" in kind.text(summary)
    summary = kind.summary(params, [dict(won, seconds=1.0)], 1)
    assert summary["adjudicated"] == 0 and "stopped by the match" not in kind.text(summary)
    old = [{key: value for key, value in dict(each, seconds=1.0).items() if key != "adjudicated"}
           for each in (row, won)]
    summary = kind.summary(params, old, 2)
    assert summary["adjudicated"] is None
    assert "does not say which games a match stopped" in kind.text(summary)
    assert "does not say" not in kind.text(kind.summary(params, old[1:], 1))     # nothing shared: nothing to say


def _dice_by_turn(record):
    """{(seat, its turn, roll of the turn): the dice} of a match game."""
    position, seat, turns, out = from_dict(record.start), None, {}, {}
    for move in record.moves:
        if position.player_to_move != seat:
            seat = position.player_to_move
            turns[seat] = turns.get(seat, 0) + 1
            k = 0
        if move.startswith("roll:"):
            k += 1
            out[(seat, turns[seat], k)] = move
        position = position.play(move)
    return out


def test_duplicate_dice_deal_every_seating_of_a_start_alike():
    # the same rule in every seat: the seatings of a start are one game, A wins it once
    alike = run_match("claimit", "threshold:5", "threshold:5", 6, players=3, seed=3, duplicate=True)
    games = [r.moves for r in alike.records]
    assert games[0] == games[1] == games[2] and games[3] == games[4] == games[5]
    assert games[0] != games[3]
    assert alike.score == pytest.approx(1 / 3)
    # another A: a seat's dice turn by turn are the seed's, whoever plays it and whatever came before
    other = run_match("claimit", "threshold:2", "threshold:5", 6, players=3, seed=3, duplicate=True)
    for x, y in zip(alike.records + other.records[:3], other.records + other.records[1:3]):
        dx, dy = _dice_by_turn(x), _dice_by_turn(y)
        common = dx.keys() & dy.keys()
        assert len(common) >= 10 and all(dx[key] == dy[key] for key in common)
    # without --duplicate the dice are one stream through the match
    stream = run_match("claimit", "threshold:5", "threshold:5", 3, players=3, seed=3)
    assert stream.records[0].moves != stream.records[1].moves


def test_duplicate_dice_need_a_game_with_dice():
    with pytest.raises(ClaimsolveError, match="parameter .duplicate.: colorclaim has no dice"):
        run_match("colorclaim", "random", "random", 2, size="3x3", duplicate=True)


def test_paired_matches_compares_two_players_on_the_same_dice(tmp_path, capsys):
    import importlib.util
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "paired_matches.py"
    spec = importlib.util.spec_from_file_location("paired_matches", script)
    paired = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paired)
    files = []
    for a in ("threshold:5", "threshold:2"):
        files.append(tmp_path / f"{a[-1]}.jsonl")
        save_games(run_match("claimit", a, "threshold:5", 60, players=3, seed=8, duplicate=True), files[-1])
    assert paired.main([str(files[0]), str(files[1])]) == 0
    out = capsys.readouterr().out
    assert out.startswith("20 starts;") and "A in" in out
    assert "  A in " + str(files[0]) + ": 0.333 (0.333-0.333)" in out     # the same rule everywhere: 1/3 a start
    stream = tmp_path / "stream.jsonl"
    save_games(run_match("claimit", "threshold:2", "threshold:5", 60, players=3, seed=8), stream)
    with pytest.raises(SystemExit, match="--duplicate"):
        paired.main([str(files[0]), str(stream)])


def _match_cli(*args):
    from click.testing import CliRunner

    from claimsolve.cli.main import main
    return CliRunner().invoke(main, ["match", *map(str, args)], catch_exceptions=False)


def test_match_takes_the_brawl_rule_as_new_does(tmp_path):
    # a player: `match` had no --brawl, though `new` has it
    saved = tmp_path / "games.jsonl"
    result = _match_cli("claim", "--players", "3", "--brawl", "cap", "--a", "random", "--b", "random",
                        "--games", "1", "--seed", "3", "--save", saved, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(saved.read_text().splitlines()[0])["start"]["rules"]["brawl"] == "cap"
    record = run_match("claim", "random", "random", 1, players=3, brawl="cap", seed=3).records[0]
    assert record.start["rules"]["brawl"] == "cap"
    assert run_match("claim", "random", "random", 1, players=3, seed=3).records[0].start["rules"]["brawl"] == "even"


@pytest.mark.parametrize("args, message", [
    (["colorclaim", "--brawl", "cap"], "option '--brawl': colorclaim has no brawl"),
    (["claim", "--players", "3", "--brawl", "fair"], "option '--brawl': 'fair': must be one of even, cap"),
    (["claim", "--players", "4", "--brawl", "cap"],
     "option '--brawl': the brawl's rule counts only with 3 seats: with 4 seats even and cap never differ "
     "(give --players 3)"),
    (["claim", "--variant", "battle-for-two", "--brawl", "cap"],
     "option '--brawl': the brawl's rule counts only with 3 seats: in battle-for-two even and cap never differ"),
])
def test_match_refuses_a_brawl_rule_where_it_does_not_apply(args, message):
    result = _match_cli(*args, "--a", "random", "--b", "random", "--games", "1")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr
