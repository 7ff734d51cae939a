"""What a worker runs, in a local process or on a Dask worker: `run_batch`,
a few tasks of a study at once, so that the cost of sending work stays
small beside the work.  A study is made of a kind (claimsolve.study.kinds:
which tasks a study has, what columns a task's row holds, how one task is
done), its parameters, and its tasks, each named by a stable id (a setup's
seed, a game's number).
"""
import os
import socket
import time

from .kinds import get_kind


_CACHE = {}   # per worker process: whatever a kind keeps between tasks (starting positions)


def worker_name():
    return f"{socket.gethostname()}:{os.getpid()}"


def run_batch(kind_name, params, ids):
    """Runs the tasks `ids` of a `kind_name` study: [(id, row)], each row
    with the task's `seconds` (wall clock), `cpu_seconds` (the processor
    time of its thread: less than `seconds` when other work shares the
    cores) and the `worker` that ran it."""
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
