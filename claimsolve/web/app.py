"""`claimsolve serve`: the analysis board's page and the JSON API, as a
Starlette application (run by uvicorn: claimsolve.web.serve).

    GET  /                  the analysis board (static/index.html)
    GET  /static/...        its script, style sheet, icon and game boards
    GET  /api/games         the games, their `new` options, the server's caps (max_time, max_body)
    GET  /api/style         the palettes, sizes and board geometry the pictures and the
                            page draw with (claimsolve.render.style)
    POST /api/new | show | moves | apply          answered by a quick worker (at most QUICK_TIME s)
    POST /api/layout        where the page draws the position's board: its squares, labels,
                            legend and size, in pixels (the rule show --svg draws by)
    POST /api/check         the page's apply: {"legal": true, "position", "moves"} or
                            {"legal": false, "error": apply's line}, a 200 either way
    POST /api/record        a game record read (and checked) by claimsolve.records:
                            its start, moves and variations with the position after
                            each, or a 400 with the reader's line
    POST /api/analyze | odds | solve | review | grade     run in a worker process
                            (grade: one move graded as a review grades it, the
                            board's practice of a reviewed game's mistakes)
    POST /api/svg           {"of": "show" | "analyze" | "odds", ...}: a picture

A POST body is a JSON object (claimsolve.web.api).  /api/analyze, /odds,
/solve and /review stream their progress as server-sent events when the
request accepts text/event-stream: events `progress` (the search's reports:
best move, score, depth or simulations, and the top suggestions so far; a
review's each move graded), then `result` (what --json prints) or `error`
({"error": line}).

Nothing here reads or writes a path on the server's disk but the package's
own static files: a position comes in the request and goes out in the
answer.

What a request may cost (docs/cli.md, "serve: what a request may cost"):
the event loop only reads a body (at most api.MAX_BODY, 413 beyond) and
passes bytes on.  The quick commands, and the checking of every body, run
in a pool of QUICK_WORKERS processes, each request at most QUICK_TIME
seconds (past it the worker is killed and replaced and the answer is a 422);
the long ones in the --workers pool, every option that sets their work
capped by --max-time before it starts.  A client that goes away mid-body or
mid-stream costs nothing and logs nothing (Guard), and a stop (SIGINT,
SIGTERM) ends every request at once: the workers are killed, what was asked
is answered 503 "the server is stopping" (stop()).
"""
import asyncio
import contextlib
import json

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import limits
from . import api
from .jobs import Busy, Cancelled, Pool, Stopped, TooLong, WorkerFailed

try:
    from importlib.resources import files as _resource_files
except ImportError:   # pragma: no cover  (Python < 3.9)
    _resource_files = None

STATIC = _resource_files("claimsolve.web") / "static"

# Headers of every answer: the page loads nothing from elsewhere and runs no
# inline script; nothing is sniffed into another type.
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                                "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
GET_PATHS = ("/api/games", "/api/style")     # the API's two GETs: every other command is a POST
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1", "testserver"]

QUICK_TIME = 5.0         # seconds a quick request (or the checking of a long one's body) may take
QUICK_WORKERS = 2        # processes for them, at the server's own priority
QUICK_QUEUE = 32         # quick requests waiting for one of them (429 beyond)
STOP_GRACE = 0.25        # seconds a request gets to end by itself when the server stops
STOPPING = "the server is stopping (SIGINT or SIGTERM): the request was not answered"


class Gone(Exception):
    """The client hung up before its answer: nobody to answer."""


class Stop:
    """Set when the server stops: Guard then ends what is still running."""

    def __init__(self):
        self.event = None

    def arm(self):
        self.event = asyncio.Event()        # on the serving loop, when it starts

    def set(self):
        if self.event is not None:
            self.event.set()


def json_text(data):
    """JSON as the commands print it with --json: indented by 2, a newline."""
    return json.dumps(data, indent=2) + "\n"


