"""The Claim (1983) position: validated from the position JSON
(docs/positions.md, claim), played by the reference rules (rules.py, after
seeds/claim/RULES.md), drawn by claimsolve/render/claim.py.  The bridge to the Cython engine
(engine_state and from_engine; move_codes, turn_name: a move string is a whole
turn, several engine decisions) lives in claimsolve/claim/engine.py.

Moves are whole turns, one string each: `c3+d5` (settle; `c3=1+d5=3` in
battle-for-two), `xa1 xb2 xc3 xd4` (brawl), `T@d4` (towers phase), `T@b2
c3-e5 e5-e7 T@f6` (play), `pass`.
"""
import random

from .. import limits
from ..errors import OptionError, PositionError, row_tokens
from ..game import Position
from . import notation, rules
from .describe import describe as describe_move
from .islands import ISLANDS, Island, random_island, standard_island, territories_for
from .rules import (BRAWLS, MAX_COUNT, PHASES, STANDSTILLS, TOWER, TOWERS_PER_COLOUR, VARIANTS, VIKING,
                    VIKINGS_PER_COLOUR, Rules, State)

KEYS = ("game", "players", "variant", "territories", "board", "phase", "first_player", "to_move", "rules",
        "history")
REQUIRED = ("game", "players", "territories", "board")
RULE_KEYS = ("standstill", "draw_after", "third_party_anvil", "brawl")
HISTORY_KEYS = ("streak", "quiet_plies")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def piece_token(piece):
    """`.`, `1`..`4` for a Viking, `T1`..`T4` for a tower."""
    if piece is None:
        return "."
    return f"T{piece.colour}" if piece.kind == "tower" else str(piece.colour)


def _parse_token(token):
    if token == ".":
        return None
    if token in ("1", "2", "3", "4"):
        return VIKING[int(token)]
    if len(token) == 2 and token[0] == "T" and token[1] in "1234":
        return TOWER[int(token[1])]
    raise ValueError("a cell is . (free), 1..4 (a Viking of that colour) or T1..T4 (a tower)")


# --- reading the file ------------------------------------------------------------------

def _parse_board(rows, island, colours):
    """The board tuple of the "board" field, checked against the island."""
    if not isinstance(rows, list):
        raise PositionError("board", "must be a list of row strings (one token per square)")
    if len(rows) != island.height:
        raise PositionError("board", f"{len(rows)} rows, but territories has {island.height}")
    board = [None] * (island.width * island.height)
    for index, text in enumerate(rows):
        field = f"board[{index}]"
        if not isinstance(text, str):
            raise PositionError(field, "must be a string of cell tokens separated by spaces")
        tokens = row_tokens(text, field)
        if len(tokens) != island.width:
            raise PositionError(field, f"{len(tokens)} cells, but a territories row has {island.width}")
        row = island.height - 1 - index        # the first string is the top row
        for column, token in enumerate(tokens):
            cell = island.cell_at(column, row)
            where = f"cell {column + 1} ({island.point_name(cell)}) '{token}'"
            try:
                piece = _parse_token(token)
            except ValueError as exc:
                raise PositionError(field, f"{where}: {exc}") from None
            if piece is None:
                continue
            if piece.colour not in colours:
                raise PositionError(field, f"{where}: colour {piece.colour}, but the colours in play are "
                                           f"{', '.join(map(str, colours))}")
            if not island.is_point(cell):
                raise PositionError(field, f"{where}: a piece on sea")
            board[cell] = piece
    return tuple(board)


