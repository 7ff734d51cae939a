"""Claim (1983) as an OpenSpiel Python game, built on the reference rules
(ClaimPosition, claimsolve/claim/rules.py), never on the Cython engine;
loaded through claimsolve.interop.openspiel, which documents the shared
conventions.

"python_claimsolve_claim", parameters:
  players   -- 2, 3 or 4 seats (default 2)
  variant   -- "standard" (default) or "battle-for-two" (2 players)
  island    -- "standard" (the island for the seats, default), a name of
               claimsolve.claim.islands.ISLANDS, or "random" (grown from seed)
  seed      -- the random island's seed, and the random settles' with start
               "play" (default 1; 0..2147483647, what OpenSpiel holds)
  start     -- "settle" (default): the empty island, `ClaimPosition.new`;
               "play": the play phase after random settle, brawl and towers
               turns, `claimsolve.claim.starts.random_play_start(seed,
               players, island, variant, brawl)`
  brawl     -- the rules' brawl: "even" (default) or "cap"
               (seeds/claim/RULES.md, Brawl)
  position  -- a position JSON text; when set it is the start and the other
               parameters are ignored
  max_game_length -- decisions before the game is cut (default 10,000,
               claimsolve.match.MAX_PLIES; see Returns)

A turn is several OpenSpiel moves: each action is one decision, cut as the
Cython engine cuts a turn (ext/claim.pyx).  With the island's grid W x H
squares, N = W * H, and a square's index cell = row * W + column (a1 = 0,
row 0 at the bottom):
  0                          PASS   a turn with nothing to choose: `pass`
  1                          STOP   end the movement after a capturing landing
                                    that could capture again
  2 + (colour - 1) * N + cell       settle a Viking of `colour` on `cell`
                                    (`c3`; `c3=1` in battle-for-two)
  2 + 4N + cell                     remove the Viking on `cell` (brawl, `xc3`)
  2 + 5N + cell                     a tower on `cell` (towers phase and the
                                    conquest checks, `T@c3`)
  2 + 6N + from * N + to            a movement, a step or a jump chain
                                    (`c3-e5`); continuations are movements too
so num_distinct_actions = N * N + 6N + 2.  The decisions of a turn, in order:
settle -- the lower cell, then the higher one ("the second above the
first"); brawl -- the removals in ascending cell order; towers phase -- a
tower point for each territory conquered with a choice, in letter order,
or PASS; play -- the tower points of the check before, the movement, each
continuation, STOP after the last landing when it captured and a capturing
continuation was open (as the engine offers it), the tower points of the
check after, or PASS in place of the movement when there is none.

The legal decisions at a state are exactly those that begin, after the
decisions already taken in this turn, one of the turns
`ClaimPosition.legal_moves()` lists (one canonical turn per resulting
position), and a turn whose decisions are complete is played with
`ClaimPosition.play`.  So a whole turn of this game (the decisions between
two changes of the turn) is a legal move of the reference, and each legal
move is one whole turn.  `state.position` is the position at the start of
the turn in progress, `state.turn_so_far()` its decisions,
`state.last_turn` the move string of the last turn completed.

Returns: 1 to every seat of the winning team, 0 to the others, a draw
shared equally between the teams (`ClaimPosition.points()`), at the end
only.  The rules draw after `draw_after` quiet plies, but captures and
towers reset that count, so no length bound follows from them (two teams
swapping a tower back and forth go on forever): the game is cut, a state
after `max_game_length` decisions (10,000 by default; random games take a
few hundred) is terminal, even inside a turn, and its returns are those a
match gives a game it stops (claimsolve.match, records.adjudicated_result):
a draw shared equally among the teams.  max_game_length() is that bound.
Observation string: the position JSON on one line, then ` | ` and the
decisions of the turn so far when there are any.
"""
import collections

import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..errors import ClaimsolveError, MoveError, as_parameters
from ..interop.spiel_common import (CutAtLength, JsonObserver, PositionNode, action_error, adjudicated_returns,
                                    compact_json, game_length, position_from_param, position_param, spiel_seed,
                                    wants_observation, WholeActions)
from ..limits import MAX_PLIES
from . import rules
from .descriptor import GAME
from .islands import ISLANDS
from .position import ClaimPosition
from .rules import BRAWLS, VARIANTS
from .starts import random_play_start