def answer(data, status=200):
    """A JSON answer; `data` already text (a position's JSON) or a value."""
    text = data if isinstance(data, str) else json_text(data)
    return Response(text, status_code=status, media_type="application/json", headers=SECURITY_HEADERS)


def refusal(status, message):
    return answer({"error": message}, status)


async def read_request(request):
    """The request body's bytes (parsed in a worker), refusing a body over
    api.MAX_BODY (413) before reading it all; Gone when the client hangs
    up before it is all sent."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > api.MAX_BODY:
        raise api.ApiError(413, f"the request body is larger than {api.MAX_BODY // 1024} KB")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > api.MAX_BODY:
                raise api.ApiError(413, f"the request body is larger than {api.MAX_BODY // 1024} KB")
            chunks.append(chunk)
    except ClientDisconnect:
        raise Gone() from None
    return b"".join(chunks)


def create_app(max_time=30.0, workers=2, queue=None, hosts=None, quick_time=QUICK_TIME,
               quick_workers=QUICK_WORKERS):
    """The application: `workers` worker processes for the long commands, at
    most `queue` (default: as many as workers) waiting, engine time per
    request at most `max_time` seconds; `quick_workers` processes for the
    quick commands, each request at most `quick_time` seconds; `hosts` the
    Host names it answers (default: the loopback names; ["*"] any).
    `app.state.stop()` ends every request at once (the server stops)."""
    pool = Pool(workers, workers if queue is None else queue, deadline=max_time * 2 + 10)
    quick_pool = Pool(quick_workers, QUICK_QUEUE, deadline=quick_time, niceness=0, grace=0.0)
    stop_all = Stop()

    async def index(request):
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def favicon(request):
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=SECURITY_HEADERS)

    async def games(request):
        return answer({"games": api.games(), "max_time": max_time, "workers": workers, "quick_time": quick_time,
                       "max_body": api.MAX_BODY})

    async def ask(request, task, args):
        """The answer of a quick task, in the quick pool; Gone when the
        client hangs up meanwhile (its worker is killed and replaced)."""
        job = quick_pool.start(task, args)
        return await until_gone(request, job)

    async def style(request):
        return answer(api.style())

    async def quick(request):
        name = request.path_params["command"]
        try:
            data = await read_request(request)
            result = await ask(request, "quick", {"command": name, "body": data})
        except Gone:
            return Response(status_code=499)
        except Exception as exc:
            status, message = failure(exc, f"/api/{name}")
            return refusal(status, message)
        return answer(result)

    async def long(request):
        name = request.path_params["command"]
        try:
            data = await read_request(request)
            args = await ask(request, "checked", {"command": name, "body": data, "max_time": max_time})
        except Gone:
            return Response(status_code=499)
        except Exception as exc:
            status, message = failure(exc, f"/api/{name}")
            return refusal(status, message)
        return await run_long(request, name, args, lambda result: answer(result))

    async def svg(request):
        try:
            data = await read_request(request)
            checked = await ask(request, "svg_request", {"body": data, "max_time": max_time})
        except Gone:
            return Response(status_code=499)
        except Exception as exc:
            status, message = failure(exc, "/api/svg")
            return refusal(status, message)
        if "picture" in checked:
            return Response(checked["picture"], media_type="image/svg+xml", headers=SECURITY_HEADERS)
        return await run_long(request, checked["task"], checked["args"],
                              lambda picture: Response(picture, media_type="image/svg+xml", headers=SECURITY_HEADERS))

    async def until_gone(request, job):
        """The job's result; if the client hangs up first the job is
        cancelled and Gone raised."""
        gone = asyncio.ensure_future(disconnected(request))
        try:
            await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not job.done():          # the client hung up (or this request was cancelled)
                job.cancel()
                raise Gone()
        return job.result()

    async def run_long(request, task, args, respond):
        streaming = "text/event-stream" in request.headers.get("accept", "")
        progress = asyncio.Queue() if streaming else None
        try:
            job = pool.start(task, args, progress.put_nowait if streaming else None)
        except (Busy, Stopped) as exc:
            status, message = failure(exc)
            return refusal(status, message)
        if streaming:
            return StreamingResponse(events(job, progress), media_type="text/event-stream",
                                     headers={**SECURITY_HEADERS, "Cache-Control": "no-store"})
        try:
            return respond(await until_gone(request, job))
        except Gone:                    # nobody to answer
            return Response(status_code=499)
        except Exception as exc:
            status, message = failure(exc)
            return refusal(status, message)

    async def events(job, progress):
        """progress events while the job runs, then its result or error."""
        getter = None
        try:
            while True:
                getter = asyncio.ensure_future(progress.get())
                await asyncio.wait({job, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield sse("progress", getter.result())
                    continue
                getter.cancel()
                while not progress.empty():
                    yield sse("progress", progress.get_nowait())
                try:
                    yield sse("result", job.result())
                except Exception as exc:
                    status, message = failure(exc)
                    yield sse("error", {"error": message, "status": status})
                return
        finally:
            if getter is not None and not getter.done():
                getter.cancel()
            if not job.done():
                job.cancel()

    def failure(exc, what=None):
        """(status, line) of a request's failure: `what` the quick request
        (its path), None for a long job."""
        if isinstance(exc, Busy):
            if what is not None:
                return 429, (f"busy: {quick_pool.running} requests running and {quick_pool.waiting} waiting "
                             f"for this server's {quick_workers} quick workers; try again shortly")
            return 429, str(exc)
        if isinstance(exc, TooLong):
            if what == "/api/record":
                # a record's only limits: its bytes (the request's max_body) and this time to replay it
                return 422, (f"{what}: the record took more than {quick_time:g} s to read (each move is "
                             f"replayed), this server's cap on a quick request, and it was stopped: a record "
                             f"opens if it is at most {api.MAX_BODY // 1024:,} KB and is read within "
                             f"{quick_time:g} s (no count of moves is set: some tens of thousands take longer)")
            if what is not None:
                return 422, (f"{what}: the request was too large for this server's quick cap: its answer takes "
                             f"more than {quick_time:g} s, and it was stopped")
            return 422, (f"the request was too large for this server: its answer was not ready {pool.deadline:g} s "
                         f"after it started (an engine time of at most {max_time:g} s, serve --max-time), and "
                         "it was stopped; give a smaller budget or a smaller position")
        if isinstance(exc, Stopped):
            return 503, STOPPING
        if isinstance(exc, WorkerFailed):
            return 500, f"internal error: {exc}"
        if isinstance(exc, Cancelled):
            return 503, "the analysis was cancelled"
        error = api.error_of(exc)
        return error.status, error.message

    def stop():
        """The server stops (SIGINT, SIGTERM): every worker killed, every
        request ended within STOP_GRACE seconds."""
        pool.abort()
        quick_pool.abort()
        stop_all.set()

    def stopping():
        """The first thing a stop does, from the signal handler: no worker
        is started again (only flags are set)."""
        pool.stopping()
        quick_pool.stopping()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        stop_all.arm()
        pool.start_workers()
        quick_pool.start_workers()
        try:
            yield
        finally:
            pool.close()
            quick_pool.close()

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/style", style, methods=["GET"]),
        Route("/api/svg", svg, methods=["POST"]),
        Route("/api/{command:str}", dispatch_for(quick, long), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(Guard, stop=stop_all),
                  Middleware(HostCheck, allowed_hosts=hosts or LOOPBACK_HOSTS)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.pool = pool
    app.state.quick_pool = quick_pool
    app.state.stop = stop
    app.state.stopping = stopping
    return app


def dispatch_for(quick, long):
    async def dispatch(request):
        name = request.path_params["command"]
        if name in api.QUICK:
            return await quick(request)
        if name in api.LONG:
            return await long(request)
        known = ", ".join(f"/api/{n}" for n in [*api.QUICK, *api.LONG, "svg"])
        shown = name if len(name) <= 40 else name[:20] + "..."
        return refusal(404, f"no such command '/api/{shown}' (the API: {known}; GET /api/games)")
    return dispatch


class HostCheck:
    """Starlette's TrustedHostMiddleware (a request whose Host header names
    none of `allowed_hosts` is refused: a guard against DNS rebinding), its
    refusal the API's one-line JSON error instead of a text/plain "Invalid
    host header"."""

    def __init__(self, app, allowed_hosts):
        self.app = app
        self.allowed = allowed_hosts
        self.check = TrustedHostMiddleware(self._passed, allowed_hosts=allowed_hosts)

    async def _passed(self, scope, receive, send):
        scope["claimsolve.host_checked"] = True
        await self.app(scope, receive, send)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.check(scope, receive, send)
            return

        async def answered(message):
            if scope.get("claimsolve.host_checked"):
                await send(message)
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                host = Headers(scope=scope).get("host")
                names = ", ".join(name for name in self.allowed if name != "testserver")
                await refusal(400, f"Host header {limits.quoted(host) if host is not None else '(none)'}: this "
                                   f"server listens on this machine's loopback and answers only its names "
                                   f"({names}); `serve --host` with another address answers any"
                              )(scope, receive, send)

        await self.check(scope, receive, answered)


