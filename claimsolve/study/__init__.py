"""Studies: thousands of independent solves or games as one resumable command.

    from claimsolve import study
    study.run("solve", {"game": "colorclaim", "size": "3x3", "seeds": "1-1000"}, "cc33.sqlite")
    study.run("match", {"game": "claim", "players": 3, "a": "mcts:time=0.5", "b": "mcts:time=0.5",
                        "games": 600}, "claim3.sqlite", workers=2)
    study.run(..., scheduler="tcp://host:8786")        # on a Dask cluster (the `dask` extra)
    study.report("cc33.sqlite")                         # -> {"summary": ..., "text": ...}

A study is a list of tasks with stable ids (claimsolve.study.kinds); each
finished task is a row of the study's SQLite file (claimsolve.study.store),
written by this process only, a batch at a time.  Run the same study again
and it goes on where it stopped: done tasks are skipped, none is run twice
by the coordinator, none is lost.  The parameters are stored with the study;
other parameters on the same file are refused.
"""
import collections
import os
import sqlite3
import time

from .. import limits
from ..errors import ClaimsolveError, Interrupted
from ..match import sigint_deferred
from .check import check_path, check_scheduler, probe_scheduler
from .kinds import KINDS, get_kind
from .selfplay import SelfplayStudy
from .reports import build
from .runners import DaskRunner, LocalRunner, leave_if_reimported
from .store import Store, failure

__all__ = ["KINDS", "run", "report", "default_workers"]

KINDS[SelfplayStudy.name] = SelfplayStudy()    # its own module, which builds on kinds.py

TARGET_BATCH_SECONDS = 1.0     # a batch takes about this long, once task times are known,
MAX_DEATHS = 4                 # a batch whose worker died this often stops the study
MAX_BATCHES_PER_SECOND = 20    # ... or longer on many workers: the coordinator writes each batch
                               # (well below what it can write: docs/benchmarks.md)
BATCHES_PER_WORKER = 4         # ... and the tasks left make at least this many batches per worker
NOTE_INTERVAL = 1.0            # seconds between the progress line's notes (a query of the file)


def default_workers():
    """The local workers by default: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Outcome(dict):
    """What a run did: status (done, decided, interrupted), tasks done and
    total, tasks completed by this run, its seconds, the runner; `resent`
    the tasks sent again because their worker died, `duplicates` results
    that came for a task already recorded (not written again; none
    expected)."""


def run(kind, options, db, workers=None, scheduler=None, batch=None, progress=None, on_batch=None,
        client=None, connect_timeout=8, *, command_line=False):
    """Runs (or continues) the study of `kind` ("solve", "match",
    "policies", "ladder", "selfplay") with `options`, a dict of the
    kind's options as the command line gives them, keyed by the keywords
    of KINDS[kind].options (`--games-per-table` is games_per_table,
    `--hash` hash_mb), in the SQLite file `db` (a path).  Local processes
    (`workers`, default every core) or the Dask cluster at `scheduler`
    (or an open distributed `client`; `connect_timeout` seconds to reach
    it, and half a minute to find a worker).  `batch` fixes the tasks per
    batch (default: about a second of work).  `progress(info)` gets {done,
    total, rate, eta, note} as batches finish; `on_batch(rows)` the rows
    each batch recorded.  Ctrl-C: an Interrupted whose `partial` is the
    Outcome so far.

    Every argument is checked before any file is made or touched: a bad
    one is a ClaimsolveError naming the parameter (`parameter 'workers':
    ...`) or the key of `options` (`parameter 'options', key 'seeds':
    ...`); with `command_line` (claimsolve study) it names the command
    line's option instead (`option '--seeds': ...`).

    A script must call it under `if __name__ == "__main__":`: the local
    workers import the script again (spawn), and a study started from its
    top level is refused in one line (runners.REIMPORTED) instead of
    starting again in every worker."""
    leave_if_reimported()               # in such a worker: it leaves, the coordinator says why
    name = _option if command_line else _parameter
    limits.choice(kind, name("kind"), list(KINDS))
    study = get_kind(kind)
    params = study.params_of(options, command_line)
    db = os.fspath(db) if isinstance(db, os.PathLike) else db
    if not isinstance(db, str):
        raise ClaimsolveError(f"{limits.label(name('db'))}: must be a file name (a str or a path), not "
                              f"{limits.quoted(db)}")
    check_path(db, writing=True, option=name("db"))
    if workers is not None:
        workers = limits.integer(workers, name("workers"), 1, limits.MAX_WORKERS)
        if scheduler is not None or client is not None:
            raise ClaimsolveError(f"{limits.label(name('workers'))}: is for local processes; a Dask cluster has "
                                  "its own workers")
    if batch is not None:
        batch = limits.integer(batch, name("batch"), 1, limits.MAX_BATCH)
    connect_timeout = limits.seconds(connect_timeout, name("connect_timeout"))
    for key, function in (("progress", progress), ("on_batch", on_batch)):
        if function is not None and not callable(function):
            raise ClaimsolveError(f"{limits.label(name(key))}: must be a function or None, not "
                                  f"{limits.quoted(function)}")
    ids = list(study.task_ids(params))
    if scheduler is not None:
        check_scheduler(scheduler, name("scheduler"))
        scheduler = scheduler.strip()
        if client is None:
            # an unreachable cluster is told before any file is made
            probe_scheduler(scheduler, option=name("scheduler"))
    new_file = not os.path.exists(db)
    try:
        store = Store.create_or_open(db, kind, params, study.columns, study.describe)
        try:
            return _run(study, params, ids, store, workers, scheduler, batch, progress, on_batch, client,
                        connect_timeout)
        except ClaimsolveError:
            if new_file and not store.done_ids():
                store.close()
                _remove_unused(db)          # the run could not start: leave no empty study behind
            raise
        finally:
            store.close()
    except sqlite3.Error as exc:        # the disk full, a file size limit, too many open files
        raise failure(exc, db) from None
    except OSError as exc:
        raise failure(exc, db, doing="go on with the study") from None


def _parameter(key):
    """How a refusal names a parameter of run() from Python."""
    return f"parameter '{key}'"


def _option(key):
    """... and the command line's option of it (`claimsolve study`)."""
    return "--" + key.replace("_", "-")


