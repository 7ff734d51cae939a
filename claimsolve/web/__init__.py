"""The local analysis board and its JSON API (`claimsolve serve`).

    from claimsolve.web import create_app, serve
    serve(port=8150)                       # http://127.0.0.1:8150/

The page (static/) ships inside the package and loads nothing from
elsewhere; the API mirrors the commands (claimsolve.web.app, .api).
"""
import ipaddress
import json
import signal
import socket
import sys

from ..errors import ClaimsolveError
from .app import create_app

DEFAULT_PORT = 8150
STOP_TIMEOUT = 0.5       # seconds uvicorn waits for the connections when stopping (the app ends them sooner)


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host, port):
    """A listening socket on host:port (port 0: a free one); a port in use or
    a host that is not this machine's is a ClaimsolveError."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ClaimsolveError(f"option '--host': cannot listen on '{host}': {exc.strerror}") from None
    except UnicodeError:            # the idna codec: a label empty or past 63 characters
        raise ClaimsolveError(f"option '--host': cannot listen on {host[:60]!r}: not a host name (each part "
                              "between dots 1 to 63 characters)") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ClaimsolveError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve(host="127.0.0.1", port=DEFAULT_PORT, max_time=30.0, workers=2, announce=print, warn=None,
          as_json=False):
    """Serves the board and the API until interrupted (Ctrl-C).  `announce`
    gets the line saying where (with the real port when `port` is 0), or
    with `as_json` that as one JSON document ({"url", "host", "port",
    "workers", "max_time"}); `warn`, once the socket listens, the warning
    that a host other than loopback lets anyone who reaches the machine in
    (never said for a host that cannot be listened on)."""
    import uvicorn     # deferred: the server loads only to serve (create_app and its tests do without)

    sock = listen(host, port)
    if warn is not None and not is_loopback(host):
        warn(f"warning: listening on {host}: anyone who can reach this machine can use "
             "the board and its engines (no login)")
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    hosts = None if is_loopback(host) else ["*"]
    app = create_app(max_time=max_time, workers=workers, hosts=hosts)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=STOP_TIMEOUT)
    server = _server_class(uvicorn, app)(config)
    url = f"http://{shown}:{bound}/"
    if as_json:
        announce(json.dumps({"url": url, "host": host, "port": bound, "workers": workers, "max_time": max_time}))
    else:
        announce(f"claimsolve serve: the analysis board is at {url} "
                 f"({workers} worker{'s' if workers != 1 else ''}, at most {max_time:g} s a request; Ctrl-C stops)")
    sys.stdout.flush()
    server.run(sockets=[sock])


def _server_class(uvicorn, app):
    """uvicorn's Server, except that
    - a process started with SIGINT ignored (`nohup`, a script's background
      job) keeps ignoring it, as every other command does (uvicorn answers
      SIGINT and SIGTERM alike, whatever the process had);
    - a stop ends whatever is in flight at once, before uvicorn waits for
      the connections to close: the app's workers are killed and every
      request answered or ended (claimsolve.web.app, stop()), so that the
      server is gone within a second, with no traceback."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            if sig == signal.SIGINT and ignored:
                return
            app.state.stopping()
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets=None):
            app.state.stop()
            await super().shutdown(sockets=sockets)

    return Server
