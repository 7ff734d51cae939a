"""Claim (1983) move strings read (docs/positions.md, Claim, "Moves"): a
whole turn written as one string, in its canonical form or any accepted
alternative, checked token by token against the reference rules (rules.py)
and played, or refused with a MoveError saying what is wrong with it.

The canonical strings are written by rules.py as it lists the turns (the
canonical form is a rule: the fewest movements, then the smallest points);
describe.py spells a move out (a jump chain's route, its captures).
"""
from collections import Counter
from dataclasses import replace

from ..errors import MoveError, check_move_type
from ..words import counted
from .rules import (BRAWL_CAP, BRAWL_REMOVALS, VIKING, _start, _with_tower, brawl_even_applies, brawl_quota,
                    brawl_shortfall, colours_of, conquest_in, end_brawl_turn, end_play_turn, end_settle_turn,
                    end_towers_turn, is_draw, movable_vikings, move_viking, movement_ends, opposing,
                    standstill_blocked, vikings_in_hand, vikings_lost, winning_team)


# --- Reading a move string -------------------------------------------------------------------

class _Reader:
    """The tokens of a move string, read one after another; errors name the
    whole move.  Upper case is read as lower case, and spaces around `-`,
    `+`, `=` and `@` are dropped."""

    def __init__(self, state, move):
        check_move_type(move, "Claim", "like c3+d5, xe4, f4-f3 T@g3 or pass")
        self.state = state
        self.move = move
        text = " ".join(move.lower().split())
        for mark in "-+=@":
            text = text.replace(f" {mark}", mark).replace(f"{mark} ", mark)
        self.tokens = text.split()
        self.index = 0
        if not self.tokens:
            raise MoveError(move, "empty move")

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.index += 1
        return token

    def fail(self, problem):
        raise MoveError(self.move, problem)

    def point(self, text):
        try:
            return self.state.island.parse_point(text)
        except ValueError as exc:
            self.fail(str(exc))

    def name(self, cell):
        return self.state.island.point_name(cell)

    def names(self, cells):
        return ", ".join(self.name(c) for c in sorted(cells, key=self.state.island.sort_key))

    def finish(self):
        if self.peek() is not None:
            self.fail(f"'{self.peek()}' comes after the end of the turn")


def drawn_after(quiet_plies, draw_after):
    """How a game drawn by quiet plies ended, in words: "200 quiet plies",
    and what a position written past its draw counts ("5 quiet plies (the
    position counts 9)")."""
    words = counted(draw_after, "quiet ply", "quiet plies")
    return words if quiet_plies == draw_after else f"{words} (the position counts {quiet_plies:,})"


def play_move(state, move):
    """The state after the turn written `move`: the canonical form or any
    accepted alternative (a jump chain's full route, unsorted settle points
    or removals, upper case, extra spaces).  Raises MoveError saying what is
    wrong."""
    reader = _Reader(state, move)
    if winning_team(state) is not None:
        reader.fail("the game is over: a team has its towers on the island")
    if is_draw(state):
        reader.fail(f"the game is over: drawn after {drawn_after(state.quiet_plies, state.rules.draw_after)}")
    return {"settle": _read_settle, "brawl": _read_brawl,
            "towers": _read_towers, "play": _read_play}[state.phase](state, reader)


def _tower_token(token):
    return "T@" + token[2:]


def _phase_hint(state, reader, token):
    """Fails when `token` is a move of another phase, saying so."""
    if "+" in token and state.phase != "settle":
        reader.fail(f"'{token}' is a settle turn, but the game is in the {state.phase} phase")
    if token.startswith("x") and state.phase != "brawl" and token[1:2].isalpha():
        reader.fail(f"'{token}' removes a Viking as in the brawl, but the game is in the {state.phase} phase")
    if "-" in token and state.phase != "play":
        reader.fail(f"'{token}' is a movement, but the game is in the {state.phase} phase")
    if token.startswith("t@") and state.phase in ("settle", "brawl"):
        reader.fail(f"{_tower_token(token)}: no towers are placed in the {state.phase} phase")


def _colours_text(colours):
    return f"colour {colours[0]}" if len(colours) == 1 else f"colours {colours[0]} and {colours[1]}"


