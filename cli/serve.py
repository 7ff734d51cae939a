"""`claimsolve serve`: the analysis board in the browser and its JSON API
(claimsolve.web)."""
import click

from claimsolve import limits
from claimsolve.cli.framework import error_line
from claimsolve.cli.options import SECONDS, Checked, Command, json_option


@click.command(cls=Command)
@click.option("--port", type=Checked(lambda value, name: limits.integer(value, name, 0, 65535), "port"),
              default=8150, show_default=True, help="Port to listen on (0: a free one, printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but this machine's loopback is warned about.")
@click.option("--max-time", "max_time", type=SECONDS, default=30.0, show_default=True,
              help="Most engine seconds one request may ask for.")
@click.option("--workers", type=Checked(limits.threads, "n"), default=2, show_default=True,
              help="Analyses run at once, each in its own process (a few more wait; more are refused).")
@json_option
def serve(port, host, max_time, workers, as_json):
    """The analysis board in the browser, and its JSON API under /api/.
    With --json, where it listens is one JSON document on standard output
    ({"url", "host", "port", "workers", "max_time"}), for a script that
    starts it on --port 0."""
    from claimsolve import web     # deferred: start-up (starlette, uvicorn)

    web.serve(host=host, port=port, max_time=max_time, workers=workers, announce=click.echo,
              warn=lambda line: click.echo(error_line(line), err=True), as_json=as_json)