SHORT_NAME = "python_claimsolve_claim"
PASS, STOP = 0, 1
STARTS = ("settle", "play")
MAX_GAME_LENGTH = MAX_PLIES       # the default bound, as a match's (see the module docstring)
NODE_CACHE_POSITIONS = 4096      # turn tables kept per game (the most recently used)
NODE_CACHE_TURNS = 200000        # ... holding at most this many turns in all


class ClaimActions:
    """The fixed bijection between action ids and single decisions on one
    island's grid (see the module docstring)."""

    def __init__(self, island, battle):
        self.island = island
        self.battle = battle
        self.n = n = island.width * island.height
        self.settle = 2
        self.remove = 2 + 4 * n
        self.tower = 2 + 5 * n
        self.move = 2 + 6 * n
        self.count = 2 + 6 * n + n * n
        self.cells = {island.point_name(cell): cell for cell in island.points}

    def __deepcopy__(self, memo):
        return self   # never changes: states share it

    def square(self, cell):
        return f"{chr(ord('a') + cell % self.island.width)}{cell // self.island.width + 1}"

    def name(self, action):
        """The notation of one decision: `c3` (`c3=1`), `xc3`, `T@c3`,
        `c3-e5`, `stop`, `pass`."""
        if not 0 <= action < self.count:
            raise MoveError(str(action), f"not a Claim action id (0..{self.count - 1})")
        if action == PASS:
            return "pass"
        if action == STOP:
            return "stop"
        if action < self.remove:
            colour, cell = divmod(action - self.settle, self.n)
            return self.square(cell) + (f"={colour + 1}" if self.battle else "")
        if action < self.tower:
            return "x" + self.square(action - self.remove)
        if action < self.move:
            return "T@" + self.square(action - self.tower)
        start, end = divmod(action - self.move, self.n)
        return f"{self.square(start)}-{self.square(end)}"

    def point(self, text, move):
        try:
            return self.island.parse_point(text.lower())
        except ValueError as exc:
            raise MoveError(move, str(exc)) from None

    def action(self, move, colour):
        """The action id of one decision written as `name` writes it;
        `colour` is the colour of a settle decision written without one."""
        if not isinstance(move, str):
            raise MoveError(move, "a decision is a string")
        text = move.strip()
        lower = text.lower()
        if lower in ("pass", "stop"):
            return PASS if lower == "pass" else STOP
        if lower.startswith("t@"):
            return self.tower + self.point(text[2:], move)
        if lower.startswith("x") and len(lower) > 1 and lower[1].isalpha():
            return self.remove + self.point(text[1:], move)
        if "-" in text:
            start, _, end = text.partition("-")
            if "-" in end:
                raise MoveError(move, "a movement decision is start-end, like c3-e5")
            return self.move + self.point(start, move) * self.n + self.point(end, move)
        where, equals, colour_text = text.partition("=")
        if equals:
            if colour_text not in ("1", "2", "3", "4"):
                raise MoveError(move, "a colour is a digit 1..4")
            colour = int(colour_text)
        return self.settle + (colour - 1) * self.n + self.point(where, move)


class Choice:
    """A point inside a turn: the decisions open here, each leading to the
    next Choice or, when it completes the turn, to the turn's canonical move
    string.  Made once per position and shared by every state."""

    __slots__ = ("children", "_actions")

    def __init__(self):
        self.children = {}
        self._actions = None

    def __deepcopy__(self, memo):
        return self

    def actions(self):
        if self._actions is None:
            self._actions = sorted(self.children)
        return self._actions


class TurnTable(PositionNode):
    """The turns of one position (the reference's legal moves) as decision
    sequences: `root` is the Choice at the start of the turn, `decisions`
    {move string: action ids}."""

    __slots__ = ("root", "decisions", "_cache")

    def __init__(self, position, cache=None):
        super().__init__(position)
        self.root = None
        self.decisions = None
        self._cache = cache

    def choice(self, codec):
        """The Choice at the start of the turn (built at first use)."""
        if self.root is None:
            self.decisions = turn_decisions(self.position, codec)
            self.root = _trie(self.decisions)
            if self._cache is not None:
                self._cache.built(self)
        return self.root


def _trie(decisions):
    root = Choice()
    for move, actions in decisions.items():
        node = root
        for action in actions[:-1]:
            child = node.children.setdefault(action, None)
            if child is None:
                child = node.children[action] = Choice()
            elif isinstance(child, str):
                raise AssertionError(f"turn {child!r} is a prefix of turn {move!r}")
            node = child
        if actions[-1] in node.children:
            raise AssertionError(f"turn {move!r} is a prefix of another turn or repeats one")
        node.children[actions[-1]] = move
    return root


