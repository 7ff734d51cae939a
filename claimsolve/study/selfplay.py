"""The `selfplay` study: engine games recorded position by position, the
data `claimsolve train` fits a learned evaluation to (docs/learning.md).

Every seat is played by SPEC A, or (with B) seat (game mod seats) + 1 by A
and the others by B, the seats rotating from game to game.  Game i starts
from seed + i (with B: seed + i // seats, each start played with A at every
seat).  Each game is a task; its row holds the start position (JSON: the
game instance's settings: board, island, seats, rules), the moves, each
seat's points at the end (a win 1, shared when tied, as `match` counts
them) and, for each position where a seat was to move, in order:

    states   the engine's state bytes (GameState.state_bytes()) of every
             position, concatenated and zlib-compressed (`state_size`
             bytes each: GameState(start.engine_game(), chunk) is the
             position again, observations and all)
    movers   the seat to move (1-based)
    values   the search's own value of the position where it is free: an
             MCTS player's mean result for the mover over all its
             simulations from the position (its estimate of his reward, 0
             to 1; a proven result's 0, 0.5 or 1 where it proved its best
             move); null where no MCTS search ran (one legal move, another
             kind of player)
"""
import json
import random
import zlib

from .. import limits
from ..catalog import get_game
from ..errors import ClaimsolveError
from ..match import MAX_PLIES, Adjudicator, _player_seed, game_result
from ..player_kinds import make_player
from ..words import counted
from . import schema, stats
from .kinds import (ADJUDICATED, MAX_TASKS, KeepsAdjudications, StudyKind, _adjudicated_rule,
                    _first_start, _game, _options_text, _seeded, _setup_named, _spec, _spread, _start,
                    _start_problem, _study_games, adjudicated_line, adjudications)


def _blob(column):
    return schema.Rule(f"typeof({schema._q(column)}) != 'blob'", "the compressed state bytes (a blob)")


def _values(column, length_column):
    bad = schema._json_list(column, items=("integer", "real", "null"), item_test="value IS NULL OR "
                            "value BETWEEN 0 AND 1")
    c, n = schema._q(column), schema._q(length_column)
    return schema.Rule(f"({bad}) OR json_array_length({c}) != {n}",
                       "a JSON list of a value from 0 to 1 or null for each position")


def _start_rule(game):
    c = schema._q("start")
    return schema.Rule(f"typeof({c}) != 'text' OR NOT json_valid({c}) OR json_type({c}) != 'object' "
                       f"OR json_extract({c}, '$.game') IS NOT {schema._sql_text(game)}",
                       f"a {game} position (JSON)")


def _search_value(result):
    """An MCTS search's value of its root for the mover, 0 to 1: the
    proven result's where its best move is proven, else the mean result
    of all its simulations (its moves' means weighted by their visits);
    None for no MCTS search."""
    if result is None or result.engine != "mcts" or not result.suggestions:
        return None
    best = result.best
    if best.result is not None:
        value = best.score
    else:
        visits = sum(s.visits or 0 for s in result.suggestions)
        if not visits:
            return None
        value = sum(s.score * (s.visits or 0) for s in result.suggestions) / visits
    return round(min(1.0, max(0.0, float(value))), 6)


def unpack_states(row):
    """The state bytes of each position of a selfplay row, in order."""
    size = row["state_size"]
    try:
        data = zlib.decompress(row["states"])
    except zlib.error as exc:
        raise ValueError(f"the states are not zlib data ({exc})") from None
    if size <= 0 or len(data) != size * row["positions"]:
        raise ValueError(f"{len(data)} state bytes for {row['positions']} positions of {size} bytes")
    return [data[k * size:(k + 1) * size] for k in range(row["positions"])]


def checked_states(row, start):
    """unpack_states(row), each checked to be the position the row's moves
    lead to from `start` (its position): the bytes go to the C engine as
    they are, which reads whatever it is given as a position, so bytes of
    another position would teach the wrong one and bytes of none can
    crash it.  A ValueError names the first that is not; an illegal move
    raises the MoveError of playing it."""
    states = unpack_states(row)
    moves = row["moves"]
    if len(moves) != len(states):
        raise ValueError(f"{len(states)} positions for {len(moves)} moves")
    position = start
    for k, (state, move) in enumerate(zip(states, moves)):
        if position.engine_state().state_bytes() != state:
            raise ValueError(f"position {k + 1} is not the one its moves lead to from the start: the states "
                             "were changed outside claimsolve")
        position = position.play(move)
    return states


