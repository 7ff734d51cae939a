"""claimsolve: search and analysis for the Claim board games.

    import claimsolve
    position = claimsolve.load("position.json")      # or claimsolve.new("colorclaim", size="4x4", seed=7)
    position = claimsolve.load("game.jsonl", ply=12) # a game record's position after 12 moves
    record = claimsolve.load_game("game.jsonl")      # the record itself (claimsolve.records)
    analysis = claimsolve.analyze(position, time=2)  # best-move suggestions
    claimsolve.solve(position)                       # exact values (Color Claim)
    claimsolve.odds(position)                        # roll or stop (Claim It!)
    claimsolve.review(claimsolve.load_game("game.jsonl"), time=1)   # every move graded

The games are listed in claimsolve.catalog; each describes itself in its
package's `descriptor` module (claimsolve.descriptor.GameDescriptor).

Every entry point checks its arguments as the command line checks its
options (claimsolve.limits): a bad value is a ClaimsolveError naming it, and
a number given as text is read as the command line reads it (`time="2"`).
"""
from . import limits
from .analysis import ENGINES, analyze as _analyze
from .catalog import game_of, get_game, ids_where
from .errors import ArgumentTypeError, ClaimsolveError, MoveError, PositionError, as_parameters
from .game import Position
from .positions import dumps, from_dict, game_class, loads
from . import records as _records
from .records import GameRecord, load_position

__version__ = "0.1.0"


def _parameter(name):
    """How the Python API's refusals name what the caller gave: the
    parameter, not the command line's option (`parameter 'hash_mb'`, where
    the command line says `option '--hash'`)."""
    return f"parameter '{name}'"


def new(game, players=None, size=None, seed=None, island=None, variant=None, brawl=None):
    """A starting position of `game` (an id of claimsolve.catalog); an option
    the game does not take, or a bad value, is a ClaimsolveError naming the
    parameter (`parameter 'size': ...`)."""
    descriptor = get_game(game)
    if players is not None:
        players = limits.players(players, _parameter("players"))      # as `new --players` reads it: "3" is 3
    if seed is not None:
        seed = limits.seed(seed, _parameter("seed"))
    with as_parameters():
        return descriptor.new(players=players, size=size, island=island, variant=variant, seed=seed, brawl=brawl,
                              seats_given="players=3")


def load(path, ply=None, game=None):
    """The position of a position file, or of a game record after `ply`
    moves of its main line (None: the last) of its `game`-th game (None:
    the only one); see claimsolve.records.load_position."""
    with as_parameters():
        return load_position(path, ply=ply, game=game)


def load_game(path, game=None):
    """One game record of a file: the `game`-th (from 1), or the only one
    (claimsolve.records.load_game)."""
    with as_parameters():
        return _records.load_game(path, game=game)


def _progress(progress):
    """`progress`: a function (called with the search's reports) or None."""
    if progress is not None and not callable(progress):
        raise ClaimsolveError(f"{_parameter('progress')}: must be a function or None, not "
                              f"{limits.quoted(progress)}")
    return progress


def _position(position):
    if not isinstance(position, Position):
        raise ArgumentTypeError(f"not a position: {type(position).__name__} (read one with claimsolve.load)")
    return position


def analyze(position, time=None, iterations=None, engine="auto", top=None, seed=0, threads=None, hash_mb=64,
            progress=None, evaluation=None):
    """Best-move suggestions; see claimsolve.analysis.analyze.  An iteration
    budget is MCTS's: with engine "alphabeta" or "solver" it is refused
    (neither counts iterations; give `time`)."""
    _position(position)
    if time is not None:
        time = limits.seconds(time, _parameter("time"))
    if iterations is not None:
        iterations = limits.iterations(iterations, _parameter("iterations"))
    limits.choice(engine, _parameter("engine"), ENGINES)
    if iterations is not None and engine in ("alphabeta", "solver"):
        raise ClaimsolveError(f"{_parameter('iterations')}: counts MCTS simulations; engine '{engine}' has no such "
                              "budget (give a time, or engine 'mcts')")
    if top is not None:
        top = limits.top(top, _parameter("top"))
    seed = limits.seed(seed, _parameter("seed"))
    if threads is not None:
        threads = limits.threads(threads, _parameter("threads"))
    hash_mb = limits.memory_mb(hash_mb, _parameter("hash_mb"))
    _progress(progress)
    return _analyze(position, time=time, iterations=iterations, engine=engine, top=top, seed=seed,
                    threads=threads, hash_mb=hash_mb, progress=progress, evaluation=evaluation)


