"""The playout value (ext/claimit_value.pxi): win shares at turn starts
before the final round, close to what whole playouts give; MCTS cuts its
playouts there, and never in the final round."""
import json
import random
from pathlib import Path

import pytest

import claimsolve
from claimsolve._mcts import Tree
from claimsolve.claimit.players import ThresholdPlayer

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claimit"


def seed_position(name):
    return claimsolve.from_dict(json.loads((SEEDS / name).read_text()))


def turn_start_after(players, turns, seed):
    """A position at the start of a turn after `turns` turns of threshold:6
    play from the empty board (None when the final round began)."""
    rng = random.Random(seed)
    position = claimsolve.new("claimit", players=players)
    player = ThresholdPlayer(6)
    done = 0
    while done < turns:
        move = position.resolve_chance(player.choose(position), rng)
        before = position.to_move
        position = position.play(move)
        if position.is_over() or position.final_round is not None:
            return None
        done += position.to_move != before
    return position


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_value_is_win_shares_at_a_turn_start(players):
    position = claimsolve.new("claimit", players=players)
    value = position.engine_game().playout_value(position.engine_state().state_bytes())
    assert len(value) == players and abs(sum(value) - 1.0) < 1e-9 and min(value) > 0.0
    assert value[0] == max(value)       # on the empty board the first to move is ahead


@pytest.mark.parametrize("name", ["mid-game-3p.json", "mid-game-dice-3p.json", "final-round-3p.json",
                                  "game-over-3p.json"])
def test_no_value_inside_a_turn_in_the_final_round_or_at_the_end(name):
    position = seed_position(name)
    assert position.engine_game().playout_value(position.engine_state().state_bytes()) is None


def test_the_value_follows_whole_playouts_in_the_middle_game():
    """At turn starts of the middle game the value is within a few points of
    the mean result of 3000 whole playouts by the policy, and ranks the
    players alike more often than not."""
    errors, same_leader, compared = [], 0, 0
    for seed in range(12):
        position = turn_start_after(3, 6 + seed // 2, seed)
        if position is None:
            continue
        game, state = position.engine_game(), position.engine_state().state_bytes()
        value = game.playout_value(state)
        means, _ = game.simulate(state, 3000, 100 + seed)
        errors += [abs(v - m) for v, m in zip(value, means)]
        same_leader += value.index(max(value)) == means.index(max(means))
        compared += 1
    assert compared >= 8
    assert sum(errors) / len(errors) < 0.06, errors
    assert max(errors) < 0.2, errors
    assert same_leader >= compared * 0.6


def test_mcts_cuts_playouts_by_the_value_but_not_in_the_final_round():
    """With the same seed a search whose playouts may be cut (the default)
    and one playing them to the end agree exactly in the final round (there
    is no value there) and differ in the middle game."""
    for position, alike in ((seed_position("final-round-3p.json"), True), (turn_start_after(3, 6, 1), False)):
        state = position.engine_state()
        stats = []
        for turns in (1, -1):
            tree = Tree(state.game, state.state_bytes(), memory_mb=16, seed=5, playout_turns=turns,
                        chance_mover=position.to_move - 1)
            tree.run(300)
            stats.append(tree.children())
        assert (stats[0] == stats[1]) == alike
