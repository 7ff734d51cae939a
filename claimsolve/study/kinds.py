"""The kinds of study: `solve` (exact values of many setups), `match` (A
against B over many games, with an optional SPRT), `policies` (a round
robin of player specs at one table size, every seating rotated) and
`ladder` (the same round robin, then Elo ratings fitted to all of it).

Each game is reached through the catalog (its descriptor): `solve` takes
the games with an exact solver, the others every game.
"""
import inspect
import itertools
import json
import math
import random
import re
import textwrap
from collections import Counter

from .. import limits, solve
from ..catalog import game_ids, get_game, ids_where
from ..errors import ClaimsolveError, OptionError, as_parameters
from ..match import DuplicateDice, _player_seed, check_duplicate, game_result, play_game, starting_positions
from ..player_kinds import make_player
from ..words import counted
from ..records import MAX_REASON
from ..stats import signed
from . import schema, stats

MAX_TASKS = limits.MAX_TASKS     # tasks in one study
MAX_POLICIES = 64               # specs in one round robin
MAX_ROUND = 100_000             # games in one round of a round robin

# a game the rules did not end, stopped by the harness and scored a draw
# (claimsolve.match): why, or NULL; files made before it was kept lack it
ADJUDICATED = ("adjudicated", "TEXT")


def _adjudicated_rule():
    return schema.reason("adjudicated", MAX_REASON)


# a stopped game is a draw shared equally (records.adjudicated_result): every
# seat the same points; a rule on the column, so only where the file has it
ADJUDICATED_ROW_RULE = ("adjudicated IS NOT NULL AND "
                        "(SELECT MAX(value) - MIN(value) FROM json_each(points)) > 1e-9",
                        "column 'adjudicated' says the match stopped the game, but column 'points' is "
                        "not a draw shared equally")


class KeepsAdjudications:
    """A study kind whose rows are games a match may stop (column
    'adjudicated', ADJUDICATED in its `columns`): the column is optional
    (files made before it was kept lack it) and, where present, a stopped
    game must be an equal draw."""
    optional_columns = (ADJUDICATED[0],)
    optional_row_rules = {ADJUDICATED[0]: [ADJUDICATED_ROW_RULE]}


def adjudicated_count(rows):
    """The games of `rows` a match stopped (scored a draw the rules did not
    make), or None when their file does not say (made before it was kept)."""
    if any("adjudicated" not in row for row in rows):
        return None
    return sum(1 for row in rows if row["adjudicated"] is not None)


def shared_games(rows):
    """The games of `rows` that no seat won alone (a draw, a shared win)."""
    return sum(1 for row in rows if max(row["points"]) < 1)


def adjudications(rows):
    """A summary's `adjudicated` (adjudicated_count) and `shared` (shared_games)."""
    return {"adjudicated": adjudicated_count(rows), "shared": shared_games(rows)}


def adjudicated_line(summary):
    """The report's line on adjudicated games (summary's `adjudicated` and
    `shared`, the games no seat won alone): None where there is nothing to say."""
    count = summary.get("adjudicated")
    if count is None:
        return ("The study file does not say which games a match stopped as a draw (made before claimsolve "
                "kept it); any game shared above may be one.") if summary.get("shared") else None
    if not count:
        return None
    return (f"{count:,} of the games were stopped by the match, not ended by the rules, and scored a draw "
            "(the same position a third time, or no end within the ply cap).")


class StudyKind:
    """One kind of study.  Subclasses set `name`, `columns` [(name, SQL
    type)] (the task's parameters and results; `id`, `seconds`, `worker`,
    `run` and `done_at` come with every row) and `json_columns` (columns
    holding lists), and define:

    options(**given, label=None) -> params
                                 checked, canonical, JSON-able parameters;
                                 a refusal names a key as label(key) gives
                                 it (default: the command line's option,
                                 `option`); params_of() checks the dict
    task_ids(params)             the tasks' ids, in the order to run them
    run_task(params, id, cache)  one task's row {column: value}
    summary(params, rows, total) the report's data (a dict, JSON-able)
    text(summary)                the report for people
    charts(summary, rows, folder) SVG charts written in `folder` (matplotlib)
    note(params, store)          a few words for the progress line
    decide(params, store)        a decision that ends the study early
                                 ({"decision": ...}) or None
    describe(key, value)         a stored parameter as its option reads, or
                                 None for one no option sets (derived)

    and, for the check of a stored study (claimsolve.study.check), which
    trusts nothing in the file:

    params_types                 {key: type} of the stored parameters
                                 (schema.PARAM_TYPES)
    optional_params              {key: type} of parameters stored only when
                                 their option is given (a file made before
                                 the option existed lacks them: it is off)
    params_problem(params)       what is inconsistent in them, or None
    column_rules(params)         {column: schema.Rule} of every column
    optional_columns             columns older study files may lack
    row_rules(params)            [(SQL test of a bad row, what is wrong)]
    optional_row_rules           {optional column: [(SQL test, what is
                                 wrong)]}, checked where the file has it
    """

    name = None
    columns = ()
    json_columns = ()
    # columns a study file made by an older claimsolve may lack: its rows are
    # read without them, and its report says what it therefore cannot tell
    optional_columns = ()
    optional_row_rules = {}
    params_types = {}
    optional_params = {}

    def params_problem(self, params):
        return None

    def column_rules(self, params):
        return {}

    def row_rules(self, params):
        return []

    def decide(self, params, store):
        return None

    def note(self, params, store):
        return ""

    def describe(self, key, value):
        return f"{key} {value}"

    # the command line's option of a parameter whose option is not --KEY
    option_names = {}

    def option(self, key):
        """The command line's option of parameter `key`: --seeds, --games-per-table,
        --hash for hash_mb."""
        return self.option_names.get(key, "--" + key.replace("_", "-"))

    def params_of(self, options, command_line=False):
        """The checked parameters of `options`, {key: value} of options()'s
        keywords: study.run's `options`.  A refusal names the command
        line's option (`option '--seeds'`) or, from Python, the key
        (`parameter 'options', key 'seeds': ...`); a value that is not a
        dict, an unknown key and a missing one are refused too."""
        keywords = {key: parameter.default is inspect.Parameter.empty
                    for key, parameter in inspect.signature(self.options).parameters.items() if key != "label"}
        known = f"the {self.name} study takes {', '.join(keywords)}"
        if not isinstance(options, dict):
            raise ClaimsolveError(f"parameter 'options': must be a dict of the study's options ({known}), "
                                  f"not {limits.quoted(options)}")
        for key in options:
            if not isinstance(key, str) or key not in keywords:
                raise ClaimsolveError(f"parameter 'options': unknown key {limits.quoted(key)} ({known})")
        missing = [key for key, required in keywords.items() if required and key not in options]
        if missing:
            needed = ", ".join(key for key, required in keywords.items() if required)
            raise ClaimsolveError(f"parameter 'options': key '{missing[0]}' is missing (the {self.name} study "
                                  f"needs {needed})")
        return self.options(**options, label=self.option if command_line else python_label)


