"""Where a study's batches run: local worker processes (the default) or a
Dask distributed cluster (`--scheduler ADDRESS`, the optional `dask` extra).

A runner takes batches (`submit(batch_id, kind, params, ids)`) and hands
back finished ones (`wait()` -> [(batch_id, results or None)]); None means
the batch's worker died and the batch must run again: the coordinator sends
it anew.  Only the coordinator touches the study's file.
"""
import concurrent.futures
import ctypes
import multiprocessing
import os
import signal
import sys
import uuid

from ..errors import ClaimsolveError
from .check import probe_scheduler
from .tasks import run_batch

PR_SET_PDEATHSIG = 1

# A script that starts a study at its top level, not under `if __name__ == "__main__":`,
# is imported again by each local worker (spawn), which would start the study again
# from there: the worker leaves at once with this exit code, and the coordinator,
# finding it, says why in one line (not "died 4 times (out of memory?)").
REIMPORTED_EXIT = 87
REIMPORTED = ("study: a worker process imported the script again and reached its study.run: start the study under "
              "`if __name__ == \"__main__\":` (Python's multiprocessing imports the script anew in each worker)")


def reimported():
    """True when this process is one multiprocessing started (spawn or
    forkserver) running the main script's top level again: multiprocessing's
    current process is not the main one (or the main module is
    `__mp_main__`), and the caller is the script's module level run as
    `__mp_main__`, not a function a task runs."""
    current = multiprocessing.current_process()
    main = getattr(sys.modules.get("__main__"), "__name__", None)
    if (main != "__mp_main__" and current.name == "MainProcess" and not getattr(current, "_inheriting", False)
            and multiprocessing.parent_process() is None):
        return False
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__mp_main__":
            return True
        frame = frame.f_back
    return False


def leave_if_reimported():
    """In a worker importing the script again (reimported): leave quietly
    with REIMPORTED_EXIT, for the coordinator to say why once."""
    if reimported():
        raise SystemExit(REIMPORTED_EXIT)


