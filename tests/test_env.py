"""claimsolve.env: the PettingZoo AEC environments pass PettingZoo's own
api_test and seed_test for every game, seat count and variant; the
Gymnasium one-seat environment plays the other seats with player specs."""
import numpy
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from claimsolve.env import make_env, make_single_env  # noqa: E402
from claimsolve.errors import ClaimsolveError  # noqa: E402
from claimsolve.positions import game_class, from_dict  # noqa: E402

SETUPS = [("colorclaim", {"size": "4x3"}), ("colorclaim", {"size": "6x5"}),
          ("claim", {"players": 2}), ("claim", {"players": 3}), ("claim", {"players": 4}),
          ("claim", {"players": 2, "variant": "battle-for-two"}),
          ("claimit", {"players": 2}), ("claimit", {"players": 3}), ("claimit", {"players": 5}),
          ("claimit", {"players": 2, "variant": "release_white"})]


@pytest.fixture(params=SETUPS, ids=lambda s: f"{s[0]}-" + "-".join(map(str, s[1].values())))
def setup(request):
    return request.param


def test_pettingzoo_api_test(setup):
    game, options = setup
    api_test(make_env(game, **options), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test(setup):
    game, options = setup
    seed_test(lambda: make_env(game, **options), num_cycles=300)


def play_out(env, seed):
    """Random legal actions to the end; (the rewards at the end, steps)."""
    rng = numpy.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    final = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(numpy.flatnonzero(observation["action_mask"]))))
        steps += 1
    return final, steps


def test_a_whole_game_ends_with_the_returns(setup):
    game, options = setup
    env = make_env(game, render_mode="ansi", **options)
    final, steps = play_out(env, 4)
    assert steps > 0 and sorted(final) == sorted(env.possible_agents)
    position = env.position()
    assert position.is_over()
    assert final == pytest.approx(dict(zip(env.possible_agents, position.points())))   # win 1 (allies too), shares


def test_observations_are_the_engines_at_every_whole_move():
    env = make_env("colorclaim", render_mode="ansi", size="4x3")
    env.reset(seed=9)
    rng = numpy.random.default_rng(0)
    while env.agents:
        agent = env.agent_selection
        position = env.position()
        state = position.engine_state()
        for seat, name in enumerate(env.possible_agents):
            observation = env.observe(name)
            assert (observation["observation"] == state.observation(seat)).all()
            legal = numpy.flatnonzero(observation["action_mask"]).tolist()
            assert legal == (state.legal_actions() if name == agent and not state.is_terminal() else [])
        assert env.render() == position.render()
        env.step(None if env.terminations[agent] else int(rng.choice(state.legal_actions())))


def test_new_options_and_positions():
    # a seed fixes the setup for every reset; without one every reset draws one
    fixed = make_env("colorclaim", size="4x3", seed=5, render_mode="ansi")
    drawn = make_env("colorclaim", size="4x3", render_mode="ansi")
    starts = set()
    for seed in range(3):
        fixed.reset(seed=seed)
        drawn.reset(seed=seed)
        assert fixed.position() == game_class("colorclaim").new(size="4x3", seed=5)
        starts.add(drawn.position())
    assert len(starts) == 3
    position = from_dict({"game": "colorclaim", "board": ["G2 . B1", "R1/Y3 K1 R2"], "to_move": 2,
                          "claims": ["Y", "B"], "shield": 1})
    env = make_env("colorclaim", position=position, render_mode="ansi")
    env.reset()
    assert env.agent_selection == "player_2" and env.position() == position
    assert env.observation_shape == (19, 2, 3, 15)


