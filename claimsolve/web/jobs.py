"""The server's long work (analyze, odds, solve, the analysis picture) in
worker processes, so that the event loop, and with it the page and the quick
API calls, never waits for a search.

`Pool(workers, queue, deadline)` starts `workers` processes (spawned, each
importing claimsolve once, then kept).  `await pool.run(task, args,
progress)` runs one task (claimsolve.web.tasks) in a free worker and returns
its JSON-ready answer; `progress(info)` is called on the event loop with each
progress report of the search.  At most `workers` tasks run at once and at
most `queue` more wait for a worker; beyond that `run` raises Busy at once.

A task whose caller goes away (the page set another position, a client hung
up) is cancelled: the worker stops the search at its next progress report
(every quarter second), or is killed and replaced when it does not stop
within CANCEL_GRACE seconds.  A task still running `deadline` seconds after
it started is killed the same way (TooLong): the server's --max-time caps
the engines' budgets, the deadline catches work that has no budget of its
own.
"""
import asyncio
import concurrent.futures
import multiprocessing
import threading
import time

from ..errors import ClaimsolveError, one_line

CANCEL_GRACE = 3.0       # seconds a worker gets to stop a cancelled search
POLL = 0.05              # seconds between the runner's looks at a cancel or the deadline
WORKER_NICENESS = 10     # the workers' CPU priority below the server's: the page stays quick


class Busy(Exception):
    """Every worker is busy and the queue is full (HTTP 429)."""


class TooLong(Exception):
    """The task outlived the server's deadline (HTTP 503)."""


class Cancelled(BaseException):
    """Raised inside a worker's search to stop it (a BaseException, so that
    no `except Exception` on the way swallows it)."""


class WorkerFailed(Exception):
    """The task raised something other than bad input, or the worker died."""


# --- the worker process --------------------------------------------------------------

def _worker_main(connection):
    """A worker's loop: ("run", job, task, args) -> ("progress", job, info)...
    then ("done", job, answer) | ("error", job, line) | ("cancelled", job) |
    ("failed", job, text).  ("cancel", job) stops job `job`; a cancel of a
    job already finished is ignored."""
    import os
    from . import tasks
    try:
        os.nice(WORKER_NICENESS)     # the server's own process answers first
    except (AttributeError, OSError):
        pass
    try:
        tasks.warm()
    except Exception:                # a game that cannot load says so in its task's answer
        pass
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if message[0] == "quit":
            return
        if message[0] != "run":
            continue                 # a cancel that came after its job ended
        _tag, job, task, args = message

        def progress(info, job=job):
            while connection.poll():
                command = connection.recv()
                if command[0] == "cancel" and command[1] == job:
                    raise Cancelled()
                if command[0] == "quit":
                    raise SystemExit(0)
            connection.send(("progress", job, tasks.jsonable(info)))

        try:
            answer = tasks.run(task, args, progress)
        except Cancelled:
            connection.send(("cancelled", job))
        except ClaimsolveError as exc:
            connection.send(("error", job, one_line(exc)))
        except KeyboardInterrupt:
            return
        except Exception as exc:     # a bug: reported as a 500 with its one line
            connection.send(("failed", job, f"{type(exc).__name__}: {exc}"))
        else:
            connection.send(("done", job, answer))


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context):
        self.context = context
        self.start()

    def start(self):
        parent, child = self.context.Pipe(duplex=True)
        self.process = self.context.Process(target=_worker_main, args=(child,), daemon=True,
                                            name="claimsolve-serve-worker")
        self.process.start()
        child.close()
        self.connection = parent

    def restart(self):
        self.kill()
        self.start()

    def kill(self):
        try:
            self.connection.close()
        except OSError:
            pass
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)

    def stop(self):
        try:
            self.connection.send(("quit",))
        except (OSError, ValueError):
            pass
        self.process.join(timeout=2)
        self.kill()

    def run(self, job, task, args, progress, cancel, deadline):
        """Runs in a runner thread: sends the task, relays its progress, and
        returns its answer (raising ClaimsolveError, Cancelled, TooLong or
        WorkerFailed)."""
        try:
            self.connection.send(("run", job, task, args))
        except (OSError, ValueError):
            self.restart()
            raise WorkerFailed("the worker process was gone (restarted)") from None
        cancel_sent = None
        while True:
            now = time.monotonic()
            if cancel.is_set() and cancel_sent is None:
                cancel_sent = now
                try:
                    self.connection.send(("cancel", job))
                except (OSError, ValueError):
                    pass
            if cancel_sent is not None and now - cancel_sent > CANCEL_GRACE:
                self.restart()
                raise Cancelled()
            if now > deadline:
                self.restart()
                raise TooLong()
            try:
                if not self.connection.poll(POLL):
                    continue
                message = self.connection.recv()
            except (EOFError, OSError):
                code = self.process.exitcode
                self.restart()
                raise WorkerFailed(f"the worker process ended (exit code {code}); it was restarted") from None
            kind, message_job = message[0], message[1]
            if message_job != job:
                continue
            if kind == "progress":
                progress(message[2])
            elif kind == "done":
                return message[2]
            elif kind == "error":
                raise ClaimsolveError(message[2])
            elif kind == "cancelled":
                raise Cancelled()
            else:
                raise WorkerFailed(message[2])


