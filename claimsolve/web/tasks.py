"""The tasks of the web API, run in a worker process (claimsolve.web.jobs).

The quick ones take a request's body as it came (bytes) and answer it
(`quick`: new, show, moves, apply, check), or check it for a long command
(`checked`, `svg_request`): nothing a client sends is read, parsed or
played on the server's event loop, and each of them runs under the quick
pool's time cap.  The long ones take the checked arguments (the position
as its JSON object) and a progress callable, and answer what the command's
--json prints (the analysis picture: the SVG document `analyze --svg`
writes)."""
import math

import claimsolve
from claimsolve import render
from claimsolve.catalog import all_games
from claimsolve.claimit import odds as table_of
from claimsolve.positions import from_dict
from claimsolve.records import GameRecord

from . import api

# the longest list a progress report carries (a search reports its top moves)
MAX_PROGRESS_ITEMS = 64


def warm():
    """Imports each game's code and engines once, when the worker starts, so
    that the first task answers as fast as the others."""
    from claimsolve.search import alphabeta, mcts  # noqa: F401  (the warm-up itself: the searches loaded)
    for game in all_games():
        game.position_class
        for capability in (game.analyze, game.solve, game.odds):
            if capability is not None:
                capability.load()


def jsonable(value, depth=0):
    """`value` (a progress report) as JSON-ready data: tuples as lists, keys
    as text, numbers that are not finite as None, long lists cut."""
    if depth > 8:
        return None
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in list(value)[:MAX_PROGRESS_ITEMS]]
    return str(value)


# --- the quick tasks: a request's body, as it came ------------------------------------------

def quick(args, progress):
    """The answer of a quick command (api.QUICK) to the body's bytes."""
    return api.QUICK[args["command"]](api.read_body(args["body"]))


def checked(args, progress):
    """The checked arguments of a long command (api.LONG) from the body's
    bytes, for its task (ApiError or ClaimsolveError: refused)."""
    return api.LONG[args["command"]](api.read_body(args["body"]), args["max_time"])


def svg_request(args, progress):
    """/api/svg: {"picture": the board's SVG} for "of": "show", else
    {"task", "args"}: the long task that draws it, checked."""
    body = api.read_body(args["body"])
    task, checked_args = api.svg_request(body, args["max_time"])
    if task is None:
        return {"picture": api.board_svg(body)}
    return {"task": task, "args": checked_args}


# --- the long tasks ------------------------------------------------------------------------

def _analysis(args, progress):
    position = from_dict(args["position"])
    progress.suggestions = args.get("top") or 5     # live suggestions in the progress reports
    return position, claimsolve.analyze(position, time=args.get("time"), iterations=args.get("iterations"),
                                        engine=args.get("engine", "auto"), top=args.get("top"),
                                        seed=args.get("seed", 0), hash_mb=args.get("hash", 64),
                                        progress=progress)


def analyze(args, progress):
    """`analyze --json`."""
    return _analysis(args, progress)[1].to_json()


def _odds_table(args, progress):
    """The odds table, its play-outs stopped at the request's time or else
    at the server's cap ("cap": its --max-time); under the cap the exact
    turn optimum keeps the budget it has without a time (odds --json
    without --time: the same table, every sample played, when they fit).
    A table cut short of the samples asked says so in its notes
    ("truncated")."""
    position = from_dict(args["position"])
    time, cap = args.get("time"), args.get("cap")
    asked = args.get("samples") or table_of.DEFAULT_SAMPLES
    if time is not None:
        table = claimsolve.odds(position, samples=asked, seed=args.get("seed", 0), time=time, progress=progress)
    else:       # api.odds_args checked the game and the options
        table = table_of.odds(position, samples=asked, seed=args.get("seed", 0), time=cap, progress=progress,
                              optimum_time=min(table_of.DEFAULT_TIME, cap * table_of.OPTIMUM_SHARE))
    if table.samples < asked:
        why = (f"the request's time of {time:g} s" if time is not None else
               f"this server's cap of {cap:g} s a request (serve --max-time)")
        table.notes["truncated"] = (f"cut short: {table.samples:,} play-outs per row were played of the "
                                    f"{asked:,} asked, stopped at {why}")
    return table


def odds(args, progress):
    """`odds --json`; a table cut short of the samples asked has
    "truncated": true and a "note" saying how many were played."""
    table = _odds_table(args, progress)
    answer = table.to_json()
    if "truncated" in table.notes:
        answer["truncated"] = True
        answer["note"] = table.notes["truncated"]
    return answer


def solve(args, progress):
    """`solve --json`."""
    position = from_dict(args["position"])
    result = claimsolve.solve(position, time=args.get("time"), hash_mb=args.get("hash", 256), progress=progress)
    return render.solve_json(result)


def analysis_svg(args, progress):
    """The picture `analyze --svg` writes."""
    position, analysis = _analysis(args, progress)
    return render.analysis_svg(position, analysis, top=args.get("top"))


def odds_svg(args, progress):
    """The chart `odds --svg` writes."""
    return render.odds_svg(_odds_table(args, progress))


def review(args, progress):
    """`review --json`, a move graded at a time in the progress reports
    ({"done", "total", "move"}); the positions one after another in this
    worker (the server's workers are its cores)."""
    record = GameRecord.from_json(args["record"])
    review = claimsolve.review(record, time=args["time"], workers=1, progress=progress, seed=args.get("seed", 0),
                               objective=args.get("objective"))
    # what the page's graph draws: "margin" or "chance" of two sides that mirror (`mirrored`: player
    # 1's line), else a line per seat ("counts", Claim It!'s win chance by the net)
    return {**review.to_json(), "graph": review.graph, "sides": review.sides, "mirrored": review.mirrored()}


def grade(args, progress):
    """One move graded as a review grades it (claimsolve.reviewer.grade_move):
    what `review --json` prints of the one-move record (its "moves"[0] the
    move's grade, its "unit" and "thresholds"), in this worker."""
    from claimsolve.reviewer import grade_move
    review = grade_move(from_dict(args["position"]), args["move"], time=args["time"], seed=args.get("seed", 0),
                        objective=args.get("objective"))
    return {**review.to_json(), "graph": review.graph}


TASKS = {"quick": quick, "checked": checked, "svg_request": svg_request,
         "analyze": analyze, "odds": odds, "solve": solve, "analysis_svg": analysis_svg, "odds_svg": odds_svg,
         "review": review, "grade": grade}


def run(task, args, progress):
    return TASKS[task](args, progress)
