"""Claim through the searches, analyze, the greedy player and matches: the
answers are whole turns in canonical notation, legal, and right where the
result is forced."""
import json
from pathlib import Path

import pytest

import claimsolve
from claimsolve import _alphabeta
from claimsolve.claim.players import GreedyPlayer
from claimsolve.claim.starts import random_play_start
from claimsolve.match import run_match
from claimsolve.search import alphabeta, mcts

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claim"

# docs/positions.md's example: player 1 conquers a and wins by force
SPEC_EXAMPLE = {
    "game": "claim", "players": 2, "variant": "standard",
    "territories": ["- a a b b", "a a a b b", "c c c b -"],
    "board": [". 1 . T2 .", "2 1 . . 2", ". . 1 . ."],
    "phase": "play", "first_player": 1, "to_move": 1,
    "rules": {"standstill": "same-viking", "draw_after": 200, "third_party_anvil": True},
    "history": {"streak": {"1": ["c1", 2], "2": None}, "quiet_plies": 0},
}


def seed(name):
    return claimsolve.load(SEEDS / name)


def play_line(position, line):
    for move in line:
        assert move in position.legal_moves(), (move, claimsolve.dumps(position))
        position = position.play(move)
    return position


def test_alphabeta_proves_the_forced_win_of_the_example_and_plays_it_out():
    position = claimsolve.from_dict(SPEC_EXAMPLE)
    result = alphabeta.search(position, depth=30, top=2)
    best = result.best
    assert best.score == 10000 and best.move.startswith("T@")   # the step-1 tower comes first
    end = play_line(position, result.pv)
    assert end.is_over() and end.winners() == [1]
    # the suggestion that loses nothing at once is not the winning one
    assert all(s.move in position.legal_moves() for s in result.suggestions)


# a QA player's position: one quiet ply short of the draw at 200, so each
# quiet move ends the game drawn at once while the captures go on (and lose)
QUIET_199 = {
    "game": "claim", "players": 2,
    "territories": ["a a a b b b", "a a a b b b", "a a - b b b", "c c c c b -", "c c c c - -"],
    "board": [". . . . . 2", ". T1 . . 1 .", ". 1 . . T2 .", ". 2 . . 2 .", ". . . . . ."],
    "phase": "play", "to_move": 1,
    "history": {"streak": {"1": None, "2": None}, "quiet_plies": 199},
}


def test_alphabeta_marks_proven_the_moves_whose_lines_all_reached_the_end():
    # the draws were "+0" beside the proven losses, unmarked, and `exact`
    # false: the search as a whole met its horizon in the captures' lines,
    # and each move's own lines were not counted apart
    position = claimsolve.from_dict(QUIET_199)
    result = alphabeta.search(position, depth=6, top=len(position.legal_moves()))
    quiet = [s for s in result.suggestions if position.play(s.move).is_over()]
    assert len(quiet) == 4
    assert all(s.exact and s.score == 0 and s.result == "draw" for s in quiet)
    # and a move whose lines met the horizon stays unproven: the same
    # position with the draw far off, at depth 2
    far = claimsolve.from_dict(dict(QUIET_199, history={"streak": {"1": None, "2": None}, "quiet_plies": 0}))
    shallow = alphabeta.search(far, depth=2, top=len(far.legal_moves()))
    assert not any(s.exact for s in shallow.suggestions if abs(s.score) < 10000)


def test_mcts_says_a_proven_claim_loss_as_its_margin_not_a_bound():
    # "proven loss (<=-10000)": a bound sign on the one margin a lost Claim
    # game has (its margin is +-10,000 or 0), where alpha-beta says "=-10000"
    position = claimsolve.from_dict(QUIET_199)
    result = mcts.search(position, iterations=20000)
    proofs = {s.result: s.proven for s in result.suggestions}
    assert proofs == {"draw": "=0", "loss": "=-10000"}
    # and the position's own: after e4-e5 (no draw near) player 2 wins, "value" not "bounds"
    won = claimsolve.from_dict(dict(QUIET_199, history={"streak": {"1": None, "2": None}, "quiet_plies": 0}))
    answer = mcts.search(won.play("e4-e5"), iterations=30000)
    assert (answer.info["result"], answer.info["value"], answer.complete) == ("win", 10000, True)
    assert "bounds" not in answer.info


# a QA player's 3-seat position: two moves lose if both others play together
THREE_SEATS = {
    "game": "claim", "players": 3,
    "territories": ["a a b b b", "a a b b b", "a a c c c", "a a c c c"],
    "board": [". . T3 . .", ". 3 2 . 1", ". . . . .", "T1 . . . T2"],
    "phase": "play", "to_move": 1, "rules": {"third_party_anvil": True},
}


def test_a_paranoid_loss_is_said_to_assume_the_others_play_together():
    # "-10000" under "a win 10,000 ... a heuristic, not proven" read as a
    # forced loss, with nothing saying that both opponents were assumed allies
    from claimsolve.analysis import answer_labels
    from claimsolve.catalog import game_of
    position = claimsolve.from_dict(THREE_SEATS)
    result = alphabeta.search(position, depth=6, top=4)
    lost = [s for s in result.suggestions if s.score <= -10000]
    assert len(lost) == 2 and not any(s.exact for s in lost)
    assert result.info["paranoid"] and "solved" not in result.info
    scores = answer_labels(result, game_of(position), sides=len(position.teams()))["scores"]
    assert "all the others play together against the mover: a loss here is what they could force" in scores
    two = alphabeta.search(claimsolve.from_dict(QUIET_199), depth=2)
    assert "paranoid" not in two.info


