"""The JSON API's requests: reading a body, checking its options, and the
quick commands answered on the spot (new, show, moves, apply, the board
picture).  The long ones (analyze, odds, solve, the pictures of their
answers) are checked here and run by claimsolve.web.tasks in a worker.

A body is a JSON object: `{"position": <position JSON>, ...}` with the
command's options under their long names.  Each answer is what the command
prints with --json (new and apply: the position JSON, byte for byte); bad
input is an ApiError with the one line the command prints.
"""
import json
import random

import claimsolve
from .. import commands, limits, records
from ..analysis import DEFAULT_TIME, ENGINES
from ..catalog import all_games, game_of
from ..descriptor import NEW_OPTIONS
from ..errors import ClaimsolveError, MoveError, OptionError, as_parameters, one_line
from ..positions import dumps, from_dict, json_kind, parse_json
from .. import render
from ..reviewer import checked_options, kit_of, objectives_of, profile_of
from ..reviewer import saved as saved_review
from ..render import style as _style

MAX_BODY = 1024 * 1024              # bytes of a request body (413 beyond)
MAX_HASH_MB = 1024                  # a search's table on the server, per worker
MAX_MOVES = 10_000                  # moves of one apply request


class ApiError(Exception):
    """A request the API refuses: `status` and the one-line `message`."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


def bad(message):
    return ApiError(400, message)


DOCUMENTS = ("position", "record")    # a body's keys that hold a whole document


def read_body(data):
    """The request's JSON object from its bytes (at most MAX_BODY)."""
    if len(data) > MAX_BODY:
        raise ApiError(413, f"the request body is larger than {MAX_BODY // 1024} KB")
    if not data.strip():
        raise bad('the request body is empty: send a JSON object, like {"position": {...}}')
    body = parse_json(data)
    if not isinstance(body, dict):
        raise bad(f"the request body must be a JSON object, not {json_kind(body)}")
    # JSON has one kind of number: an option's 300.0 (as some writers spell
    # 300) is 300 here; documents (a position, a record) are read as written
    return {key: int(value) if isinstance(value, float) and value.is_integer() and key not in DOCUMENTS
            else value for key, value in body.items()}


def _body_key(option):
    """How a refusal names an option of a request: its body's key ("option
    'game'"), not the command line's --game."""
    return f"option '{option}'"


def check_keys(body, known):
    """Refuses a key of `body` that is not "position" or in `known`."""
    for key in body:
        if key != "position" and key not in known:
            names = ", ".join(['"position"'] + [f'"{name}"' for name in known]) if known else '"position"'
            shown = key if len(key) <= 40 else key[:20] + f"...({len(key)} characters)"
            raise bad(f"unknown option '{shown}' (this request takes {names})")


def position_of(body):
    """The position of the body's "position" (a JSON object, or its text)."""
    if "position" not in body:
        raise bad("missing 'position': the position JSON (docs/positions.md)")
    data = body["position"]
    if isinstance(data, str):
        data = parse_json(data)
    return from_dict(data)


def _text(body, name):
    value = body.get(name)
    if value is not None and not isinstance(value, str):
        raise bad(f"option '{name}': must be text, not {json_kind(value)}")
    return value


# --- the quick commands ------------------------------------------------------------------

def new(body):
    """`claimsolve new GAME --json`: the starting position's JSON text."""
    check_keys(body, ["game"] + list(NEW_OPTIONS))
    if "position" in body:
        raise bad("unknown option 'position' (new takes \"game\" and the game's options)")
    if "game" not in body:
        raise bad("missing 'game' (one of: " + ", ".join(game.id for game in all_games()) + ")")
    options = {}
    for name in NEW_OPTIONS:
        value = body.get(name)
        if value is None:
            continue
        if name == "players":
            value = limits.players(value, name)
        elif name == "seed":
            value = limits.seed(value, name)
        else:
            value = _text(body, name)
        options[name] = value
    game = body["game"]
    if not isinstance(game, str):
        raise bad(f"option 'game': must be text, not {json_kind(game)}")
    try:
        return dumps(commands.new_position(game, **options, seats_given='"players": 3'))
    except OptionError as exc:           # worded for the command line (`option '--size'`): here a body's key
        raise bad(f"option '{exc.option}': {exc.problem}") from None


def show(body):
    """`claimsolve show --json`."""
    check_keys(body, [])
    return render.summary(position_of(body))


def moves(body):
    """`claimsolve moves --json`."""
    check_keys(body, [])
    return position_of(body).legal_moves()


