"""Monte Carlo tree search for every game (the C search is claimsolve._mcts).

`search(position, ...)` answers one position; `MCTSTree` keeps a tree between
moves; `MCTSPlayer` plays matches with it (kind "mcts").  How a game plugs in
and what every option does: docs/mcts.md.
"""
import multiprocessing
import os
import signal
import time as _time

from .. import limits
from ..catalog import game_of
from .._mcts import DEFAULT_EVAL_SCALE, DEFAULT_EXPLORATION, DEFAULT_PLAYOUT_TURNS, Tree, derive_seed
from ..errors import ClaimsolveError, Interrupted
from ..stats import wilson_interval
from .learned import LEARNED_PLAYOUT_TURNS, evaluation_state, resolve as _evaluation, spec_evaluation
from .learned import spec_options as _eval_options
from .line import move_names
from .player import Player, register_player
from .result import SearchResult, Suggestion, result_of, tighter

DEFAULT_TIME = 1.0            # seconds, when neither time nor iterations is given
PROGRESS_INTERVAL = 0.25      # seconds between progress calls
FIRST_PROGRESS = 0.1          # seconds to the first one
ITERATION_LIMIT = 2 ** 63     # "no iteration budget"
FORCED_SIMULATIONS = 256      # at most, beyond a budget too small to name a move (MCTSTree.search)
# Whole turns named from a tree: every turn it reaches, unless that means
# walking more than WALK_NODES nodes (a large island's tree); then the most
# visited branches first, up to TURN_ROWS turns.  A standard island's settle
# (some 2,000 pairs) is named whole.
TURN_ROWS = 5000
WALK_NODES = 12000


MAX_EXPLORATION = 1e6
MAX_EXPAND_VISITS = 1_000_000


def _exploration(value, name):
    return limits.number(value, name, 0.0, MAX_EXPLORATION)


def _playout_depth(value, name):
    return limits.count(value, name, 0, limits.MAX_INT)


def _expand_visits(value, name):
    """The visits after which a leaf is expanded: 1..MAX_EXPAND_VISITS."""
    return limits.integer(value, name, 1, MAX_EXPAND_VISITS)


def _playout_turns(value, name):
    """A count of turns, or "end" (-1: playouts are never cut by the game's value)."""
    if value in ("end", -1):
        return -1
    return limits.integer(value, name, 0, limits.MAX_INT, what='a whole number from 0, or "end"')


def _checked_options(time, iterations, seed, threads, memory_mb, exploration, playout_depth, eval_scale,
                     uniform_playouts, playout_turns, evaluation=None, expand_visits=None):
    """The options of search and MCTSPlayer, checked by claimsolve.limits
    (the same bounds as the command line's and the specs'): the time budget
    (DEFAULT_TIME when neither time nor iterations is given) and the
    MCTSTree options (the evaluation resolved: claimsolve.search.learned)."""
    if time is not None:
        limits.seconds(time, "time")
    if iterations is not None:
        limits.iterations(iterations, "iterations")
    limits.seed(seed, "seed")
    limits.threads(threads, "threads")
    limits.memory_mb(memory_mb, "memory_mb", whole=False)
    if exploration is not None:
        _exploration(exploration, "exploration")
    if playout_depth is not None:
        _playout_depth(playout_depth, "playout_depth")
    if eval_scale is not None:
        limits.number(eval_scale, "eval_scale", 0.0, MAX_EXPLORATION, low_open=True)
    if playout_turns is not None:
        _playout_turns(playout_turns, "playout_turns")
    if expand_visits is not None:
        _expand_visits(expand_visits, "expand_visits")
    if time is None and iterations is None:
        time = DEFAULT_TIME
    return time, dict(memory_mb=memory_mb, exploration=exploration, playout_depth=playout_depth,
                      eval_scale=eval_scale, uniform_playouts=uniform_playouts, playout_turns=playout_turns,
                      evaluation=_evaluation(evaluation), expand_visits=expand_visits)