def _remove_unused(db):
    """Removes a study file this run made and never recorded a task in."""
    for path in (db, db + "-wal", db + "-shm", db + "-journal"):
        try:
            os.remove(path)
        except OSError:
            pass


def _run(study, params, ids, store, workers, scheduler, batch, progress, on_batch, client, connect_timeout):
    done = store.done_ids()
    todo = collections.deque(task for task in ids if task not in done)
    outcome = Outcome(status="done", done=len(done), total=len(ids), completed=0, seconds=0.0, runner=None,
                      resent=0, duplicates=0)
    decision = store.meta("decision")
    if decision is not None:
        outcome.update(status="decided", decision=decision)
        return outcome
    if not todo:
        return outcome
    if scheduler is not None or client is not None:
        runner = DaskRunner(scheduler, client=client, timeout=connect_timeout)
    else:
        runner = LocalRunner(workers or default_workers())
    outcome["runner"] = runner.description
    try:
        run_id = store.begin_run(runner.description, len(todo))
    except BaseException:
        runner.close()
        raise
    started = time.monotonic()
    sizer = _BatchSizer(batch, runner.workers)
    deaths = collections.Counter()
    batches, next_batch = {}, 0
    last_note, note = 0.0, ""
    status = "failed"
    try:
        while todo or batches:
            while todo and len(batches) < runner.capacity:
                size = sizer.size(len(todo))
                chunk = [todo.popleft() for _ in range(min(size, len(todo)))]
                batches[next_batch] = chunk
                runner.submit(next_batch, study.name, params, chunk)
                next_batch += 1
            for batch_id, results in runner.wait():
                chunk = batches.pop(batch_id)
                if results is None:            # its worker died: the tasks go again, first
                    _count_deaths(deaths, chunk)
                    todo.extendleft(reversed(chunk))
                    outcome["resent"] += len(chunk)
                    continue
                with sigint_deferred():
                    written = store.record(run_id, results)
                outcome["duplicates"] += len(results) - len(written)
                outcome["done"] += len(written)
                outcome["completed"] += len(written)
                sizer.learn(row["seconds"] for _, row in results)
                if on_batch is not None:
                    on_batch([dict(row, id=task_id) for task_id, row in results])
                decision = study.decide(params, store)
                if decision is not None:
                    store.set_meta("decision", dict(decision, games=store.count()))
                    outcome.update(decision=decision)
                    todo.clear()
                    batches.clear()
                    status = "decided"
                    break
                if progress is not None:
                    now = time.monotonic()
                    if now - last_note >= NOTE_INTERVAL:
                        note, last_note = study.note(params, store), now
                    progress(_progress_info(outcome, now - started, note))
            if status == "decided":
                break
        if status != "decided":
            status = "done"
    except KeyboardInterrupt:
        status = "interrupted"
        outcome.update(status=status, seconds=time.monotonic() - started)
        raise Interrupted(outcome) from None
    finally:
        runner.close()
        try:
            store.end_run(run_id, status)
        except sqlite3.Error:
            if status in ("done", "decided"):
                raise
            # else what stopped the run (the disk full?) is the error to report;
            # the run's row says "running" and the next run goes on all the same
    outcome.update(status=status, seconds=time.monotonic() - started)
    return outcome


