"""The long tasks of the web API, run in a worker process
(claimsolve.web.jobs): each takes the checked arguments (the position as
its JSON object) and a progress callable, and answers what the command's
--json prints (the analysis picture: the SVG document `analyze --svg`
writes)."""
import math

import claimsolve
from claimsolve import render
from claimsolve.catalog import all_games
from claimsolve.positions import from_dict
from claimsolve.records import GameRecord

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


def odds(args, progress):
    """`odds --json`."""
    position = from_dict(args["position"])
    return claimsolve.odds(position, samples=args.get("samples"), seed=args.get("seed", 0),
                           time=args.get("time"), progress=progress).to_json()


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
    position = from_dict(args["position"])
    table = claimsolve.odds(position, samples=args.get("samples"), seed=args.get("seed", 0),
                            time=args.get("time"), progress=progress)
    return render.odds_svg(table)


def review(args, progress):
    """`review --json`, a move graded at a time in the progress reports
    ({"done", "total", "move"}); the positions one after another in this
    worker (the server's workers are its cores)."""
    record = GameRecord.from_json(args["record"])
    review = claimsolve.review(record, time=args["time"], workers=1, progress=progress, seed=args.get("seed", 0),
                               objective=args.get("objective"))
    # what the page's graph draws: "margin" or "chance" of two sides mirror (player 1's line), else
    # a line per seat ("counts")
    return {**review.to_json(), "graph": review.graph, "sides": review.sides}


TASKS = {"analyze": analyze, "odds": odds, "solve": solve, "analysis_svg": analysis_svg, "odds_svg": odds_svg,
         "review": review}


def run(task, args, progress):
    return TASKS[task](args, progress)