def test_alphabeta_root_moves_are_every_distinct_turn():
    position = seed("play-2p.json")
    result = alphabeta.search(position, depth=1)
    assert sorted(s.move for s in result.suggestions) == sorted(position.legal_moves())


@pytest.mark.parametrize("name, mode, solver", [("play-2p.json", "sides", True),
                                                ("play-4p.json", "sides", True),
                                                ("play-battle-for-two.json", "sides", True),
                                                ("play-3p.json", "paranoid", False)])
def test_sides_of_each_seat_count(name, mode, solver):
    position = seed(name)
    state = position.engine_state()
    assert _alphabeta.side_mode(state.game.capsule) == mode
    assert mcts.MCTSTree(position).solver is solver


@pytest.mark.parametrize("name", ["settle-2p.json", "brawl-2p.json", "towers-2p.json", "play-3p.json",
                                  "play-4p.json", "settle-battle-for-two.json"])
def test_mcts_suggests_legal_whole_turns_and_a_legal_line(name):
    position = seed(name)
    result = mcts.search(position, iterations=3000, seed=1)
    legal = set(position.legal_moves())
    assert result.suggestions and all(s.move in legal for s in result.suggestions)
    assert len({s.move for s in result.suggestions}) == len(result.suggestions)
    assert result.pv[0] == result.best.move
    play_line(position, result.pv)


def test_mcts_is_reproducible_with_a_seed():
    position = seed("settle-2p.json")
    first = mcts.search(position, iterations=2000, seed=7)
    again = mcts.search(position, iterations=2000, seed=7)
    assert [(s.move, s.visits) for s in first.suggestions] == [(s.move, s.visits) for s in again.suggestions]


def test_mcts_tree_follows_a_whole_turn_down_the_tree():
    position = seed("play-2p.json")
    tree = mcts.MCTSTree(position, seed=1)
    tree.search(iterations=5000)
    rows = mcts._ranked([tree.turn_rows()], tree.root_bounds())
    move, visits = rows[0][0], rows[0][1]
    assert tree.advance(position, move)
    assert tree.visits == visits and tree.position == position.play(move)
    tree.search(iterations=500)
    assert tree.visits == visits + 500


def test_analyze_picks_mcts_to_settle_and_alphabeta_to_play():
    settle = claimsolve.analyze(seed("settle-2p.json"), iterations=1500, top=5)
    assert settle.engine == "mcts" and len(settle.result.suggestions) == 5
    play = claimsolve.analyze(seed("play-2p.json"), time=0.3, top=3)
    assert play.engine == "alphabeta" and len(play.result.suggestions) == 3
    assert claimsolve.analyze(seed("play-4p.json"), time=0.2).engine == "alphabeta"     # two teams
    assert claimsolve.analyze(seed("play-3p.json"), time=0.2).engine == "mcts"          # three sides
    assert all(s.exact is False and s.depth >= 1 for s in play.result.suggestions)
    with pytest.raises(claimsolve.ClaimsolveError, match="exact solver is for Color Claim"):
        claimsolve.analyze(seed("play-2p.json"), engine="solver")


def test_analyze_of_a_finished_game_says_so():
    for name, winners in (("won-2p.json", [1]), ("drawn-2p.json", [1, 2])):
        analysis = claimsolve.analyze(seed(name))
        assert analysis.result.suggestions == [] and analysis.to_json()["winners"] == winners


def test_greedy_takes_the_winning_tower_of_the_example():
    position = claimsolve.from_dict(SPEC_EXAMPLE)
    move = GreedyPlayer(seed=3).choose(position)
    assert move in position.legal_moves() and move.startswith("T@")


def test_greedy_captures_when_it_can():
    position = random_play_start(5, players=2)
    player = GreedyPlayer(seed=1)
    for _ in range(30):
        if position.is_over():
            break
        before = position.engine_state()
        material = before.game.material(before.state_bytes())
        captures = []
        for codes, end in before.turns():
            after = before.game.material(end)
            captures.append(sum(a[0] - b[0] for a, b in zip(material, after)))
        move = player.choose(position)
        after_move = position.play(move)
        state = after_move.engine_state()
        taken = sum(a[0] - b[0] for a, b in zip(material, state.game.material(state.state_bytes())))
        towers_before = sum(t for _v, t in material)
        if sum(t for _v, t in state.game.material(state.state_bytes())) <= towers_before:
            assert taken == max(captures)       # no tower to gain: the most captures
        position = after_move


def test_team_match_gives_each_team_to_each_engine():
    result = run_match("claim", "greedy", "random", 2, players=4, seed=3)
    assert [record.a_seats for record in result.records] == [[1, 3], [2, 4]]
    assert result.teams == 2
    for record in result.records:
        assert record.points[0] == record.points[2] and record.points[1] == record.points[3]
        assert json.loads(json.dumps(record.start))["phase"] == "play"
