"""Engine matches: seats, points, confidence and the saved games."""
import json
import math

import pytest

from claimsolve.errors import ClaimsolveError
from claimsolve.match import MatchResult, GameRecord, run_match, save_games
from claimsolve.positions import from_dict


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
    from claimsolve.search.player import Player
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