def layout(body):
    """Where the page draws everything of the position's board, in pixels:
    its drawing module's layout(position, "page") (render/claim.py,
    colorclaim.py, claimit.py), the rule `show --svg` places the board by
    too; null for a game without one (the page shows its picture)."""
    check_keys(body, [])
    position = position_of(body)
    drawing = game_of(position).drawing()
    return drawing.layout(position, "page") if drawing is not None and hasattr(drawing, "layout") else None


def _apply_request(body):
    """The checked (position, moves, seed) of an apply request."""
    check_keys(body, ["moves", "seed"])
    position = position_of(body)
    played = body.get("moves")
    if not isinstance(played, list) or not played:
        # the example in this game's notation (it gave Claim's "c3+d5" for a Color Claim position)
        legal = [] if position.is_over() else position.legal_moves()
        like = f", like [{json.dumps(legal[0])}]" if legal else ""
        raise bad(f"option 'moves': must be a list of one or more moves{like}")
    if len(played) > MAX_MOVES:
        raise bad(f"option 'moves': at most {MAX_MOVES:,} moves in one request")
    for index, move in enumerate(played):
        if not isinstance(move, str):
            raise bad(f"option 'moves': move {index + 1} must be text, not {json_kind(move)}")
    seed = body.get("seed")
    if seed is not None:
        seed = limits.seed(seed, "seed")
    return position, played, seed


def apply(body):
    """`claimsolve apply POS MOVE... --json`: the position JSON text."""
    position, played, seed = _apply_request(body)
    return dumps(commands.apply_moves(position, played, seed=seed))


def check(body):
    """The page's apply: {"legal": true, "position": ..., "moves", "move",
    "played", "report"} or {"legal": false, "error": the line apply prints},
    answered 200 either way (an illegal click is no failed request).  Other
    bad input is still a 400.

    "moves": the moves as a record writes them (a bare Claim It! `roll` with
    the dice drawn: "roll:3,6,6"); of the last one, "move" as played,
    "report" the words of Position.describe (as the terminal's `play` prints
    them) and "played" its marks (played_marks)."""
    position, moves, seed = _apply_request(body)
    if seed is None:
        # a seed of our own, so that the dice of a bare roll are known and written in the record
        seed = random.randrange(limits.MAX_SEED)
    try:
        after = commands.apply_moves(position, moves, seed=seed)
    except MoveError as exc:
        return {"legal": False, "error": one_line(exc)}
    # the dice apply drew: resolve_chance draws as play does, from the same seed
    rng = random.Random(seed)
    before, resolved = position, []
    for index, move in enumerate(moves):
        resolved.append(before.resolve_chance(move, rng))
        if index < len(moves) - 1:
            before = before.play(resolved[-1])
    report = before.describe(resolved[-1])
    return {"legal": True, "position": json.loads(dumps(after)), "moves": resolved, "move": resolved[-1],
            "played": played_marks(before, resolved[-1], after, report), "report": report.text}

def played_marks(before, move, after, report):
    """The marks of `move` played from `before` to `after` (its MoveReport
    as JSON, without the text), for the page to draw the last move:
      move, player      the move as played and the seat that played it
      from, to, route   where the piece or stack went (Claim: every point of
                        the route, a jump chain's landings included)
      placed, captured, claimed   as Position.describe reports them
      put               [{point, piece}] what stands on each placed point
                        after the move (Claim: "T1" a tower, "1" a Viking;
                        Claim It!: the pile, "2/w3")
      removed           [{point, piece, left}] what stood on each captured
                        point before it (Claim: the captured Vikings and
                        towers) and what stands there after it (or null)
    and of each game: Claim "towers" (the points of towers placed) and
    "vikings_captured"; Color Claim "stack" (the stack moved) and "pyramid"
    (the pyramid claimed, "G2"); Claim It! "marker" (the marker placed:
    "w3", "B"), "dice" (a roll's dice) and "bust" (true when they bust)."""
    data = report.to_json()
    del data["text"]
    old, new = before.to_json(), after.to_json()
    pieces_before, pieces_after = before.pieces(), after.pieces()
    data["move"] = move
    data["player"] = old.get("to_move")
    data["put"] = [{"point": point, "piece": pieces_after.get(point)} for point in data["placed"]]
    data["removed"] = [{"point": point, "piece": pieces_before.get(point), "left": pieces_after.get(point)}
                       for point in data["captured"]]
    if before.game == "claim":
        data["towers"] = [p["point"] for p in data["put"] if (p["piece"] or "").startswith("T")]
        data["vikings_captured"] = [p["point"] for p in data["removed"]
                                    if p["piece"] and not p["piece"].startswith("T")]
    elif before.game == "colorclaim":
        data["stack"] = pieces_before.get(data["from"])
        if data["claimed"]:
            data["pyramid"] = pieces_before[data["claimed"]].split("/")[-1]
    elif before.game == "claimit":
        if move.lower().startswith("roll:"):
            data["dice"] = [int(d) for d in move[5:].split(",")]
            data["bust"] = new.get("dice") is None
        elif "@" in move:
            data["marker"] = move.split("@")[0].upper() if move[0] in "bB" else move.split("@")[0].lower()
    return data


