"""The `claimsolve` command: a thin click front end over the claimsolve
package (the commands: docs/tour.md, docs/cli.md and `claimsolve COMMAND
--help`).  Every command reads positions with claimsolve.load, does its
work through a library function and prints text for people or, with
--json, one JSON document.  Bad input: one line on stderr naming the file
and the field or move, exit code 2.

This module is the entry point (pyproject's `claimsolve` script, `python
-m claimsolve.cli.main`): the group `claimsolve` and its commands.  How a
command runs (errors, Ctrl-C, output, budgets) is cli/framework.py, what
commands are built with cli/options.py, the commands the topic modules:
cli/positions.py (new, show, moves, apply, perft), analyze.py (solve,
odds, analyze), review.py, match.py, play.py, serve.py, study.py,
learn.py (train)."""
from claimsolve.cli import startup

_SIGINT_BEFORE = startup.hold_ctrl_c()    # until the modules are loaded: Ctrl-C ends at once

# what loads after the hold (click, the library's modules): a Ctrl-C meanwhile is one line, 130
import click

import claimsolve
from claimsolve.cli.framework import CommandGroup
from claimsolve.cli.analyze import analyze, odds, solve
from claimsolve.cli.learn import train
from claimsolve.cli.match import match
from claimsolve.cli.play import play
from claimsolve.cli.positions import apply, moves, new, perft, show
from claimsolve.cli.review import review
from claimsolve.cli.serve import serve
from claimsolve.cli.study import study


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(claimsolve.__version__, prog_name="claimsolve")
def main():
    """Search and analysis for the Claim board games (listed below)."""


for _command in (new, show, moves, apply, perft, solve, odds, analyze, review, match, play, serve, study, train):
    main.add_command(_command)

startup.release_ctrl_c(_SIGINT_BEFORE)     # loaded: Ctrl-C is KeyboardInterrupt again (main: once)


if __name__ == "__main__":  # pragma: no cover
    main()