def _read_settle(state, reader):
    player = state.to_move
    token = reader.take()
    if "+" not in token:
        _phase_hint(state, reader, token)
        reader.fail("a settle turn places two Vikings: write two free points, like c3+d5")
    parts = token.split("+")
    if len(parts) != 2 or not all(parts):
        reader.fail(f"a settle turn places two Vikings, {len([p for p in parts if p])} given")
    reader.finish()
    mine = colours_of(state, player)
    hand = {c: vikings_in_hand(state, c) for c in mine}
    with_hand = [c for c in mine if hand[c] > 0]
    placed = []
    for part in parts:
        where, equals, colour_text = part.partition("=")
        cell = reader.point(where)
        if equals:
            if colour_text not in ("1", "2", "3", "4"):
                reader.fail(f"'{part}': a colour is a digit 1..4")
            colour = int(colour_text)
            if colour not in mine:
                reader.fail(f"colour {colour} is not yours (player {player} plays {_colours_text(mine)})")
        elif len(with_hand) == 1:
            colour = with_hand[0]
        else:
            reader.fail(f"name the colour of each Viking, like c3=1+d5=3 (player {player} has Vikings "
                        f"of {_colours_text(with_hand)} in hand)")
        placed.append((cell, colour))
    (a, colour_a), (b, colour_b) = placed
    if a == b:
        reader.fail(f"{reader.name(a)} is given twice")
    for cell, _ in placed:
        if state.board[cell] is not None:
            reader.fail(f"{reader.name(cell)} is not free")
    for colour, n in sorted(Counter(c for _, c in placed).items()):
        if hand[colour] < n:
            reader.fail(f"colour {colour} has {hand[colour]} Viking{'' if hand[colour] == 1 else 's'} in hand, "
                        f"{n} given")
    board = list(state.board)
    board[a], board[b] = VIKING[colour_a], VIKING[colour_b]
    return end_settle_turn(state, tuple(board))


def _read_brawl(state, reader):
    player = state.to_move
    quota, allowed, _ = brawl_quota(state)
    if reader.tokens == ["pass"]:
        if quota:
            reader.fail(f"pass: a brawl turn here removes {quota} Vikings (the cap allows {allowed})")
        return end_brawl_turn(state, state.board)
    removed = []
    for token in reader.tokens:
        if not token.startswith("x"):
            _phase_hint(state, reader, token)
            reader.fail(f"'{token}': a brawl turn removes opposing Vikings, written xa1 xb2 xc3 xd4"
                        + (" (or pass alone)" if token == "pass" else ""))
        cell = reader.point(token[1:])
        piece = state.board[cell]
        if piece is None or piece.kind != "viking":
            reader.fail(f"{reader.name(cell)} holds no Viking")
        if not opposing(state, player, piece.colour):
            whose = "your own" if piece.colour in colours_of(state, player) else "your ally's"
            reader.fail(f"{reader.name(cell)} is {whose} Viking (colour {piece.colour}): remove opposing Vikings")
        if cell in removed:
            reader.fail(f"{reader.name(cell)} is given twice")
        removed.append(cell)
    losses = Counter(state.board[cell].colour for cell in removed)
    for colour, n in sorted(losses.items()):
        lost = vikings_lost(state, colour)
        if lost + n > BRAWL_CAP:
            reader.fail(f"colour {colour} has lost {lost} Viking{'' if lost == 1 else 's'}: the brawl cap of "
                        f"{BRAWL_CAP} allows {BRAWL_CAP - lost} more, {n} given")
    if len(removed) != quota:
        reader.fail(f"a brawl turn here removes {quota} Vikings (the cap allows {allowed}): {len(removed)} given")
    if brawl_even_applies(state):
        short = brawl_shortfall(state, losses)
        if short is not None:
            seats, left = short
            who = (f"player {seats[0]}" if len(seats) == 1
                   else "players " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}")
            reader.fail(f"after this removal {who} could remove only {left} opposing Viking"
                        f"{'' if left == 1 else 's'} within the cap, not {BRAWL_REMOVALS * len(seats)} "
                        '(rules.brawl "even": every later player of the brawl must still be able to take 4)')
    board = list(state.board)
    for cell in removed:
        board[cell] = None
    return end_brawl_turn(state, tuple(board))


def _read_conquest(state, reader, progress, player, when):
    """Steps through the conquest check, reading a `T@p` for each placement
    on a free point.  `when` names the check in messages."""
    island = state.island
    for letter in island.territories:
        action = conquest_in(state, progress.board, player, letter)
        if action is None:
            continue
        if action[0] == "swap":
            progress = _with_tower(progress, action[1], action[2])
            continue
        _, free, colour = action
        example = "T@" + reader.name(min(free, key=island.sort_key))
        token = reader.peek()
        if token is None or not token.startswith("t@"):
            reader.fail(f"{when} conquers territory {letter}: write where the tower goes, e.g. {example}"
                        + ("" if token is None else f", before '{token}'"))
        reader.take()
        cell = reader.point(token[2:])
        if island.territory(cell) != letter:
            reader.fail(f"{_tower_token(token)}: the tower conquering territory {letter} goes on one of its free "
                        f"points ({reader.names(free)}); {reader.name(cell)} is in territory "
                        f"{island.territory(cell)}")
        if cell not in free:
            reader.fail(f"{reader.name(cell)} is not free")
        progress = _with_tower(progress, cell, colour, island)
    return progress


def _read_towers(state, reader):
    progress = _read_conquest(state, reader, _start(state), state.to_move, "the conquest check")
    token = reader.peek()
    if token == "pass":
        if progress.written:
            reader.fail("pass: this turn places a tower, write only its T@ placements")
        reader.take()
    elif token is not None:
        _phase_hint(state, reader, token)
        if token.startswith("t@"):
            if not progress.written:
                reader.fail(f"{_tower_token(token)}: nothing to choose in this conquest check: write pass")
            reader.fail(f"{_tower_token(token)}: the conquest check places no more towers by choice")
    elif not progress.written:
        reader.fail("nothing to choose in this conquest check: write pass")
    reader.finish()
    return end_towers_turn(state, progress.board)


