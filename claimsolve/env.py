"""PettingZoo and Gymnasium environments on the Cython engines (the
optional `rl` extra: `pip install "claimsolve[rl]"`; docs/tensors.md).

    from claimsolve.env import make_env
    env = make_env("colorclaim", size="6x5")

`make_env(game, position=None, render_mode=None, **options)` is a PettingZoo
AEC environment: the agents are the seats "player_1", "player_2", ... (the
position JSON's numbering), each observation a dict {"observation": the
game's observation tensor from that seat (float32, flat: planes then
scalars, docs/tensors.md), "action_mask": int8 over the fixed action space,
all 0 for a seat not to move}, as PettingZoo's classic games do.  An action
is one engine decision (game.h), so a compound turn (Claim's settle) is
several steps by the same agent; chance (Claim It!'s dice) is resolved
inside `step`.  An action is an int or a numpy integer in the action
space; anything else (1.5, True, None for an agent to move) is a
ValueError naming it, as an illegal action is.  The rewards are 0 until
the end, then each seat's return (game.h returns(): a win 1, a loss 0, a
draw or shared win split).

A game the rules have not ended after `max_cycles` actions (every agent's
steps together, one engine decision each; default claimsolve.match's
MAX_PLIES, 10,000: Claim It!'s always-roll games go on forever) is
truncated: every agent's `truncation` is True and its reward is what a
match scores such a game (records.adjudicated_result): a draw shared
equally among the teams (1/2 each of 2 seats, 1/3 of 3...; allies alike).

make_env wraps the environment in PettingZoo's OrderEnforcingWrapper, as
PettingZoo's classic games do: step(), last() or observe() before reset()
is its error ("reset() needs to be called before ..."), not an
AttributeError; the environment itself is `env.unwrapped`.

The environment starts from `position` (any Position of the game) or, by
default, from a setup `new` makes with `options` (players, size, island,
variant, seed... as the game's Position.new takes them): with a `seed` every reset
starts from that one setup, without one every reset draws a new setup from
the environment's seeded generator (`reset(seed=...)`).  The spaces are
fixed, so Claim's island="random" needs a seed (each random island has a
size of its own): without one it is refused when the environment is made.

The observation arrays are the environment's own, one per seat, overwritten
when that seat is observed again: copy what you keep.

`make_single_env(game, seat=1, opponents="random", ...)` is a Gymnasium
environment for one seat, the others played by player specs (`claimsolve
match`'s: "greedy", "mcts:time=0.1", ...); at `max_cycles` decisions (the
agent's and the opponents' together) `step` returns truncated True and the
seat's adjudicated share as the reward.
"""
import inspect
import random

import numpy

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as exc:                      # pragma: no cover - the optional extra
    raise ImportError("claimsolve.env needs the optional `rl` extra: "
                      "pip install \"claimsolve[rl]\" (pettingzoo, gymnasium)") from exc

from ._batch import CHANCE, IN_TURN, Single
from . import limits
from .limits import MAX_PLIES
from .errors import ClaimsolveError, _short, as_parameters
from .catalog import get_game
from .positions import game_class
from .records import adjudicated_points

RENDER_MODES = ["ansi"]


def _start_position(game, position, options):
    """(Position class, fixed start or None, `new` options without seed).
    A bad option is refused naming the parameter as the caller wrote it
    (`parameter 'size': ...`, where `new` says `option '--size'`)."""
    cls = game_class(game)
    known = [name for name in inspect.signature(cls.new).parameters if name != "cls"]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ClaimsolveError(f"parameter '{unknown[0]}': not an option of {game}'s `new` ({', '.join(known)})")
    if position is not None:
        if options:
            raise ClaimsolveError("give a position or `new` options, not both")
        if not isinstance(position, cls):
            raise ClaimsolveError(f"position: a {game} position, not {type(position).__name__}")
        if position.is_over():
            raise ClaimsolveError("position: the game is over there, nothing to play")
        return cls, position, {}
    if options.get("players") is not None:     # as claimsolve.new reads it: "3" is 3, 3.0 is refused as no count
        options = dict(options, players=limits.players(options["players"], "parameter 'players'"))
    new_options = {k: v for k, v in options.items() if k != "seed"}
    if options.get("seed") is not None:
        limits.seed(options["seed"], "parameter 'seed'")      # as claimsolve.new and `new --seed` take it
        return cls, _new(cls, options), new_options
    _new(cls, new_options)                      # refuses bad options at once
    if new_options.get("island") == "random":
        raise ClaimsolveError("parameter 'island': 'random' without a seed would draw an island of another "
                              "size at every reset, and the observation's shape is fixed for an environment: "
                              "give a seed (one random island for every game) or a named island")
    return cls, None, new_options