def turn_decisions(position, codec):
    """{canonical move string: the action ids of its decisions} for every
    legal turn of `position` (ClaimPosition.legal_moves())."""
    state = position.state
    moves = position.legal_moves()
    if state.phase == "settle":
        own = rules.colours_of(state, state.to_move)[0]
        out = {}
        for move in moves:
            placed = []
            for part in move.split("+"):
                where, equals, colour = part.partition("=")
                placed.append((codec.cells[where], int(colour) if equals else own))
            out[move] = tuple(codec.settle + (colour - 1) * codec.n + cell for cell, colour in sorted(placed))
        return out
    if state.phase == "brawl":
        return {move: (PASS,) if move == "pass" else
                tuple(sorted(codec.remove + codec.cells[token[1:]] for token in move.split()))
                for move in moves}
    if state.phase == "towers":
        return {move: (PASS,) if move == "pass" else
                tuple(codec.tower + codec.cells[token[2:]] for token in move.split())
                for move in moves}
    return _play_decisions(state, moves, codec)


def _play_decisions(state, moves, codec):
    """The decisions of play-phase turns.  The tokens give every decision
    but STOP: whether the last landing captured, and left a capturing
    continuation open, is found by playing the turn's check and movements
    with the reference's own steps (rules.conquest_outcomes,
    rules.move_viking, rules.captured_by_landing), shared between turns that
    begin alike."""
    player = state.to_move
    checks = {p.written: p for p in
              rules.conquest_outcomes(state, rules.Progress(board=state.board, streak=state.streak), player)}
    progress_after = {}       # (check tokens, movement tokens...) -> Progress after them
    stops = {}                # the same key -> STOP follows the last movement
    out = {}
    for move in moves:
        tokens = move.split()
        i = 0
        while tokens[i].startswith("T@"):
            i += 1
        key = tuple(tokens[:i])
        actions = [codec.tower + codec.cells[token[2:]] for token in tokens[:i]]
        if tokens[i] == "pass":
            actions.append(PASS)
            i += 1
        else:
            before = key
            while i < len(tokens) and "-" in tokens[i]:
                start, _, end = tokens[i].partition("-")
                start, end = codec.cells[start], codec.cells[end]
                before, key = key, key + (tokens[i],)
                actions.append(codec.move + start * codec.n + end)
                i += 1
            stop = stops.get(key)
            if stop is None:
                stop = stops[key] = _stop_follows(state, player, checks, progress_after, before, key)
            if stop:
                actions.append(STOP)
        actions.extend(codec.tower + codec.cells[token[2:]] for token in tokens[i:])
        out[move] = tuple(actions)
    return out


def _progress(state, player, checks, progress_after, key):
    """The Progress after the check tokens and movement tokens of `key`."""
    if key in checks:
        return checks[key]
    progress = progress_after.get(key)
    if progress is None:
        before = _progress(state, player, checks, progress_after, key[:-1])
        start, _, end = key[-1].partition("-")
        island = state.island
        progress = progress_after[key] = rules.move_viking(
            state, before, player, island.parse_point(start), island.parse_point(end))
    return progress


def _lands_capturing(state, board, start, end):
    """True when the Viking on `start` captures on landing at `end`."""
    colour = board[start].colour
    board = list(board)
    board[start] = None
    board[end] = rules.VIKING[colour]
    return bool(rules.captured_by_landing(state, board, end, colour))


def _stop_follows(state, player, checks, progress_after, before, key):
    """Whether the engine offers STOP after the movements of `key`: the last
    landing captured and a capturing continuation of the Viking is open."""
    start, _, end = key[-1].partition("-")
    island = state.island
    start, end = island.parse_point(start), island.parse_point(end)
    if not _lands_capturing(state, _progress(state, player, checks, progress_after, before).board, start, end):
        return False
    after = _progress(state, player, checks, progress_after, key)
    return any(_lands_capturing(state, after.board, after.at, to)
               for to in rules.movement_ends(island, after.board, after.at))