def default_exploration(position):
    """The UCB1 constant of a search of `position` that is given none: its
    game's (the descriptor's mcts_exploration), else DEFAULT_EXPLORATION."""
    chosen = game_of(position).mcts_exploration
    return DEFAULT_EXPLORATION if chosen is None else chosen


def default_playout_turns(position, evaluation):
    """Where a search of `position` that is given no `playout_turns` cuts
    its playouts: with a learned evaluation its game's
    (learned_playout_turns), else LEARNED_PLAYOUT_TURNS; with the classic
    one DEFAULT_PLAYOUT_TURNS."""
    if not evaluation.learned:
        return DEFAULT_PLAYOUT_TURNS
    chosen = game_of(position).learned_playout_turns
    return LEARNED_PLAYOUT_TURNS if chosen is None else chosen


class MCTSTree:
    """A search tree rooted at a position, kept between searches.

    `search` adds simulations to it; `advance(position, move)` re-roots it at
    the position after `move`, keeping the subtree below (any way the move is
    written: the tree looks for the child, or grandchild through a chance
    outcome, that the game's hash cannot tell from the new position).

    `evaluation` (claimsolve.search.learned; None: the one `learned.using`
    set, classic by default): with a learned one, the game's playout_value
    is the learned evaluation, and playouts are cut after `playout_turns`
    changes of turn (default LEARNED_PLAYOUT_TURNS, 0: the evaluation at
    the leaf instead of a playout, where the game's own playout value
    would be given: docs/learning.md)."""

    def __init__(self, position, memory_mb=256, exploration=None, seed=0, playout_depth=None,
                 eval_scale=None, uniform_playouts=False, playout_turns=None, evaluation=None,
                 expand_visits=None):
        self.position = position
        self.evaluation = _evaluation(evaluation)
        state = evaluation_state(position, self.evaluation)
        if playout_turns is None:
            playout_turns = default_playout_turns(position, self.evaluation)
        self._compound_turns = state.compound_turns
        try:
            self._tree = Tree(
                state.game, state.state_bytes(), memory_mb=memory_mb,
                exploration=default_exploration(position) if exploration is None else exploration,
                seed=seed, playout_depth=-1 if playout_depth is None else playout_depth,
                eval_scale=DEFAULT_EVAL_SCALE if eval_scale is None else eval_scale,
                chance_mover=position.player_to_move - 1, uniform_playouts=uniform_playouts,
                playout_turns=playout_turns,
                expand_visits=1 if expand_visits is None else expand_visits)
        except MemoryError:
            raise ClaimsolveError(f"mcts: cannot allocate a tree of {memory_mb:g} MB{limits.process_memory_limit()} "
                                  "(give less memory)") from None

    @property
    def visits(self):
        """Simulations through the root (those kept from earlier searches included)."""
        return self._tree.root_visits()

    @property
    def tree_nodes(self):
        return self._tree.tree_nodes

    @property
    def capacity(self):
        return self._tree.capacity

    @property
    def solver(self):
        return self._tree.solver

    def advance(self, position, move):
        """The game went on from this tree's position by `move` (a move
        string of `position`).  Returns True when the subtree was kept."""
        after = position.play(move)
        self.position = after
        target = after.engine_state().state_bytes()
        if self._compound_turns:
            # a whole turn: follow its decisions down the tree
            kept = True
            for code in position.move_codes(move):
                kept = self._tree.advance(code) and kept
            if kept and self._tree.state_bytes() == target:
                return True
        elif self._tree.advance_to(target, 2):
            return True
        self._tree.reset(target, after.player_to_move - 1)
        return False

    def rebase(self, position):
        """Makes `position` the root: keeps the tree when it already is,
        else starts afresh."""
        target = position.engine_state().state_bytes()
        kept = self._tree.advance_to(target, 0)
        if not kept:
            self._tree.reset(target, position.player_to_move - 1)
        self.position = position
        return kept

    def search(self, time=None, iterations=None, progress=None):
        """Runs simulations within the budget (`time` seconds and/or
        `iterations`); returns (simulations run, seconds).  Ctrl-C raises
        KeyboardInterrupt within about 0.1 s, the tree whole (it holds the
        simulations run: an answer so far can be read from it)."""
        started = _time.monotonic()
        limit = ITERATION_LIMIT if iterations is None else iterations
        done = 0
        while done < limit:
            elapsed = _time.monotonic() - started
            chunk_seconds = -1.0 if time is None else time - elapsed
            if time is not None and chunk_seconds <= 0:
                break
            if progress is not None:
                # the first report comes sooner: a live display shows a move at once
                interval = FIRST_PROGRESS if done == 0 else PROGRESS_INTERVAL
                chunk_seconds = interval if chunk_seconds < 0 else min(chunk_seconds, interval)
            ran = self._tree.run(limit - done, chunk_seconds)
            done += ran
            if self.root_exact():
                break
            if progress is not None:
                progress(self._progress_info(done, _time.monotonic() - started,
                                             getattr(progress, "suggestions", None)))
            if ran == 0 and time is None:
                break
        # a budget too small for the tree to name a whole move (a time shorter
        # than one simulation; a Claim turn of several decisions) still gets
        # the simulations that make it name one: a search always suggests a move
        for _ in range(FORCED_SIMULATIONS):
            if self.root_exact() or self._names_a_move():
                break
            ran = self._tree.run(1, -1.0)
            if ran == 0:
                break
            done += ran
        return done, _time.monotonic() - started

    def _names_a_move(self):
        """Whether the tree names a move: with whole turns of several
        decisions, whether its most visited line reaches a turn's end (a
        walk of the line only: the whole tree may hold millions of nodes)."""
        if self.visits == 0:
            return False
        if not self._compound_turns:
            return True
        path, state = (), self.position.engine_state()
        while True:
            children = [row for row in self._tree.children(path)
                        if row[1] > 0 or result_of(row[3], row[4]) is not None]
            if not children:
                return False
            move = max(children, key=lambda row: row[1])[0]
            state.apply(move)
            if not state.in_turn() or state.to_move() < 0:
                return True
            path += (move,)

    def _progress_info(self, done, seconds, top=None):
        """A progress report: simulations, seconds, the best move so far, and
        with `top` (a progress callable's `suggestions` attribute: the web
        board's live list) the top that many suggestions and the line, as
        analyze's JSON has them.  Naming whole turns walks the tree (some 70
        ms for a Claim settle), so those come at most a tenth of the time."""
        info = {"iterations": done, "seconds": round(seconds, 2)}
        if top and _time.monotonic() >= getattr(self, "_next_snapshot", 0.0):
            began = _time.monotonic()
            snapshot = _result(self, [self.turn_rows()], done, seconds, self.tree_nodes, 1)
            info["suggestions"] = [s.to_json() for s in snapshot.suggestions[:top]]
            info["pv"] = snapshot.pv
            self._next_snapshot = _time.monotonic() + 9 * (_time.monotonic() - began)
        rows = _ranked([self.raw_root()], self.root_bounds())
        if rows:
            move, visits, mean, _lower, _upper = rows[0]
            if self._compound_turns:      # the first whole turn of the best line
                line = self.principal_variation()
                best = line[0] if line else self.position.move_name(move)
            else:
                best = self.position.move_name(move)
            info.update(best=best, visits=visits, mean=round(mean, 3))
        return info

    def raw_root(self):
        """The root's children as (move code, visits, reward sum, lower,
        upper) tuples (bounds None without the solver)."""
        return [row[:5] for row in self._tree.children()]

    def turn_rows(self):
        """The moves searched from the root, as (move string, visits, reward
        sum, lower, upper) tuples.  A move is a whole turn: where a turn takes
        several decisions, the decisions the tree holds are followed to the
        turns' ends (a turn reached by two orders of its decisions gives two
        rows with one name; _ranked adds them up), and a turn the tree does
        not reach to its end is left out."""
        if not self._compound_turns:
            return [(self.position.move_name(row[0]),) + tuple(row[1:]) for row in self.raw_root()]
        rows = []
        budget = [WALK_NODES]
        self._walk_turns((), self.position.engine_state(), rows, False, budget)
        self.turns_partial = len(rows) >= TURN_ROWS or budget[0] <= 0
        if self.turns_partial:            # a large tree: its most visited turns
            rows = []
            self._walk_turns((), self.position.engine_state(), rows, True, [WALK_NODES])
        self.turn_completed = False
        if not rows and self.visits:
            rows = self._completed_line()
        return [(self.position.turn_name(path),) + tuple(row) for path, *row in rows]

    def _completed_line(self):
        """The one row of a tree that reaches no turn's end (a turn of many
        decisions on a large island, a short budget): its most visited line,
        completed to the turn's end by the static evaluation (each further
        decision the one that leaves the mover's side best off), with the
        statistics of the line's last node in the tree."""
        path, state = (), self.position.engine_state()
        player = state.to_move()
        stats = None
        while True:
            children = [row for row in self._tree.children(path) if row[1] > 0]
            if not children:
                break
            best = max(children, key=lambda row: row[1])
            stats = best[1:5]
            state.apply(best[0])
            path += (best[0],)
            if not state.in_turn() or state.to_move() < 0:
                return [(path,) + tuple(stats)]
        if stats is None:
            return []
        self.turn_completed = True
        while state.in_turn() and state.to_move() >= 0:
            options = []
            for code in state.legal_moves():
                child = state.copy()
                child.apply(code)
                options.append((child.evaluate(player), -len(options), code, child))
            _value, _order, code, state = max(options)
            path += (code,)
        return [(path,) + tuple(stats)]

    def _walk_turns(self, path, state, rows, large, budget):
        """Appends the turns under `path`, until TURN_ROWS rows are listed
        or WALK_NODES nodes walked (`budget`: the nodes left; `large`: the
        most visited branches first).  On a large island a short search
        reaches hundreds of thousands of turns, each visited once or twice,
        in a tree of millions of nodes: naming them all would take many
        times the search's budget."""
        children = self._tree.children(path)
        if large:
            children = sorted(children, key=lambda row: -row[1])
        for move, visits, reward, lower, upper, _probability in children:
            if len(rows) >= TURN_ROWS or budget[0] <= 0:
                return
            if visits == 0 and result_of(lower, upper) is None:
                continue
            budget[0] -= 1
            child = state.copy()
            child.apply(move)
            if child.in_turn() and child.to_move() >= 0:
                self._walk_turns(path + (move,), child, rows, large, budget)
            else:
                rows.append((path + (move,), visits, reward, lower, upper))

    def statistics(self, path=()):
        """The children of the node reached from the root by the engine move
        codes `path` (chance outcomes included), as (move, visits, reward
        sum, lower, upper, probability) tuples; None when `path` leaves the
        tree.  Rewards are those of the player to move at that node (at a
        chance node: of the player who moved into it)."""
        return self._tree.children(tuple(path))

    def root_bounds(self):
        """(lower, upper) proven bounds on the final margin of the player to
        move (None for an unbounded side); None without the solver."""
        return self._tree.root_bounds()

    def root_exact(self):
        """Whether the root's final margin is proven exactly."""
        bounds = self._tree.root_bounds()
        return bounds is not None and bounds[0] is not None and bounds[0] == bounds[1]

    def principal_variation(self):
        """Move strings of the line of best moves (it stops before a chance
        node, and leaves out a turn it does not reach to its end)."""
        return move_names(self.position, self._tree.principal_variation())