class SelfplayStudy(KeepsAdjudications, StudyKind):
    """Engine games recorded position by position (the module's text)."""

    name = "selfplay"
    columns = (("start_seed", "INTEGER"), ("seating", "TEXT"), ("first", "INTEGER"), ("points", "TEXT"),
               ("plies", "INTEGER"), ("start", "TEXT"), ("moves", "TEXT"), ("positions", "INTEGER"),
               ("state_size", "INTEGER"), ("states", "BLOB"), ("movers", "TEXT"), ("values", "TEXT"), ADJUDICATED)
    json_columns = ("seating", "points", "moves", "movers", "values")

    def options(self, game, a, games, b=None, players=None, size=None, island=None, variant=None, seed=0, *,
                label=None):
        label = label or self.option
        descriptor = _game(game, label)
        games = _study_games(games, label)
        seed = limits.seed(seed, label("seed"))
        for key, spec in (("a", a), ("b", b)):
            if spec is not None or key == "a":
                make_player(_spec(spec, label, key), game=game)
        with _setup_named(label):
            start = _first_start(game, seed, dict(players=players, size=size, island=island, variant=variant))
        return {"game": game, "a": a, "b": b, "games": games,
                "players": start.num_players if descriptor.takes("players") else None,
                "size": size, "island": island, "variant": variant, "seed": seed, "seats": start.num_players}

    params_types = {"game": "text", "a": "text", "b": "text?", "games": "count", "players": "count?",
                    "size": "text?", "island": "text?", "variant": "text?", "seed": "whole", "seats": "count"}

    def params_problem(self, params):
        get_game(params["game"])
        if params["games"] > MAX_TASKS:
            return f"'games' is {params['games']:,}, more than {MAX_TASKS:,}"
        return _start_problem(params)

    def column_rules(self, params):
        seats = params["seats"]
        specs = [params["a"]] + ([params["b"]] if params["b"] else [])
        return {"start_seed": schema.integer("start_seed", null=True),
                "seating": schema.texts("seating", seats, among=specs),
                "first": schema.integer("first", low=1, high=seats), "points": schema.numbers("points", seats),
                "plies": schema.integer("plies", low=0, high=MAX_PLIES), "start": _start_rule(params["game"]),
                "moves": schema.texts("moves"), "positions": schema.integer("positions", low=0, high=MAX_PLIES),
                "state_size": schema.integer("state_size", low=1), "states": _blob("states"),
                "movers": schema.Rule(schema._json_list("movers", items=("integer",),
                                                        item_test=f"value BETWEEN 1 AND {seats}")
                                      + ' OR json_array_length("movers") != "positions"',
                                      f"a JSON list of a seat from 1 to {seats} for each position"),
                "values": _values("values", "positions"), "adjudicated": _adjudicated_rule()}

    def row_rules(self, params):
        return [("json_array_length(moves) != plies", "column 'plies' is not the number of its moves"),
                ("positions != plies", "column 'positions' is not one position for each move")]

    def task_ids(self, params):
        return range(params["games"])

    def _seating(self, params, index):
        seats = params["seats"]
        if params["b"] is None:
            return index, [params["a"]] * seats
        k, a_seat = divmod(index, seats)
        return k, [params["a"] if seat == a_seat else params["b"] for seat in range(seats)]

    def run_task(self, params, index, cache):
        game, seed = params["game"], params["seed"]
        k, seating = self._seating(params, index)
        start = _start(params, k, cache)
        lineup = [make_player(spec, seed=_player_seed(seed, index, seat), game=game)
                  for seat, spec in enumerate(seating, 1)]
        rng = random.Random(_player_seed(seed, index, 0))
        for player in lineup:
            player.reset()
        position, moves, states, movers, values = start, [], [], [], []
        referee, adjudicated = Adjudicator(MAX_PLIES), None
        while not position.is_over():
            adjudicated = referee.why_stop(position, len(moves))
            if adjudicated is not None:          # the rules would not end it: a draw (claimsolve.match)
                break
            seat = position.player_to_move
            states.append(position.engine_state().state_bytes())
            movers.append(seat)
            player = lineup[seat - 1]
            if hasattr(player, "last_result"):
                player.last_result = None
            move = position.resolve_chance(player.choose(position), rng)
            values.append(_search_value(getattr(player, "last_result", None)))
            for each in lineup:
                each.observe(position, move)
            position = position.play(move)
            moves.append(move)
        sizes = {len(state) for state in states}
        if len(sizes) > 1:
            raise ClaimsolveError(f"study selfplay: {game}'s engine states differ in size ({sorted(sizes)})")
        size = sizes.pop() if sizes else len(start.engine_state().state_bytes())
        return {"start_seed": seed + k if _seeded(game) else None, "seating": seating,
                "first": start.player_to_move, "points": game_result(position, adjudicated)[0],
                "plies": len(moves), "start": json.dumps(start.to_json(), separators=(",", ":")),
                "moves": list(moves), "positions": len(states), "state_size": size,
                "states": zlib.compress(b"".join(states), 6), "movers": movers, "values": values,
                "adjudicated": adjudicated}

    def describe(self, key, value):
        return f"--{key} {value}" if value is not None else f"no --{key}"

    def note(self, params, store):
        row = store.conn.execute("SELECT SUM(positions), COUNT(*) FROM tasks").fetchone()
        return f"{row[0] or 0:,} positions" if row[1] else ""

    def summary(self, params, rows, total):
        seats = params["seats"]
        n = len(rows)
        totals = [0.0] * seats
        first_total = 0.0
        by_spec, games_of = {}, {}
        for row in rows:
            for seat, (spec, p) in enumerate(zip(row["seating"], row["points"])):
                totals[seat] += p
                by_spec[spec] = by_spec.get(spec, 0.0) + p
                games_of[spec] = games_of.get(spec, 0) + 1
            first_total += row["points"][row["first"] - 1]
        positions = sum(row["positions"] for row in rows)
        valued = sum(1 for row in rows for v in row["values"] if v is not None)
        out = {"kind": "selfplay", "game": params["game"], "options": _options_text(params), "a": params["a"],
               "b": params["b"], "seats": seats, "games": n, "positions": positions, "valued": valued,
               "by_seat": {str(seat + 1): stats.mean_points(totals[seat], n) for seat in range(seats)},
               "first_mover": stats.mean_points(first_total, n),
               # a seat's points when every seat scores alike: 1 / seats, 1 / teams where allies share a win
               "equal_share": round(sum(sum(row["points"]) for row in rows) / (n * seats), 4) if n else None,
               "plies_mean": round(sum(row["plies"] for row in rows) / n, 1) if n else None,
               **adjudications(rows),
               "state_bytes": sum(len(row["states"]) for row in rows),
               "seconds": _spread(sorted(row["seconds"] for row in rows))}
        if params["b"]:
            out["by_spec"] = {spec: stats.mean_points(by_spec[spec], games_of[spec]) for spec in by_spec}
        return out

    def text(self, summary):
        n = summary["games"]
        head = f"{summary['game']} {summary['options']}".strip()
        players = f"A = {summary['a']}" + (f" at one seat, B = {summary['b']} at the others (rotated)"
                                           if summary["b"] else " at every seat")
        lines = [f"{head}: self-play, {players}; {counted(n, 'game')}, {counted(summary['positions'], 'position')} "
                 f"({summary['seats']} seats)"]
        if not n:
            return "\n".join(lines)
        lines.append(f"Positions with the search's own value (MCTS): {summary['valued']:,}; compressed states "
                     f"{summary['state_bytes'] / max(1, summary['positions']):.1f} bytes a position")
        lines.append("Points by seat (a win 1, shared when tied; 95% intervals):  "
                     + "   ".join(f"{seat}: {p['mean']:.3f} ({p['ci95'][0]:.3f}-{p['ci95'][1]:.3f})"
                                  for seat, p in summary["by_seat"].items()))
        first = summary["first_mover"]
        lines.append(f"The first to move scores {first['mean']:.3f}, 95% {first['ci95'][0]:.3f} to "
                     f"{first['ci95'][1]:.3f} (equal share {summary['equal_share']:.3f})")
        for spec, p in (summary.get("by_spec") or {}).items():
            lines.append(f"  {spec}: {p['mean']:.3f} a seat-game, 95% {p['ci95'][0]:.3f} to {p['ci95'][1]:.3f}")
        if line := adjudicated_line(summary):
            lines.append(line)
        if summary["seconds"]:
            lines.append(f"Mean plies {summary['plies_mean']}; seconds per game: median "
                         f"{summary['seconds']['median']:.3g}, max {summary['seconds']['max']:.3g}")
        return "\n".join(lines)

    def charts(self, summary, rows, folder):
        return []