def _worker_init(coordinator=None):
    """A local worker: Ctrl-C is the coordinator's to handle (the terminal
    sends it to the whole process group), and the worker dies with its
    coordinator (kill -9 included) instead of running on.  A coordinator
    that died while this worker was still starting (before the death
    signal was asked for) sends nothing: the worker then finds itself
    adopted and leaves at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):    # not Linux: the pool's own shutdown still stops it
        pass
    if coordinator is not None and os.getppid() != coordinator:
        os._exit(1)


class LocalRunner:
    """`workers` processes on this machine (started fresh: spawn).  A worker
    that dies (killed, out of memory) breaks the pool: its batches in
    flight come back as None and a new pool is started."""

    def __init__(self, workers):
        self.workers = workers
        self.description = f"local:{workers}"
        self.capacity = 2 * workers
        self._pool = None
        self._futures = {}
        self.restarts = 0

    def _ensure_pool(self):
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init, initargs=(os.getpid(),))
        return self._pool

    def submit(self, batch_id, kind, params, ids):
        pool = self._ensure_pool()
        try:
            future = pool.submit(run_batch, kind, params, list(ids))
        except concurrent.futures.process.BrokenProcessPool:
            _check_reimported(pool)
            self._restart()
            future = self._ensure_pool().submit(run_batch, kind, params, list(ids))
        self._futures[future] = batch_id

    def _restart(self):
        self.restarts += 1
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def wait(self):
        done, _ = concurrent.futures.wait(list(self._futures), return_when=concurrent.futures.FIRST_COMPLETED)
        out, broken = [], False
        for future in done:
            batch_id = self._futures.pop(future)
            try:
                out.append((batch_id, future.result()))
            except concurrent.futures.process.BrokenProcessPool:
                out.append((batch_id, None))
                broken = True
        if broken:
            _check_reimported(self._pool)
            # every batch in flight in the broken pool is lost with it
            for future, batch_id in list(self._futures.items()):
                finished = future.done() and not future.cancelled() and future.exception() is None
                out.append((batch_id, future.result() if finished else None))
            self._futures.clear()
            self._restart()
        return out

    def close(self):
        pool, self._pool = self._pool, None
        if pool is not None:
            for process in list(getattr(pool, "_processes", {}).values()):
                if process.is_alive():
                    process.kill()
            pool.shutdown(wait=True, cancel_futures=True)
        self._futures.clear()


def _check_reimported(pool):
    """Raises REIMPORTED when a worker of the broken `pool` left because it
    imported the script again (leave_if_reimported): sending its batches
    anew would only start more such workers."""
    processes = getattr(pool, "_processes", None) or {}
    for _ in range(3):                  # the pool's own thread may change the dict meanwhile
        try:
            workers = list(processes.values())
            break
        except RuntimeError:
            continue
    else:
        return
    # a worker that has left may not be reaped yet (its exitcode None): under load the
    # coordinator read None and told of workers dying "out of memory?" instead
    codes = []
    for process in workers:
        process.join(1.0)
        codes.append(process.exitcode)
    if REIMPORTED_EXIT in codes:
        raise ClaimsolveError(REIMPORTED)


def _short(exc, width=160):
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= width else text[:width - 3] + "..."


class DaskRunner:
    """The batches run on the Dask cluster whose scheduler is at `address`
    (claimsolve installed on its workers).  A worker that dies costs the
    batches it held: the scheduler gives them to another worker; a batch
    that kept killing its workers (Dask's KilledWorker) comes back as None,
    as a local one does."""

    def __init__(self, address, client=None, timeout=8, workers_timeout=30):
        try:
            import distributed     # deferred: Dask, an extra, loads only for a cluster
        except ImportError:
            raise ClaimsolveError("option '--scheduler': needs Dask: pip install \"claimsolve[dask]\"") from None
        self._distributed = distributed
        self._own_client = client is None
        if client is None:
            probe_scheduler(address)
            try:
                client = distributed.Client(address, timeout=timeout, set_as_default=False)
            except Exception as exc:      # noqa: BLE001 (whatever a server that is not Dask's makes it raise)
                raise ClaimsolveError(f"option '--scheduler': cannot reach the Dask scheduler at {address} "
                                      f"({_short(exc)})") from None
        self.client = client
        self.description = f"dask:{address}"
        self._futures = {}
        try:
            client.wait_for_workers(1, timeout=workers_timeout)
        except (TimeoutError, OSError):
            self.close()
            raise ClaimsolveError(f"option '--scheduler': the Dask cluster at {address} has no workers "
                                  f"(none came within {workers_timeout:g} s)") from None
        threads = sum(client.nthreads().values()) or 1
        self.capacity = 2 * threads
        self.workers = threads
        self._futures = {}
        self._completed = distributed.as_completed(loop=client.loop)
        self._token = uuid.uuid4().hex[:12]     # keys of this run only (a scheduler keeps old keys' results)

    def submit(self, batch_id, kind, params, ids):
        future = self.client.submit(run_batch, kind, params, list(ids), pure=False,
                                    key=f"claimsolve-study-{self._token}-{batch_id}")
        self._futures[future.key] = (future, batch_id)
        self._completed.add(future)

    def wait(self):
        future = next(self._completed)
        out = [self._take(future)]
        # whatever else has finished meanwhile
        for more in self._completed.next_batch(block=False) if self._completed.has_ready() else ():
            out.append(self._take(more))
        return out

    def _take(self, future):
        _, batch_id = self._futures.pop(future.key)
        try:
            return batch_id, future.result()
        except self._distributed.KilledWorker:
            return batch_id, None           # the coordinator sends it again, or stops (MAX_DEATHS)
        finally:
            future.release()

    def close(self):
        futures = [future for future, _ in self._futures.values()]
        if futures:
            try:
                self.client.cancel(futures)
            except Exception:      # noqa: BLE001 (a cluster already gone)
                pass
        self._futures.clear()
        if self._own_client:
            self.client.close()