_REWARD = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def _ranked(roots, root_bounds):
    """Merges root moves of one or more searches (rows of raw_root or
    turn_rows: visits and rewards add up, margin bounds intersect) and ranks
    them: the first as the C search chooses (Tree._ranks_before), the rest
    by the rule of a root whose margin is not proven (proven wins, the other
    moves by visits, proven losses).  Returns [(move, visits, mean, lower,
    upper)] of the moves visited or proven."""
    merged = {}
    for root in roots:
        for move, visits, reward, lower, upper in root:
            entry = merged.setdefault(move, [0, 0.0, None, None])
            entry[0] += visits
            entry[1] += reward
            entry[2] = tighter(entry[2], lower, max)
            entry[3] = tighter(entry[3], upper, min)
    rows = []
    for move, (visits, reward, lower, upper) in merged.items():
        result = result_of(lower, upper)
        if visits == 0 and result is None:
            continue
        mean = _REWARD[result] if result else reward / visits
        rows.append((move, visits, mean, lower, upper))
    exact = None
    if root_bounds is not None and root_bounds[0] is not None and root_bounds[0] == root_bounds[1]:
        exact = root_bounds[0]

    def key(row):
        # at a root whose margin is proven, the moves proven at it first (the
        # C search's choice); then, as at any root, proven wins (the largest
        # proven margin first), the other moves by visits, proven losses last
        # (the largest lower bound first: an unbounded one last)
        _move, visits, mean, lower, upper = row
        if exact is not None and lower == exact:
            return (0, 0, -visits, -mean)
        result = result_of(lower, upper)
        if result == "win":
            return (1, -lower, -visits, -mean)
        if result == "loss":
            return (3, -lower if lower is not None else float("inf"), -visits, -mean)
        return (2, 0, -visits, -mean)

    rows.sort(key=key)
    return rows