def _max_cycles(value):
    """`max_cycles` checked: a whole number from 1."""
    return limits.count(value, "parameter 'max_cycles'")


def _new(cls, options):
    """cls.new(**options), a refused option named as the caller wrote it
    (and a brawl's rule where it changes nothing, as claimsolve.new refuses
    it: the descriptor's check_brawl)."""
    with as_parameters():
        position = cls.new(**options)
        get_game(cls.game).check_brawl(options.get("brawl"), players=options.get("players"),
                                       variant=options.get("variant"), seats_given="players=3")
        return position


def _checked_seed(seed):
    """reset's `seed`, as claimsolve.new and `new --seed` take a seed (0 to
    2**63 - 1; random.Random took -1, 1.5 or "a" as well, gymnasium some of
    them)."""
    return limits.seed(seed, "parameter 'seed'")


def _checked_action(action, count):
    """`action` as an int, when it is a whole number (an int, a numpy
    integer or a 0-d numpy integer array: what PettingZoo's and the RL
    libraries' policies give) from 0 to count - 1; else a ValueError naming
    it and the range, as the engine names an action that is not legal there.
    A bool is refused too: True is no action, but likely a flag passed by
    mistake."""
    value, what = limits.whole_number(action)
    if value is None:
        dead = "; None is for an agent that is done, terminated or truncated" if action is None else ""
        raise ValueError(f"action {_short(repr(action))} is {what} (actions: 0 to {count - 1}, an int or "
                         f"a numpy integer{dead})")
    action = value
    if not 0 <= action < count:
        raise ValueError(f"action {_short(action)} is outside the action space (actions: 0 to {count - 1})")
    return action


def _same_shape(old, new):
    """`new`, a core for a new setup, if its observations and actions have
    the shapes of `old`'s (those of the environment's spaces): a guard, as
    the setups that vary in shape (Claim's random island without a seed)
    are refused when the environment is made."""
    if (new.observation_shape, new.num_actions) != (old.observation_shape, old.num_actions):
        raise ClaimsolveError(f"a new setup changed the observation's shape {old.observation_shape} to "
                              f"{new.observation_shape} (a setup of another size): fix the setup "
                              "with a seed or a named island")
    return new