def test_what_it_refuses():
    with pytest.raises(ClaimsolveError, match="parameter 'colour': not an option of colorclaim's `new`"):
        make_env("colorclaim", colour="red")
    with pytest.raises(ClaimsolveError, match="parameter 'size'"):
        make_env("colorclaim", size="9x9")
    with pytest.raises(ClaimsolveError, match="render_mode 'rgb_array'"):
        make_env("colorclaim", render_mode="rgb_array")
    over = from_dict({"game": "colorclaim", "board": ["R1 . B2"]})
    with pytest.raises(ClaimsolveError, match="position: the game is over there"):
        make_env("colorclaim", position=over)
    with pytest.raises(ClaimsolveError, match="position: a colorclaim position, not ClaimItPosition"):
        make_env("colorclaim", position=game_class("claimit").new(seed=1))
    for maker in (make_env, make_single_env):
        # once made, then 4 resets of 5 refused: each random island has a size of its own
        with pytest.raises(ClaimsolveError, match="parameter 'island': 'random' without a seed would draw an "
                                                  "island of another size at every reset"):
            maker("claim", island="random")
    islands = make_env("claim", island="random", seed=3)  # one random island, every game
    for seed in range(5):
        islands.reset(seed=seed)
        assert islands.observation_shape == (19, 11, 12, 33)
    env = make_env("colorclaim", size="4x3", seed=1)
    env.reset()
    illegal = int(numpy.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal here"):
        env.step(illegal)


@pytest.mark.parametrize("maker", [make_env, make_single_env])
@pytest.mark.parametrize("game,options,message", [
    ("claimit", {"size": "4x4"}, "parameter 'size': the Claim It! board is always 6x6"),
    ("claimit", {"players": 6}, "parameter 'players': 6: Claim It! has 2 to 5 players"),
    # read as claimsolve.new reads it: "3" is 3 ("'3': Claim It! has 2 to 5 players" before), 3.0 no count
    ("claimit", {"players": 3.0}, "parameter 'players': must be a whole number from 1 to 1000, not 3.0"),
    ("colorclaim", {"size": "9x9"}, "parameter 'size': 9x9: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    ("colorclaim", {"size": "6x5", "seed": 1.5},
     "parameter 'seed': must be a whole number from 0 to 9223372036854775807, not 1.5"),
    ("colorclaim", {"size": "6x5", "seed": -1},         # as claimsolve.new and `new --seed` refuse it
     "parameter 'seed': must be a whole number from 0 to 9223372036854775807, not -1"),
    ("claim", {"island": "atlantis"},
     "parameter 'island': 'atlantis': unknown (standard, random, standard-2, standard-3, standard-4)"),
])
def test_a_bad_option_is_named_as_the_caller_wrote_it(maker, game, options, message):
    # `new` checks the options for the command line too, which names them `option '--size'`
    with pytest.raises(ClaimsolveError) as caught:
        maker(game, **options)
    assert str(caught.value) == message


@pytest.mark.parametrize("action, message", [
    (1.5, "action 1.5 is not a whole number (actions: 0 to 95, an int or a numpy integer)"),
    (numpy.float64(3.0), "action np.float64(3.0) is not a whole number"),
    ("3", "action '3' is not a whole number"),
    (None, "action None is not a whole number (actions: 0 to 95, an int or a numpy integer; "
           "None is for an agent that is done, terminated or truncated)"),
    (True, "action True is a bool, not a whole number"),
    (numpy.bool_(True), "action np.True_ is a bool, not a whole number"),
    (numpy.array([3]), "action array([3]) is not a whole number"),
    (-1, "action -1 is outside the action space (actions: 0 to 95)"),
    (10 ** 30, "action 1000000000000000000000000000000 is outside the action space"),
])
def test_an_action_that_is_no_whole_number_of_the_space_is_refused(action, message):
    # once truncated (1.5 played action 1) or a TypeError from the engine (None)
    env = make_env("colorclaim", size="4x3", seed=1)
    single = make_single_env("colorclaim", size="4x3", seed=1)
    for step in (env.step, single.step):
        env.reset(seed=0)
        single.reset(seed=0)
        with pytest.raises(ValueError) as caught:
            step(action)
        assert str(caught.value).startswith(message)
    assert env.agent_selection == "player_1"            # nothing played
    legal = numpy.flatnonzero(env.observe("player_1")["action_mask"])
    for whole in (numpy.int64(legal[0]), numpy.int32(legal[0]), numpy.uint8(legal[0]), numpy.array(legal[0])):
        env.reset(seed=0)
        env.step(whole)                                 # numpy integers, as PettingZoo and RL libraries give them
        assert env.agent_selection == "player_2"
    single.reset(seed=0)
    assert single.step(numpy.int64(legal[0]))[0]["observation"].shape == (19 * 12 + 15,)


@pytest.mark.parametrize("seed", [-1, "a", 1.5, True, 2 ** 63, [1]])
def test_reset_refuses_a_seed_no_other_call_takes(seed):
    """reset(seed=-1) or reset(seed="a") was taken (random.Random seeds from
    anything): a seed is checked as claimsolve.new checks it, named."""
    for env in (make_env("colorclaim", size="4x3"), make_single_env("colorclaim", size="4x3")):
        with pytest.raises(ClaimsolveError, match=r"^parameter 'seed': must be a whole number from 0 to "
                                                  rf"{2 ** 63 - 1}, not "):
            env.reset(seed=seed)
        for good in (None, 0, 2 ** 63 - 1):
            env.reset(seed=good)


def test_a_dead_agent_steps_with_none_only():
    env = make_env("colorclaim", size="3x3", seed=1)
    play_out(env, 0)                                    # steps None for each agent once it is done
    env.reset(seed=0)
    while not env.terminations[env.agent_selection]:
        env.step(int(numpy.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(0)                                     # PettingZoo's own refusal
    env.step(None)


def test_gymnasium_one_seat_against_a_player_spec():
    env = make_single_env("colorclaim", seat=2, opponents="alphabeta:depth=1", size="4x3", render_mode="ansi")
    rng = numpy.random.default_rng(1)
    rewards = []
    for seed in (1, 1, 2):
        observation, _ = env.reset(seed=seed)
        assert env.observation_space.contains(observation)
        first = observation["observation"].copy()
        reward, done, moves = 0.0, False, 0
        while not done:
            assert env.position().player_to_move == 2           # the opponent has moved
            action = int(rng.choice(numpy.flatnonzero(observation["action_mask"])))
            observation, reward, done, truncated, _ = env.step(action)
            moves += 1
        position = env.position()
        assert position.is_over() and moves > 0
        assert reward == position.points()[1]
        rewards.append((first.tobytes(), reward))
    assert rewards[0][0] == rewards[1][0] and rewards[0][0] != rewards[2][0]   # seeded setups
    assert "Game over" in env.render()


def test_gymnasium_refuses_a_bad_seat_or_spec():
    with pytest.raises(ClaimsolveError, match="seat 3: one of 1..2"):
        make_single_env("colorclaim", seat=3, size="4x3")
    with pytest.raises(ClaimsolveError, match="unknown kind 'nosuchkind'"):
        make_single_env("colorclaim", opponents="nosuchkind", size="4x3")
    with pytest.raises(ClaimsolveError, match="2 specs for the 1 other seats"):
        make_single_env("colorclaim", opponents=["random", "random"], size="4x3")


def engine_game_log(position, rng, decisions):
    """A random game on the engine as Single(record=True) logs it: (the
    state, the log), stopped after `decisions` entries but never between
    a decision and the chance it leaves."""
    from claimsolve.batch import CHANCE, IN_TURN, TURN_END
    state, log = position.engine_state(), []
    while True:
        who = state.to_move()
        if who == -2 or (len(log) >= decisions and who != -1):
            return state, log
        if who == -1:
            outcomes = state.chance_outcomes()
            code = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            state.apply(code)
            log.append((code, CHANCE))
        else:
            move = rng.choice(state.legal_moves())
            state.apply(move)
            log.append((move, IN_TURN if state.to_move() >= 0 and state.in_turn() else TURN_END))


@pytest.mark.parametrize("game, options", [("colorclaim", {"size": "4x3"}), ("claim", {"players": 2}),
                                           ("claim", {"players": 4}), ("claimit", {"players": 3})])
def test_the_shadow_position_follows_the_engine(game, options):
    """What render() and the one-seat environment's players see: the
    engine's log replayed on the Position (Claim's turns of several
    decisions, Claim It!'s rolls as `roll:a,b,c`), with or without the
    engine's learning hooks."""
    import random

    from claimsolve.batch import CHANCE
    from claimsolve.env import Shadow
    for seed in range(2):
        start = game_class(game).new(seed=seed, **options)
        state, log = engine_game_log(start, random.Random(seed), 120)
        shadow = Shadow(start)
        half = len(log) // 2                    # a step's log never ends between a roll and its dice
        while log[half][1] == CHANCE:
            half += 1
        shadow.sync(log[:half])
        position = shadow.sync(log)
        assert shadow.pending == []
        engine = state.game
        assert engine.decode(position.engine_state().state_bytes()) == engine.decode(state.state_bytes())


@pytest.mark.parametrize("game, options, opponents", [("claim", {"players": 2}, "greedy"),
                                                      ("claim", {"players": 4}, "greedy"),
                                                      ("claimit", {"players": 3}, "random")])
def test_gymnasium_one_seat_in_the_other_games(game, options, opponents):
    """Claim's turns of several decisions and Claim It!'s dice: the agent's
    decisions, the opponents' whole moves and chance all reach the end."""
    env = make_single_env(game, seat=2, opponents=opponents, seed=1, **options)
    rng = numpy.random.default_rng(2)
    observation, _ = env.reset(seed=3)
    done, steps = False, 0
    while not done and steps < 3000:
        action = int(rng.choice(numpy.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, _ = env.step(action)
        steps += 1
    position = env.position()
    assert done and position.is_over()
    assert reward == position.points()[1]


def test_a_game_the_rules_do_not_end_is_truncated_at_max_cycles():
    """Always the lowest action (Claim It!'s `roll`) never ends a game: at
    max_cycles every agent is truncated with the adjudicated draw shares, as
    a match scores a game it stops (claimsolve.match)."""
    env = make_env("claimit", players=2, seed=3, max_cycles=50)
    env.reset(seed=1)
    steps, final = 0, {}
    for agent in env.agent_iter(max_iter=1000):
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            assert not termination and not observation["action_mask"].any()
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(numpy.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 50 and final == {"player_1": 0.5, "player_2": 0.5} and not env.agents
    assert make_env("claimit", players=2).unwrapped.max_cycles == 10_000     # the match's limit
    with pytest.raises(ClaimsolveError, match="parameter 'max_cycles'"):
        make_env("claimit", players=2, max_cycles=0)


def test_gymnasium_truncates_at_max_cycles():
    env = make_single_env("claimit", players=3, seed=3, opponents="random", max_cycles=40)
    observation, _ = env.reset(seed=1)
    for _ in range(40):
        observation, reward, terminated, truncated, _ = env.step(int(numpy.flatnonzero(observation["action_mask"])[0]))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == pytest.approx(1 / 3)
    assert not observation["action_mask"].any()


def test_gymnasium_step_before_reset_says_so():
    # AttributeError: 'SingleSeatEnv' object has no attribute '_shadow'
    env = make_single_env("colorclaim", size="4x3")
    for call in (lambda: env.step(0), env.position):
        with pytest.raises(ClaimsolveError, match=r"before reset\(\): call reset\(\) first"):
            call()
    env.reset(seed=1)
    assert env.position().player_to_move == 1
    assert make_env("claimit", players="3").possible_agents == ["player_1", "player_2", "player_3"]


def test_step_or_last_before_reset_is_pettingzoos_error():
    env = make_env("claimit", players=2)
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