class Pool:
    """`workers` worker processes, at most `queue` tasks waiting; a task is
    killed `deadline` seconds after it starts."""

    def __init__(self, workers, queue, deadline):
        self.workers = workers
        self.queue = queue
        self.deadline = deadline
        self.running = 0
        self.waiting = 0
        self._jobs = 0
        self._context = multiprocessing.get_context("spawn")
        self._all = []
        self._idle = None
        self._threads = None

    def start_workers(self):
        """Starts the worker processes (call on the event loop)."""
        self._idle = asyncio.Queue()
        self._threads = concurrent.futures.ThreadPoolExecutor(max_workers=self.workers,
                                                              thread_name_prefix="claimsolve-runner")
        for _ in range(self.workers):
            worker = _Worker(self._context)
            self._all.append(worker)
            self._idle.put_nowait(worker)

    def close(self):
        for worker in self._all:
            worker.stop()
        self._all = []
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)

    @property
    def load(self):
        return {"workers": self.workers, "running": self.running, "waiting": self.waiting, "queue": self.queue}

    def start(self, task, args, progress=None):
        """An asyncio Task answering `task` (a name in claimsolve.web.tasks)
        for `args`; `progress(info)` gets its progress reports, on the event
        loop.  Raises Busy at once when the workers and the queue are full.
        Cancelling the Task stops the search."""
        if self.running + self.waiting >= self.workers + self.queue:
            raise Busy(f"busy: {self.running} analyses running and {self.waiting} waiting "
                       f"(this server runs {self.workers} at once, serve --workers); try again shortly")
        self.waiting += 1
        return asyncio.ensure_future(self._run(task, args, progress))

    async def run(self, task, args, progress=None):
        """The answer of `task` (see start)."""
        return await self.start(task, args, progress)

    async def _run(self, task, args, progress):
        loop = asyncio.get_running_loop()
        try:
            worker = await self._idle.get()
        finally:
            self.waiting -= 1
        self.running += 1
        self._jobs += 1
        job = self._jobs
        cancel = threading.Event()

        def relay(info):
            if progress is not None and not cancel.is_set():
                loop.call_soon_threadsafe(progress, info)

        def work():
            try:
                return worker.run(job, task, args, relay, cancel, time.monotonic() + self.deadline)
            finally:
                loop.call_soon_threadsafe(self._release, worker)

        future = loop.run_in_executor(self._threads, work)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            cancel.set()             # the worker is given back when it has stopped
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise

    def _release(self, worker):
        self.running -= 1
        self._idle.put_nowait(worker)