def python_label(key):
    """How a refusal from Python names the key `key` of study.run's
    options: `parameter 'options', key 'seeds'` (the command line says
    `option '--seeds'`)."""
    return f"parameter 'options', key '{key}'"


def _refusal(label, key, problem):
    """A refusal of the value of `key`, named by `label`."""
    return ClaimsolveError(f"{limits.label(label(key))}: {problem}")


def _setup_named(label):
    """A game's refusal of a setup option (OptionError, worded for the
    command line: `option '--size'`) names the key as `label` does."""
    return as_parameters(label=lambda key: limits.label(label(key)))


def _game(game, label):
    """The descriptor of `game`, a game's id."""
    if not isinstance(game, str):
        raise _refusal(label, "game", f"must be a game's id ({', '.join(game_ids())}), not {limits.quoted(game)}")
    return get_game(game)


def _spec(spec, label, key):
    """A player SPEC's text (make_player checks the rest)."""
    if not isinstance(spec, str):
        raise _refusal(label, key, f"must be a player spec like mcts:time=0.5, not {limits.quoted(spec)}")
    return spec


def _flag(value, label, key):
    """A switch of the command line (--duplicate): True or False."""
    if not isinstance(value, bool):
        raise _refusal(label, key, f"must be True or False, not {limits.quoted(value)}")
    return value


def _study_games(games, label, key="games"):
    """A study's games: 1..MAX_TASKS."""
    return limits.study_games(games, label(key))


def _error_rate(value, label, key):
    """The SPRT's alpha or beta: above 0, below 1."""
    return limits.number(value, label(key), 0.0, math.nextafter(1.0, 0.0), low_open=True,
                         what="an error rate above 0 and below 1")



# -- setups: "1-1000", "1-100,200,300-310" ---------------------------------------------------

def parse_seeds(text, name="--seeds"):
    """The seeds of a SEEDS text (ranges A-B and single seeds, separated by
    commas), sorted and without repeats."""
    if not isinstance(text, str) or not text.strip():
        raise ClaimsolveError(f"{limits.label(name)}: needs seeds like 1-1000 or 1-10,20,30-40")
    seeds = set()
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        if dash and not (low.strip(" ") and high.strip(" ")):     # "-3", "3-": not a seed, not a range
            raise ClaimsolveError(f"{limits.label(name)}: must be seeds from 0 to {limits.MAX_SEED} or ranges of "
                                  f"them like 1-1000, not {limits.quoted(part)}")
        low = limits.seed(low, name)
        high = limits.seed(high, name) if dash else low
        if high < low:
            raise ClaimsolveError(f"{limits.label(name)}: the range {part} runs backwards")
        if len(seeds) + high - low + 1 > MAX_TASKS:
            raise ClaimsolveError(f"{limits.label(name)}: more than {MAX_TASKS:,} seeds")
        seeds.update(range(low, high + 1))
    return sorted(seeds)


def _seeds(value, name):
    """The seeds of a SEEDS text (parse_seeds) or of a list of seeds (a
    tuple, a range), sorted and without repeats."""
    if isinstance(value, str):
        return parse_seeds(value, name)
    if not isinstance(value, (list, tuple, range)) or not value:
        raise ClaimsolveError(f"{limits.label(name)}: must be seeds like '1-1000' or '1-10,20,30-40', or a list of "
                              f"seeds like [1, 2, 3], not {limits.quoted(value)}")
    if len(value) > MAX_TASKS:
        raise ClaimsolveError(f"{limits.label(name)}: more than {MAX_TASKS:,} seeds")
    return sorted({limits.seed(seed, name) for seed in value})


def seeds_text(seeds):
    """The shortest SEEDS text of sorted seeds: 1-1000,2000."""
    parts = []
    for _, group in itertools.groupby(enumerate(seeds), lambda pair: pair[1] - pair[0]):
        run = [seed for _, seed in group]
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(parts)


def _start_options(params):
    return {key: params.get(key) for key in ("players", "size", "island", "variant")}


def _first_start(game, seed, options):
    """The first start of a study's games (refuses options the game does not
    take, as `new` and `match` do)."""
    return starting_positions(game, 1, seed, **options)[0]


def _start_problem(params):
    """What is wrong with a stored study's start options (a size, a seat
    count or a variant its game refuses, or seats that are not the start's),
    or None: the check of a study file (claimsolve.study.check) asks the
    game, as the command line did when the study began."""
    try:
        start = _first_start(params["game"], params["seed"], _start_options(params))
    except ClaimsolveError as exc:
        return _as_stored(exc)
    if start.num_players != params["seats"]:
        return f"'seats' is {params['seats']}; its start has {start.num_players}"
    return None


def _as_stored(exc):
    """A game's refusal of a setup option (`option '--size': 9x9: ...`) as
    one of the stored parameter (`'size': 9x9: ...`)."""
    return f"'{exc.option}': {exc.problem}" if isinstance(exc, OptionError) else exc.message


def _start(params, k, cache):
    """The k-th start of the study's games (from seed + k when the game
    takes a seed), kept in the worker's cache while it is used."""
    key = ("start", k)
    if key not in cache:
        cache.pop(cache.get("last_start"), None)
        cache[key] = starting_positions(params["game"], 1, params["seed"] + k, **_start_options(params))[0]
        cache["last_start"] = key
    return cache[key]


def _seeded(game):
    descriptor = get_game(game)
    return descriptor.match_start is not None or descriptor.takes("seed")


def _options_text(params):
    words = [f"--{key} {params[key]}" for key in ("players", "size", "island", "variant") if params.get(key)]
    if params.get("duplicate"):
        words.append("--duplicate")
    return " ".join(words)


# --duplicate in the studies that play games: the parameter is stored only
# when given, so a study file made before it existed reads as without it
DUPLICATE_PARAMS = {"duplicate": "flag"}