def _at_the_ends(lower, upper, win_score):
    """Proven margin bounds, a bound at a won game's score or its negative
    made the margin itself where the game's margins go no further
    (win_score: Claim's +-10,000 or 0)."""
    if win_score:
        if lower is not None and lower >= win_score:
            return win_score, win_score
        if upper is not None and upper <= -win_score:
            return -win_score, -win_score
    return lower, upper


def _suggestion(row, total_visits, win_score=0):
    """The Suggestion of a ranked row whose move is a move string: its mean
    result, its visits and their share of the root's, the mean's 95%
    interval (Wilson's, as if the simulations were independent draws of a
    result in [0, 1]: a guide to how sure the mean is, which narrows as the
    move is visited more), and what the solver proved of its margin.  In a
    game whose margin is a won game's score or its negative (win_score,
    Claim's 10,000), a bound at either end is that margin: a loss is
    "=-10000", not "<=-10000"."""
    move, visits, mean, lower, upper = row
    lower, upper = _at_the_ends(lower, upper, win_score)
    result = result_of(lower, upper)
    extra = {}
    if visits:
        extra["share"] = round(visits / total_visits, 4) if total_visits else 0.0
    if result is None and visits:
        low, high = wilson_interval(mean, visits)
        extra["ci95"] = [round(low, 4), round(high, 4)]
    if lower is not None and lower == upper:
        extra["margin"] = lower
    else:
        if lower is not None:
            extra["margin_at_least"] = lower
        if upper is not None:
            extra["margin_at_most"] = upper
    return Suggestion(move=move, score=mean, visits=visits, result=result,
                      exact=result is not None, extra=extra)