class ClaimsolveAEC(AECEnv):
    """A PettingZoo AEC environment of one claimsolve game (see the module
    docstring; make_env builds it)."""

    metadata = {"render_modes": RENDER_MODES, "name": "claimsolve_v0", "is_parallelizable": False}

    def __init__(self, game, position=None, render_mode=None, max_cycles=MAX_PLIES, **options):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ClaimsolveError(f"render_mode {render_mode!r}: one of {', '.join(RENDER_MODES)} or None")
        self.game = game
        self.render_mode = render_mode
        self.max_cycles = _max_cycles(max_cycles)
        self._steps = 0
        self._done = False
        self._cls, self._fixed, self._new_options = _start_position(game, position, options)
        self.metadata = dict(self.metadata, name=f"claimsolve_{game}_v0")
        first = self._fixed if self._fixed is not None else self._cls.new(seed=0, **self._new_options)
        self._start = first
        self._core = Single(first, 0, record=render_mode is not None)
        self.possible_agents = [f"player_{i + 1}" for i in range(self._core.num_players)]
        self._index = {name: i for i, name in enumerate(self.possible_agents)}
        size, actions = self._core.obs_size, self._core.num_actions
        self.observation_spaces = {
            name: spaces.Dict({
                "observation": spaces.Box(-numpy.inf, numpy.inf, (size,), numpy.float32),
                "action_mask": spaces.Box(0, 1, (actions,), numpy.int8),
            }) for name in self.possible_agents}
        self.action_spaces = {name: spaces.Discrete(actions) for name in self.possible_agents}
        self._buffers = {name: numpy.zeros(size, dtype=numpy.float32) for name in self.possible_agents}
        self._no_mask = numpy.zeros(actions, dtype=numpy.int8)
        self._observations = {name: {"observation": self._buffers[name], "action_mask": self._no_mask}
                              for name in self.possible_agents}
        self._rng = random.Random()
        self.agents = []

    @property
    def observation_shape(self):
        """(planes, height, width, scalars) of the observations (docs/tensors.md)."""
        return self._core.observation_shape

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            seed = _checked_seed(seed)
            self._rng.seed(seed)
        if self._fixed is None:
            self._start = self._cls.new(seed=self._rng.getrandbits(63), **self._new_options)
            state = self._start.engine_state()
            if state.game is self._core.game:
                self._core.reset(self._rng.getrandbits(64), state)
            else:                               # another engine instance (a Claim island of its own)
                self._core = _same_shape(self._core, Single(state, self._rng.getrandbits(64),
                                                            record=self.render_mode is not None))
        else:
            self._core.reset(self._rng.getrandbits(64))
        self.agents = list(self.possible_agents)
        self._steps = 0
        self._done = False
        self.rewards = {name: 0.0 for name in self.agents}
        self._cumulative_rewards = {name: 0.0 for name in self.agents}
        self.terminations = {name: False for name in self.agents}
        self.truncations = {name: False for name in self.agents}
        self.infos = {name: {} for name in self.agents}
        self.agent_selection = self.possible_agents[self._core.to_move]

    def observe(self, agent):
        index = self._index[agent]
        self._core.observe(index, self._buffers[agent])
        observation = self._observations[agent]
        observation["action_mask"] = (self._core.mask if index == self._core.to_move and not self._done
                                      else self._no_mask)
        return observation

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        who = self._core.step(_checked_action(action, self._core.num_actions))
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        if who >= 0:
            self.agent_selection = self.possible_agents[who]
            if self._steps < self.max_cycles:
                return
            ends, returns = self.truncations, adjudicated_points(self._start)      # the rules go on: adjudicated
        else:
            ends, returns = self.terminations, self._core.returns()
        self._done = True
        for name, value in zip(self.possible_agents, returns):
            self.rewards[name] = value
            ends[name] = True
        self._accumulate_rewards()

    def random_action(self):
        """A uniformly random legal action of the agent to move, drawn in C
        from the environment's seeded stream (random play without building
        a mask's index list)."""
        return self._core.random_action()

    def position(self):
        """The Position now (needs render_mode set, which records the moves)."""
        if self._core.log is None:
            raise ClaimsolveError("position(): make the environment with a render_mode")
        return Shadow(self._start).sync(self._core.log)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        return self.position().render()

    def close(self):
        pass


class Shadow:
    """The Position that follows an engine game: `sync(log)` plays onto it
    what Single(record=True) logged since the last sync.  A turn of several
    decisions is played once it ends; a decision followed by chance (Claim
    It!'s roll) is played as the chance outcome's move (`roll:a,b,c`, as
    Position.resolve_chance names it)."""

    def __init__(self, position):
        self.position = position
        self.pending = []
        self.seen = 0

    def sync(self, log, on_move=None):
        """Plays the new entries of `log`; on_move(position, move) is called
        before each move is played."""
        while self.seen < len(log):
            code, kind = log[self.seen]
            self.seen += 1
            if kind == CHANCE:
                move = self.position.move_name(code)
                self.pending = []
            else:
                self.pending.append(code)
                if kind == IN_TURN or (self.seen < len(log) and log[self.seen][1] == CHANCE):
                    continue
                move = self.position.turn_name(tuple(self.pending))
                self.pending = []
            if on_move is not None:
                on_move(self.position, move)
            self.position = self.position.play(move)
        return self.position


def make_env(game, position=None, render_mode=None, max_cycles=MAX_PLIES, **options):
    """A PettingZoo AEC environment of `game` ("claim", "colorclaim",
    "claimit") from `position` or from `new` options, truncated at
    `max_cycles` actions, in PettingZoo's OrderEnforcingWrapper (see the
    module docstring)."""
    return OrderEnforcingWrapper(ClaimsolveAEC(game, position=position, render_mode=render_mode,
                                               max_cycles=max_cycles, **options))