def _read_route(reader, token):
    """The points of a movement token `c3-c4`, `c3-e5` or `c3-e3-e5`."""
    parts = token.split("-")
    if len(parts) < 2 or not all(parts):
        reader.fail(f"'{token}' is not a movement (write start-end, like c3-c4 or c3-e5)")
    return [reader.point(part) for part in parts]


def _jump_middle(island, here, there):
    """The point a jump from `here` to `there` goes over, or None when they
    are not two points apart in a line of island points."""
    for direction in range(4):
        middle = island.next(here, direction)
        if middle is not None and island.next(middle, direction) == there:
            return middle
    return None


def _check_route(state, reader, board, route):
    """Fails unless `route` is a legal movement of the Viking on its first
    point: start-end (a step or any jump chain), or a full route of jumps."""
    island = state.island
    name = reader.name
    start, end = route[0], route[-1]
    if end == start:
        reader.fail(f"{name(start)}-{name(end)} ends where it started: that is no movement")
    if board[end] is not None:
        reader.fail(f"{name(end)} is not free")
    if len(route) == 2:
        if end in movement_ends(island, board, start):
            return
        middle = _jump_middle(island, start, end)
        if middle is not None and board[middle] is None:
            reader.fail(f"a jump from {name(start)} to {name(end)} needs a piece on {name(middle)}")
        reader.fail(f"no step or jump chain leads from {name(start)} to {name(end)}")
    for here, there in zip(route, route[1:]):
        middle = _jump_middle(island, here, there)
        if middle is None:
            reader.fail(f"{name(here)}-{name(there)} is not a jump: a route goes on only by jumps, over one "
                        "point to the next in a line")
        if board[middle] is None or middle == start:
            reader.fail(f"a jump from {name(here)} to {name(there)} needs a piece on {name(middle)}")
        if board[there] is not None and there != start:
            reader.fail(f"a jump from {name(here)} over {name(middle)} needs {name(there)} free")


def _read_play(state, reader):
    island = state.island
    player = state.to_move
    progress = _read_conquest(state, reader, _start(state), player, "the conquest check at the start of the turn")
    movable = [c for c in movable_vikings(state, progress.board, player) if movement_ends(island, progress.board, c)]
    token = reader.take()
    if token is None:
        reader.fail("the movement is missing" if movable else "no legal movement: write pass")
    if token == "pass":
        if movable:
            start = movable[0]
            reader.fail(f"pass: you have a legal movement "
                        f"(e.g. {reader.name(start)}-{reader.name(movement_ends(island, progress.board, start)[0])})")
        progress = replace(progress, written=progress.written + ("pass",))
        when = "the conquest check after the pass"
    else:
        if token.startswith("t@"):
            what = "no more towers" if progress.written else "no tower"
            reader.fail(f"{_tower_token(token)}: the conquest check at the start of the turn places {what} by "
                        "choice; the placements after the movement come after it")
        if "-" not in token:
            _phase_hint(state, reader, token)
            reader.fail(f"'{token}' is not a movement (write start-end, like c3-c4)")
        route = _read_route(reader, token)
        start = route[0]
        piece = progress.board[start]
        if piece is None:
            reader.fail(f"{reader.name(start)} holds no Viking")
        if piece.kind != "viking":
            reader.fail(f"{reader.name(start)} holds a tower: towers never move")
        if piece.colour not in colours_of(state, player):
            reader.fail(f"{reader.name(start)} holds a Viking of colour {piece.colour}: player {player} moves "
                        f"{_colours_text(colours_of(state, player))}")
        if start == standstill_blocked(state, player):
            reader.fail(f"{reader.name(start)} was moved in your last two turns (standstill: same-viking)")
        _check_route(state, reader, progress.board, route)
        progress = move_viking(state, progress, player, start, route[-1])
        while reader.peek() is not None and "-" in reader.peek():
            token = reader.take()
            if not progress.captured_last:
                reader.fail(f"{token}: {progress.written[-1]} captured nothing, so the Viking cannot move again")
            route = _read_route(reader, token)
            if route[0] != progress.at:
                reader.fail(f"{token}: a continuation moves the same Viking, which stands on "
                            f"{reader.name(progress.at)}")
            _check_route(state, reader, progress.board, route)
            progress = move_viking(state, progress, player, progress.at, route[-1])
            if not progress.captured_last:
                reader.fail(f"{token} captures nothing: a continuation must capture")
        when = f"moving to {reader.name(progress.at)}"
    progress = _read_conquest(state, reader, progress, player, when)
    token = reader.peek()
    if token is not None:
        if token.startswith("t@"):
            reader.fail(f"{_tower_token(token)}: no more towers are placed by choice in this turn")
        if token == "pass":
            reader.fail("pass: a turn with a movement does not pass")
    reader.finish()
    return end_play_turn(state, progress)