def search(position, time=None, iterations=None, seed=0, threads=1, memory_mb=256, exploration=None,
           playout_depth=None, progress=None, eval_scale=None, uniform_playouts=False, playout_turns=None,
           evaluation=None, expand_visits=None):
    """MCTS from `position` within `time` seconds and/or `iterations`
    simulations (neither: 1 second).  Returns a SearchResult (engine "mcts")
    whose suggestions are the root moves, best first; see docs/mcts.md.
    Ctrl-C stops it within about 0.1 s: an Interrupted (a KeyboardInterrupt)
    is raised with the answer so far (info["interrupted"])."""
    time, options = _checked_options(time, iterations, seed, threads, memory_mb, exploration, playout_depth,
                                     eval_scale, uniform_playouts, playout_turns, evaluation, expand_visits)
    if position.is_over():
        return SearchResult(engine="mcts", suggestions=[], complete=True,
                            info={"iterations": 0, "tree_nodes": 0, "threads": threads})
    tree = MCTSTree(position, seed=seed, **options)
    if threads == 1:
        started = _time.monotonic()
        before = tree._tree.iterations
        try:
            done, seconds = tree.search(time=time, iterations=iterations, progress=progress)
        except KeyboardInterrupt:
            # Ctrl-C: the tree is whole (the C loop stops between simulations)
            result = _result(tree, [tree.turn_rows()], tree._tree.iterations - before,
                             _time.monotonic() - started, tree.tree_nodes, 1)
            raise _interrupted(result) from None
        return _result(tree, [tree.turn_rows()], done, seconds, tree.tree_nodes, 1)
    return _parallel_search(position, tree, time, iterations, seed, threads, options, progress)


