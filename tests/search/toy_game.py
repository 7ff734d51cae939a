"""A toy game for the searches, written in Python and handed to them as a
cs_game (ext/game.h) built with ctypes, plus its brute-force solutions.

"Take an end": a row of numbers; the player to move takes the left or right
end and adds it to his score; taking 5 or more earns another move.  The
game ends when the row is empty.

- Sides: with `teams` (4 players) seats 0 and 2 play against 1 and 3
  through the side() hook; `side` gives any other hook (a function of the
  seat); without either the hook is NULL (3 players: no teams).
- returns(): the sides ranked by their totals get prizes from 1 down to 0:
  with two teams 1 to every seat of the side with the larger total, 0 to
  the others, 0.5 to everyone on equal totals; with three players 1, 0.5
  and 0 by placing (ties share), so that every player cares about every
  place and max^n has few ties.
- evaluate(p): p's side's total minus the best other side's total, so at
  the end its sign is p's result.

The callbacks run Python under the GIL (ctypes takes it when C calls
them), which the searches allow: they only need the function pointers.
"""
import ctypes
import re
from pathlib import Path

GAME_H = Path(__file__).resolve().parents[2] / "ext" / "game.h"


def cs_game_fields():
    """The field names of `struct cs_game` in ext/game.h, in order."""
    text = re.sub(r"/\*.*?\*/", "", GAME_H.read_text(), flags=re.S)
    body = re.search(r"typedef struct cs_game\s*\{(.*?)\}\s*cs_game;", text, re.S).group(1)
    names = []
    for declaration in filter(str.strip, body.split(";")):
        pointer = re.search(r"\(\s*\*\s*(\w+)\s*\)", declaration)
        names.append(pointer.group(1) if pointer else re.findall(r"\w+", declaration)[-1])
    return names


c = ctypes
PROTOTYPES = dict(
    to_move=c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_void_p),
    legal_moves=c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_void_p, c.POINTER(c.c_int64)),
    apply=c.CFUNCTYPE(None, c.c_void_p, c.c_void_p, c.c_int64),
    returns=c.CFUNCTYPE(None, c.c_void_p, c.c_void_p, c.POINTER(c.c_double)),
    evaluate=c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_void_p, c.c_int),
    hash=c.CFUNCTYPE(c.c_uint64, c.c_void_p, c.c_void_p),
    side=c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_int),
    playout_value=c.CFUNCTYPE(c.c_int, c.c_void_p, c.c_void_p, c.POINTER(c.c_double)),
)


class CsGame(c.Structure):
    """struct cs_game of ext/game.h: every field, in order (the hooks the
    toy game leaves out are NULL pointers)."""
    _fields_ = [("name", c.c_char_p), ("ctx", c.c_void_p), ("num_players", c.c_int),
                ("state_size", c.c_int), ("max_moves", c.c_int), ("max_outcomes", c.c_int),
                ("to_move", PROTOTYPES["to_move"]), ("legal_moves", PROTOTYPES["legal_moves"]),
                ("apply", PROTOTYPES["apply"]), ("chance_outcomes", c.c_void_p),
                ("returns", PROTOTYPES["returns"]), ("evaluate", PROTOTYPES["evaluate"]),
                ("hash", PROTOTYPES["hash"]), ("side", c.c_void_p), ("playout_policy", c.c_void_p),
                ("move_priority", c.c_void_p), ("in_turn", c.c_void_p), ("move_count", c.c_void_p),
                ("chance_sample", c.c_void_p), ("playout_value", c.c_void_p), ("reply_counts", c.c_void_p),
                ("final_value", c.c_void_p), ("small_tree", c.c_void_p),
                ("small_tree_value", c.c_void_p), ("obs_planes", c.c_int), ("obs_height", c.c_int),
                ("obs_width", c.c_int), ("obs_scalars", c.c_int), ("observe", c.c_void_p),
                ("num_actions", c.c_int), ("action_of", c.c_void_p), ("observe_sums", c.c_void_p)]