def board_svg(body):
    """The picture `show --svg` writes."""
    check_keys(body, ["of"])
    return position_of(body).svg()


def record(body):
    """A game record read by the library's reader (claimsolve.records):
    {"record": a record's JSON object, or a file's text (one record, or one
    a line), "game": K (from 1) for a file of many}.  Answers
    {"games": how many the file holds, "game": K, "record": the record as
    version 1 writes it, "start": the start position, "moves": the tree},
    each move of the tree {"move", "position": the position after it,
    "comment", "eval", "variations": [[moves...]]} (the last three where the
    record has them), so the board shows any of them without asking again;
    where a move has an "eval" (review --save's grades), "grades": what
    their values are (grades_of), and where every move of the main line has
    one, "review": the review they make (reviewer.saved), as /api/review's
    result gives one, with "saved": true.
    A file of many games without "game" answers {"games": K, "list": [{"game",
    "line", "players", "moves", "result"}]} to choose from.  A bad record is
    a 400 with the reader's line."""
    check_keys(body, ["record", "game"])
    if "position" in body:
        raise bad("unknown option 'position' (record takes \"record\": a game record, docs/records.md)")
    if "record" not in body:
        raise bad("missing 'record': a game record's JSON or the text of a file of them (docs/records.md)")
    data, game = body["record"], body.get("game")
    if game is not None:
        game = limits.integer(game, "game", 1, limits.MAX_INT)
    if isinstance(data, str):
        documents = records._documents(data, "record")
    elif isinstance(data, dict):
        documents = [(None, data)]
    else:
        raise bad(f"option 'record': a game record's JSON object or text, not {json_kind(data)}")
    if game is None and len(documents) > 1:
        listed = []
        for line, item in documents:
            chosen = records._pick([(line, item)], None, "record")
            listed.append({"game": len(listed) + 1, "line": line, "players": chosen.players,
                           "moves": len(chosen.moves), "result": chosen.result})
        return {"games": len(documents), "list": listed}
    with as_parameters(label=_body_key):
        chosen = records._pick(documents, game, "record")

    def tree(position, nodes):
        out = []
        for node in nodes:
            item = {"move": node.move}
            if node.variations:
                item["variations"] = [tree(position, line) for line in node.variations]
            position = position.play(node.move)
            item["position"] = position.to_json()
            if node.comment is not None:
                item["comment"] = node.comment
            if node.eval is not None:
                item["eval"] = node.eval
            out.append(item)
        return out

    answer = {"games": len(documents), "game": game or 1, "record": chosen.to_json(),
              "start": chosen.start.to_json(), "moves": tree(chosen.start, chosen.moves)}
    grades = grades_of(chosen)
    if grades is not None:
        answer["grades"] = grades
        # every move of the main line graded: the review they make, as the review's result event gives it
        options = {"objective": grades["objective"]} if "objective" in grades else {}
        made = saved_review(chosen, options)
        if made is not None:
            review, mirrored = made
            answer["review"] = {**review.to_json(), "graph": review.graph, "sides": review.sides,
                                "mirrored": mirrored, "saved": True}
    return answer


def _graded(nodes):
    return any(node.eval is not None or any(_graded(line) for line in node.variations or ()) for node in nodes)


def grades_of(record):
    """What the values of a record's grades (review --save's "eval" of its
    moves) are, for the board to say a loss in its unit as a review does:
    {"unit", "graph"} of the game's review, as `review` would grade this
    record by default; with "objective" where the game's moves have several
    measures (Claim It!): the one its grades name (review --save and the
    board write it in each move's "eval"), else review's default for the
    seat count, and then "assumed": true (a record of before they named
    it).  None where no move has grades, or the game has no review."""
    if not _graded(record.moves):
        return None
    named = _named_objective(record.moves)
    try:
        kit = kit_of(record.game)
        try:
            options = checked_options(record, named)
        except ClaimsolveError:              # a measure the game does not take here: as if unnamed
            named, options = None, checked_options(record)
        profile = profile_of(kit, record.start, options)
    except ClaimsolveError:
        return None
    out = {"unit": profile["unit"], "graph": profile["graph"], "thresholds": profile["thresholds"]}
    if "objective" in options:
        out.update(objective=options["objective"])
        if named is None:
            out.update(assumed=True)
    return out