def _result(tree, roots, done, seconds, tree_nodes, threads, other_bounds=()):
    """The SearchResult of one or more searches from `tree`'s position;
    `other_bounds` are the root bounds the other searches proved."""
    lower, upper = tree.root_bounds() or (None, None)
    for other in other_bounds:
        if other is not None:
            lower, upper = tighter(lower, other[0], max), tighter(upper, other[1], min)
    root_bounds = None if tree.root_bounds() is None else (lower, upper)
    rows = _ranked(roots, root_bounds)
    total = sum(row[1] for row in rows)
    win_score = game_of(tree.position).win_score
    suggestions = [_suggestion(row, total, win_score) for row in rows]
    pv = tree.principal_variation()
    if suggestions and (not pv or pv[0] != suggestions[0].move):
        pv = [suggestions[0].move]
    info = {"iterations": done, "tree_nodes": tree_nodes, "threads": threads}
    if tree.evaluation.learned:
        info["evaluation"] = tree.evaluation.describe()
    if getattr(tree, "turns_partial", False):
        info["turns_partial"] = True
        info["turns_named"] = len(rows)
    if getattr(tree, "turn_completed", False):
        info["turn_completed"] = True
    lower, upper = _at_the_ends(lower, upper, win_score)     # the position's, as its moves'
    result = result_of(lower, upper)
    exact = lower is not None and lower == upper
    if result is not None:
        info["result"] = result
    if exact:
        info["value"] = lower
    elif lower is not None or upper is not None:
        info["bounds"] = [lower, upper]
    return SearchResult(engine="mcts", suggestions=suggestions, pv=pv, nodes=done, seconds=seconds,
                        complete=exact, info=info)


def _worker(connection, position, seed, time, iterations, options):
    """One root-parallel search in a child process: sends back its root.
    Ctrl-C (SIGINT: the terminal's, to the whole process group, or the
    parent's, passed on) stops the search; the worker then sends what it
    searched and ends quietly (no traceback): the first SIGINT raises once,
    later ones are ignored (a SIGINT the parent ignores is left so, one it
    handles its own way is left so while the worker searches).  SIGINT is
    blocked until the handler is in place (_start_workers); from the moment
    the answer is ready to the worker's end, a SIGINT is caught or ignored
    wherever it lands, so that a Ctrl-C as the worker ends prints nothing."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stop_once)
    try:
        message = _worker_answer(position, seed, time, iterations, options)
        if callable(signal.getsignal(signal.SIGINT)):
            signal.signal(signal.SIGINT, signal.SIG_IGN)   # the answer is on its way
        connection.send(message)
        connection.close()
    except (OSError, KeyboardInterrupt):          # the parent is gone or stopped listening, or a late Ctrl-C
        pass


def _worker_answer(position, seed, time, iterations, options):
    """A worker's search, SIGINT unblocked: its message to the parent
    ("ok" with its root, "interrupted" or "error")."""
    try:
        if hasattr(signal, "pthread_sigmask"):      # a Ctrl-C that came since the fork raises here
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        tree = MCTSTree(position, seed=seed, **options)
        try:
            done, _seconds = tree.search(time=time, iterations=iterations)
        except KeyboardInterrupt:
            done = tree._tree.iterations          # the tree is whole: its answer so far
        return ("ok", tree.turn_rows(), done, tree.tree_nodes, tree.root_bounds())
    except KeyboardInterrupt:
        return ("interrupted",)
    except Exception as exc:  # reported by the parent
        return ("error", f"{type(exc).__name__}: {exc}")


def _stop_once(signum, frame):
    """A worker's SIGINT handler: stop the search once, then ignore SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