class ToyGame:
    """One instance of the toy game; `capsule` is what the searches take
    (GameState, Searcher and Tree want an object with a `capsule`)."""

    STATE = ctypes.c_int32 * 8          # lo, hi, to_move, score[0..4]

    def __init__(self, values, players, teams=False, side=None, value=None):
        """`value`: a function of the state list giving every player's
        reward or None, for the playout_value hook (None: no hook)."""
        self.values, self.players, self.teams = list(values), players, teams
        self.side_hook = (lambda p: p % 2) if teams else side

        def state(st):
            return list(self.STATE.from_address(st))

        def returns(ctx, st, out):
            for p, reward in enumerate(self.returns(state(st))):
                out[p] = reward

        self._callbacks = dict(
            to_move=PROTOTYPES["to_move"](lambda ctx, st: self.to_move(state(st))),
            legal_moves=PROTOTYPES["legal_moves"](self._legal_moves),
            apply=PROTOTYPES["apply"](self._apply),
            returns=PROTOTYPES["returns"](returns),
            evaluate=PROTOTYPES["evaluate"](lambda ctx, st, p: self.evaluate(state(st), p)),
            hash=PROTOTYPES["hash"](lambda ctx, st: hash(tuple(state(st))) & (2 ** 64 - 1)),
        )
        side_pointer = None
        if self.side_hook is not None:
            self._callbacks["side"] = PROTOTYPES["side"](lambda ctx, p: self.side_hook(p))
            side_pointer = ctypes.cast(self._callbacks["side"], ctypes.c_void_p)
        value_pointer = None
        if value is not None:
            def playout_value(ctx, st, out):
                rewards = value(state(st))
                if rewards is None:
                    return 0
                for p, reward in enumerate(rewards):
                    out[p] = reward
                return 1
            self._callbacks["playout_value"] = PROTOTYPES["playout_value"](playout_value)
            value_pointer = ctypes.cast(self._callbacks["playout_value"], ctypes.c_void_p)
        hooks = {name: hook for name, hook in self._callbacks.items() if name not in ("side", "playout_value")}
        self.struct = CsGame(name=b"toy", ctx=None, num_players=players, state_size=ctypes.sizeof(self.STATE),
                             max_moves=2, max_outcomes=0, chance_outcomes=None, side=side_pointer,
                             playout_policy=None, move_priority=None, in_turn=None, move_count=None,
                             chance_sample=None, playout_value=value_pointer, reply_counts=None, final_value=None,
                             small_tree=None, small_tree_value=None,
                             **hooks)
        new_capsule = ctypes.pythonapi.PyCapsule_New
        new_capsule.restype = ctypes.py_object
        new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self.capsule = new_capsule(ctypes.addressof(self.struct), b"claimsolve.cs_game", None)

    def start(self):
        return [0, len(self.values), 0] + [0] * 5

    def state_bytes(self, s):
        return bytes(self.STATE(*s))

    # --- the rules, on plain lists: used by the callbacks and the brute force
    def to_move(self, s):
        return -2 if s[0] >= s[1] else s[2]

    def play(self, s, move):
        s = list(s)
        taken = self.values[s[0]] if move == 0 else self.values[s[1] - 1]
        if move == 0:
            s[0] += 1
        else:
            s[1] -= 1
        s[3 + s[2]] += taken
        if taken < 5:
            s[2] = (s[2] + 1) % self.players
        return s

    def side_of(self, p):
        return p if self.side_hook is None else self.side_hook(p)

    def totals(self, s):
        totals = {}
        for q in range(self.players):
            totals[self.side_of(q)] = totals.get(self.side_of(q), 0) + s[3 + q]
        return totals

    def evaluate(self, s, p):
        totals = self.totals(s)
        mine = totals.pop(self.side_of(p))
        return mine - max(totals.values())

    def returns(self, s):
        """Every seat's reward at the end: the sides ranked by their totals
        win prizes from 1 (the best) down to 0 (the last) in equal steps,
        tied sides sharing the prizes of their places, and every seat gets
        his side's.  Two sides: 1 for the win, 0 for the loss, 0.5 each for
        a draw; three players: 1, 0.5 and 0 by placing."""
        totals = self.totals(s)
        count = len(totals)
        prizes = [1.0 - place / max(1, count - 1) for place in range(count)]
        prize = {}
        for side, total in totals.items():
            above = sum(1 for other in totals.values() if other > total)
            tied = sum(1 for other in totals.values() if other == total)
            prize[side] = sum(prizes[above:above + tied]) / tied
        return [prize[self.side_of(p)] for p in range(self.players)]

    def _legal_moves(self, ctx, st, out):
        if self.to_move(list(self.STATE.from_address(st))) < 0:
            return 0
        out[0], out[1] = 0, 1
        return 2

    def _apply(self, ctx, st, move):
        s = self.STATE.from_address(st)
        s[:] = self.play(list(s), move)

    # --- brute force --------------------------------------------------------
    def brute_force(self, s, root):
        """Minimax for the root player's side: the root's side maximises
        evaluate(root), everyone else minimises it (paranoid without teams;
        with two teams, the exact final margin of the root's team)."""
        who = self.to_move(s)
        if who < 0:
            return self.evaluate(s, root)
        values = [self.brute_force(self.play(s, m), root) for m in (0, 1)]
        return max(values) if self.side_of(who) == self.side_of(root) else min(values)

    def reward_minimax(self, s, root, others):
        """The reward of `root` when he maximises it and every other player
        either minimises it (`others` "paranoid") or maximises it too
        ("cooperative"): what wrong backups in a search would compute."""
        who = self.to_move(s)
        if who < 0:
            return self.returns(s)[root]
        values = [self.reward_minimax(self.play(s, m), root, others) for m in (0, 1)]
        return max(values) if who == root or others == "cooperative" else min(values)

    def max_n(self, s):
        """Max^n over returns(), however ties are broken: for every player
        the (lowest, highest) reward that optimal play can end in.  The
        player to move takes a child that is best for him; with several
        equally good children he may take any or mix them (MCTS spreads its
        visits over them), so every child that may be best for him counts,
        and the bounds are those children's.  Sound, not tight."""
        who = self.to_move(s)
        if who < 0:
            return [(r, r) for r in self.returns(s)]
        children = [self.max_n(self.play(s, m)) for m in (0, 1)]
        sure = max(child[who][0] for child in children)
        chosen = [child for child in children if child[who][1] >= sure]
        return [(min(child[p][0] for child in chosen), max(child[p][1] for child in chosen))
                for p in range(self.players)]

    def max_n_best_move(self, s):
        """The move of the player to move that max^n shows optimal however
        ties are broken (the least it can give him beats the most the other
        move can), or None when there is no such move."""
        who = self.to_move(s)
        bounds = [self.max_n(self.play(s, m))[who] for m in (0, 1)]
        for m in (0, 1):
            if bounds[m][0] > bounds[1 - m][1]:
                return m
        return None