def _with_duplicate(params, duplicate, label):
    """`params` with duplicate dice when `duplicate` (refused for a game
    without dice, as `match --duplicate` refuses it)."""
    if not _flag(duplicate, label, "duplicate"):
        return params
    check_duplicate(params["game"], limits.label(label("duplicate")))
    return dict(params, duplicate=True)


def _dice(params, start_number, index):
    """The chance of game `index`, from the study's `start_number`-th start:
    duplicate dice (claimsolve.match.DuplicateDice, the same as `match
    --duplicate` with the study's seed deals) or one stream of the game's own."""
    if params.get("duplicate"):
        return DuplicateDice(params["seed"], start_number)
    return random.Random(_player_seed(params["seed"], index, 0))


def _describe_duplicate(value):
    return "--duplicate" if value else "no --duplicate"


def _duplicate_problem(params):
    """What is wrong with a stored `duplicate`, or None."""
    if params.get("duplicate") and not get_game(params["game"]).has_chance:
        return f"'duplicate' is true, but {params['game']} has no dice"
    return None


def _heading(summary, what):
    """The first line of a report: the game, its options and `what`."""
    return f"{summary['game']} {summary['options']}".strip() + ": " + what


def _by_seat(rows, seats):
    """Mean points of each seat (1-based) and of the seat that moved first."""
    totals = [0.0] * seats
    first_total = 0.0
    for row in rows:
        points = row["points"]
        for seat in range(seats):
            totals[seat] += points[seat]
        first_total += points[row["first"] - 1]
    n = len(rows)
    return ({str(seat + 1): stats.mean_points(totals[seat], n) for seat in range(seats)},
            stats.mean_points(first_total, n))


# -- solve -----------------------------------------------------------------------------------

RESULTS = ("win", "draw", "loss")


class SolveStudy(StudyKind):
    """Exact values of many random setups: the value for the player to move
    first, the result, the best move, nodes and seconds, per setup."""

    name = "solve"
    columns = (("seed", "INTEGER"), ("to_move", "INTEGER"), ("value", "INTEGER"), ("result", "TEXT"),
               ("best", "TEXT"), ("lower", "INTEGER"), ("upper", "INTEGER"), ("nodes", "INTEGER"),
               ("complete", "INTEGER"))

    option_names = {"hash_mb": "--hash"}

    def options(self, game, seeds, size=None, time=None, hash_mb=64, *, label=None):
        label = label or self.option
        descriptor = _game(game, label)
        if descriptor.solve is None:
            having = ", ".join(ids_where(lambda each: each.solve is not None)) or "no game"
            raise ClaimsolveError(f"study solve: exact solving is for {having}, not {game}")
        if not descriptor.takes("seed"):
            raise ClaimsolveError(f"study solve: {game} has no random setups to number")
        seed_list = _seeds(seeds, label("seeds"))
        if time is not None:
            time = limits.seconds(time, label("time"))
        hash_mb = limits.memory_mb(hash_mb, label("hash_mb"))
        with _setup_named(label):
            position = descriptor.new(size=size, seed=seed_list[0])     # refuses a bad size
        return {"game": game, "size": size or _size_of(position), "seeds": seeds_text(seed_list),
                "time": time, "hash_mb": hash_mb}

    params_types = {"game": "text", "size": "text?", "seeds": "text", "time": "number?", "hash_mb": "count"}

    def params_problem(self, params):
        descriptor = get_game(params["game"])
        if descriptor.solve is None:
            return f"{params['game']} has no exact solver"
        seeds = parse_seeds(params["seeds"], "seeds")
        try:
            position = descriptor.new(size=params["size"], seed=seeds[0])
        except ClaimsolveError as exc:
            return _as_stored(exc)
        if params["size"] != _size_of(position):
            return f"'size' is {params['size']!r}; its setups are {_size_of(position)}"
        return None

    def column_rules(self, params):
        return {"seed": schema.integer("seed"), "to_move": schema.integer("to_move", low=1),
                "value": schema.integer("value", null=True), "result": schema.text("result", True, RESULTS),
                "best": schema.text("best", null=True), "lower": schema.integer("lower", null=True),
                "upper": schema.integer("upper", null=True), "nodes": schema.integer("nodes", low=0),
                "complete": schema.boolean("complete")}

    def row_rules(self, params):
        word = "CASE WHEN value > 0 THEN 'win' WHEN value < 0 THEN 'loss' ELSE 'draw' END"
        return [("seed != id", "column 'seed' is not the row's id (a setup's id is its seed)"),
                (f"complete = 1 AND (value IS NULL OR result IS NOT {word})",
                 "a complete solve whose 'result' is not the word of its 'value'")]

    def task_ids(self, params):
        return parse_seeds(params["seeds"])

    def run_task(self, params, seed, cache):
        descriptor = get_game(params["game"])
        position = descriptor.new(size=params["size"], seed=seed)
        result = solve(position, time=params["time"], hash_mb=params["hash_mb"])
        info = result.info
        return {"seed": seed, "to_move": position.player_to_move, "value": info.get("value"),
                "result": info.get("result"), "best": result.best.move if result.best else None,
                "lower": info.get("lower", info.get("value")), "upper": info.get("upper", info.get("value")),
                "nodes": result.nodes, "complete": bool(result.complete)}

    def describe(self, key, value):
        if key == "hash_mb":
            return f"--hash {value}"
        return f"--{key} {value}" if value is not None else f"no --{key}"

    def note(self, params, store):
        row = store.conn.execute("SELECT SUM(result='win'), SUM(result='draw'), SUM(result='loss'), COUNT(*) "
                                 "FROM tasks").fetchone()
        wins, draws, losses, n = (x or 0 for x in row)
        if not n:
            return ""
        return f"first: +{100 * wins / n:.0f}% ={100 * draws / n:.0f}% -{100 * losses / n:.0f}%"

    def summary(self, params, rows, total):
        solved = [row for row in rows if row["complete"]]
        n = len(solved)
        counts = Counter(row["result"] for row in solved)
        values = Counter(row["value"] for row in solved)
        seconds = sorted(row["seconds"] for row in rows)
        best = Counter(row["best"] for row in solved if row["best"])
        return {
            "kind": "solve", "game": params["game"], "size": params["size"], "seeds": params["seeds"],
            "solved": n, "unsolved": len(rows) - n,
            "first_player": {word: stats.proportion(counts.get(word, 0), n) for word in ("win", "draw", "loss")},
            "mean_value": round(sum(row["value"] for row in solved) / n, 4) if n else None,
            "values": {str(value): count for value, count in sorted(values.items())},
            "seconds": _spread(seconds),
            "cpu_seconds": _spread(sorted(row["cpu_seconds"] for row in rows if row.get("cpu_seconds") is not None)),
            "nodes_mean": round(sum(row["nodes"] for row in rows) / len(rows)) if rows else None,
            "best_moves": [[move, count] for move, count in best.most_common(5)],
        }

    def text(self, summary):
        n = summary["solved"]
        lines = [f"Exact values of {summary['game']} {summary['size']}, setups {summary['seeds']}: {n:,} solved"
                 + (f", {summary['unsolved']:,} not within the time" if summary["unsolved"] else "")]
        if n:
            lines.append("The player to move first (value: his margin with best play by both):")
            for word, label in (("win", "wins"), ("draw", "draws"), ("loss", "loses")):
                p = summary["first_player"][word]
                lines.append(f"  {label:6} {p['count']:6,}  {100 * p['share']:5.1f}%   "
                             f"95% {100 * p['ci95'][0]:5.1f}% to {100 * p['ci95'][1]:5.1f}%")
            lines.append(f"  mean margin {signed(summary['mean_value'], 3)}")
            lines.append("Margins:")
            width = max(summary["values"].values())
            for value, count in summary["values"].items():
                bar = "#" * max(1, round(40 * count / width))
                lines.append(f"  {int(value):+4d} {count:6,}  {bar}")
            if summary["best_moves"]:
                lines.append("Commonest best first moves: "
                             + ", ".join(f"{move} ({count:,})" for move, count in summary["best_moves"]))
        if summary["seconds"]:
            s = summary["seconds"]
            lines.append(f"Seconds per setup: median {s['median']:.3g}, mean {s['mean']:.3g}, max {s['max']:.3g}; "
                         f"mean nodes {summary['nodes_mean']:,}")
        if summary.get("cpu_seconds"):
            s = summary["cpu_seconds"]
            lines.append(f"Processor seconds per setup (wall time above also counts waiting for a busy core): "
                         f"median {s['median']:.3g}, mean {s['mean']:.3g}, max {s['max']:.3g}")
        return "\n".join(lines)

    def charts(self, summary, rows, folder):
        from . import charts     # deferred: matplotlib, an extra, loads only to draw
        return charts.solve_charts(summary, folder)