# seconds the parent waits, after Ctrl-C, for the workers' answers so far
WORKER_GRACE = 2.0


def _start_workers(context, position, seed, time, budgets, options, workers):
    """Starts a worker per budget after the first (appended to `workers` as
    (process, connection)), with SIGINT blocked across the fork: a worker
    unblocks it once its own handler is in place, so that an early Ctrl-C
    cannot end it with a traceback."""
    threads = len(budgets)
    masking = hasattr(signal, "pthread_sigmask")
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masking else None
    try:
        for k in range(1, threads):
            if budgets[k] == 0:
                continue
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_worker, daemon=True,
                                      args=(send, position, derive_seed(seed, k), time, budgets[k], options))
            process.start()
            send.close()
            workers.append((process, receive))
    finally:
        if masking:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _parallel_search(position, tree, time, iterations, seed, threads, options, progress):
    """`threads` root-parallel searches: this process runs the first, child
    processes the others (seeds derived from `seed`); roots are merged.
    Ctrl-C: every worker is told (SIGINT) and its answer so far awaited a
    moment (WORKER_GRACE); the merged answer is raised as Interrupted."""
    budgets = [None] * threads
    if iterations is not None:
        budgets = [iterations // threads + (1 if k < iterations % threads else 0) for k in range(threads)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    started = _time.monotonic()
    before = tree._tree.iterations
    workers = []
    interrupted = False
    try:
        _start_workers(context, position, seed, time, budgets, options, workers)
        tree.search(time=time, iterations=budgets[0], progress=progress)
    except KeyboardInterrupt:
        interrupted = True
    done = tree._tree.iterations - before
    roots = [tree.turn_rows()]
    tree_nodes = tree.tree_nodes
    other_bounds = []
    try:
        pending = list(workers)
        grace_end = None
        while pending:
            if interrupted and grace_end is None:
                grace_end = _time.monotonic() + WORKER_GRACE
                for process, _receive in pending:
                    _tell(process)
            process, receive = pending[0]
            try:
                wait = None if grace_end is None else max(0.0, grace_end - _time.monotonic())
                if not receive.poll(wait):
                    pending.pop(0)            # no answer in time: left out
                    continue
                message = receive.recv()
            except KeyboardInterrupt:
                interrupted = True
                continue
            except (EOFError, OSError):
                if interrupted:
                    pending.pop(0)
                    continue
                raise ClaimsolveError("mcts: a parallel search process ended without an answer") from None
            pending.pop(0)
            if message[0] == "interrupted":
                interrupted = True
                continue
            if message[0] != "ok":
                raise ClaimsolveError(f"mcts: a parallel search failed: {message[1]}")
            _tag, root, worker_done, worker_nodes, worker_bounds = message
            roots.append(root)
            done += worker_done
            tree_nodes += worker_nodes
            other_bounds.append(worker_bounds)
    finally:
        for process, receive in workers:
            receive.close()
            process.join(timeout=0.5 if interrupted else 5)
            if process.is_alive():
                process.terminate()
                process.join(timeout=1)
    seconds = _time.monotonic() - started
    result = _result(tree, roots, done, seconds, tree_nodes, threads, other_bounds)
    if interrupted:
        raise _interrupted(result)
    return result


def _tell(process):
    """Passes Ctrl-C on to a worker (it may have got it already, or ended)."""
    try:
        os.kill(process.pid, signal.SIGINT)
    except (OSError, TypeError):
        pass


def _interrupted(result):
    """Ctrl-C stopped the search: the Interrupted carrying its answer so far
    (marked info["interrupted"], complete False), or none when no move was
    searched yet."""
    if not result.suggestions:
        return Interrupted(None)
    result.info["interrupted"] = True
    result.complete = False
    return Interrupted(result)


class MCTSPlayer(Player):
    """A match player that keeps its tree between moves: `observe` re-roots
    it at the position after each move, `reset` drops it."""

    name = "mcts"

    def __init__(self, time=None, iterations=None, seed=0, threads=1, memory_mb=256, exploration=None,
                 playout_depth=None, eval_scale=None, uniform_playouts=False, playout_turns=None, evaluation=None,
                 expand_visits=None):
        self.time, self.options = _checked_options(time, iterations, seed, threads, memory_mb, exploration,
                                                   playout_depth, eval_scale, uniform_playouts, playout_turns,
                                                   evaluation, expand_visits)
        self.iterations = iterations
        self.seed = seed
        self.threads = threads
        self.games = 0          # games begun: each gets its own seed
        self.choices = 0        # moves chosen: each parallel search its own seeds
        self.tree = None
        self.last_result = None

    def reset(self):
        self.tree = None
        self.games += 1

    def observe(self, position, move):
        if self.tree is not None:
            self.tree.advance(position, move)

    def choose(self, position):
        legal = position.legal_moves()
        if len(legal) == 1:            # nothing to think about (Claim It!: the roll that opens a turn)
            return legal[0]
        if self.tree is None:
            self.tree = MCTSTree(position, seed=derive_seed(self.seed, self.games), **self.options)
        else:
            self.tree.rebase(position)
        self.choices += 1
        if self.threads == 1:
            done, seconds = self.tree.search(time=self.time, iterations=self.iterations, progress=self.progress)
            result = _result(self.tree, [self.tree.turn_rows()], done, seconds, self.tree.tree_nodes, 1)
        else:
            seed = derive_seed(derive_seed(self.seed, self.games), self.choices)
            result = _parallel_search(position, self.tree, self.time, self.iterations, seed,
                                      self.threads, self.options, self.progress)
        self.last_result = result
        return result.best.move if result.best is not None else legal[0]


def _playout_kind(text, name):
    return limits.choice(text, name, ("game", "uniform")) == "uniform"


_PLAYER_OPTIONS = {"time": limits.seconds, "iterations": limits.iterations, "c": _exploration,
                   "memory": lambda text, name: limits.memory_mb(text, name, whole=False),
                   "threads": limits.threads, "depth": _playout_depth, "playout": _playout_kind,
                   "turns": _playout_turns, "expand": _expand_visits, **_eval_options()}


def _player_factory(options, seed):
    """Options of "mcts:...": time=, iterations=, c= (exploration), memory= (MB),
    threads=, depth= (playout depth), playout=game|uniform, turns= (playouts
    cut by the game's value after that many changes of turn, or "end"),
    expand= (a leaf's playouts before it is expanded),
    eval=classic|learned and weights=PATH (claimsolve.search.learned);
    checked by claimsolve.limits as the command line's options are."""
    values = limits.spec_options(options, _PLAYER_OPTIONS)
    return MCTSPlayer(time=values.get("time"), iterations=values.get("iterations"), seed=seed,
                      threads=values.get("threads", 1), memory_mb=values.get("memory", 256),
                      exploration=values.get("c"), playout_depth=values.get("depth"),
                      uniform_playouts=values.get("playout", False), playout_turns=values.get("turns"),
                      expand_visits=values.get("expand"),
                      evaluation=spec_evaluation(values))


register_player("mcts", _player_factory)
