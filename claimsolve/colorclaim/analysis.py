"""How `claimsolve analyze` answers a Color Claim position: the exact solver
when the position is small enough to finish in the budget, else alpha-beta
with the static evaluation; `engine` picks one (mcts too)."""
import time as _time

from ..analysis import Analysis, add_solver_proofs
from ..search import alphabeta, mcts

# Under `auto`, positions with at most this many stacks are given to the exact
# solver first, for SOLVER_SHARE of the budget: the value and one best move
# (value-only, several times cheaper than every move's value), then, with
# the table kept, every move's value in what is left of the budget.  When the
# value is proven and the rest is not, the answer is the solver's (the
# best move exact, the others what both solves proved of them); when not even
# the value is, alpha-beta answers with the rest of the budget, and every
# value and bound the solver proved is kept, move by move, and orders the
# list where it decides (claimsolve.analysis.add_solver_proofs).
# Unless told otherwise the solver runs on the machine's cores (at most 2:
# alphabeta.default_threads).  AUTO_SOLVE_STACKS and SOLVER_SHARE are set so
# that with 2 threads on 2 cores the default 2 s prove the value of 20-stack
# 6x5 endgames, and the rest is alpha-beta's if it fails (docs/benchmarks.md).
AUTO_SOLVE_STACKS = 20
SOLVER_SHARE = 0.9


def analyze(position, time, iterations, engine, seed, threads, hash_mb, top, progress):
    """The Analysis of `position` (see claimsolve.analysis.analyze)."""
    solver_threads = alphabeta.default_threads() if threads is None else threads
    threads = threads or 1
    if engine == "mcts":
        result = mcts.search(position, time=time, iterations=iterations, seed=seed,
                             threads=threads, progress=progress)
        return Analysis(position, result)
    if iterations is not None and engine == "auto":
        # an iteration budget only means something to MCTS (a time, if given
        # too, is its second limit)
        result = mcts.search(position, time=time, iterations=iterations, seed=seed, threads=threads,
                             progress=progress)
        return Analysis(position, result)
    if engine == "solver":
        return Analysis(position, alphabeta.solve(position, time=time, hash_mb=hash_mb, progress=progress,
                                                  threads=solver_threads))
    if engine == "alphabeta":
        return Analysis(position, alphabeta.search(position, time=time, hash_mb=hash_mb, top=top or 1,
                                                   progress=progress))
    # auto
    started = _time.monotonic()
    solved = None
    if position.stack_count() <= AUTO_SOLVE_STACKS:
        table = alphabeta.new_table(hash_mb)
        budget = None if time is None else time * SOLVER_SHARE
        solved = alphabeta.solve(position, time=budget, hash_mb=hash_mb, progress=progress,
                                 table=table, value_only=time is not None, threads=solver_threads)
        if solved.complete and time is not None:
            left = budget - (_time.monotonic() - started)
            if left > 0:
                every = alphabeta.solve(position, time=left, hash_mb=hash_mb, progress=progress, table=table,
                                        threads=solver_threads)
                if every.complete:
                    return Analysis(position, every)
                solved = alphabeta.keep_both_proofs(solved, every)
        if solved.complete:
            return Analysis(position, solved)
    remaining = None if time is None else max(0.05, time - (_time.monotonic() - started))
    result = alphabeta.search(position, time=remaining, hash_mb=hash_mb, top=top or 1, progress=progress)
    if solved is not None:
        add_solver_proofs(result, solved)
    return Analysis(position, result)