def solve(position, time=None, hash_mb=256, progress=None, value_only=False, threads=1):
    """The exact value and every legal move's value, for the games with an
    exact solver (the descriptor's `solve`: Color Claim).  `value_only=True`:
    the value and one best move (info["best_move"]), by null-window searches
    on the value alone; several times cheaper than every move's value.
    `threads`: workers on as many cores, sharing one table (the same values;
    among equal moves the one shown may vary with more than one)."""
    solver = _capability(_position(position), "solve", "exact solving", " (use analyze)")
    if time is not None:
        time = limits.seconds(time, _parameter("time"))
    hash_mb = limits.memory_mb(hash_mb, _parameter("hash_mb"))
    threads = limits.threads(threads, _parameter("threads"))
    _progress(progress)
    return solver(position, time=time, hash_mb=hash_mb, progress=progress, value_only=value_only,
                  threads=threads)


def odds(position, samples=None, seed=0, time=None, progress=None, hash_mb=None, threads=None):
    """The stop/roll odds table, for the games with one (the descriptor's
    `odds`: Claim It!); `hash_mb`: the memory of its exact turn optimum's
    table, MB per objective; `threads` (1 or 2): the turn optimum's
    threads (None: the cores this process may run on, at most 2)."""
    table = _capability(_position(position), "odds", "the stop/roll table")
    if samples is not None:
        samples = limits.samples(samples, _parameter("samples"))
    seed = limits.seed(seed, _parameter("seed"))
    if time is not None:
        time = limits.seconds(time, _parameter("time"))
    options = {"seed": seed, "progress": _progress(progress)}
    if samples is not None:
        options["samples"] = samples
    if time is not None:
        options["time"] = time
    if hash_mb is not None:
        options["hash_mb"] = limits.memory_mb(hash_mb, _parameter("hash_mb"))
    if threads is not None:
        options["threads"] = limits.optimum_threads(threads, _parameter("threads"))
    return table(position, **options)


def _capability(position, name, what, hint=""):
    """The descriptor's `name` capability of the position's game; a game
    without it is a ClaimsolveError naming the games that have it."""
    capability = getattr(game_of(position), name)
    if capability is None:
        having = ", ".join(ids_where(lambda game: getattr(game, name) is not None)) or "no game"
        raise ClaimsolveError(f"{name}: {what} is for {having}; this position is {position.game}{hint}")
    return capability


def review(record, time=None, workers=None, progress=None, seed=0, objective=None):
    """Every move of a game record graded (claimsolve.reviewer.review): the
    engine's best, the value before and after in the game's units, the
    loss and a grade; `record` a claimsolve.records.GameRecord (read one
    with claimsolve.load_game), `time` seconds a position."""
    from .reviewer import review as _review     # deferred: start-up (its worker processes, the searches)
    if not isinstance(record, GameRecord):
        raise ArgumentTypeError(f"not a game record: {type(record).__name__} (read one with claimsolve.load_game)")
    if time is not None:
        time = limits.seconds(time, _parameter("time"))
    if workers is not None:
        workers = limits.threads(workers, _parameter("workers"))
    seed = limits.seed(seed, _parameter("seed"))
    _progress(progress)
    return _review(record, time=time, workers=workers, progress=progress, seed=seed, objective=objective)


def perft(position, depth):
    """Move sequences per depth from `position` (deterministic games), counted
    in the engine: a list of `depth` counts."""
    if getattr(_position(position), "has_chance", False):
        raise ClaimsolveError(f"perft: counts move sequences of games without dice; {position.game} has dice")
    return position.engine_state().perft(limits.depth(depth, _parameter("depth")))


# The subpackages the README and docs/tour.md name as claimsolve.render and
# so on: imported on first use (the environments need the ".[rl]" extra, the
# pictures and studies cost time), so that `import claimsolve` stays quick.
_SUBMODULES = ("batch", "env", "interop", "learn", "match", "render", "study")


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))


__all__ = ["ClaimsolveError", "MoveError", "PositionError", "analyze", "dumps", "from_dict",
           "load", "load_game", "loads", "new", "odds", "perft", "review", "solve"]