def _size_of(position):
    size = getattr(position, "size", None)
    if isinstance(size, str):
        return size
    width, height = getattr(position, "width", None), getattr(position, "height", None)
    return f"{width}x{height}" if width and height else None


def _spread(values):
    if not values:
        return None
    n = len(values)
    return {"mean": round(sum(values) / n, 6), "median": round(values[n // 2], 6), "max": round(values[-1], 6),
            "total": round(sum(values), 3)}


# -- match -----------------------------------------------------------------------------------

class MatchStudy(KeepsAdjudications, StudyKind):
    """A against B, as `claimsolve match` plays it: game i from start
    seed + i // sides, A's side rotating through the sides; each game a task."""

    name = "match"
    columns = (("start_seed", "INTEGER"), ("a_seats", "TEXT"), ("first", "INTEGER"), ("points", "TEXT"),
               ("a_points", "REAL"), ("plies", "INTEGER"), ("moves", "TEXT"), ADJUDICATED)
    json_columns = ("a_seats", "points", "moves")

    def options(self, game, a, b, games, players=None, size=None, island=None, variant=None, seed=0,
                sprt=None, alpha=0.05, beta=0.05, duplicate=False, *, label=None):
        label = label or self.option
        descriptor = _game(game, label)
        games = _study_games(games, label)
        seed = limits.seed(seed, label("seed"))
        for key, spec in (("a", a), ("b", b)):
            make_player(_spec(spec, label, key), game=game)
        with _setup_named(label):
            start = _first_start(game, seed, dict(players=players, size=size, island=island, variant=variant))
        sides = len(descriptor.teams(start))
        if sprt is not None:
            sprt = parse_sprt(sprt, label("sprt"))
            if sides != 2:
                raise _refusal(label, "sprt", f"Elo needs two sides, A against B; {game} at {start.num_players} "
                                              f"seats has {sides}")
        alpha, beta = _error_rate(alpha, label, "alpha"), _error_rate(beta, label, "beta")
        return _with_duplicate({"game": game, "a": a, "b": b, "games": games,
                                "players": start.num_players if descriptor.takes("players") else None,
                                "size": size, "island": island, "variant": variant, "seed": seed,
                                "sprt": sprt, "alpha": alpha, "beta": beta, "sides": sides,
                                "seats": start.num_players}, duplicate, label)

    params_types = {"game": "text", "a": "text", "b": "text", "games": "count", "players": "count?",
                    "size": "text?", "island": "text?", "variant": "text?", "seed": "whole", "sprt": "sprt?",
                    "alpha": "share", "beta": "share", "sides": "count", "seats": "count"}
    optional_params = DUPLICATE_PARAMS

    def params_problem(self, params):
        get_game(params["game"])
        if problem := _duplicate_problem(params):
            return problem
        if params["games"] > MAX_TASKS:
            return f"'games' is {params['games']:,}, more than {MAX_TASKS:,}"
        if params["sides"] > params["seats"]:
            return f"{params['sides']} sides at {params['seats']} seats"
        return _start_problem(params)

    def column_rules(self, params):
        seats = params["seats"]
        return {"start_seed": schema.integer("start_seed", null=True), "a_seats": schema.seats("a_seats", seats),
                "first": schema.integer("first", low=1, high=seats), "points": schema.numbers("points", seats),
                "a_points": schema.real("a_points", low=0, high=1), "plies": schema.integer("plies", low=0),
                "moves": schema.texts("moves"), "adjudicated": _adjudicated_rule()}

    def row_rules(self, params):
        return [("json_extract(points, '$[' || (json_extract(a_seats, '$[0]') - 1) || ']') != a_points",
                 "column 'a_points' is not the points of A's seat in column 'points'")]

    def task_ids(self, params):
        return range(params["games"])

    def run_task(self, params, index, cache):
        game, sides, seed = params["game"], params["sides"], params["seed"]
        k = index // sides
        start = _start(params, k, cache)
        teams = get_game(game).teams(start)
        a_seats = teams[index % len(teams)]
        lineup = [make_player(params["a"] if seat in a_seats else params["b"],
                              seed=_player_seed(seed, index, seat), game=game)
                  for seat in range(1, start.num_players + 1)]
        moves, final, adjudicated = play_game(start, lineup, _dice(params, k, index))
        points, _winners = game_result(final, adjudicated)      # a game the rules did not end: a draw
        return {"start_seed": seed + k if _seeded(game) else None, "a_seats": a_seats,
                "first": start.player_to_move, "points": points, "a_points": points[a_seats[0] - 1],
                "plies": len(moves), "moves": list(moves), "adjudicated": adjudicated}

    def describe(self, key, value):
        if key == "sprt":
            return f"--sprt {value[0]:g},{value[1]:g}" if value else "no --sprt"
        if key == "duplicate":
            return _describe_duplicate(value)
        if key in ("a", "b"):
            return f"--{key} {value}"
        return f"--{key} {value}" if value is not None else f"no --{key}"

    def _tally(self, store):
        row = store.conn.execute("SELECT COUNT(*), SUM(a_points = 1), SUM(a_points = 0), SUM(a_points) "
                                 "FROM tasks").fetchone()
        n, wins, losses, points = (x or 0 for x in row)
        return n, wins, n - wins - losses, losses, points

    def decide(self, params, store):
        if not params["sprt"]:
            return None
        _n, wins, draws, losses, _points = self._tally(store)
        result = stats.sprt_decision(wins, draws, losses, *params["sprt"], params["alpha"], params["beta"])
        if not result["decision"]:
            return None
        result["first_at"] = self._first_crossing(params, store)
        return result

    def _first_crossing(self, params, store):
        """After how many games, read in their order (the tasks' numbers),
        the test first decided: it is read as each batch of games comes
        back, so a study of quick games plays past it."""
        wins = draws = losses = k = 0
        for k, (points,) in enumerate(store.conn.execute("SELECT a_points FROM tasks ORDER BY id"), 1):
            wins, draws, losses = wins + (points == 1), draws + (0 < points < 1), losses + (points == 0)
            if stats.sprt_decision(wins, draws, losses, *params["sprt"], params["alpha"],
                                   params["beta"])["decision"]:
                return k
        return k

    def note(self, params, store):
        n, wins, draws, losses, points = self._tally(store)
        if not n:
            return ""
        text = f"A +{wins:,} ={draws:,} -{losses:,} {points / n:.3f}"
        if params["sprt"]:
            text += f" llr {stats.sprt_llr(wins, draws, losses, *params['sprt']):.2f}"
        return text

    def summary(self, params, rows, total):
        n = len(rows)
        wins = sum(1 for row in rows if row["a_points"] == 1)
        losses = sum(1 for row in rows if row["a_points"] == 0)
        points = sum(row["a_points"] for row in rows)
        score = stats.mean_points(points, n)
        out = {"kind": "match", "game": params["game"], "a": params["a"], "b": params["b"],
               "seats": params["seats"], "sides": params["sides"], "options": _options_text(params),
               "games": n, "wins": wins, "draws": n - wins - losses, "losses": losses,
               **adjudications(rows),
               "score": score["mean"], "ci95": score["ci95"], "expected_share": round(1 / params["sides"], 4)}
        if params["sides"] == 2:
            lo, hi = score["ci95"]
            out["elo"] = stats.json_elo(stats.elo(score["mean"])) if n else None
            out["elo_ci95"] = [stats.json_elo(stats.elo(lo)), stats.json_elo(stats.elo(hi))] if n else None
        out["by_seat"], out["first_mover"] = _by_seat(rows, params["seats"])
        out["first_mover"]["edge"] = round(out["first_mover"]["mean"] - 1 / params["sides"], 4) if n else None
        if params["sprt"]:
            out["sprt"] = stats.sprt_decision(wins, n - wins - losses, losses, *params["sprt"],
                                              params["alpha"], params["beta"])
        out["plies_mean"] = round(sum(row["plies"] for row in rows) / n, 1) if n else None
        out["seconds"] = _spread(sorted(row["seconds"] for row in rows))
        return out

    def text(self, summary):
        n = summary["games"]
        lines = [_heading(summary, f"A = {summary['a']} against B = {summary['b']}, {counted(n, 'game')} "
                                   f"({summary['seats']} seats, {summary['sides']} sides)")]
        if not n:
            return "\n".join(lines)
        lo, hi = summary["ci95"]
        lines.append(f"A: +{summary['wins']:,} ={summary['draws']:,} -{summary['losses']:,}"
                     f"   score {summary['score']:.3f}"
                     f"   95% {lo:.3f} to {hi:.3f}   (equal strength: {summary['expected_share']:.3f})")
        if line := adjudicated_line(summary):
            lines.append(line)
        if summary.get("elo") is not None or summary.get("elo_ci95"):
            elo_lo, elo_hi = summary["elo_ci95"]
            lines.append(f"Elo A - B: {_elo_text(summary['elo'], summary['score'])}   "
                         f"95% {_elo_text(elo_lo, 0)} to {_elo_text(elo_hi, 1)}")
        lines.append("Points by seat (every engine):  "
                     + "   ".join(f"{seat}: {p['mean']:.3f} ({p['ci95'][0]:.3f}-{p['ci95'][1]:.3f})"
                                  for seat, p in summary["by_seat"].items()))
        first = summary["first_mover"]
        lines.append(f"The first to move scores {first['mean']:.3f}, 95% {first['ci95'][0]:.3f} to "
                     f"{first['ci95'][1]:.3f}: edge {signed(first['edge'], 3)} "
                     f"over the fair {summary['expected_share']:.3f}")
        if "sprt" in summary:
            s = summary["sprt"]
            verdict = {"H1": f"H1 accepted: A is better by about {s['elo1']:g} Elo or more",
                       "H0": f"H0 accepted: A is not better by {s['elo1']:g} Elo (at most about {s['elo0']:g})",
                       None: "no decision yet"}[s["decision"]]
            lines.append(f"SPRT Elo {s['elo0']:g} against {s['elo1']:g}: LLR {s['llr']:.2f} "
                         f"(bounds {s['lower']:.2f}, {s['upper']:.2f}): {verdict}")
        if summary["seconds"]:
            lines.append(f"Mean plies {summary['plies_mean']}; seconds per game: median "
                         f"{summary['seconds']['median']:.3g}, max {summary['seconds']['max']:.3g}")
        return "\n".join(lines)

    def charts(self, summary, rows, folder):
        from . import charts     # deferred: matplotlib, an extra, loads only to draw
        return charts.match_charts(summary, rows, folder)


def _elo_text(value, score):
    if value is None:
        return "+inf" if score >= 0.5 else "-inf"
    return f"{value:+.0f}"


def parse_sprt(value, name="--sprt"):
    """ELO0,ELO1 (a text or a pair) -> [elo0, elo1] with elo0 < elo1."""
    if isinstance(value, str):
        parts = value.split(",")
        if len(parts) != 2:
            raise ClaimsolveError(f"{limits.label(name)}: needs ELO0,ELO1 like 0,10, not {limits.quoted(value)}")
        value = parts
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ClaimsolveError(f"{limits.label(name)}: needs two Elo bounds ELO0,ELO1 like '0,10' or [0, 10], "
                              f"not {limits.quoted(value)}")
    elo0, elo1 = (limits.number(v, name, -2000, 2000, what="Elo bounds from -2000 to 2000") for v in value)
    if not elo0 < elo1:
        raise ClaimsolveError(f"{limits.label(name)}: ELO0 must be below ELO1, not {elo0:g},{elo1:g}")
    return [elo0, elo1]


# -- policies --------------------------------------------------------------------------------

_RANGE = re.compile(r"(?P<head>[^:]+:(?:[A-Za-z_][A-Za-z_0-9]*=)?)(?P<low>[0-9]+)\.\.(?P<high>[0-9]+)")


def split_policies(text, option="--policies"):
    """"threshold:3..8,risk:0.2,optimum" -> the specs, ranges expanded
    (threshold:3 ... threshold:8).  A comma starts a new spec unless what
    follows is an option of the one before (`mcts:time=0.5,c=1.2`).
    `option` names the option in a refusal."""
    if isinstance(text, (list, tuple)):
        parts = [part for each in text for part in split_policies(each, option)]
        return parts
    if not isinstance(text, str) or not text.strip():
        raise ClaimsolveError(f"{limits.label(option)}: needs player specs like threshold:3..8,risk:0.2,optimum")
    specs = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise ClaimsolveError(f"{limits.label(option)}: an empty spec in {limits.quoted(text)}")
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    out = []
    for spec in specs:
        match = _RANGE.fullmatch(spec)
        if match:
            low, high = int(match["low"]), int(match["high"])
            if high < low or high - low >= MAX_POLICIES:
                raise ClaimsolveError(f"{limits.label(option)}: the range in {spec} must run upwards, "
                                      f"at most {MAX_POLICIES} values")
            out.extend(f"{match['head']}{k}" for k in range(low, high + 1))
        else:
            out.append(spec)
    return out


def tables(policies, seats):
    """The round robin's tables: every set of `seats` different policies;
    with fewer policies than seats, every multiset of them that holds two
    or more different ones."""
    if len(policies) >= seats:
        return [list(table) for table in itertools.combinations(policies, seats)]
    return [list(table) for table in itertools.combinations_with_replacement(policies, seats)
            if len(set(table)) > 1]


class PoliciesStudy(KeepsAdjudications, StudyKind):
    """A round robin of player specs at one table size: every table of
    different policies, every seating of it rotated (seat 1 to each in
    turn), round after round; round r plays from start seed + r.

    `specs_key` names the parameter (and option) holding the specs:
    LadderStudy plays the same round robin under `--specs`."""

    name = "policies"
    specs_key = "policies"
    columns = (("round", "INTEGER"), ("start_seed", "INTEGER"), ("seating", "TEXT"), ("first", "INTEGER"),
               ("points", "TEXT"), ("plies", "INTEGER"), ADJUDICATED)
    json_columns = ("seating", "points")

    def round_robin(self, game, specs, players=None, size=None, island=None, variant=None, seed=0,
                    duplicate=False, label=None):
        """The checked parameters every round robin has: the game, the specs
        (ranges expanded), the table size, the start options, the seed,
        `per_round` (the games of a round) and `duplicate` (every game of a
        round meets the same dice, seat by seat); a refusal names a key as
        `label` does (options())."""
        label = label or self.option
        key = self.specs_key
        descriptor = _game(game, label)
        specs = split_policies(specs, label(key))
        if len(specs) < 2:
            raise _refusal(label, key, "a round robin needs two specs or more")
        if len(specs) > MAX_POLICIES:
            raise _refusal(label, key, f"at most {MAX_POLICIES} specs")
        repeated = [spec for spec, count in Counter(specs).items() if count > 1]
        if repeated:
            raise _refusal(label, key, f"{repeated[0]} is given twice")
        for spec in specs:
            make_player(spec, game=game)
        seed = limits.seed(seed, label("seed"))
        with _setup_named(label):
            start = _first_start(game, seed, dict(players=players, size=size, island=island, variant=variant))
        seats = start.num_players
        sides = len(descriptor.teams(start))
        if sides != seats:
            raise ClaimsolveError(f"study {self.name}: every seat must be its own side ({game} at {seats} seats "
                                  f"has {sides} sides); use study match for teams")
        per_round = len(tables(specs, seats)) * seats
        if per_round > MAX_ROUND:
            raise _refusal(label, key, f"{per_round:,} games in one round (every table, every seating) is too "
                                       "many; give fewer specs")
        return _with_duplicate({"game": game, self.specs_key: specs, "per_round": per_round,
                                "players": seats if descriptor.takes("players") else None, "seats": seats,
                                "size": size, "island": island, "variant": variant, "seed": seed}, duplicate, label)

    def with_rounds(self, params, rounds, option):
        """`params` with `rounds` rounds and their games (refused beyond
        MAX_TASKS, naming `option`: --games, or a description of the key)."""
        if rounds * params["per_round"] > MAX_TASKS:
            raise ClaimsolveError(f"{limits.label(option)}: at most {MAX_TASKS:,} games in one study")
        return dict(params, games=rounds * params["per_round"], rounds=rounds)

    def options(self, game, policies, games, players=None, size=None, island=None, variant=None, seed=0,
                duplicate=False, *, label=None):
        label = label or self.option
        games = limits.study_games(games, label("games"))
        params = self.round_robin(game, policies, players, size, island, variant, seed, duplicate, label)
        return self.with_rounds(params, math.ceil(games / params["per_round"]), label("games"))

    params_types = {"game": "text", "policies": "texts", "games": "count", "rounds": "count",
                    "per_round": "count", "players": "count?", "seats": "count", "size": "text?",
                    "island": "text?", "variant": "text?", "seed": "whole"}
    optional_params = DUPLICATE_PARAMS

    def params_problem(self, params):
        get_game(params["game"])
        if problem := _duplicate_problem(params):
            return problem
        key = self.specs_key
        specs, seats = params[key], params["seats"]
        if len(specs) < 2 or len(specs) > MAX_POLICIES or len(set(specs)) != len(specs):
            return f"'{key}' must be 2 to {MAX_POLICIES} different specs"
        n = len(specs)
        if (math.comb(n, seats) if n >= seats else math.comb(n + seats - 1, seats)) * seats > MAX_ROUND:
            return f"{n} {key} at {seats} seats make more than {MAX_ROUND:,} games a round"
        per_round = len(tables(specs, seats)) * seats
        if params["per_round"] != per_round:
            return f"'per_round' is {params['per_round']:,}; its {key} and seats make {per_round:,}"
        if params["games"] != params["rounds"] * per_round or params["games"] > MAX_TASKS:
            return f"'games' is {params['games']:,}, not {params['rounds']:,} rounds of {per_round:,}"
        return _start_problem(params)

    def column_rules(self, params):
        seats = params["seats"]
        return {"round": schema.integer("round", low=0), "start_seed": schema.integer("start_seed", null=True),
                "seating": schema.texts("seating", seats, among=params[self.specs_key]),
                "first": schema.integer("first", low=1, high=seats), "points": schema.numbers("points", seats),
                "plies": schema.integer("plies", low=0), "adjudicated": _adjudicated_rule()}

    def row_rules(self, params):
        return [(f"round != id / {params['per_round']}", "column 'round' is not the round of the row's id")]

    def task_ids(self, params):
        return range(params["games"])

    def run_task(self, params, index, cache):
        game, seed, seats = params["game"], params["seed"], params["seats"]
        if "tables" not in cache:
            cache["tables"] = tables(params[self.specs_key], seats)
        rnd, rest = divmod(index, params["per_round"])
        table, rotation = divmod(rest, seats)
        seating = [cache["tables"][table][(seat + rotation) % seats] for seat in range(seats)]
        start = _start(params, rnd, cache)
        lineup = [make_player(spec, seed=_player_seed(seed, index, seat), game=game)
                  for seat, spec in enumerate(seating, 1)]
        moves, final, adjudicated = play_game(start, lineup, _dice(params, rnd, index))
        points, _winners = game_result(final, adjudicated)      # a game the rules did not end: a draw
        return {"round": rnd, "start_seed": seed + rnd if _seeded(game) else None, "seating": seating,
                "first": start.player_to_move, "points": points,
                "plies": len(moves), "adjudicated": adjudicated}

    derived = ("rounds", "per_round", "seats")     # parameters no option sets

    def describe(self, key, value):
        if key in self.derived:
            return None
        if key == "duplicate":
            return _describe_duplicate(value)
        if key == self.specs_key:
            return f"--{key} {','.join(value)}"
        return f"--{key} {value}" if value is not None else f"no --{key}"

    def note(self, params, store):
        rows = store.conn.execute("SELECT seating, points FROM tasks ORDER BY id DESC LIMIT 2000").fetchall()
        if not rows:
            return ""
        totals, games = Counter(), Counter()
        for seating, points in rows:
            for spec, p in zip(json.loads(seating), json.loads(points)):
                totals[spec] += p
                games[spec] += 1
        best = max(totals, key=lambda spec: totals[spec] / games[spec])
        return f"leading: {best} {totals[best] / games[best]:.3f}"

    def points_table(self, params, rows):
        """Each spec's {policy, games, points, mean, ci95, wins}, in the
        order of the specs."""
        totals, games, wins = Counter(), Counter(), Counter()
        for row in rows:
            for spec, p in zip(row["seating"], row["points"]):
                totals[spec] += p
                games[spec] += 1
                wins[spec] += p == 1
        table = []
        for spec in params[self.specs_key]:
            entry = stats.mean_points(totals[spec], games[spec])
            entry["policy"] = spec
            entry["wins"] = wins[spec]
            table.append(entry)
        return table

    def summary(self, params, rows, total):
        seats = params["seats"]
        table = sorted(self.points_table(params, rows), key=lambda entry: -entry["mean"])
        by_seat, first = _by_seat(rows, seats)
        n = len(rows)
        return {"kind": self.name, "game": params["game"], "seats": seats, "options": _options_text(params),
                "games": n, "rounds_done": n // params["per_round"], "rounds": params["rounds"],
                "per_round": params["per_round"], "expected_share": round(1 / seats, 4), "policies": table,
                "by_seat": by_seat, "first_mover": dict(first, edge=round(first["mean"] - 1 / seats, 4) if n else None),
                **adjudications(rows),
                "seconds": _spread(sorted(row["seconds"] for row in rows))}

    def text(self, summary):
        n = summary["games"]
        lines = [_heading(summary, f"round robin of {len(summary['policies'])} policies at {summary['seats']} "
                                   f"seats, {counted(n, 'game')} ({summary['per_round']:,} a round: every table, every seating "
                                   "rotated)")]
        if not n:
            return "\n".join(lines)
        lines.append(f"Points per game (a win 1, shared when tied; equal policies: {summary['expected_share']:.3f}):")
        width = max(len(entry["policy"]) for entry in summary["policies"])
        for rank, entry in enumerate(summary["policies"], 1):
            lo, hi = entry["ci95"]
            lines.append(f"  {rank:2}. {entry['policy']:{width}}  {entry['mean']:.3f}   95% {lo:.3f} to {hi:.3f}"
                         f"   ({counted(entry['games'], 'game')}, {entry['wins']:,} won)")
        lines.append(_seats_line(summary))
        if line := adjudicated_line(summary):
            lines.append(line)
        return "\n".join(lines)

    def charts(self, summary, rows, folder):
        from . import charts     # deferred: matplotlib, an extra, loads only to draw
        return charts.policies_charts(summary, folder)


def _seats_line(summary):
    first = summary["first_mover"]
    return ("Points by seat: " + "   ".join(f"{seat}: {p['mean']:.3f}" for seat, p in summary["by_seat"].items())
            + f"   (the first to move: edge {signed(first['edge'], 3)})")


# -- ladder ----------------------------------------------------------------------------------

class LadderStudy(PoliciesStudy):
    """`policies`' round robin, K games at every table (every seating
    rotated), then Elo ratings with 95% intervals fitted to all the games
    at once, one spec (the anchor) held at 0: claimsolve.study.ratings."""

    name = "ladder"
    specs_key = "specs"

    def options(self, game, specs, games_per_table, players=None, size=None, island=None, variant=None, seed=0,
                anchor=None, duplicate=False, *, label=None):
        label = label or self.option
        per_table = limits.study_games(games_per_table, label("games_per_table"))
        params = self.round_robin(game, specs, players, size, island, variant, seed, duplicate, label)
        specs = params["specs"]
        if anchor is None:
            anchor = specs[0]
        elif not isinstance(anchor, str) or anchor.strip() not in specs:
            raise _refusal(label, "anchor", f"{limits.quoted(str(anchor))} is not one of the specs "
                                            f"({', '.join(specs)})")
        rounds = math.ceil(per_table / params["seats"])
        params = self.with_rounds(params, rounds, label("games_per_table"))
        return dict(params, anchor=anchor.strip(), games_per_table=rounds * params["seats"])

    params_types = {"game": "text", "specs": "texts", "anchor": "text", "games_per_table": "count",
                    "games": "count", "rounds": "count", "per_round": "count", "players": "count?", "seats": "count",
                    "size": "text?", "island": "text?", "variant": "text?", "seed": "whole"}

    def params_problem(self, params):
        problem = super().params_problem(params)
        if problem:
            return problem
        if params["anchor"] not in params["specs"]:
            return f"'anchor' {limits.quoted(params['anchor'])} is not one of the specs"
        if params["games_per_table"] != params["rounds"] * params["seats"]:
            return (f"'games_per_table' is {params['games_per_table']:,}, not {params['rounds']:,} rounds "
                    f"of {params['seats']} seatings")
        return None

    derived = PoliciesStudy.derived + ("games",)       # --games-per-table sets the games

    def describe(self, key, value):
        if key in ("games_per_table", "anchor"):
            return f"--{key.replace('_', '-')} {value}"
        return super().describe(key, value)

    def summary(self, params, rows, total):
        from . import ratings       # deferred: numpy and scipy, only to fit

        out = super().summary(params, rows, total)
        specs, anchor = params["specs"], params["anchor"]
        out.update(anchor=anchor, games_per_table=params["games_per_table"], ladder=[], converged=None,
                   scale=f"Elo points above {anchor}", prior_draws=ratings.PRIOR_DRAWS,
                   model="Bradley-Terry" if params["seats"] == 2 else "Plackett-Luce, first place",
                   interval="95%: rating +- 1.96 standard errors from the Hessian of the log-likelihood")
        if not rows:
            return out
        seats, points, _games = ratings.table_counts(specs, rows)
        fitted = ratings.fit(specs, seats, points, anchor=specs.index(anchor))
        out["converged"] = fitted["converged"]
        for i, entry in enumerate(self.points_table(params, rows)):
            out["ladder"].append({"spec": entry["policy"], "rating": round(fitted["ratings"][i], 1),
                                  "ci95": [round(x, 1) for x in fitted["ci95"][i]], "se": round(fitted["se"][i], 1),
                                  "games": entry["games"], "points": entry["points"], "mean": entry["mean"],
                                  "mean_ci95": entry["ci95"], "wins": entry["wins"]})
        out["ladder"].sort(key=lambda entry: -entry["rating"])
        for rank, entry in enumerate(out["ladder"], 1):
            entry["rank"] = rank
        return out

    def text(self, summary):
        seats = summary["seats"]
        heading = _heading(summary, f"ladder of {len(summary['policies'])} specs at {seats} seats, "
                                    f"{counted(summary['games'], 'game')} ({summary['games_per_table']:,} at every table, "
                                    "every seating rotated)")
        if not summary["ladder"]:
            return heading
        lines = [heading]
        anchor = summary["anchor"]
        if seats == 2:
            lines.append(_wrapped(f"Rating: Elo points above {anchor}, held at 0. D points above an opponent "
                                  "score 1 / (1 + 10^(-D/400)) a game against it (200: 0.76), a draw half a "
                                  "point; fitted to every game at once (Bradley-Terry)."))
        else:
            lines.append(_wrapped(f"Rating: Elo points above {anchor}, held at 0. A seat wins with chance "
                                  f"10^(R/400) over the sum of 10^(R/400) of the {seats} at its table "
                                  "(Plackett-Luce's first place: Bradley-Terry for more than two), a shared win "
                                  "split; fitted to every game at once."))
        own = summary.get("study", {}).get("params", {}).get("anchor", anchor)
        if own != anchor:
            lines.append(_wrapped(f"Anchor: {anchor} at 0 for this report; the ladder holds {own} at 0. "
                                  "Only the zero moves: the differences between ratings are the same (an interval is "
                                  "relative to the anchor)."))
        width = max(len("spec"), *(len(entry["spec"]) for entry in summary["ladder"]))
        lines.append(f"  rank  {'spec':{width}}  rating     95% interval   games  points/game")
        for entry in summary["ladder"]:
            if entry["spec"] == anchor:
                interval = "anchor"
            else:
                interval = f"{entry['ci95'][0]:+5.0f} to {entry['ci95'][1]:+5.0f}"
            lines.append(f"  {entry['rank']:4}  {entry['spec']:{width}}  {_rating_text(entry['rating']):>6}"
                         f"  {interval:>15}  {entry['games']:6,}  {entry['mean']:11.3f}")
        lines.append(_wrapped(f"95% interval: the rating +- 1.96 standard errors from the Hessian of the "
                              f"log-likelihood at its maximum, {anchor} held at 0; a prior of "
                              f"{summary['prior_draws']:g} drawn game between every two specs keeps a clean sweep "
                              "finite."))
        if not summary["converged"]:
            lines.append("WARNING: the fit did not converge; the ratings are where it stopped.")
        lines.append(f"Points per game: a win 1, shared when tied (equal specs: {summary['expected_share']:.3f}).")
        lines.append(_seats_line(summary))
        if line := adjudicated_line(summary):
            lines.append(line)
        return "\n".join(lines)

    def charts(self, summary, rows, folder):
        from . import charts     # deferred: matplotlib, an extra, loads only to draw
        return charts.ladder_charts(summary, folder)


def _wrapped(text):
    return textwrap.fill(text, 100, subsequent_indent="  ")


def _rating_text(rating):
    return f"{rating:+.0f}" if round(rating) else "0"


KINDS = {kind.name: kind for kind in (SolveStudy(), MatchStudy(), PoliciesStudy(), LadderStudy())}


def get_kind(name):
    if name not in KINDS:
        raise ClaimsolveError(f"unknown study kind '{name}' (known: {', '.join(KINDS)})")
    return KINDS[name]