def _count_deaths(deaths, chunk):
    """A batch whose worker has died MAX_DEATHS times stops the study: it is
    the batch (a task that runs out of memory), not the workers."""
    deaths.update(chunk)
    worst = max(deaths[task] for task in chunk)
    if worst >= MAX_DEATHS:
        tasks = ", ".join(str(task) for task in sorted(chunk)[:5]) + (", ..." if len(chunk) > 5 else "")
        raise ClaimsolveError(f"study: the worker running tasks {tasks} died {worst} times (out of memory?): "
                              "the study stops; the tasks done before are kept")


def _progress_info(outcome, elapsed, note):
    rate = outcome["completed"] / elapsed if elapsed > 0 else 0.0
    left = outcome["total"] - outcome["done"]
    return {"done": outcome["done"], "total": outcome["total"], "rate": rate,
            "eta": left / rate if rate > 0 else None, "note": note}


def progress_text(info, width=24):
    """`[######------] 412/1,000 41% 23.4/s ETA 0:25 note`: the progress bar
    of a study on a terminal."""
    done, total = info["done"], info["total"]
    filled = int(width * done / total) if total else width
    eta = info["eta"]
    eta_text = "--:--" if eta is None else _clock(eta)
    rate = info["rate"]
    rate_text = f"{rate:.1f}/s" if rate >= 1 else f"{rate * 60:.1f}/min"
    return (f"[{'#' * filled}{'-' * (width - filled)}] {done:,}/{total:,} {100 * done / total if total else 100:.0f}% "
            f"{rate_text} ETA {eta_text} {info['note']}").rstrip()


def _clock(seconds):
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class _BatchSizer:
    """Tasks per batch: `fixed`, or about TARGET_BATCH_SECONDS of work by the
    task times seen so far (one task at a time until some are seen; longer
    on many workers, so that at most MAX_BATCHES_PER_SECOND come back), and
    never so many that the tasks left make fewer than BATCHES_PER_WORKER
    batches per worker (the last batches would keep workers idle)."""

    def __init__(self, fixed, workers):
        self.fixed = fixed
        self.workers = workers
        self.count = 0
        self.total = 0.0

    def learn(self, seconds):
        for s in seconds:
            self.count += 1
            self.total += s

    def size(self, left):
        if self.fixed is not None:
            return self.fixed
        if not self.count:
            return 1
        mean = max(self.total / self.count, 1e-6)
        target = max(TARGET_BATCH_SECONDS, self.workers / MAX_BATCHES_PER_SECOND)
        by_time = int(target / mean)
        by_spread = left // (BATCHES_PER_WORKER * self.workers)
        return max(1, min(by_time, by_spread, 1000))


def report(db, anchor=None, *, anchor_name="parameter 'anchor'"):
    """The report of the study in `db`, finished or not: {"summary": ...,
    "text": ...}; the summary says how far the study got.  A ladder's
    ratings hold `anchor` (one of its specs) at 0, else its own anchor;
    `anchor_name` names it in a refusal (the command line: "--anchor")."""
    db = os.fspath(db) if isinstance(db, os.PathLike) else db
    try:
        store = Store.read(db)
        try:
            return build(store, anchor, anchor_name)
        finally:
            store.close()
    except sqlite3.Error as exc:
        raise failure(exc, db, reading=True) from None
    except OSError as exc:
        raise failure(exc, db, reading=True) from None