def _parse_rules(value):
    if not isinstance(value, dict):
        raise PositionError("rules", 'must be an object like {"standstill": "same-viking", "draw_after": 200, '
                                     '"third_party_anvil": true, "brawl": "even"}')
    for key in value:
        if key not in RULE_KEYS:
            raise PositionError(f"rules.{key}", f"unknown rule (known: {', '.join(RULE_KEYS)})")
    default = Rules()
    standstill = value.get("standstill", default.standstill)
    if standstill not in STANDSTILLS:
        raise PositionError("rules.standstill", f"must be one of {', '.join(map(repr, STANDSTILLS))}, "
                                                f"not {limits.quoted(standstill)}")
    draw_after = value.get("draw_after", default.draw_after)
    if not _is_int(draw_after) or not 1 <= draw_after <= MAX_COUNT:
        raise PositionError("rules.draw_after", f"must be an integer 1..{MAX_COUNT}, not {limits.quoted(draw_after)}")
    anvil = value.get("third_party_anvil", default.third_party_anvil)
    if not isinstance(anvil, bool):
        raise PositionError("rules.third_party_anvil", f"must be true or false, not {limits.quoted(anvil)}")
    brawl = value.get("brawl", default.brawl)       # files written before the switch read as "even"
    if brawl not in BRAWLS:
        raise PositionError("rules.brawl", f"must be one of {', '.join(map(repr, BRAWLS))}, "
                                           f"not {limits.quoted(brawl)}")
    return Rules(standstill=standstill, draw_after=draw_after, third_party_anvil=anvil, brawl=brawl)


def _parse_history(value, players, island, board, colours_of, rules_):
    """(streak tuple, quiet plies) of the "history" field."""
    if not isinstance(value, dict):
        raise PositionError("history", 'must be an object like {"streak": {"1": null, "2": null}, '
                                       '"quiet_plies": 0}')
    for key in value:
        if key not in HISTORY_KEYS:
            raise PositionError(f"history.{key}", f"unknown key (known: {', '.join(HISTORY_KEYS)})")
    streaks = value.get("streak", {})
    if not isinstance(streaks, dict):
        raise PositionError("history.streak", 'must be an object like {"1": ["c1", 2], "2": null}')
    seats = [str(p) for p in range(1, players + 1)]
    for key in streaks:
        if key not in seats:
            raise PositionError(f"history.streak.{key}", f"unknown player (players are {', '.join(seats)})")
    top = 2 if rules_.standstill == "same-viking" else MAX_COUNT
    streak = []
    for player in range(1, players + 1):
        field = f"history.streak.{player}"
        entry = streaks.get(str(player))
        if entry is None:
            streak.append(None)
            continue
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
            raise PositionError(field, 'must be null or [point, count], like ["c1", 2]')
        try:
            cell = island.parse_point(entry[0].lower())
        except ValueError as exc:
            raise PositionError(field, str(exc)) from None
        piece = board[cell]
        mine = colours_of(player)
        if piece is None or piece.kind != "viking" or piece.colour not in mine:
            raise PositionError(field, f"{entry[0]} must hold a Viking of player {player} "
                                       f"(colour{'s' if len(mine) > 1 else ''} {' or '.join(map(str, mine))}), "
                                       f"it holds {'nothing' if piece is None else piece_token(piece)}")
        count = entry[1]
        if not _is_int(count) or not 1 <= count <= top:
            why = ""
            if top == 2:
                why = " (standstill same-viking: a Viking moved twice in a row may not move a third time)"
            raise PositionError(field, f"the count must be an integer 1..{top}, not {limits.quoted(count)}{why}")
        streak.append((cell, count))
    quiet = value.get("quiet_plies", 0)
    if not _is_int(quiet) or not 0 <= quiet <= MAX_COUNT:
        raise PositionError("history.quiet_plies", f"must be an integer 0..{MAX_COUNT}, not {limits.quoted(quiet)}")
    return tuple(streak), quiet


