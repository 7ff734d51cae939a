"""What a study is made of: a kind (solve, match, policies), its parameters,
and its tasks, each named by a stable id (a setup's seed, a game's number).

A kind (claimsolve.study.kinds) says which tasks a study has, what columns
a task's row holds, how one task is done, and how the rows are summed up.
`run_batch` is what a worker runs, in a local process or on a Dask worker:
a few tasks at once, so that the cost of sending work stays small beside
the work.
"""
import os
import socket
import time


class StudyKind:
    """One kind of study.  Subclasses set `name`, `columns` [(name, SQL
    type)] (the task's parameters and results; `id`, `seconds`, `worker`,
    `run` and `done_at` come with every row) and `json_columns` (columns
    holding lists), and define:

    options(**given) -> params   checked, canonical, JSON-able parameters
    task_ids(params)             the tasks' ids, in the order to run them
    run_task(params, id, cache)  one task's row {column: value}
    summary(params, rows, total) the report's data (a dict, JSON-able)
    text(summary)                the report for people
    charts(summary, rows, folder) SVG charts written in `folder` (matplotlib)
    note(params, store)          a few words for the progress line
    decide(params, store)        a decision that ends the study early
                                 ({"decision": ...}) or None
    describe(key, value)         a stored parameter as its option reads

    and, for the check of a stored study (claimsolve.study.check), which
    trusts nothing in the file:

    params_types                 {key: type} of the stored parameters
                                 (check.PARAM_TYPES)
    params_problem(params)       what is inconsistent in them, or None
    column_rules(params)         {column: check.Rule} of every column
    row_rules(params)            [(SQL test of a bad row, what is wrong)]
    """

    name = None
    columns = ()
    json_columns = ()
    params_types = {}

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


_CACHE = {}   # per worker process: whatever a kind keeps between tasks (starting positions)


def worker_name():
    return f"{socket.gethostname()}:{os.getpid()}"


def run_batch(kind_name, params, ids):
    """Runs the tasks `ids` of a `kind_name` study: [(id, row)], each row
    with the task's `seconds` (wall clock), `cpu_seconds` (the processor
    time of its thread: less than `seconds` when other work shares the
    cores) and the `worker` that ran it."""
    from .kinds import get_kind
    kind = get_kind(kind_name)
    cache = _CACHE.setdefault((kind_name, repr(sorted(params.items()))), {})
    if len(_CACHE) > 8:
        _CACHE.clear()
        cache = _CACHE.setdefault((kind_name, repr(sorted(params.items()))), {})
    out = []
    name = worker_name()
    for task_id in ids:
        started, cpu = time.perf_counter(), time.thread_time()
        row = kind.run_task(params, task_id, cache)
        row["seconds"] = time.perf_counter() - started
        row["cpu_seconds"] = time.thread_time() - cpu
        row["worker"] = name
        out.append((task_id, row))
    return out
