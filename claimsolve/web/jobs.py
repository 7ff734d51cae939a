"""The server's work, in worker processes, so that the event loop never
waits for it and no request can hold the server: the long commands
(analyze, odds, solve, review, their pictures) in one pool, the quick ones
(new, show, moves, apply, check, the board's picture, and the checking of
every request's body) in another, each task with a time cap.

`Pool(workers, queue, deadline)` starts `workers` processes (spawned, each
importing claimsolve once, then kept).  `pool.start(task, args, progress)`
runs one task (claimsolve.web.tasks) in a free worker and is an asyncio
Task of its JSON-ready answer; `progress(info)` is called on the event loop
with each progress report of the search.  At most `workers` tasks run at
once and at most `queue` more wait for a worker; beyond that `start` raises
Busy at once.

A task whose caller goes away (the page set another position, a client hung
up) is cancelled: the worker stops the search at its next progress report
(every quarter second), or is killed and replaced when it does not stop
within `grace` seconds (the quick pool: 0, killed at once).  A task still
running `deadline` seconds after it started is killed the same way
(TooLong): the server's --max-time caps the engines' budgets, the deadline
catches work that has no budget of its own (a quick request's cap).

`pool.abort()` (the server is stopping: SIGINT, SIGTERM) kills every worker
at once and ends every task, running or waiting, with Stopped.

The workers ignore SIGINT from the first line they run (a terminal's
Ctrl-C reaches the whole process group): the server stops them.  (The
server's own SIGINT disposition is never changed to start them: a Ctrl-C
meanwhile would be lost.)  A worker that is killed is started again on the
event loop, by the pool.
"""
import asyncio
import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time

from ..errors import ClaimsolveError, one_line
from .api import ApiError

CANCEL_GRACE = 3.0       # seconds a worker gets to stop a cancelled search
POLL = 0.05              # seconds between the runner's looks at a cancel, the deadline or a stop
STARTUP = 120.0          # seconds a worker may take to start (import claimsolve, load the engines)
WORKER_NICENESS = 10     # the long workers' CPU priority below the server's: the page stays quick


class Busy(Exception):
    """Every worker is busy and the queue is full (HTTP 429)."""


class TooLong(Exception):
    """The task outlived its pool's deadline (`seconds`): the worker was
    killed and replaced (HTTP 422: the request was too large)."""

    def __init__(self, seconds):
        super().__init__(f"stopped after {seconds:g} s")
        self.seconds = seconds


class Stopped(Exception):
    """The server is stopping: the task was not answered (HTTP 503)."""


class Cancelled(BaseException):
    """Raised inside a worker's search to stop it (a BaseException, so that
    no `except Exception` on the way swallows it)."""


class WorkerFailed(Exception):
    """The task raised something other than bad input, or the worker died."""


# --- the worker process --------------------------------------------------------------