class NodeCache:
    """The TurnTables of the positions met most recently, so that states
    reaching a position again (OpenSpiel's MCTS replays the tree's path from
    the root in every simulation) find its turns made.  Bounded both in
    positions and in the turns their tables hold: random play-outs pass
    through many positions met once, and a settle or brawl table holds
    thousands of turns."""

    def __init__(self, positions=NODE_CACHE_POSITIONS, turns=NODE_CACHE_TURNS):
        self.positions = positions
        self.turns = turns
        self.held = 0                # turns in the tables kept
        self._tables = collections.OrderedDict()

    def __deepcopy__(self, memo):
        return self

    def table(self, position):
        table = self._tables.get(position)
        if table is not None:
            self._tables.move_to_end(position)
            return table
        table = self._tables[position] = TurnTable(position, self)
        self._trim()
        return table

    def built(self, table):
        """`table` made its turns: they count against the bound."""
        if self._tables.get(table.position) is table:
            self.held += len(table.decisions)
            self._trim()

    def _trim(self):
        while len(self._tables) > 1 and (len(self._tables) > self.positions or self.held > self.turns):
            _, oldest = self._tables.popitem(last=False)
            if oldest.decisions is not None:
                self.held -= len(oldest.decisions)


_DEFAULTS = {"players": 2, "variant": "standard", "island": "standard", "seed": 1, "start": "settle",
             "brawl": "even", "position": "", "max_game_length": MAX_GAME_LENGTH}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="claimsolve Claim (1983) (Python reference rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS)


def _bad(name, problem):
    return ClaimsolveError(f"parameter '{name}': {problem}")


