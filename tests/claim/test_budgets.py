"""The largest Claim islands keep every budget: a turn's variants are listed
lazily and within bounds counted in decisions (never a wall clock here; the
wall-clock figures are benchmarks/bench_budgets.py's).

tests/data/claim-16x16-battle-chains.json is a 16x16 battle-for-two island
(26 territories of 4x3 points, the top row in 2- and 3-point ones), 14
Vikings a colour in the play phase, most on one colour of a checkerboard so
that jump chains cross the island: one turn has about 1.8 million variants
(the engine counts them in some 12 s).  claim-16x16-battle-towers.json has
Vikings scattered, no tower yet: five conquests with a choice of point
before any movement, some 89,000 turns.
"""
import json
from pathlib import Path

from click.testing import CliRunner

import claimsolve
from claimsolve import _alphabeta
from claimsolve.cli.main import main
from claimsolve.search import alphabeta

DATA = Path(__file__).resolve().parents[1] / "data"
CHAINS = DATA / "claim-16x16-battle-chains.json"
TOWERS = DATA / "claim-16x16-battle-towers.json"
SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claim"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_a_bounded_listing_stops_at_its_node_budget_with_valid_turns():
    position = claimsolve.load(CHAINS)
    state = position.engine_state()
    turns, complete, nodes = state.turns_bounded(max_nodes=5000)
    assert not complete and nodes <= 5001
    assert 0 < len(turns) < 5000
    for codes, end in turns[:50]:
        walker = state.copy()
        for code in codes:
            walker.apply(code)
        assert not walker.in_turn() and walker.state_bytes() == end
    first, complete, _ = state.turns_bounded(max_turns=7)
    assert not complete and first == turns[:7]          # the same walk, stopped sooner


def test_a_bound_the_listing_never_reaches_changes_nothing():
    position = claimsolve.load(SEEDS / "play-2p.json")
    state = position.engine_state()
    turns, complete, nodes = state.turns_bounded(max_nodes=10 ** 6, max_turns=10 ** 6)
    assert complete and turns == state.turns() and len(turns) == 27 and nodes >= 27


def test_alphabeta_ranks_the_root_turns_it_could_list():
    position = claimsolve.load(CHAINS)
    state = position.engine_state()
    searcher = _alphabeta.Searcher(state.game, state.state_bytes(), 0, _alphabeta.Table(4), 40)
    assert not searcher.root_complete
    answer = searcher.search(1, None, None, 1)
    assert len(answer["moves"]) == 40
    result = alphabeta.search(claimsolve.load(SEEDS / "play-2p.json"), depth=1)
    assert "root_complete" not in result.info and len(result.suggestions) == 27


def test_alphabeta_on_the_largest_island_says_what_it_searched(monkeypatch):
    monkeypatch.setattr(alphabeta, "ROOT_TURNS", 300)
    position = claimsolve.load(CHAINS)
    result = alphabeta.search(position, depth=1)
    assert result.info["root_complete"] is False and result.info["root_turns"] == 300
    assert len(result.suggestions) == alphabeta.NAMED_SUGGESTIONS
    assert result.info["moves_not_shown"] == 300 - alphabeta.NAMED_SUGGESTIONS
    for suggestion in result.suggestions[:5]:
        assert position.play(suggestion.move).player_to_move == 2


def test_moves_streams_the_first_n_and_says_more_are_left():
    result = run("moves", CHAINS, "--limit", "5")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 5 and lines[0] == "T@e1 T@m5 T@a10 T@m10 T@m13 c10-b10"
    assert result.stderr == "claimsolve: --limit 5: the first 5 moves; there are more\n"
    position = claimsolve.load(CHAINS)
    after = position.play(lines[-1])
    assert after.player_to_move == 2
    assert json.loads(run("moves", TOWERS, "--limit", "2", "--json").stdout) == [
        "T@e7 T@m8 T@a16 T@d16 T@g16 T@m16 a2-a3", "T@e7 T@m8 T@a16 T@d16 T@g16 T@m16 a2-b2"]


def test_moves_limit_above_the_count_prints_them_all_silently():
    result = run("moves", SEEDS / "play-2p.json", "--limit", "1000")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines() == claimsolve.load(SEEDS / "play-2p.json").legal_moves()
    result = run("moves", SEEDS / "play-2p.json", "--limit", "0")
    assert result.exit_code == 2 and "--limit" in result.stderr


def test_mcts_names_every_turn_of_a_standard_settle(monkeypatch):
    """The bound on naming a tree's turns is for the largest islands: a
    standard island's settle (some 2,000 pairs) is named whole, the same
    turns an unbounded walk names."""
    from claimsolve.search import mcts
    tree = mcts.MCTSTree(claimsolve.load(SEEDS / "settle-2p.json"), seed=1)
    tree.search(iterations=4000)
    named = {row[0] for row in tree.turn_rows()}
    assert not tree.turns_partial and len(named) > 300
    monkeypatch.setattr(mcts, "TURN_ROWS", 10 ** 9)
    monkeypatch.setattr(mcts, "WALK_NODES", 10 ** 9)
    assert {row[0] for row in tree.turn_rows()} == named


def test_mcts_on_the_largest_island_says_how_many_turns_it_ranked():
    """Where the tree holds more turns than are named, the note gives the
    number of turns ranked, not the number of suggestions shown."""
    answer = claimsolve.analyze(claimsolve.load(DATA / "claim-16x16-battle-lattice.json"), engine="mcts",
                                iterations=20000, top=5)
    info = answer.to_json()
    assert info["turns_partial"] and info["turns_named"] > 5 and len(info["suggestions"]) == 5
    assert any(f"the {info['turns_named']:,} turns" in note for note in info["notes"]), info["notes"]


def test_alphabeta_names_a_whole_large_root_only_while_its_time_lasts():
    """A 12x12 battle-for-two island whose root lists whole (8,224 turns)
    but whose turns cost much to name (each walks its variants): the best
    100 are named, the rest searched and counted, within the time budget."""
    position = claimsolve.load(DATA / "claim-12x12-battle-wide-root.json")
    result = alphabeta.search(position, time=0.3)
    assert alphabeta.NAMED_SUGGESTIONS <= len(result.suggestions) < 8224
    assert result.info["moves_named"] == len(result.suggestions)
    assert result.info["moves_named"] + result.info["moves_not_shown"] == 8224
    assert "root_complete" not in result.info          # listed whole: only the naming stopped


def test_the_named_moves_note_only_where_the_list_reaches_them():
    # "the best 100 moves are named and ranked; 96 more were searched" was
    # printed under a list of 5
    from claimsolve.analysis import answer_labels
    position = claimsolve.load(Path(__file__).parents[2] / "seeds" / "colorclaim" / "start-6x5.json")
    analysis = claimsolve.analyze(position, engine="alphabeta", time=0.3)
    assert analysis.result.info.get("moves_not_shown")
    named = analysis.result.info["moves_named"]
    said = lambda: " ".join(answer_labels(analysis.result, claimsolve.catalog.get_game("colorclaim"))["notes"])
    assert "moves are named and ranked" in said()
    analysis.result.suggestions = analysis.result.suggestions[:5]
    assert named > 5 and "moves are named and ranked" not in said()