def _named_objective(nodes):
    """The objective the first graded move of the main line names in its
    "eval" (a string), or None."""
    for node in nodes:
        if isinstance(node.eval, dict) and isinstance(node.eval.get("objective"), str):
            return node.eval["objective"]
    return None


QUICK = {"new": new, "show": show, "moves": moves, "layout": layout, "apply": apply, "check": check,
         "record": record}


# --- the long commands: checked here, run in a worker -----------------------------------

def _capped_time(body, name, max_time, default):
    """The request's time budget, at most the server's --max-time; `default`
    when none is given (None: no budget of its own, capped by max_time)."""
    value = body.get(name)
    if value is None:
        return min(default, max_time) if default is not None else max_time
    seconds = limits.seconds(value, name)
    if seconds > max_time:
        raise bad(f"option '{name}': at most {max_time:g} seconds on this server (serve --max-time)")
    return seconds


def _hash(body, default):
    value = body.get("hash")
    if value is None:
        return default
    mb = limits.memory_mb(value, "hash")
    if mb > MAX_HASH_MB:
        raise bad(f"option 'hash': at most {MAX_HASH_MB} MB on this server")
    return mb


def analyze_args(body, max_time):
    """The checked arguments of `analyze` (tasks.analyze)."""
    check_keys(body, ["time", "iterations", "engine", "top", "seed", "hash"])
    position = position_of(body)
    args = {"position": position.to_json()}
    if body.get("iterations") is not None:
        args["iterations"] = limits.iterations(body["iterations"], "iterations")
        # an iteration budget alone is capped by the server's time
        args["time"] = _capped_time(body, "time", max_time, None)
    else:
        args["time"] = _capped_time(body, "time", max_time, DEFAULT_TIME)
    engine = body.get("engine", "auto")
    args["engine"] = limits.choice(engine, "engine", ENGINES)
    args["top"] = limits.top(body.get("top", 5), "top")
    args["seed"] = limits.seed(body.get("seed", 0), "seed")
    args["hash"] = _hash(body, 64)
    return args


def odds_args(body, max_time):
    """The checked arguments of `odds` (tasks.odds)."""
    check_keys(body, ["samples", "seed", "time"])
    position = position_of(body)
    args = {"position": position.to_json(), "seed": limits.seed(body.get("seed", 0), "seed")}
    if body.get("time") is not None:
        args["time"] = _capped_time(body, "time", max_time, None)
    else:       # the table's own budget, its play-outs stopped at the server's cap (marked "truncated")
        args["cap"] = max_time
    if body.get("samples") is not None:
        args["samples"] = limits.samples(body["samples"], "samples")
    _capability(position, "odds")
    return args


def solve_args(body, max_time):
    """The checked arguments of `solve` (tasks.solve)."""
    check_keys(body, ["time", "hash"])
    position = position_of(body)
    args = {"position": position.to_json(), "time": _capped_time(body, "time", max_time, None),
            "hash": _hash(body, 256)}
    _capability(position, "solve")
    return args


def _capability(position, name):
    """Refuses here, before a worker is taken, what the library refuses."""
    claimsolve._capability(position, name, {"odds": "the stop/roll table", "solve": "exact solving"}[name],
                           " (use analyze)" if name == "solve" else "")