class SingleSeatEnv(gymnasium.Env):
    """A Gymnasium environment in which the agent plays one seat (`seat`,
    1-based) and player specs play the others (`opponents`: one spec for
    all, or a list with one per other seat in seat order; the kinds of
    `claimsolve match`, e.g. "greedy", "random", "mcts:time=0.1").  The
    observation and action spaces are the AEC environment's; the reward is
    the seat's return at the end (0 before).  Opponents move inside
    `reset` and `step` until the agent is to move or the game is over."""

    metadata = {"render_modes": RENDER_MODES}

    def __init__(self, game, seat=1, opponents="random", position=None, render_mode=None, max_cycles=MAX_PLIES,
                 **options):
        from .player_kinds import make_player
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ClaimsolveError(f"render_mode {render_mode!r}: one of {', '.join(RENDER_MODES)} or None")
        self.game = game
        self.render_mode = render_mode
        self.max_cycles = _max_cycles(max_cycles)
        self._steps = 0
        self._cls, self._fixed, self._new_options = _start_position(game, position, options)
        first = self._fixed if self._fixed is not None else self._cls.new(seed=0, **self._new_options)
        players = first.num_players
        if not (isinstance(seat, int) and 1 <= seat <= players):
            raise ClaimsolveError(f"seat {seat!r}: one of 1..{players}")
        self.seat = seat
        others = [s for s in range(1, players + 1) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ClaimsolveError(f"opponents: {len(specs)} specs for the {len(others)} other seats")
        self._specs = dict(zip(others, specs))
        self._make_player = make_player
        self._players = {s: make_player(spec, seed=s, game=game) for s, spec in self._specs.items()}
        self._start = first
        self._core = Single(first, 0, record=True)
        size, actions = self._core.obs_size, self._core.num_actions
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-numpy.inf, numpy.inf, (size,), numpy.float32),
            "action_mask": spaces.Box(0, 1, (actions,), numpy.int8)})
        self.action_space = spaces.Discrete(actions)
        self._buffer = numpy.zeros(size, dtype=numpy.float32)
        self._no_mask = numpy.zeros(actions, dtype=numpy.int8)
        self._rng = random.Random()

    def _truncated(self):
        return self._steps >= self.max_cycles and self._core.to_move >= 0

    def _observation(self):
        self._core.observe(self.seat - 1, self._buffer)
        mask = self._core.mask if self._core.to_move == self.seat - 1 and not self._truncated() else self._no_mask
        return {"observation": self._buffer, "action_mask": mask}

    def _tell_players(self, position, move):
        for player in self._players.values():
            player.observe(position, move)

    def _play_opponents(self):
        """Opponents move until the agent is to move or the game is over
        (or truncated: at max_cycles decisions, even inside a turn)."""
        while self._core.to_move >= 0 and self._core.to_move != self.seat - 1 and not self._truncated():
            position = self._shadow.sync(self._core.log, self._tell_players)
            move = self._players[self._core.to_move + 1].choose(position)
            for code in position.move_codes(move):
                if self._truncated():
                    break
                self._core.step_move(code)
                self._steps += 1
        self._shadow.sync(self._core.log, self._tell_players)

    def reset(self, seed=None, options=None):
        if seed is not None:
            seed = _checked_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
            self._players = {s: self._make_player(spec, seed=self._rng.getrandbits(31), game=self.game)
                             for s, spec in self._specs.items()}
        for player in self._players.values():
            player.reset()
        if self._fixed is None:
            self._start = self._cls.new(seed=self._rng.getrandbits(63), **self._new_options)
        self._core = _same_shape(self._core, Single(self._start, self._rng.getrandbits(64), record=True))
        self._steps = 0
        self._shadow = Shadow(self._start)
        self._play_opponents()
        return self._observation(), {}

    def step(self, action):
        if not hasattr(self, "_shadow"):
            raise ClaimsolveError("step() before reset(): call reset() first, as gymnasium asks")
        if self._truncated():
            raise ClaimsolveError(f"step(): the game was truncated at max_cycles={self.max_cycles}: reset()")
        self._core.step(_checked_action(action, self._core.num_actions))
        self._steps += 1
        self._play_opponents()
        returns = self._core.returns()
        truncated = self._truncated()
        if truncated:
            returns = adjudicated_points(self._start)
        reward = 0.0 if returns is None else returns[self.seat - 1]
        return self._observation(), reward, returns is not None and not truncated, truncated, {}

    def position(self):
        """The Position now (the last whole move played)."""
        if not hasattr(self, "_shadow"):
            raise ClaimsolveError("position() before reset(): call reset() first, as gymnasium asks")
        return self._shadow.sync(self._core.log, self._tell_players)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        return self.position().render()


def make_single_env(game, seat=1, opponents="random", position=None, render_mode=None, max_cycles=MAX_PLIES,
                    **options):
    """A Gymnasium environment of `game` for one seat against player specs
    (SingleSeatEnv), truncated at `max_cycles` decisions."""
    return SingleSeatEnv(game, seat=seat, opponents=opponents, position=position,
                         render_mode=render_mode, max_cycles=max_cycles, **options)