def _worker_main(connection, niceness=WORKER_NICENESS):
    """A worker's loop: ("ready",) once loaded, then for each ("run", job,
    task, args): ("progress", job, info)... then ("done", job, answer) |
    ("error", job, line) | ("refused", job, status, line) | ("cancelled",
    job) | ("failed", job, text).  ("cancel", job) stops job `job`; a
    cancel of a job already finished is ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the server stops us (a terminal's Ctrl-C reaches us too)
    from . import tasks     # deferred: only a worker runs tasks (the games load there, not in the server)
    if niceness:
        try:
            os.nice(niceness)        # the server's own process answers first
        except (AttributeError, OSError):
            pass
    try:
        tasks.warm()
    except Exception:                # a game that cannot load says so in its task's answer
        pass
    try:
        connection.send(("ready",))
    except (OSError, ValueError):
        return
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
            try:
                answer = tasks.run(task, args, progress)
            except Cancelled:
                connection.send(("cancelled", job))
            except ApiError as exc:
                connection.send(("refused", job, exc.status, exc.message))
            except ClaimsolveError as exc:
                connection.send(("error", job, one_line(exc)))
            except KeyboardInterrupt:
                return
            except Exception as exc:     # a bug: reported as a 500 with its one line
                connection.send(("failed", job, f"{type(exc).__name__}: {exc}"))
            else:
                connection.send(("done", job, answer))
        except (OSError, ValueError):    # the server is gone
            return


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context, niceness):
        self.context = context
        self.niceness = niceness
        self.process = None
        self.connection = None
        self.ready = False

    def start(self):
        parent, child = self.context.Pipe(duplex=True)
        self.process = self.context.Process(target=_worker_main, args=(child, self.niceness), daemon=True,
                                            name="claimsolve-serve-worker")
        self.process.start()
        child.close()
        self.connection = parent
        self.ready = False

    @property
    def alive(self):
        return self.process is not None and self.process.is_alive()

    def kill(self, wait=True):
        """Kills the process (SIGKILL: it ignores SIGINT and may be deep in
        an engine); with `wait`, reaps it and closes the pipe (without, a
        runner thread still reading the pipe sees it end)."""
        if self.process is not None and self.process.is_alive():
            try:
                self.process.kill()
            except (OSError, ValueError):
                pass
        if wait and self.process is not None:
            self.process.join(timeout=5)
            try:
                self.connection.close()
            except (OSError, AttributeError):
                pass

    def _receive(self, stopping):
        """The next message, or None after POLL seconds; raises Stopped,
        or WorkerFailed when the process is gone."""
        if stopping.is_set():
            raise Stopped()
        try:
            if not self.connection.poll(POLL):
                return None
            return self.connection.recv()
        except (EOFError, OSError, ValueError):
            if stopping.is_set():
                raise Stopped() from None
            self.kill()
            raise WorkerFailed(f"the worker process ended (exit code {self.process.exitcode}); it is "
                               "started again") from None

    def run(self, job, task, args, progress, cancel, seconds, grace, stopping):
        """Runs in a runner thread: waits for the worker to be ready, sends
        the task, relays its progress, and returns its answer (raising
        ClaimsolveError, ApiError, Cancelled, TooLong, Stopped or
        WorkerFailed).  A worker killed here is started again by the pool."""
        started = time.monotonic()
        while not self.ready:
            if cancel.is_set():
                raise Cancelled()
            if time.monotonic() - started > STARTUP:
                self.kill()
                raise WorkerFailed(f"the worker process did not start within {STARTUP:g} s")
            message = self._receive(stopping)
            if message is not None and message[0] == "ready":
                self.ready = True
        try:
            self.connection.send(("run", job, task, args))
        except (OSError, ValueError):
            self.kill()
            raise WorkerFailed("the worker process was gone (it is started again)") from None
        deadline = time.monotonic() + seconds
        cancel_sent = None
        while True:
            now = time.monotonic()
            if cancel.is_set() and cancel_sent is None:
                cancel_sent = now
                try:
                    self.connection.send(("cancel", job))
                except (OSError, ValueError):
                    pass
            if cancel_sent is not None and now - cancel_sent >= grace:
                self.kill()
                raise Cancelled()
            if now > deadline:
                self.kill()
                raise TooLong(seconds)
            message = self._receive(stopping)
            if message is None or len(message) < 2 or message[1] != job:
                continue
            kind = message[0]
            if kind == "progress":
                progress(message[2])
            elif kind == "done":
                return message[2]
            elif kind == "error":
                raise ClaimsolveError(message[2])
            elif kind == "refused":
                raise ApiError(message[2], message[3])
            elif kind == "cancelled":
                raise Cancelled()
            else:
                raise WorkerFailed(message[2])


class Pool:
    """`workers` worker processes, at most `queue` tasks waiting; a task is
    killed `deadline` seconds after it starts, and `grace` seconds after it
    is cancelled; the workers run `niceness` below the server's priority."""

    def __init__(self, workers, queue, deadline, niceness=WORKER_NICENESS, grace=CANCEL_GRACE):
        self.workers = workers
        self.queue = queue
        self.deadline = deadline
        self.niceness = niceness
        self.grace = grace
        self.running = 0
        self.waiting = 0
        self._jobs = 0
        self._context = multiprocessing.get_context("spawn")
        self._all = []
        self._idle = None
        self._threads = None
        self._stopping = threading.Event()

    def start_workers(self):
        """Starts the worker processes (call on the event loop)."""
        self._stopping.clear()
        self._idle = asyncio.Queue()
        self._threads = concurrent.futures.ThreadPoolExecutor(max_workers=self.workers,
                                                              thread_name_prefix="claimsolve-runner")
        for _ in range(self.workers):
            worker = _Worker(self._context, self.niceness)
            worker.start()
            self._all.append(worker)
            self._idle.put_nowait(worker)

    def stopping(self):
        """Marks the pool as stopping: no task starts, no worker is started
        again (safe in a signal handler: it only sets a flag)."""
        self._stopping.set()

    def abort(self):
        """Stops at once (on the event loop): every worker killed, every
        task running or waiting ends with Stopped."""
        self._stopping.set()
        for worker in self._all:
            worker.kill(wait=False)
        if self._idle is not None:
            for _ in range(self.waiting):
                self._idle.put_nowait(None)

    def close(self):
        self.abort()
        for worker in self._all:
            worker.kill()
        self._all = []
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)

    @property
    def load(self):
        return {"workers": self.workers, "running": self.running, "waiting": self.waiting, "queue": self.queue}

    def start(self, task, args, progress=None):
        """An asyncio Task answering `task` (a name in claimsolve.web.tasks)
        for `args`; `progress(info)` gets its progress reports, on the event
        loop.  Raises Busy at once when the workers and the queue are full,
        Stopped when the server is stopping.  Cancelling the Task stops the
        search."""
        if self._stopping.is_set():
            raise Stopped()
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
        if worker is None or self._stopping.is_set():
            raise Stopped()
        self.running += 1
        self._jobs += 1
        job = self._jobs
        cancel = threading.Event()

        def relay(info):
            if progress is not None and not cancel.is_set():
                loop.call_soon_threadsafe(progress, info)

        def work():
            try:
                return worker.run(job, task, args, relay, cancel, self.deadline, self.grace, self._stopping)
            finally:
                try:
                    loop.call_soon_threadsafe(self._release, worker)
                except RuntimeError:     # the loop is closed: the server has stopped
                    pass

        future = loop.run_in_executor(self._threads, work)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            cancel.set()             # the worker is given back when it has stopped
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise

    def _release(self, worker):
        """On the event loop: the worker is free again (started anew if it
        was killed)."""
        self.running -= 1
        if self._stopping.is_set():
            return
        if not worker.alive:
            worker.kill()
            worker.start()
        self._idle.put_nowait(worker)
