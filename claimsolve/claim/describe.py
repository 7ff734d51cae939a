"""What a Claim turn does, in words and as marks (Position.describe,
claimsolve.game.MoveReport).

The turn is first read and played (notation.play_move: a move it refuses
is refused here with its reason); then its tokens are walked again with
the rules' own steps (rules.conquest_in, rules.move_viking), the board
compared before and after each step, so that what is reported is
what the rules did: the Vikings settled, the brawl's removals, each
movement with the pieces its landing captured, the towers placed by choice,
swapped in a conquest or placed at once on the point of a captured tower.

A jump chain written start-end (the canonical form) has no route of its
own: the rules do not tell routes apart.  Its route here is the shortest
chain of jumps on the board of that moment (the first in direction order
among equals); a route written in full (`c3-e3-e5`) is reported as written.
"""
from dataclasses import replace

from ..errors import MoveError
from ..game import MoveReport
from . import notation, rules
from .rules import TOWER


def describe(state, move):
    """The MoveReport of the turn `move` (a string in any accepted form)
    played from the rules' State `state`."""
    notation.play_move(state, move)                 # refuses an illegal turn with its reason
    tokens = notation._Reader(state, move).tokens   # lower case, spaces normalised
    return {"settle": _settle, "brawl": _brawl, "towers": _turn, "play": _turn}[state.phase](state, tokens)


def listed(names):
    """"a1", "a1 and b2", "a1, b2 and c3"."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _settle(state, tokens):
    island = state.island
    placed = []
    for part in tokens[0].split("+"):
        where, _, colour = part.partition("=")
        placed.append((island.parse_point(where), colour))
    placed.sort(key=lambda item: island.sort_key(item[0]))
    names = [island.point_name(cell) for cell, _ in placed]
    if rules.is_battle_for_two(state):
        written = "+".join(f"{name}={colour}" for name, (_, colour) in zip(names, placed))
        text = f"{written} settles " + " and ".join(f"colour {colour} on {name}"
                                                    for name, (_, colour) in zip(names, placed))
    else:
        written = "+".join(names)
        text = f"{written} settles Vikings on {listed(names)}"
    return MoveReport(text=text, placed=tuple(names))


def _brawl(state, tokens):
    island = state.island
    if tokens == ["pass"]:
        return MoveReport(text="pass (the brawl cap leaves no opposing Viking to remove)")
    cells = sorted((island.parse_point(token[1:]) for token in tokens), key=island.sort_key)
    names = [island.point_name(cell) for cell in cells]
    by_colour = {}
    for cell, name in zip(cells, names):
        by_colour.setdefault(state.board[cell].colour, []).append(name)
    removed = listed(f"{', '.join(points)} (colour {colour})" for colour, points in sorted(by_colour.items()))
    return MoveReport(text=" ".join("x" + name for name in names) + f" removes {removed}",
                      captured=tuple(names))


class _Walk:
    """A towers-phase or play-phase turn replayed step by step: what each
    step wrote, put on the board and took off it."""

    def __init__(self, state, tokens):
        self.state = state
        self.island = state.island
        self.player = state.to_move
        self.tokens = list(tokens)
        self.progress = rules.Progress(board=state.board, streak=state.streak)
        self.written = []           # the move's tokens, jump chains as start-end
        self.route = []             # the moving Viking's points, start first
        self.placed = []            # points of towers placed or swapped
        self.captured = []          # points of pieces captured
        self.taken = []             # the same in words: "e3", "the tower T2 on e6 (T1 takes its point)"
        self.swaps = []             # conquests the move string does not write: "T1 replaces T2 on d4"
        self.swaps_first = []       # those of the check before the movement (a play turn's step 1)

    def name(self, cell):
        return self.island.point_name(cell)

    def conquest(self):
        """The conquest check: a swap where an opposing tower stands, a
        placement (read from the next token) where a point is free."""
        for letter in self.island.territories:
            action = rules.conquest_in(self.state, self.progress.board, self.player, letter)
            if action is None:
                continue
            if action[0] == "swap":
                _, cell, colour = action
                old = self.progress.board[cell]
                self.swaps.append(f"T{colour} replaces T{old.colour} on {self.name(cell)}")
            else:
                cell = self.island.parse_point(self.tokens.pop(0)[2:])
                colour = action[2]
                self.written.append("T@" + self.name(cell))
            board = list(self.progress.board)
            board[cell] = TOWER[colour]
            self.progress = replace(self.progress, board=tuple(board))
            self.placed.append(self.name(cell))

    def movements(self):
        """The movement and its continuations, or the pass."""
        if self.tokens and self.tokens[0] == "pass":
            self.tokens.pop(0)
            self.written.append("pass")
            return
        while self.tokens and "-" in self.tokens[0]:
            route = [self.island.parse_point(part) for part in self.tokens.pop(0).split("-")]
            start, end = route[0], route[-1]
            before = self.progress.board
            if len(route) == 2:
                route = jump_route(self.island, before, start, end)
            self.progress = rules.move_viking(self.state, self.progress, self.player, start, end)
            self.written.append(f"{self.name(start)}-{self.name(end)}")
            names = [self.name(cell) for cell in route]
            self.route.extend(names if not self.route else names[1:])
            self._captures(before, self.progress.board, start, end)

    def _captures(self, before, after, start, end):
        """The pieces the landing on `end` took off, in cell order; a tower
        captured may have the mover's tower in its place at once."""
        for cell in self.island.points:
            if cell in (start, end) or before[cell] is None or after[cell] == before[cell]:
                continue
            name = self.name(cell)
            self.captured.append(name)
            if before[cell].kind == "viking":
                self.taken.append(name)
                continue
            words = f"the tower T{before[cell].colour} on {name}"
            if after[cell] is not None:            # the mover's tower, placed at once
                self.placed.append(name)
                words += f" (T{after[cell].colour} takes its point)"
            self.taken.append(words)

    def report(self):
        text = " ".join(self.written) if self.written else "pass"
        if self.taken:
            text += f" captures {listed(self.taken)}"
        if self.swaps:
            text += "; " + "; ".join(self.swaps)
        if text == "pass":
            text += (" (no tower to place)" if self.state.phase == "towers"
                     else " (no legal movement)")
        if self.swaps_first:          # the turn's first conquest check, said first
            text = "; ".join(self.swaps_first) + ", then " + text
        return MoveReport(text=text, from_=self.route[0] if self.route else None,
                          to=self.route[-1] if self.route else None, route=tuple(self.route),
                          placed=tuple(self.placed), captured=tuple(self.captured))


def _turn(state, tokens):
    walk = _Walk(state, tokens)
    walk.conquest()
    if state.phase == "play":
        walk.swaps_first, walk.swaps = walk.swaps, []
        walk.movements()
        walk.conquest()
    elif walk.tokens == ["pass"]:
        walk.tokens.pop(0)
    if walk.tokens:                      # play_move took the move: this is a bug here
        raise MoveError(" ".join(tokens), f"describe: '{walk.tokens[0]}' left over")
    return walk.report()



def jump_route(island, board, start, end):
    """The route of a movement written start-end (rules.movement_route);
    a MoveError when the board has none (play_move took the move: a bug)."""
    route = rules.movement_route(island, board, start, end)
    if route is None:
        raise MoveError(f"{island.point_name(start)}-{island.point_name(end)}", "describe: no route found")
    return route