def start_position(params):
    """The start of a game from its parameters (see the module docstring);
    a bad parameter is a ClaimsolveError naming it."""
    if params["position"]:
        return position_from_param(params["position"], ClaimPosition.game)
    players, variant, island, seed, start, brawl = (params[k] for k in ("players", "variant", "island", "seed", "start",
                                                                          "brawl"))
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise _bad("players", f"Claim is played by 2, 3 or 4, not {players!r}")
    if variant not in VARIANTS:
        raise _bad("variant", f"must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if variant == "battle-for-two" and players != 2:
        raise _bad("variant", f"battle-for-two is a game for 2 players, not {players}")
    islands = ("standard", "random") + tuple(ISLANDS)
    if island not in islands:
        raise _bad("island", f"must be one of {', '.join(islands)}, not {island!r}")
    spiel_seed(seed)      # 0 to 2147483647, what OpenSpiel holds
    if start not in STARTS:
        raise _bad("start", f"must be one of {', '.join(STARTS)}, not {start!r}")
    if brawl not in BRAWLS:
        raise _bad("brawl", f"must be one of {', '.join(BRAWLS)}, not {brawl!r}")
    with as_parameters():                   # `new` names its option as the command line does (--island)
        if brawl != "even":                 # (the parameter's default, given always) refused as claimsolve.new
            GAME.check_brawl(brawl, players=players, variant=variant, seats_given="players=3")
        if start == "play":
            return random_play_start(seed, players=players, island=island, variant=variant, brawl=brawl)
        return ClaimPosition.new(players=players, island=island, variant=variant, seed=seed, brawl=brawl)


class ClaimGame(pyspiel.Game):
    """Claim from one start position (see the module docstring)."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.max_decisions = game_length(params["max_game_length"])
        self.start = start_position(params)
        self.adjudicated = adjudicated_returns(self.start)
        self.codec = ClaimActions(self.start.island, self.start.variant == "battle-for-two")
        self.nodes = NodeCache()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.count,
            max_chance_outcomes=0,
            num_players=self.start.num_players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=self.max_decisions)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return ClaimState(self, self.start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if wants_observation(iig_obs_type):
            return JsonObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ClaimState(WholeActions, CutAtLength, pyspiel.State):
    """A Claim position, and the decisions taken so far in the turn in
    progress, as an OpenSpiel state."""

    compound_turns = True    # a turn is several actions (see in_turn, last_turn)

    def __init__(self, game, position):
        super().__init__(game)
        self._codec = game.codec
        self._nodes = game.nodes
        self._players = game.num_players()
        self._table = self._nodes.table(position)
        self._choice = None           # None: at the start of the turn
        self._taken = ()
        self.last_turn = None
        self._left = game.max_decisions      # decisions before the game is cut
        self._cut = game.adjudicated

    @property
    def position(self):
        """The position at the start of the turn in progress."""
        return self._table.position

    def in_turn(self):
        """True between the decisions of a turn."""
        return bool(self._taken)

    def turn_so_far(self):
        """The decisions taken in the turn in progress, as action ids."""
        return list(self._taken)

    def _here(self):
        if self._choice is None:
            self._choice = self._table.choice(self._codec)
        return self._choice

    def _node_over(self):
        return self._table.over()

    def _points(self):
        return self._table.position.points()

    def current_player(self):
        if self._ended():
            return pyspiel.PlayerId.TERMINAL
        return self._table.position.player_to_move - 1

    def _legal_actions(self, player):
        if self._ended():
            return []
        return list(self._here().actions())

    def _apply_action(self, action):
        if self._ended():
            raise MoveError(self._action_name(action), "the game is over")
        following = self._here().children.get(action)
        if following is None:
            count = self.get_game().num_distinct_actions()
            if not 0 <= action < count:        # (it said "move 'invalid:1000000': not a legal decision here")
                raise action_error(action, f"is not an action id of this game (0 to {count - 1})")
            raise MoveError(self._action_name(action), "not a legal decision here"
                            + (f" (after {self._taken_text()})" if self._taken else ""))
        if isinstance(following, str):
            self._table = self._nodes.table(self._table.position.play(following))
            self._choice = None
            self._taken = ()
            self.last_turn = following
        else:
            self._choice = following
            self._taken += (action,)
        self._left -= 1

    def _action_name(self, action):
        try:
            return self._codec.name(action)
        except MoveError:
            return f"invalid:{action}"

    def _action_to_string(self, player, action):
        return self._action_name(action)

    def _taken_text(self):
        return " ".join(self._codec.name(a) for a in self._taken)

    def action_of(self, move):
        """The action id of one decision (`c3`, `c3=1`, `xc3`, `T@c3`,
        `c3-e5`, `stop`, `pass`); a settle point without a colour is of the
        mover's own colour."""
        colour = rules.colours_of(self.position.state, self.position.player_to_move)[0]
        return self._codec.action(move, colour)

    def turn_actions(self, move):
        """The action ids of the whole turn `move` (a move string of the
        position at the start of the turn, in any form ClaimPosition.play
        accepts), from the start of the turn."""
        self._here()
        decisions = self._table.decisions
        if move not in decisions:
            after = self.position.play(move)        # raises MoveError for an illegal turn
            canonical = [m for m in decisions if self.position.play(m) == after]
            if not canonical:
                raise MoveError(move, "no listed turn leads where it does (a bug: please report it)")
            move = canonical[0]
        return list(decisions[move])

    def observation_text(self):
        text = compact_json(self._table.position)
        return f"{text} | {self._taken_text()}" if self._taken else text

    def __str__(self):
        board = self._table.position.render()
        return f"{board}\nTurn so far: {self._taken_text()}" if self._taken else board


pyspiel.register_game(_GAME_TYPE, ClaimGame)


class EngineBridge:
    """The Cython engine's terms in this game's, for the engine-backed game
    "python_claimsolve_claim_engine" (claimsolve.interop.engine_game): an
    engine decision code (ext/claim.pyx: kind * 65536 + a * 256 + b, points
    row * 16 + column, colours 0-based) is named by this game's action id
    of the same decision; the returns are the engine's (the same win
    shares); the observation string is this game's (the position JSON,
    then ` | ` and the decisions of the turn so far)."""

    chance_suffix = ""
    GRID = 16

    def __init__(self, game, engine_state):
        self._codec = game.codec
        self._engine_game = engine_state.game

    def action(self, code):
        """This game's action id of an engine decision code."""
        codec = self._codec
        kind, a, b = code >> 16, (code >> 8) & 0xFF, code & 0xFF
        width = codec.island.width

        def cell(point):
            return (point // self.GRID) * width + point % self.GRID

        if kind == 6:
            return PASS
        if kind == 5:
            return STOP
        if kind == 1:
            return codec.settle + b * codec.n + cell(a)
        if kind == 2:
            return codec.remove + cell(a)
        if kind == 3:
            return codec.tower + cell(a)
        if kind == 4:
            return codec.move + cell(a) * codec.n + cell(b)
        raise MoveError(str(code), "not a Claim engine decision code")

    def decision_name(self, code):
        return self._codec.name(self.action(code))

    def returns(self, engine_state):
        return engine_state.returns()

    def text(self, state):
        from .._engine import GameState
        return compact_json(ClaimPosition.from_engine(GameState(self._engine_game, state)))


def game_from_position(position, returns="sign"):
    """The OpenSpiel game whose initial state is the Claim `position`; its
    returns are win shares, `returns` "sign" (the only one)."""
    if returns != "sign":
        raise ClaimsolveError(f"parameter 'returns': Claim returns win shares ('sign'), not {returns!r}")
    return pyspiel.load_game(SHORT_NAME, {"position": position_param(position)})


__all__ = ["ClaimActions", "ClaimGame", "ClaimState", "PASS", "STOP", "SHORT_NAME", "game_from_position",
           "turn_decisions"]