def _check_consistency(state):
    """The checks across fields (docs/positions.md, claim: "Invalid")."""
    island, board = state.island, state.board
    colours = rules.colours_in_play(state)
    for colour in colours:
        vikings = rules.vikings_on_island(board, colour)
        if vikings > VIKINGS_PER_COLOUR:
            raise PositionError("board", f"{vikings} Vikings of colour {colour}, a colour has {VIKINGS_PER_COLOUR}")
        towers = rules.towers_on_island(board, colour)
        if towers > TOWERS_PER_COLOUR:
            raise PositionError("board", f"{towers} towers of colour {colour}, a colour has {TOWERS_PER_COLOUR}")
    for letter in island.territories:
        towers = [c for c in island.territory_points(letter) if board[c] is not None and board[c].kind == "tower"]
        if len(towers) > 1:
            raise PositionError("board", f"two towers in territory {letter} "
                                         f"({island.point_name(towers[0])} and {island.point_name(towers[1])}): "
                                         "a territory holds at most one")
    if state.phase in ("settle", "brawl"):
        towers = [c for c in island.points if board[c] is not None and board[c].kind == "tower"]
        if towers:
            raise PositionError("board", f"a tower on {island.point_name(towers[0])} in the {state.phase} phase "
                                         "(towers come after the brawl)")
    if state.phase == "settle":
        hands = {c: rules.vikings_in_hand(state, c) for c in colours}
        if not any(hands.values()):
            raise PositionError("phase", f"every colour has placed its {VIKINGS_PER_COLOUR} Vikings: "
                                         "the settle is over")
        for player in range(1, state.players + 1):
            hand = sum(hands[c] for c in rules.colours_of(state, player))
            if hand % 2:
                raise PositionError("board", f"player {player} has {hand} Vikings in hand, an odd number "
                                             "(Vikings are settled two at a time)")
        mover = sum(hands[c] for c in rules.colours_of(state, state.to_move))
        if mover < 2:
            raise PositionError("to_move", f"player {state.to_move} has no Vikings in hand to settle")
        free = len(rules.free_points(state, board))
        if free < sum(hands.values()):
            raise PositionError("board", f"{sum(hands.values())} Vikings still to settle, but only {free} "
                                         "free points")
    if state.phase == "brawl":
        for colour in colours:
            lost = rules.vikings_lost(state, colour)
            if lost > rules.BRAWL_CAP:
                raise PositionError("board", f"colour {colour} has lost {lost} Vikings in the brawl "
                                             f"({VIKINGS_PER_COLOUR - lost} on the island), at most "
                                             f"{rules.BRAWL_CAP}")
        if rules.is_battle_for_two(state) and all(rules.vikings_lost(state, c) >= rules.BRAWL_CAP for c in colours):
            raise PositionError("phase", "every colour has lost 4 Vikings: the battle-for-two brawl is over")
    if state.phase != "play":
        for player, entry in enumerate(state.streak, 1):
            if entry is not None:
                raise PositionError(f"history.streak.{player}", f"must be null in the {state.phase} phase "
                                                                "(streaks are kept in the play phase)")
        if state.quiet_plies:
            raise PositionError("history.quiet_plies", f"must be 0 in the {state.phase} phase "
                                                       "(quiet plies are counted in the play phase)")
    reached = [seats for seats in rules.teams(state)
               if rules.team_towers(state, board, rules.team_of(state, seats[0])) >= rules.tower_target(state)]
    if len(reached) > 1:
        who = " and ".join("+".join(map(str, seats)) for seats in reached)
        raise PositionError("board", f"seats {who} have all reached {rules.tower_target(state)} towers: "
                                     "only one can win")


