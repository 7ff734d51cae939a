"""The Python API as a user at the prompt meets it (README.md, docs/tour.md
"Python"): what positions and answers print, what a wrong argument says."""
from pathlib import Path

import pytest

import claimsolve

STARTS = {"claim": {"players": 2, "seed": 3}, "colorclaim": {"size": "4x3", "seed": 1}, "claimit": {}}


@pytest.mark.parametrize("game", sorted(STARTS))
def test_str_of_a_position_is_its_board_and_repr_one_short_line(game):
    position = claimsolve.new(game, **STARTS[game])
    assert str(position) == position.render() == f"{position}"
    assert "\x1b" not in str(position) and str(position).count("\n") >= 6       # the board, no colours
    assert "\n" not in repr(position) and len(repr(position)) < 80
    assert repr(position).startswith(type(position).__name__ + "(")


def test_claimit_repr_is_as_short_as_the_other_games():
    position = claimsolve.new("claimit", players=3)
    assert repr(position) == "ClaimItPosition(3 players, to_move=1)"
    rolled = position.play("roll:1,2,3")
    assert repr(rolled) == "ClaimItPosition(3 players, to_move=1, dice 1,2,3)"
    assert "board" not in repr(claimsolve.load("seeds/claimit/mid-game-3p.json"))


@pytest.mark.parametrize("game", sorted(STARTS))
@pytest.mark.parametrize("move", [None, 5, b"roll", ["a1"]])
def test_a_move_that_is_no_string_is_a_type_error_saying_what_a_move_is(game, move):
    position = claimsolve.new(game, **STARTS[game])
    title = {"claim": "Claim", "colorclaim": "Color Claim", "claimit": "Claim It!"}[game]
    for call in (position.play, position.describe):
        with pytest.raises(TypeError, match=f"a move is a string in {title}'s notation \\(like ") as caught:
            call(move)
        assert isinstance(caught.value, claimsolve.MoveError)        # caught as every bad move is
        assert "move 'None'" not in str(caught.value)


def test_an_analysis_says_in_a_line_what_it_found_and_has_the_suggestions():
    position = claimsolve.load("seeds/colorclaim/start-4x3-seed1.json")
    analysis = claimsolve.analyze(position, time=5, top=5)
    assert analysis.suggestions is analysis.result.suggestions           # as SearchResult has them
    assert analysis.pv == analysis.result.pv and len(analysis.suggestions) == 5
    best = analysis.suggestions[0]
    assert repr(analysis) == (f"<Analysis colorclaim, player 1 to move: {best.move} +2 (final-score margin, proven), "
                              "engine solver, 5 suggestions>")
    mcts = claimsolve.analyze(position, iterations=300, engine="mcts", seed=1)
    assert repr(mcts).startswith(f"<Analysis colorclaim, player 1 to move: {mcts.best_move} 0.")
    assert "(mean result, 0 loss to 1 win, " in repr(mcts) and repr(mcts).endswith(
        "engine mcts, 68 suggestions>")
    over = claimsolve.analyze(claimsolve.from_dict({"game": "colorclaim", "board": ["R1 . B2"]}))
    assert repr(over) == "<Analysis colorclaim, the game is over: no moves>" and over.suggestions == []


def test_a_search_result_repr_shows_its_first_suggestions_only():
    result = claimsolve.solve(claimsolve.load("seeds/colorclaim/start-4x3-seed1.json"))
    assert len(result.suggestions) == 68
    text = repr(result)
    assert text.startswith("SearchResult(engine='solver', exact=True, complete=True, suggestions=[Suggestion(move=")
    assert text.count("Suggestion(") == 3 and ", ... 65 more]" in text and len(text) < 600
    assert "visits=None" not in text           # a suggestion's repr leaves out what is not set


def test_new_reads_players_as_the_other_entry_points_read_numbers():
    # analyze(time="1") and new(seed="3") read the number the text writes, as the command line does
    assert claimsolve.new("claim", players="3", seed=1).num_players == 3
    assert claimsolve.new("claimit", players=" 4").num_players == 4
    for players in ("x", 2.5, True, "３"):
        with pytest.raises(claimsolve.ClaimsolveError, match=r"^parameter 'players': must be a whole number"):
            claimsolve.new("claim", players=players)
    with pytest.raises(claimsolve.ClaimsolveError, match=r"^parameter 'players': 9: Claim is played by 2, 3 or 4"):
        claimsolve.new("claim", players="9")


def test_the_subpackages_the_readme_names_are_reached_from_import_claimsolve():
    # README: "the pictures in claimsolve.render, matches in claimsolve.match,
    # studies in claimsolve.study", claimsolve.batch, claimsolve.env: after a
    # bare `import claimsolve` (a new interpreter: this one has them imported)
    import subprocess
    import sys
    code = ("import claimsolve, sys\n"
            "assert 'claimsolve.render' not in sys.modules\n"
            "p = claimsolve.load('seeds/claim/settle-2p.json')\n"
            "assert claimsolve.render.board_svg(p).startswith('<svg')\n"
            "assert callable(claimsolve.match.run_match) and claimsolve.study.__name__ == 'claimsolve.study'\n"
            "assert claimsolve.batch.__name__ == 'claimsolve.batch' and 'render' in dir(claimsolve)\n"
            "try:\n    claimsolve.no_such_thing\nexcept AttributeError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout == "module 'claimsolve' has no attribute 'no_such_thing'\n"
