"""Baseline players and their use in matches."""
import random

import pytest

import claimsolve
from claimsolve.claimit import optimum
from claimsolve.claimit.players import (OptimumPlayer, RiskPlayer, ThresholdPlayer, greedy_placement,
                                        placed_this_turn)
from claimsolve.claimit.position import placement_name
from claimsolve.errors import ClaimsolveError
from claimsolve.match import play_game
from claimsolve.player_kinds import make_player
from claimsolve.search.random_player import RandomPlayer


def positions_along_a_game(seed, players=3):
    rng = random.Random(seed)
    position = claimsolve.new("claimit", players=players)
    player = ThresholdPlayer(3)
    while not position.is_over():
        yield position
        position = position.play(position.resolve_chance(player.choose(position), rng))


def test_specs_make_the_right_players():
    assert isinstance(make_player("random", seed=1), RandomPlayer)
    assert make_player("threshold:3").k == 3
    assert make_player("risk:0.25").p == 0.25
    assert make_player("optimum:time=0.01").time == 0.01
    with pytest.raises(ClaimsolveError):
        make_player("threshold")
    with pytest.raises(ClaimsolveError):
        make_player("threshold:0")
    with pytest.raises(ClaimsolveError):
        make_player("risk:1.5")


def test_greedy_placement_is_the_engines_rule():
    checked = 0
    for position in positions_along_a_game(4):
        if position.dice is None:
            continue
        code = position.engine_game().greedy_placement(position.engine_state().state_bytes())
        assert position.move_name(code) == placement_name(greedy_placement(position))
        checked += 1
    assert checked > 30


def test_greedy_prefers_securing_own_space():
    position = claimsolve.from_dict({
        "game": "claimit", "players": 2, "dice": [1, 2, 3],
        "board": [". 1 . . . .", ". . . . . .", "2 . . . . .", ". . . . . .", ". . . . . .", ". . . . . ."]})
    # 1,2 holds player 1's colour: black there secures it
    assert placement_name(greedy_placement(position)) == "B@1,2"


def test_threshold_stops_after_k_placements():
    player = ThresholdPlayer(2)
    for position in positions_along_a_game(5):
        move = player.choose(position)
        assert move in position.legal_moves()
        if position.dice is None and position.turn_in_progress():
            assert (move == "stop") == (placed_this_turn(position) >= 2)


def test_risk_stops_above_the_exact_bust_chance():
    player = RiskPlayer(0.05)
    seen_stop = False
    for position in positions_along_a_game(6):
        move = player.choose(position)
        if position.dice is None and position.turn_in_progress():
            assert (move == "stop") == (position.bust_rolls() / 216 > 0.05)
            seen_stop |= move == "stop"
    assert seen_stop


def test_optimum_player_takes_the_exact_decision_when_small():
    full = ["B/1 B/2 B/1 B/2 B/1 B/2", "B/2 B/1 B/2 B/1 B/2 B/1"] * 2
    position = claimsolve.from_dict({"game": "claimit", "players": 2, "target": 15,
                                     "board": full + ["B/1 B/2 B/1 1 . 1", "w1 2/w2 . 2 1 w4"]})
    player = OptimumPlayer(time=optimum.NO_DEADLINE)     # small: milliseconds
    assert player.choose(position) == "roll"     # exact: roll 0.51 > stop 0 secured spaces
    assert player.exact_decisions == 1


def test_optimum_player_proves_rolling_by_the_lower_bound(monkeypatch):
    """Mid-game the whole turn is too large, but the best play with a few
    more rolls already beats stopping: rolling is proven best.  The search
    has no deadline and a 1 MB table (65,536 turn states), which the whole
    turn fills and the bounds then go as deep as: the same answer however
    loaded the machine."""
    import functools
    from pathlib import Path
    position = claimsolve.load(str(Path(__file__).resolve().parents[2] / "seeds" / "claimit" / "mid-game-3p.json"))
    monkeypatch.setattr(optimum, "solve", functools.partial(optimum.solve, memory_mb=1))
    player = OptimumPlayer(time=optimum.NO_DEADLINE, objective="secured")    # 3 players: "win" by default
    assert player.choose(position) == "roll"
    assert player.exact_decisions == 1


def test_matches_play_to_the_end_with_every_kind():
    start = claimsolve.new("claimit", players=3)
    lineup = [make_player("random", seed=1), make_player("threshold:3"), make_player("risk:0.3")]
    moves, final, adjudicated = play_game(start, lineup, random.Random(2))
    assert adjudicated is None
    assert final.is_over()
    assert abs(sum(final.points()) - 1.0) < 1e-12
    assert any(m.startswith("roll:") for m in moves)
    assert "roll" not in moves                       # chance outcomes recorded with their dice
    replay = start
    for move in moves:
        replay = replay.play(move)
    assert replay == final


def test_threshold_beats_random_in_a_short_match():
    from claimsolve.match import run_match
    result = run_match("claimit", "threshold:4", "random", games=12, players=3, seed=1)
    assert result.score > 0.6