class ClaimPosition(Position):
    """An immutable Claim position; `state` is the rules' State."""

    game = "claim"
    has_chance = False
    __slots__ = ("_state",)

    def __init__(self, state):
        self._state = state

    # --- reading and writing -------------------------------------------------------
    @classmethod
    def from_json(cls, data):
        if not isinstance(data, dict):
            raise PositionError("", "a position must be a JSON object")
        for key in data:
            if key not in KEYS:
                raise PositionError(key or "\"\"", f"unknown key (claim keys: {', '.join(KEYS)})")
        for key in REQUIRED:
            if key not in data:
                raise PositionError(key, "missing")
        if data["game"] != cls.game:
            raise PositionError("game", f'must be "{cls.game}"')
        players = data["players"]
        if not _is_int(players) or not 2 <= players <= 4:
            raise PositionError("players", f"must be an integer 2..4, not {limits.quoted(players)}")
        variant = data.get("variant", "standard")
        if variant not in VARIANTS:
            raise PositionError("variant", f"must be one of {', '.join(map(repr, VARIANTS))}, "
                                           f"not {limits.quoted(variant)}")
        if variant == "battle-for-two" and players != 2:
            raise PositionError("variant", f"battle-for-two is a game for 2 players (4 colours), not {players}")
        island = Island.from_rows(data["territories"])
        colours = (1, 2, 3, 4) if variant == "battle-for-two" else tuple(range(1, players + 1))
        board = _parse_board(data["board"], island, colours)
        phase = data.get("phase", "play")
        if phase not in PHASES:
            raise PositionError("phase", f"must be one of {', '.join(map(repr, PHASES))}, not {limits.quoted(phase)}")
        first_player = data.get("first_player", 1)
        if not _is_int(first_player) or not 1 <= first_player <= players:
            raise PositionError("first_player", f"must be a player 1..{players}, not {limits.quoted(first_player)}")
        to_move = data.get("to_move", first_player)
        if not _is_int(to_move) or not 1 <= to_move <= players:
            raise PositionError("to_move", f"must be a player 1..{players}, not {limits.quoted(to_move)}")
        game_rules = _parse_rules(data.get("rules", {}))
        sketch = State(island=island, players=players, variant=variant, board=board, phase=phase,
                       first_player=first_player, to_move=to_move, rules=game_rules,
                       streak=(None,) * players, quiet_plies=0)
        streak, quiet = _parse_history(data.get("history", {}), players, island, board,
                                       lambda p: rules.colours_of(sketch, p), game_rules)
        state = State(island=island, players=players, variant=variant, board=board, phase=phase,
                      first_player=first_player, to_move=to_move, rules=game_rules, streak=streak,
                      quiet_plies=quiet)
        _check_consistency(state)
        return cls(state)

    def to_json(self):
        s = self._state
        island = s.island
        board = []
        for row in reversed(range(island.height)):
            board.append(" ".join(piece_token(s.board[island.cell_at(column, row)])
                                  for column in range(island.width)))
        return {
            "game": self.game,
            "players": s.players,
            "variant": s.variant,
            "territories": island.rows(),
            "board": board,
            "phase": s.phase,
            "first_player": s.first_player,
            "to_move": s.to_move,
            "rules": {"standstill": s.rules.standstill, "draw_after": s.rules.draw_after,
                      "third_party_anvil": s.rules.third_party_anvil, "brawl": s.rules.brawl},
            "history": {
                "streak": {str(p): (None if entry is None else [island.point_name(entry[0]), entry[1]])
                           for p, entry in enumerate(s.streak, 1)},
                "quiet_plies": s.quiet_plies,
            },
        }

    @classmethod
    def new(cls, players=None, size=None, seed=None, island=None, variant=None, brawl=None):
        """The settle phase on an empty island, player 1 first.  `island`: None
        or "standard" (the standard island for the seats; battle-for-two: the
        four-seat one), a name of ISLANDS, "random" (grown from `seed`; None
        draws a fresh seed), or an Island.  `brawl`: the rules' brawl,
        "even" (None: the default) or "cap"."""
        variant = "standard" if variant is None else variant
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise OptionError("variant", f"{limits.quoted(variant)}: Claim variants are {', '.join(VARIANTS)}")
        if players is None:
            players = 2
        if not _is_int(players) or not 2 <= players <= 4:
            raise OptionError("players", f"{limits.quoted(players)}: Claim is played by 2, 3 or 4")
        if variant == "battle-for-two" and players != 2:
            raise OptionError("players", f"{players}: battle-for-two is a game for 2 players")
        if size is not None:
            raise OptionError("size", "Claim has no board sizes: its islands are chosen by island")
        if brawl is not None and brawl not in BRAWLS:
            raise OptionError("brawl", f"{limits.quoted(brawl)}: must be one of {', '.join(BRAWLS)}")
        if seed is not None and not _is_int(seed):     # any whole number seeds Python's random
            raise OptionError("seed", f"{limits.quoted(seed)}: must be a whole number")
        if isinstance(island, Island):
            chosen = island
        elif island is None or island == "standard":
            chosen = standard_island(players, variant)
        elif island == "random":
            if seed is None:
                seed = random.randrange(2 ** 32)
            chosen = random_island(territories_for(players, variant), seed)
        elif isinstance(island, str) and island in ISLANDS:
            chosen = ISLANDS[island]
        else:
            raise OptionError("island", f"{limits.quoted(island)}: unknown (standard, random, {', '.join(ISLANDS)})")
        colours = 4 if variant == "battle-for-two" else players
        if len(chosen.points) < colours * VIKINGS_PER_COLOUR:
            raise OptionError("island", f"{limits.quoted(island)} has {len(chosen.points)} points: "
                                        f"too few for {colours * VIKINGS_PER_COLOUR} Vikings")
        state = State(island=chosen, players=players, variant=variant, board=(None,) * len(chosen.letters),
                      phase="settle", first_player=1, to_move=1,
                      rules=Rules() if brawl is None else Rules(brawl=brawl), streak=(None,) * players,
                      quiet_plies=0)
        return cls(state)

    def __eq__(self, other):
        return isinstance(other, ClaimPosition) and self._state == other._state

    def __hash__(self):
        return hash(self._state)

    def __repr__(self):
        s = self._state
        return (f"ClaimPosition({s.players} seats, {s.variant}, {s.phase}, to_move={s.to_move}, "
                f"island {s.island.width}x{s.island.height})")

    # --- what the position says --------------------------------------------------
    @property
    def state(self):
        return self._state

    @property
    def island(self):
        return self._state.island

    @property
    def players(self):
        return self._state.players

    @property
    def num_players(self):
        return self._state.players

    @property
    def player_to_move(self):
        return self._state.to_move

    @property
    def variant(self):
        return self._state.variant

    @property
    def phase(self):
        return self._state.phase

    @property
    def first_player(self):
        return self._state.first_player

    @staticmethod
    def brawl_rule_counts(players, variant=None):
        """True where the rules' brawl (`new`'s `brawl`) can change a game
        of `players` seats and `variant` (None: standard): 3 seats only."""
        return rules.brawl_rule_counts(players, "standard" if variant is None else variant)

    @property
    def rules(self):
        """The Rules switches (standstill, draw_after, third_party_anvil, brawl)."""
        return self._state.rules

    @property
    def colours(self):
        """The colours in play: 1..players, or 1..4 in battle-for-two."""
        return rules.colours_in_play(self._state)

    def colours_of(self, player):
        return rules.colours_of(self._state, player)

    def teams(self):
        """The seats of each team: [[1, 3], [2, 4]] with 4 seats, [[1], [2]]
        with two (battle-for-two too), [[1], [2], [3]] with three."""
        return rules.teams(self._state)

    def piece(self, point):
        """The token on a point named like `c4`: `.`, `1`..`4` or `T1`..`T4`."""
        return piece_token(self._state.board[self.island.parse_point(point.lower())])

    def pieces(self):
        """{point name: token} of every piece on the island."""
        s = self._state
        return {s.island.point_name(c): piece_token(s.board[c]) for c in s.island.points if s.board[c] is not None}

    def vikings_on_island(self, colour):
        return rules.vikings_on_island(self._state.board, colour)

    def vikings_in_hand(self, colour):
        return rules.vikings_in_hand(self._state, colour)

    def vikings_lost(self, colour):
        return rules.vikings_lost(self._state, colour)

    def towers_on_island(self, colour):
        return rules.towers_on_island(self._state.board, colour)

    def towers_in_hand(self, colour):
        return rules.towers_in_hand(self._state.board, colour)

    def team_towers(self, seat):
        """Towers on the island of the team of `seat`."""
        s = self._state
        return rules.team_towers(s, s.board, rules.team_of(s, seat))

    def tower_target(self):
        return rules.tower_target(self._state)

    def streak(self, player):
        """(point name, count) or None: the Viking `player` moved in his last
        `count` turns in a row."""
        entry = self._state.streak[player - 1]
        return None if entry is None else (self.island.point_name(entry[0]), entry[1])

    @property
    def quiet_plies(self):
        return self._state.quiet_plies

    def history(self):
        """The `history` object as written in the file."""
        return self.to_json()["history"]

    # --- rules -------------------------------------------------------------------------
    def legal_moves(self):
        return rules.legal_moves(self._state)

    def iter_moves(self):
        """The moves of legal_moves, in its order, generated as they are
        found (`claimsolve moves` streams them): a play turn on a large
        island has millions of variants.  The towers and play phases are
        walked by the engine (engine.iter_turns), the others listed by the
        rules (settle and brawl turns are tens of thousands at most)."""
        if self.phase in ("settle", "brawl") or self.is_over():
            yield from self.legal_moves()
            return
        from .engine import iter_turns      # deferred: the engine loads at first use (start-up)
        for move, _end in iter_turns(self):
            yield move

    def legal_turns(self):
        """[(canonical move, resulting ClaimPosition)], one per different
        resulting position."""
        return [(t.move, ClaimPosition(t.state)) for t in rules.legal_turns(self._state)]

    def play(self, move, rng=None):
        return ClaimPosition(notation.play_move(self._state, move))

    def describe(self, move):
        """What the turn `move` does (claimsolve.game.MoveReport): the Vikings
        settled or removed, the movement and its route, the pieces captured,
        the towers placed or swapped (claimsolve/claim/describe.py)."""
        return describe_move(self._state, move)

    def captures(self, move):
        """The points (names, in the order taken) whose pieces the turn
        `move` captures, as describe reports them: it knows a tower placed
        by choice as the anvil and a capture after a jump back, which a
        replay of the movements alone misses.  Only a play turn captures:
        a brawl turn's removals are the turn itself (its `x` tokens), not
        captures.  `analyze --json` gives each suggestion's as its
        `captured`."""
        if self._state.phase != "play":
            return []
        return list(self.describe(move).captured)

    def is_over(self):
        return rules.is_over(self._state)

    def is_draw(self):
        return rules.is_draw(self._state)

    def winners(self):
        """The seats of the winning team; on a draw every seat; while the game
        goes on, the seats of the team(s) with the most towers on the island."""
        return rules.winners(self._state)

    def points(self):
        """A win: 1 to every seat of the winning team; a draw: 1/(number of
        teams) to every seat."""
        return rules.points(self._state)

    def perft(self, depth):
        """Whole turns per depth by the reference rules."""
        return rules.perft(self._state, depth)

    # --- engine (claimsolve/claim/engine.py) ------------------------------------------
    # deferred imports: the engine loads at first use (start-up)
    def engine_game(self):
        """The ClaimGame of this island, seat count, variant and rules (shared)."""
        from .engine import engine_game
        s = self._state
        return engine_game(s.island, s.players, s.variant, s.rules)

    def engine_state(self):
        """claimsolve._engine.GameState of this position: the State's fields
        handed to ClaimGame.encode (engine.encode)."""
        from .engine import encode
        return encode(self._state)

    @classmethod
    def from_engine(cls, state):
        """The position of an engine state (a GameState) at the start of a
        turn; ValueError inside a turn (engine.decode)."""
        from .engine import decode
        return cls(decode(state))

    def move_code(self, move):
        from .engine import move_code
        return move_code(self, move)

    def move_name(self, code):
        from .engine import move_name
        return move_name(self, code)

    def move_codes(self, move):
        from .engine import move_codes
        return move_codes(self, move)

    def turn_name(self, codes):
        from .engine import turn_name
        return turn_name(self, codes)