class Guard:
    """The outermost layer of every HTTP request: a client that goes away
    (mid-body, mid-stream) ends its request quietly, with no traceback in
    the log; when the server stops, a request still running STOP_GRACE
    seconds later is ended here (a 503 if nothing was answered yet, else
    its answer closed where it stands)."""

    def __init__(self, app, stop):
        self.app = app
        self.stop = stop

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.stop.event is None:
            await self.app(scope, receive, send)
            return
        sent = {"start": False, "end": False}

        async def tracked(message):
            if message["type"] == "http.response.start":
                sent["start"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                sent["end"] = True
            await send(message)

        request = asyncio.ensure_future(self.quietly(scope, receive, tracked))
        stopped = asyncio.ensure_future(self.stop.event.wait())
        try:
            await asyncio.wait({request, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not request.done():          # the server stops: a moment to answer, then ended here
                await asyncio.wait({request}, timeout=STOP_GRACE)
            if not request.done():
                request.cancel()
                await asyncio.wait({request})
                await self.close(send, sent)
            elif not request.cancelled():
                request.result()            # a bug: raised for the log and a 500
        except asyncio.CancelledError:      # uvicorn gave up on the request
            request.cancel()
            raise
        finally:
            stopped.cancel()

    async def quietly(self, scope, receive, send):
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            pass                            # the client went away: nobody to tell

    async def close(self, send, sent):
        try:
            if not sent["start"]:
                await send({"type": "http.response.start", "status": 503,
                            "headers": [(b"content-type", b"application/json"), (b"connection", b"close")]})
                await send({"type": "http.response.body", "body": json_text({"error": STOPPING}).encode()})
            elif not sent["end"]:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except (OSError, ClientDisconnect):
            pass


async def disconnected(request):
    """Returns when the client has hung up."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def sse(event, data):
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def not_found(request, exc):
    if request.url.path.startswith("/api/"):
        return refusal(404, f"no such path {request.url.path[:60]}")
    return Response("not found\n", status_code=404, media_type="text/plain", headers=SECURITY_HEADERS)


async def not_allowed(request, exc):
    if request.url.path.startswith("/api/"):
        return refusal(405, f"{request.method} is not how {request.url.path[:60]} is asked: POST a JSON object"
                       if request.url.path not in GET_PATHS else f"GET {request.url.path}")
    return Response("method not allowed\n", status_code=405, media_type="text/plain", headers=SECURITY_HEADERS)
