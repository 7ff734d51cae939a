"""`claimsolve serve`: the analysis board's page and the JSON API, as a
Starlette application (run by uvicorn: claimsolve.web.serve).

    GET  /                  the analysis board (static/index.html)
    GET  /static/...        its script, style sheet, icon and game boards
    GET  /api/games         the games, their `new` options, the server's caps
    GET  /api/style         the palettes, sizes and board geometry the pictures and the
                            page draw with (claimsolve.render.style)
    POST /api/new | show | moves | apply          answered at once
    POST /api/check         the page's apply: {"legal": true, "position", "moves"} or
                            {"legal": false, "error": apply's line}, a 200 either way
    POST /api/record        a game record read (and checked) by claimsolve.records:
                            its start, moves and variations with the position after
                            each, or a 400 with the reader's line
    POST /api/analyze | odds | solve | review     run in a worker process
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
"""
import asyncio
import contextlib
import json

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import api
from .jobs import Busy, Cancelled, Pool, TooLong, WorkerFailed

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
    """The request's JSON object, refusing a body over api.MAX_BODY (413)
    before reading it all."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > api.MAX_BODY:
        raise api.ApiError(413, f"the request body is larger than {api.MAX_BODY // 1024} KB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > api.MAX_BODY:
            raise api.ApiError(413, f"the request body is larger than {api.MAX_BODY // 1024} KB")
        chunks.append(chunk)
    return api.read_body(b"".join(chunks))


def create_app(max_time=30.0, workers=2, queue=None, hosts=None):
    """The application: `workers` worker processes for the long commands, at
    most `queue` (default: as many as workers) waiting, engine time per
    request at most `max_time` seconds; `hosts` the Host names it answers
    (default: the loopback names; ["*"] any)."""
    pool = Pool(workers, workers if queue is None else queue, deadline=max_time * 2 + 10)

    async def index(request):
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def favicon(request):
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=SECURITY_HEADERS)

    async def games(request):
        return answer({"games": api.games(), "max_time": max_time, "workers": workers})

    async def style(request):
        return answer(api.style())

    async def quick(request):
        name = request.path_params["command"]
        try:
            body = await read_request(request)
            result = await run_in_threadpool(api.QUICK[name], body)
        except Exception as exc:
            error = api.error_of(exc)
            return refusal(error.status, error.message)
        return answer(result)

    async def long(request):
        name = request.path_params["command"]
        try:
            body = await read_request(request)
            args = await run_in_threadpool(api.LONG[name], body, max_time)
        except Exception as exc:
            error = api.error_of(exc)
            return refusal(error.status, error.message)
        return await run_long(request, name, args, lambda result: answer(result))

    async def svg(request):
        try:
            body = await read_request(request)
            task, args = await run_in_threadpool(api.svg_request, body, max_time)
            if task is None:
                picture = await run_in_threadpool(api.board_svg, body)
                return Response(picture, media_type="image/svg+xml", headers=SECURITY_HEADERS)
        except Exception as exc:
            error = api.error_of(exc)
            return refusal(error.status, error.message)
        return await run_long(request, task, args,
                              lambda picture: Response(picture, media_type="image/svg+xml", headers=SECURITY_HEADERS))

    async def run_long(request, task, args, respond):
        streaming = "text/event-stream" in request.headers.get("accept", "")
        progress = asyncio.Queue() if streaming else None
        try:
            job = pool.start(task, args, progress.put_nowait if streaming else None)
        except Busy as exc:
            return refusal(429, str(exc))
        if streaming:
            return StreamingResponse(events(job, progress), media_type="text/event-stream",
                                     headers={**SECURITY_HEADERS, "Cache-Control": "no-store"})
        gone = asyncio.ensure_future(disconnected(request))
        try:
            await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not job.done():              # the client hung up: nobody to answer
            job.cancel()
            return Response(status_code=499)
        try:
            return respond(job.result())
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

    def failure(exc):
        """(status, line) of a long job's failure."""
        if isinstance(exc, TooLong):
            return 503, (f"the answer took longer than this server allows ({pool.deadline:g} s for an engine "
                         f"time of at most {max_time:g} s, serve --max-time); give a smaller budget")
        if isinstance(exc, WorkerFailed):
            return 500, f"internal error: {exc}"
        if isinstance(exc, Cancelled):
            return 503, "the analysis was cancelled"
        error = api.error_of(exc)
        return error.status, error.message

    @contextlib.asynccontextmanager
    async def lifespan(app):
        pool.start_workers()
        try:
            yield
        finally:
            pool.close()

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/style", style, methods=["GET"]),
        Route("/api/svg", svg, methods=["POST"]),
        Route("/api/{command:str}", dispatch_for(quick, long), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts or LOOPBACK_HOSTS)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.pool = pool
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
