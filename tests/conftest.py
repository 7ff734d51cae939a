"""The test tiers.  `python -m pytest` runs everything (the README's test
command, and CI with it); `python -m pytest -m "not slow"` leaves out the
tests marked `slow` for the edit-test loop.

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
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        test = item.nodeid.split("[", 1)[0]
        if path in SLOW_MODULES or test in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
