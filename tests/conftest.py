"""The test tiers.  `python -m pytest` runs everything (the README's test
command, and CI with it); `python -m pytest -m "not slow"` leaves out the
tests marked `slow` for the edit-test loop.  Both run on two worker
processes (pytest-xdist: pyproject.toml's addopts; `-n 0` for one).

Slow are the tests that play many games through two implementations
(engine against reference), drive real outside programs (OpenSpiel, the
browser, Dask, a terminal's Ctrl-C) or search for seconds; a test marks
itself with `@pytest.mark.slow`, and the modules and tests below, which
are slow as a whole or by their size, are marked here in one place."""
import pytest

SLOW_MODULES = {
    "tests/interop/test_openspiel.py",           # our games inside OpenSpiel, its bots and checks
    "tests/claimit/test_optimum.py",             # the turn optimum against a plain expectimax
    "tests/claim/test_engine_vs_rules.py",       # Claim's engine against its reference rules
    "tests/colorclaim/test_engine_vs_rules.py",  # Color Claim's engine against its reference rules
    "tests/claimit/test_engine.py",              # Claim It!'s engine against its reference rules
    "tests/test_interrupt.py",                   # Ctrl-C sent to running commands
    "tests/hostile/test_processes.py",           # hostile input to whole processes
    "tests/hostile/test_server.py",              # hostile requests to a real `claimsolve serve` process
    "tests/web/test_page.py",                    # the board in a real browser
    "tests/test_pictures.py",                    # pictures rendered in a real browser
    "tests/study/test_study.py",                 # studies on local processes and a Dask cluster
}
SLOW_TESTS = {
    "tests/claim/test_position.py::test_random_games_round_trip_and_list_valid_turns",
    "tests/web/test_api.py::test_solve_and_odds_are_what_they_print",
    "tests/web/test_api.py::test_svg_pictures",
    "tests/search/test_mcts.py::test_bounds_proven_before_the_end_hold",
    "tests/search/test_mcts.py::test_three_players_mcts_follows_max_n_down_its_line",
    "tests/search/test_solver_threads.py::test_threads_give_the_values_of_one_thread",
    "tests/search/test_alphabeta.py::test_a_search_stopped_within_a_depth_answers_with_the_last_whole_depth",
    "tests/search/test_alphabeta.py::test_children_entries_cut_without_changing_any_value",
    "tests/search/test_alphabeta.py::test_small_trees_change_no_value",
    "tests/search/test_alphabeta.py::test_solver_values_equal_brute_force",
    "tests/hostile/test_options.py::test_largest_seed_is_taken",
    "tests/test_review.py::test_claim_it_decisions_are_valued_by_the_turn_optimum",
    "tests/test_review.py::test_claim_it_luck_and_decisions_add_up_to_each_exact_turn",
    "tests/test_labels.py::test_a_value_only_answer_proves_its_best_move_and_bounds_the_others",
    # engine against reference: every legal turn or move of random games, or a full minimax
    "tests/test_describe.py::test_claim_marks_agree_with_the_boards",
    "tests/claim/test_position.py::test_random_play_positions_on_small_islands",
    "tests/colorclaim/test_small_boards.py::test_full_minimax_reference_equals_engine",
    "tests/colorclaim/test_small_boards.py::test_start_3x3_seed1_value",
    "tests/search/test_alphabeta.py::test_small_trees_give_the_same_value_only_answer_on_an_endgame",
    # searches of seconds (MCTS on two processes, proofs of whole games)
    "tests/claimit/test_odds.py::test_analyze_gives_the_turn_optimum_its_threads",
    "tests/claim/test_search.py::test_mcts_suggests_legal_whole_turns_and_a_legal_line",
    "tests/claim/test_search.py::test_alphabeta_proves_the_forced_win_of_the_example_and_plays_it_out",
    # whole `claimsolve play` processes typed at, whole games
    "tests/test_play.py::test_the_hint_shows_analyzes_labels_and_columns",
    "tests/test_play.py::test_color_claim_a_whole_game",
    "tests/test_play.py::test_color_claim_hint_undo_save_and_end_of_input",
    "tests/test_play.py::test_claim_it_dice_rolled_by_the_program_and_typed",
    "tests/test_play.py::test_claim_whole_turns_and_a_reason",
    # hostile input by the hundred (fuzzing whole commands and sessions), matches, studies
    "tests/hostile/test_fuzz.py::test_mutated_positions_get_an_answer_or_one_line",
    "tests/hostile/test_fuzz.py::test_hostile_options_of_every_command_get_an_answer_or_one_line",
    "tests/hostile/test_play.py::test_garbage_lines_never_raise",
    "tests/hostile/test_options.py::test_largest_seed_seeds_every_game_of_a_match",
    "tests/study/test_hostile_files.py::test_the_issues_examples_get_one_line_each",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        test = item.nodeid.split("[", 1)[0]
        if path in SLOW_MODULES or test in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def unwrapped(monkeypatch):
    """No COLUMNS from the shell that runs the tests: with it the commands'
    sentences would be wrapped at its width (claimsolve.prose), and the
    tests read them as a pipe gets them, one a line."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture
def no_shipped_weights(monkeypatch, tmp_path):
    """The package as if installed without its weights (claimsolve/data/
    weights/ empty): weights are shipped for every seat count of every
    game with an observation, so the refusals where none fit are reached
    this way.  The lookups' caches are emptied before and after."""
    from claimsolve.claimit import optimum, review
    from claimsolve.search import learned

    def clear():
        optimum.shipped_win_weights.cache_clear()
        review._win_players.cache_clear()

    monkeypatch.setattr(learned, "WEIGHTS_DIR", tmp_path / "no-weights")
    clear()
    yield
    clear()