def review_args(body, max_time):
    """The checked arguments of `review` (tasks.review): {"record": a game
    record (its JSON object, or the text of a file; "game": K picks one of
    a file of many), "time": seconds a position, "seed", "objective"}.  The
    engine time of the whole review (a position's time for every position
    of the game) is capped by the server's --max-time."""
    check_keys(body, ["record", "game", "time", "seed", "objective"])
    if "position" in body:
        raise bad("unknown option 'position' (review takes \"record\": a game record, docs/records.md)")
    if "record" not in body:
        raise bad("missing 'record': the game record to review (docs/records.md)")
    data = body["record"]
    game = body.get("game")
    if game is not None:
        game = limits.integer(game, "game", 1, limits.MAX_INT)
    if isinstance(data, str):
        documents = records._documents(data, "record")
        with as_parameters(label=_body_key):
            record = records._pick(documents, game, "record")
    elif isinstance(data, dict):
        if game is not None:
            raise bad("option 'game': picks a game of a file of many (\"record\" as its text); this record is one")
        record = records.GameRecord.from_json(data, "record")
    else:
        raise bad(f"option 'record': a game record's JSON object or text, not {json_kind(data)}")
    kit = kit_of(record.game)
    positions = len(record.mainline()) + 1
    if body.get("time") is None:
        seconds = min(kit.DEFAULT_TIME, max_time / positions)
    else:
        seconds = limits.seconds(body["time"], "time")
        if seconds * positions > max_time * (1 + 1e-9):
            raise bad(f"option 'time': {seconds:g} s a position for the game's {positions} positions is "
                      f"{seconds * positions:g} engine seconds; this server allows {max_time:g} (serve --max-time): "
                      f"at most {max_time / positions:.3g} s a position")
    args = {"record": record.to_json(), "time": seconds, "seed": limits.seed(body.get("seed", 0), "seed")}
    if body.get("objective") is not None:
        args["objective"] = _text(body, "objective")
    checked_options(record, args.get("objective"))      # refused here, before a worker is taken
    return args


def grade_args(body, max_time):
    """The checked arguments of `grade` (tasks.grade): one move graded as a
    review grades it (claimsolve.reviewer.grade_move), the board's practice
    of a reviewed game's mistakes: {"position": the position before,
    "move": the move tried there, "time": seconds a position (the review's),
    "seed", "objective"}.  Its two positions' time is within the server's
    --max-time."""
    check_keys(body, ["move", "time", "seed", "objective"])
    position = position_of(body)
    move = _text(body, "move")
    if move is None:
        raise bad("missing 'move': the move to grade, played in 'position'")
    if position.is_over():
        raise bad("option 'position': the game is over there: no move to grade")
    kit = kit_of(position.game)
    try:
        position.play(move)
    except ClaimsolveError as exc:
        raise bad(f"option 'move': {one_line(exc)}") from None
    record = records.GameRecord.from_moves(position, [move])
    if body.get("time") is None:
        seconds = min(kit.DEFAULT_TIME, max_time / 2)
    else:
        seconds = limits.seconds(body["time"], "time")
        if seconds * 2 > max_time * (1 + 1e-9):
            raise bad(f"option 'time': {seconds:g} s a position for the move's 2 positions (before and after) is "
                      f"{seconds * 2:g} engine seconds; this server allows {max_time:g} (serve --max-time): at most "
                      f"{max_time / 2:.3g} s a position")
    args = {"position": position.to_json(), "move": move, "time": seconds,
            "seed": limits.seed(body.get("seed", 0), "seed")}
    if body.get("objective") is not None:
        args["objective"] = _text(body, "objective")
    checked_options(record, args.get("objective"))
    return args


LONG = {"analyze": analyze_args, "odds": odds_args, "solve": solve_args, "review": review_args,
        "grade": grade_args}

# /api/svg: {"of": "show" | "analyze" | "odds", ...that command's options}
SVG_OF = ("show", "analyze", "odds")


def svg_request(body, max_time):
    """(task, args) of an /api/svg request; task None for the board alone."""
    of = body.get("of", "show")
    if not isinstance(of, str) or of not in SVG_OF:
        raise bad(f"option 'of': must be one of {', '.join(SVG_OF)} (the command whose picture), not "
                  f"{of if isinstance(of, str) else json_kind(of)!s:.40}")
    rest = {key: value for key, value in body.items() if key != "of"}
    if of == "show":
        return None, None
    if of == "analyze":
        return "analysis_svg", analyze_args(rest, max_time)
    return "odds_svg", odds_args(rest, max_time)


def games():
    """The games and what `new` takes of each (for the page's new-game form):
    each option's help, and for the options with a closed set of values
    their choices (a select box) and default."""
    out = []
    for game in all_games():
        out.append({"id": game.id, "title": game.title, "options": dict(game.options),
                    "choices": {option: list(values) for option, values in game.choices.items()},
                    "defaults": dict(game.defaults),
                    "solve": game.solve is not None, "odds": game.odds is not None,
                    "review": game.review is not None,
                    "review_objectives": objectives_of(game.id),
                    "has_chance": game.has_chance})
    return out


def style():
    """The drawing constants the page draws its boards, marks and charts
    with: claimsolve.render.style, the ones the SVG pictures use."""
    return _style.as_json()


def error_of(exc):
    """The ApiError of a ClaimsolveError: the command's line, status 400."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, ClaimsolveError):
        return ApiError(400, one_line(exc))
    raise exc
